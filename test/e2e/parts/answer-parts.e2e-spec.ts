/**
 * The parts of an answer (LOMAs, estimated BFE, nearby, map changes, CBRS) end to end: every demo place built
 * for them, looked up by lat/lon (and one by address), gives each part exactly as the demo map's construction
 * says (whole metres, feet to one decimal), `unavailable: []`, and null for every part that was not asked for.
 */
import { DEMO_PLACES, demoPlace, type DemoPlace } from '../../emulators';
import { type IncludeItem, NO_CACHE, RESULT_KEYS, Stack, addressQuery, expectedResult, pointQuery, startStack } from '../../support/stack';

/** The places built for these parts (demo-map.ts), each with its own part values. */
const ANSWER_PART_PLACE_IDS = [
  'houston-lomas',
  'houston-ah-one-bfe-line',
  'houston-nearby-hazards',
  'houston-nearby-inside-ae',
  'franklin-bfe-bracketed',
  'franklin-ae-static-bfe-near-line',
  'franklin-a-near-line',
  'ponce-bfe-meters',
  'charleston-preliminary-into-sfha',
  'charleston-pending-out-of-sfha',
  'charleston-preliminary-no-zone',
  'charleston-preliminary-unchanged',
  'charleston-no-coming-map',
  'fernandina-cbrs-system-unit',
  'fernandina-cbrs-opa',
  'fernandina-cbrs-buffer',
  'fernandina-cbrs-outside',
];
const ANSWER_PART_PLACES = ANSWER_PART_PLACE_IDS.map(demoPlace);

/** Every opt-in part the place pins down (nearby only where the demo map fixes it). */
const allIncludes = (place: DemoPlace): IncludeItem[] => (place.expect.nearby === undefined ? ['preliminary', 'cbrs'] : ['nearby', 'preliminary', 'cbrs']);

const withInclude = (place: DemoPlace, include: readonly string[], extra = '') => `${pointQuery(place)}&include=${include.join(',')}${extra}`;

/** A note is a sentence in the service's own words. */
const SENTENCE = /^[A-Z].*\S\.$/s;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ ...NO_CACHE });
});

afterAll(async () => {
  await stack?.close();
});

describe('the demo places built for the answer parts', () => {
  it('are all in the demo map, and the only places with LOMAs or an estimated BFE (besides the estimate the ground is compared with)', () => {
    expect(ANSWER_PART_PLACES.map((p) => p.id)).toEqual(ANSWER_PART_PLACE_IDS);
    expect(
      DEMO_PLACES.filter((p) => p.expect.lomas.length > 0 || p.expect.estimatedBaseFloodElevation !== null)
        .map((p) => p.id)
        .sort(),
    ).toEqual(['franklin-bfe-bracketed', 'houston-ah-one-bfe-line', 'houston-lomas', 'norfolk-ground-above-estimated-bfe', 'ponce-bfe-meters']);
  });
});

describe('GET /flood-zone?lat&lon without include: always-on parts only', () => {
  it.each(ANSWER_PART_PLACES.map((p) => [p.id, p] as const))('%s', async (_id, place) => {
    const res = await stack.get(pointQuery(place));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.result).sort()).toEqual(RESULT_KEYS);
    expect(res.body.result).toEqual(expectedResult(place));
    expect(res.body.result.lomas).toEqual(place.expect.lomas);
    expect(res.body.result).toMatchObject({ nearby: null, mapChange: null, coastalBarrier: null, unavailable: [] });
  });
});

describe('GET /flood-zone?lat&lon with every include the place pins down', () => {
  it.each(ANSWER_PART_PLACES.map((p) => [p.id, p] as const))('%s', async (_id, place) => {
    const include = allIncludes(place);
    const res = await stack.get(withInclude(place, include));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.result).sort()).toEqual(RESULT_KEYS);
    expect(res.body.result).toEqual(expectedResult(place, include));
    const { estimatedBaseFloodElevation, mapChange, coastalBarrier, nearby, unavailable } = res.body.result;
    expect(unavailable).toEqual([]);
    if (place.expect.nearby === undefined) expect(nearby).toBeNull();
    else expect(nearby).toEqual({ ...place.expect.nearby, note: expect.stringMatching(SENTENCE) });
    expect(mapChange).toEqual({ ...place.expect.mapChange, note: expect.stringMatching(SENTENCE) });
    expect(coastalBarrier).toEqual({ ...place.expect.coastalBarrier, note: expect.stringMatching(SENTENCE) });
    if (place.expect.estimatedBaseFloodElevation === null) expect(estimatedBaseFloodElevation).toBeNull();
    else {
      expect(estimatedBaseFloodElevation).toEqual({ ...place.expect.estimatedBaseFloodElevation, note: expect.stringMatching(SENTENCE) });
      // clearly labelled as an estimate, not an official BFE
      expect(estimatedBaseFloodElevation.note).toMatch(/estimate/i);
      expect(estimatedBaseFloodElevation.note).toMatch(/not an official/i);
    }
  });
});

