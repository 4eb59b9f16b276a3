import CheapRuler from 'cheap-ruler';
import type { CbrsProhibitionAttributes, LomrAttributes, PoliticalJurisdictionAttributes } from '../flood-hazard/flood-hazard.types';
import type { Footprint } from '../parts/structure/structure.types';
import { coastalBarrierOverFootprint, communityOverFootprint, lomaEnvelopeOf, lomrsOverFootprint } from './building-site';

const CENTRE = { lon: -95.43, lat: 29.7 };
const ruler = new CheapRuler(CENTRE.lat, 'meters');

/** [lon, lat] `eastM` east and `northM` north of the centre. */
const at = (eastM: number, northM: number) => ruler.offset([CENTRE.lon, CENTRE.lat], eastM, northM) as [number, number];

/** A rectangle from `west` to `east` and `south` to `north` metres about the centre, as one clockwise ring (as ArcGIS keeps an outer ring). */
function rectangle(west: number, south: number, east: number, north: number): number[][] {
  return [at(west, south), at(west, north), at(east, north), at(east, south), at(west, south)];
}

/** The building: 20 m square around the centre. */
const FOOTPRINT: Footprint = { type: 'Polygon', coordinates: [rectangle(-10, -10, 10, 10) as Array<[number, number]>] };

/** A polygon covering the footprint east of `fromEastM` (the whole of it for -10 or less, none of it for 10 or more). */
const eastOf = (fromEastM: number) => ({ rings: [rectangle(fromEastM, -500, 500, 500)] });

const unit = (Unit: string, CBRS_Type: string, FI_Date: string, rings: number[][][]) => ({
  attributes: { Unit, CBRS_Type, FI_Date } as CbrsProhibitionAttributes,
  rings,
});
const OPA = (fromEastM: number) => unit('FL-64P', 'Otherwise Protected Area', '11/16/1990', eastOf(fromEastM).rings);
const SYSTEM_UNIT = (fromEastM: number) => unit('FL-05', 'System Unit', '1983-10-01', eastOf(fromEastM).rings);

const INSIDE_OPA = { status: 'inside', unit: 'FL-64P', type: 'Otherwise Protected Area', floodInsuranceProhibitionDate: '1990-11-16' };
const BUFFER = { status: 'buffer', unit: null, type: null, floodInsuranceProhibitionDate: null };
const OUTSIDE = { status: 'outside', unit: null, type: null, floodInsuranceProhibitionDate: null };

describe('coastalBarrierOverFootprint: inside when any part of the footprint lies in a unit, buffer when any part lies in a buffer zone and none inside', () => {
  it.each([
    ['wholly in an OPA', [OPA(-100)], [], INSIDE_OPA],
    ['5 m of its 20 m in an OPA', [OPA(5)], [], INSIDE_OPA],
    ['in an OPA and its buffer zone', [OPA(5)], [eastOf(-100)], INSIDE_OPA],
    ['partly in a buffer zone, in no unit', [], [eastOf(8)], BUFFER],
    ['a unit and a buffer zone that only touch its east edge', [OPA(10)], [eastOf(10)], OUTSIDE],
    ['a unit over less than 0.1 m² of it (a digitising sliver)', [OPA(9.999)], [], OUTSIDE],
    ['a unit and a buffer zone beside it, not on it', [OPA(30)], [eastOf(30)], OUTSIDE],
    ['nothing near', [], [], OUTSIDE],
  ] as const)('%s', (_what, prohibitions, buffers, status) => {
    expect(coastalBarrierOverFootprint(FOOTPRINT, { prohibitions: [...prohibitions], buffers: [...buffers] })).toEqual(status);
  });

  it('several units over it: chosen as at a point (a System Unit before an OPA), whichever covers more of it', () => {
    expect(coastalBarrierOverFootprint(FOOTPRINT, { prohibitions: [OPA(-100), SYSTEM_UNIT(9)], buffers: [] })).toEqual({
      status: 'inside',
      unit: 'FL-05',
      type: 'System Unit',
      floodInsuranceProhibitionDate: '1983-10-01',
    });
  });
});