describe('result.lomas: LOMAs within 100 m, nearest first', () => {
  it("lists the LOMAs within 100 m nearest first, with FEMA's status rule, and drops the one at 130 m", async () => {
    const place = demoPlace('houston-lomas');
    const res = await stack.get(pointQuery(place));
    expect(res.status).toBe(200);
    expect(res.body.result.lomas).toStrictEqual([
      {
        caseNumber: '15-06-1489A',
        effectiveDate: '2015-06-02',
        status: 'valid',
        outcome: 'Structure removed-Property partially inundated',
        category: 'LOMA',
        distanceM: 23,
      },
      {
        caseNumber: '09-06-0842A',
        effectiveDate: '2009-03-17',
        status: 'incorporated',
        outcome: 'Portion of property removed',
        category: 'LOMA',
        distanceM: 48,
      },
      { caseNumber: '18-06-2231A', effectiveDate: '2018-11-05', status: 'denied', outcome: 'Structure denied', category: 'LOMA', distanceM: 60 },
      { caseNumber: '12-06-1170A', effectiveDate: '2012-04-24', status: 'reevaluation_needed', outcome: 'Multiple', category: 'LOMA', distanceM: 72 },
      { caseNumber: '05-06-0390A', effectiveDate: '2005-08-01', status: 'superseded', outcome: 'Property out as shown', category: 'LOMR-F', distanceM: 85 },
      { caseNumber: '99-06-1002A', effectiveDate: null, status: 'contact_community', outcome: null, category: 'LOMA', distanceM: 95 },
    ]);
    // a LOMA never changes the zone of the queried point
    expect(res.body.result).toMatchObject({ floodZone: 'AE', inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 38 });
  });
});

describe('result.estimatedBaseFloodElevation: interpolated between the BFE lines around the point, or the nearest one', () => {
  it.each([
    [
      'franklin-bfe-bracketed',
      {
        elevationFt: 612.4,
        verticalDatum: 'NAVD88',
        method: 'interpolated',
        lines: [
          { elevationFt: 612, distanceM: 41 },
          { elevationFt: 613, distanceM: 62 },
        ],
      },
    ],
    [
      'ponce-bfe-meters',
      {
        elevationFt: 33.8,
        verticalDatum: 'PRVD02',
        method: 'interpolated',
        lines: [
          { elevationFt: 32.8, distanceM: 30 },
          { elevationFt: 36.1, distanceM: 70 },
        ],
      },
    ],
    ['houston-ah-one-bfe-line', { elevationFt: 47, verticalDatum: 'NAVD88', method: 'nearest_line', lines: [{ elevationFt: 47, distanceM: 120 }] }],
    ['norfolk-ground-above-estimated-bfe', { elevationFt: 8, verticalDatum: 'NAVD88', method: 'nearest_line', lines: [{ elevationFt: 8, distanceM: 100 }] }],
    ['franklin-ae-static-bfe-near-line', null],
    ['franklin-a-near-line', null],
  ] as const)('%s', async (id, expected) => {
    const res = await stack.get(pointQuery(demoPlace(id)));
    expect(res.status).toBe(200);
    expect(res.body.result.estimatedBaseFloodElevation).toEqual(expected === null ? null : { ...expected, note: expect.stringMatching(SENTENCE) });
    expect(res.body.result.unavailable).toEqual([]);
  });
});

describe('include=nearby and radius: the nearest SFHA, floodway and moderate zones', () => {
  const cases = ANSWER_PART_PLACES.filter((p) => p.expect.nearby !== undefined).flatMap((place) =>
    [place.expect.nearby, ...(place.expect.nearbyAtOtherRadii ?? [])].map((n) => [place.id, n?.radiusM, place] as const),
  );

  it.each(cases)('%s with radius=%d', async (_id, radius, place) => {
    const res = await stack.get(withInclude(place, ['nearby'], `&radius=${radius}`));
    expect(res.status).toBe(200);
    const expected = [place.expect.nearby, ...(place.expect.nearbyAtOtherRadii ?? [])].find((n) => n?.radiusM === radius);
    expect(res.body.result.nearby).toEqual({
      ...expected,
      note: `Distances to FEMA's digital flood map; a null entry means none of that kind lies within ${radius} m.`,
    });
    expect(res.body.result).toMatchObject({ mapChange: null, coastalBarrier: null, unavailable: [] });
  });

  it('uses 500 m when no radius is given', async () => {
    const place = demoPlace('houston-nearby-hazards');
    const res = await stack.get(withInclude(place, ['nearby']));
    expect(res.status).toBe(200);
    expect(res.body.result.nearby).toStrictEqual({
      radiusM: 500,
      sfha: { distanceM: 37, floodZone: 'AE', zoneSubtype: null, staticBaseFloodElevationFt: 12 },
      floodway: { distanceM: 120, floodZone: 'AE', zoneSubtype: 'FLOODWAY', staticBaseFloodElevationFt: null },
      moderate: { distanceM: 250, floodZone: 'X', zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', staticBaseFloodElevationFt: null },
      note: "Distances to FEMA's digital flood map; a null entry means none of that kind lies within 500 m.",
    });
  });

  it('gives 0 m for the SFHA polygon the point is in', async () => {
    const res = await stack.get(withInclude(demoPlace('houston-nearby-inside-ae'), ['nearby']));
    expect(res.status).toBe(200);
    expect(res.body.result.nearby.sfha).toStrictEqual({ distanceM: 0, floodZone: 'AE', zoneSubtype: null, staticBaseFloodElevationFt: 20 });
    expect(res.body.result.nearby.floodway).toBeNull();
  });
});

describe('include=preliminary (result.mapChange) and include=cbrs (result.coastalBarrier)', () => {
  it.each(ANSWER_PART_PLACES.filter((p) => p.id.startsWith('charleston-')).map((p) => [p.id, p] as const))('%s: mapChange', async (_id, place) => {
    const res = await stack.get(withInclude(place, ['preliminary']));
    expect(res.status).toBe(200);
    expect(res.body.result.mapChange).toEqual({ ...place.expect.mapChange, note: expect.stringMatching(SENTENCE) });
    expect(res.body.result).toMatchObject({ nearby: null, coastalBarrier: null, unavailable: [] });
  });

  it.each(ANSWER_PART_PLACES.filter((p) => p.id.startsWith('fernandina-')).map((p) => [p.id, p] as const))('%s: coastalBarrier', async (_id, place) => {
    const res = await stack.get(withInclude(place, ['cbrs']));
    expect(res.status).toBe(200);
    expect(res.body.result.coastalBarrier).toEqual({ ...place.expect.coastalBarrier, note: expect.stringMatching(SENTENCE) });
    expect(res.body.result).toMatchObject({ nearby: null, mapChange: null, unavailable: [] });
  });

  it.each([
    ['dc-white-house-ae', 'unchanged'],
    ['houston-gap', 'unchanged'],
    // no digital map here either: whether anything changes is unknown
    ['mount-vernon-unmapped', 'unknown'],
  ])('%s (a place built before these parts): no coming map (SFHA change %s), outside CBRS', async (id, sfhaChange) => {
    const place = demoPlace(id);
    const res = await stack.get(withInclude(place, ['cbrs', 'preliminary']));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(expectedResult(place, ['preliminary', 'cbrs']));
    expect(res.body.result.mapChange).toMatchObject({ status: 'none', issuedDate: null, floodZone: null, sfhaChange });
    expect(res.body.result.coastalBarrier).toMatchObject({ status: 'outside', unit: null, type: null, floodInsuranceProhibitionDate: null });
  });
});

describe('the address form', () => {
  it('answers every part for the LOMA place found by its address', async () => {
    const place = demoPlace('houston-lomas');
    const res = await stack.get(`${addressQuery(place.address as string)}&include=cbrs,preliminary`);
    expect(res.status).toBe(200);
    expect(res.body.query).toStrictEqual({ address: place.address, lat: null, lon: null });
    expect(res.body.location).toMatchObject({ lat: place.lat, lon: place.lon, source: 'census_geocoder', countyFips: '48201' });
    expect(res.body.result).toEqual(expectedResult(place, ['preliminary', 'cbrs']));
    expect(res.body.result.lomas.map((l: { distanceM: number }) => l.distanceM)).toEqual([23, 48, 60, 72, 85, 95]);
  });
});