describe('communityOverFootprint: the community covering the largest share of the footprint; ambiguous on a tie to the tenth of a percent', () => {
  const jurisdiction = (POL_NAME1: string, CID: string, rings: number[][][]) => ({ attributes: { POL_NAME1, CID } as PoliticalJurisdictionAttributes, rings });
  const houston = (westOfEastM: number) => jurisdiction('City of Houston', '480296', [rectangle(-500, -500, westOfEastM, 500)]);
  const harris = (fromEastM: number) => jurisdiction('Harris County', '480287', eastOf(fromEastM).rings);
  /** Houston west of `westOfEastM` kept by FEMA as two polygons, north and south of the footprint's middle. */
  const houstonInTwo = (westOfEastM: number) => [
    jurisdiction('City of Houston', '480296', [rectangle(-500, 0, westOfEastM, 500)]),
    jurisdiction('City of Houston', '480296', [rectangle(-500, -500, westOfEastM, 0)]),
  ];
  const HOUSTON = { name: 'City of Houston', communityId: '480296' };
  const HARRIS = { name: 'Harris County', communityId: '480287' };

  it.each([
    ['14 m of 20 in Harris County', [houston(-4), harris(-4)], HARRIS],
    ['6 m of 20 in Harris County', [houston(4), harris(4)], HOUSTON],
    ['in the order FEMA listed them, the larger share still', [harris(4), houston(4)], HOUSTON],
    ['half and half: ambiguous, in the order FEMA listed them', [harris(0), houston(0)], { ambiguousAmong: [HARRIS, HOUSTON] }],
    ['half and half within rounding (50.02% and 49.98%): ambiguous', [houston(0.004), harris(0.004)], { ambiguousAmong: [HOUSTON, HARRIS] }],
    ['50.5% and 49.5%: told apart', [houston(0.1), harris(0.1)], HOUSTON],
    ['two jurisdictions FEMA overlaps over all of it: ambiguous', [houston(500), harris(-500)], { ambiguousAmong: [HOUSTON, HARRIS] }],
    ['overlapping over part of it: the one over all of it', [houston(500), harris(4)], HOUSTON],
    ['one community in two polygons (30% and 30%) against 40%: their sum decides', [...houstonInTwo(2), harris(2)], HOUSTON],
    ['one community in two polygons over the same ground: one community, not a tie', [houston(500), houston(500)], HOUSTON],
    ['one over a part of it only, nothing else: that one', [harris(6)], HARRIS],
    ['one beside it only', [harris(30)], null],
    ['none', [], null],
  ] as const)('%s', (_what, jurisdictions, community) => {
    expect(communityOverFootprint(FOOTPRINT, [...jurisdictions])).toEqual(community);
  });
});

describe('lomrsOverFootprint: the effective LOMRs whose area covers any part of the footprint, newest first', () => {
  const lomr = (CASE_NO: string, effective: string, STATUS: string, fromEastM: number) => ({
    attributes: { CASE_NO, EFF_DATE: Date.parse(`${effective}T00:00:00Z`), STATUS } as LomrAttributes,
    rings: eastOf(fromEastM).rings,
  });

  it('keeps those over it, effective ones only, newest first, each case once', () => {
    expect(
      lomrsOverFootprint(FOOTPRINT, [
        lomr('12-06-0456P', '2012-06-01', 'Effective', -100),
        lomr('19-06-0123P', '2020-02-14', 'Effective', 5),
        lomr('19-06-0123P', '2020-02-14', 'Effective', 5),
        lomr('08-06-0789P', '2008-05-15', 'Superseded', -100),
        lomr('21-06-0001P', '2021-01-01', 'Effective', 30),
      ]),
    ).toEqual([
      { caseNumber: '19-06-0123P', effectiveDate: '2020-02-14' },
      { caseNumber: '12-06-0456P', effectiveDate: '2012-06-01' },
    ]);
    expect(lomrsOverFootprint(FOOTPRINT, [])).toEqual([]);
  });
});

describe("lomaEnvelopeOf: where the LOMAs that may concern the building are read, when the point's do not reach them", () => {
  const square = (eastM: number, sideM: number): Footprint => {
    const half = sideM / 2;
    return { type: 'Polygon', coordinates: [rectangle(eastM - half, -half, eastM + half, half) as Array<[number, number]>] };
  };

  it.each([
    ['around the point', square(0, 20), null],
    ['its far corner 56 m off: within 30 m of it lies within the 100 m read around the point', square(45, 20), null],
    ['its far corner 76 m off', square(65, 20), 'read'],
    ['a kilometre off', square(1000, 20), 'read'],
  ] as const)('a footprint %s', (_what, footprint, read) => {
    const envelope = lomaEnvelopeOf(footprint, CENTRE);
    if (read === null) {
      expect(envelope).toBeNull();
      return;
    }
    const [west, south, east, north] = envelope!;
    const outer = (footprint.coordinates[0] as Array<[number, number]>).map(([lon]) => lon);
    // the footprint's box grown by 30 m every way
    expect(ruler.distance([west, CENTRE.lat], [Math.min(...outer), CENTRE.lat])).toBeCloseTo(30, 1);
    expect(ruler.distance([east, CENTRE.lat], [Math.max(...outer), CENTRE.lat])).toBeCloseTo(30, 1);
    expect(ruler.distance([CENTRE.lon, south], [CENTRE.lon, at(0, -10)[1]])).toBeCloseTo(30, 1);
    expect(ruler.distance([CENTRE.lon, north], [CENTRE.lon, at(0, 10)[1]])).toBeCloseTo(30, 1);
  });
});
