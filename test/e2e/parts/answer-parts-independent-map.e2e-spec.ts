/**
 * The parts of an answer (LOMAs, estimated BFE, nearby, map changes, CBRS) as an independent checker would
 * test them: the real app against emulators that serve a map the service has never seen
 * (support/independent-places.ts: other states, DFIRM ids, layer ids and FEMA's real field oddities).
 * Expected values are worked out by hand from the rules in docs/api.md; distances are measured with
 * Vincenty's formulae on the WGS84 ellipsoid (support/vincenty.ts) and compared to ±1 m, elevations to
 * ±0.1 ft. Then faults on every layer and service of those parts (one page of a paged answer too), the
 * emulators' call counts after each case, and the `include` and `radius` parameter rules.
 */
import type { CallRecord, Fault, StartEmulatorsOptions } from '../../emulators';
import type { ApiResponse } from '../../support/api-client';
import { FAST_FAULTS, Stack, expectErrorEnvelope, startStack } from '../../support/stack';
import {
  LEVEE,
  MINIMAL,
  SHADED,
  SHALLOW,
  akFloodway,
  akL1,
  akL2,
  akModerate,
  alL1,
  at,
  hiL1,
  hiL2,
  holeAe,
  holeCircle,
  holeFloodway,
  laFloodway,
  laL1,
  laL2,
  laLevee,
  laLomas,
  manyModerate,
  manyNearest,
  map,
  ncL1,
  ncL2,
  npLine,
  pagedFloodway,
  pagedL1,
  pagedL2,
  pagedLomas,
  pagedModerate,
  query,
} from '../support/independent-places';
import { LonLat, geodesicMetres, metresToPaths, metresToPolygon } from '../support/vincenty';

// ---------------------------------------------------------------------------------------------
// Tolerant numbers: distances ±1 m, elevations ±0.1 ft (the "How it will be checked")
// ---------------------------------------------------------------------------------------------

expect.extend({
  toBeNear(received: unknown, expected: number, tolerance: number) {
    const pass = typeof received === 'number' && Math.abs(received - expected) <= tolerance;
    return { pass, message: () => `expected ${String(received)} to be within ${tolerance} of ${expected}` };
  },
  toHaveOneDecimal(received: unknown) {
    const pass = typeof received === 'number' && Math.abs(received * 10 - Math.round(received * 10)) < 1e-9;
    return { pass, message: () => `expected ${String(received)} to have at most one decimal` };
  },
});
declare global {
  // Jest's own matcher types are declared in this namespace; custom matchers must extend it there.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Expect {
      toBeNear(expected: number, tolerance: number): unknown;
    }
    interface Matchers<R> {
      toHaveOneDecimal(): R;
    }
  }
}

const metres = (exact: number) => expect.toBeNear(exact, 1);
const feet = (exact: number) => expect.toBeNear(exact, 0.1);
const FEET_PER_METRE = 1 / 0.3048;
/** "note is always a sentence". */
const SENTENCE = expect.stringMatching(/^[A-Z].*\S\.$/s);

const polygonM = (p: LonLat, feature: { rings?: number[][][] }) => metresToPolygon(p, feature.rings as LonLat[][]);
const lineM = (p: LonLat, feature: { paths?: number[][][] }) => metresToPaths(p, feature.paths as LonLat[][]);

/** Every distanceM and elevationFt of a part is a whole number of metres / feet to one decimal. */
function expectRounded(part: unknown): void {
  JSON.stringify(part, (key, value: unknown) => {
    if (key === 'distanceM') expect(Number.isInteger(value)).toBe(true);
    if (key === 'elevationFt' || key === 'staticBaseFloodElevationFt') {
      if (value !== null) expect(value).toHaveOneDecimal();
    }
    return value;
  });
}

// ---------------------------------------------------------------------------------------------
// What each part should say about the places, worked out by hand
// ---------------------------------------------------------------------------------------------

const emulatorOptions = (extra: { nfhl?: Record<string, unknown> } = {}): StartEmulatorsOptions => ({
  nfhl: { map: map.nfhl, ...extra.nfhl },
  census: { map: map.nfhl },
  preliminary: { data: map.preliminary },
  pending: { data: map.pending },
  cbrs: { data: map.cbrs },
});

/** 10.1 at `la` from point `p`: the LOMAs within 100 m, nearest first, with FEMA's renderer status. */
const LA_LOMA_VALUES: Record<string, { effectiveDate: string | null; status: string; outcome: string | null; category: string | null }> = {
  '19-06-1234A': { effectiveDate: '2019-03-14', status: 'denied', outcome: 'structure DENIED', category: 'LOMA' },
  '20-06-0456A': { effectiveDate: '2020-07-01', status: 'superseded', outcome: 'Property out as shown', category: 'LOMR-F' },
  '12-06-0789A': { effectiveDate: '2012-01-09', status: 'denied', outcome: 'PORTION OF PROPERTY DENIED AND IN FLOODWAY', category: 'LOMA' },
  '15-06-1111A': { effectiveDate: null, status: 'contact_community', outcome: 'Structure removed-Property partially inundated', category: 'LOMA' },
  '16-06-2222A': { effectiveDate: null, status: 'reevaluation_needed', outcome: null, category: null },
  '17-06-3333A': { effectiveDate: '2017-10-02', status: 'incorporated', outcome: 'Multiple', category: 'LOMR-FW' },
  '18-06-4444A': { effectiveDate: '2018-05-30', status: 'denied', outcome: 'Denied-In Floodway', category: 'LOMA' },
  // inner double space: not "structure denied" once trimmed and lower-cased, so valid
  '21-06-5555A': { effectiveDate: '2021-12-31', status: 'valid', outcome: 'Structure  denied', category: 'LOMR-VZ' },
  '22-06-6666A': { effectiveDate: '2022-02-02', status: 'valid', outcome: 'Property out as shown', category: 'LOMA' },
  '23-06-7777A': { effectiveDate: '2023-03-03', status: 'valid', outcome: 'Property out as shown', category: 'LOMA' },
};

/** Where the map put a LOMA (its point feature). */
const lomaPoint = (caseNumber: string) => map.nfhl.nfhl.lomas.find((f) => f.attributes.CASENUMBER === caseNumber)?.point as LonLat;

function laLomasFrom(p: LonLat) {
  return Object.keys(laLomas)
    .map((caseNumber) => ({ caseNumber, exact: geodesicMetres(p, lomaPoint(caseNumber)) }))
    .filter(({ exact }) => exact <= 100)
    .sort((a, b) => a.exact - b.exact)
    .map(({ caseNumber, exact }) => ({ caseNumber, ...LA_LOMA_VALUES[caseNumber], distanceM: metres(exact) }));
}

/** 10.2 interpolated: E1 + (E2 − E1)·d1/(d1 + d2), elevations in feet. */
function interpolated(p: LonLat, l1: { paths?: number[][][] }, e1Ft: number, l2: { paths?: number[][][] }, e2Ft: number, datum: string | null) {
  const d1 = lineM(p, l1);
  const d2 = lineM(p, l2);
  return {
    elevationFt: feet(e1Ft + ((e2Ft - e1Ft) * d1) / (d1 + d2)),
    verticalDatum: datum,
    method: 'interpolated',
    lines: [
      { elevationFt: feet(e1Ft), distanceM: metres(d1) },
      { elevationFt: feet(e2Ft), distanceM: metres(d2) },
    ],
    note: expect.stringMatching(/estimate/i),
  };
}
function nearestLine(p: LonLat, l1: { paths?: number[][][] }, e1Ft: number, datum: string | null) {
  return {
    elevationFt: feet(e1Ft),
    verticalDatum: datum,
    method: 'nearest_line',
    lines: [{ elevationFt: feet(e1Ft), distanceM: metres(lineM(p, l1)) }],
    note: expect.stringMatching(/estimate/i),
  };
}

const hazard = (distance: number, floodZone: string, zoneSubtype: string | null, staticBaseFloodElevationFt: unknown = null) => ({
  distanceM: distance === 0 ? 0 : metres(distance),
  floodZone,
  zoneSubtype,
  staticBaseFloodElevationFt,
});

const NO_MAP_CHANGE = {
  status: 'none',
  issuedDate: null,
  floodZone: null,
  zoneSubtype: null,
  inSpecialFloodHazardArea: null,
  staticBaseFloodElevationFt: null,
  sfhaChange: 'unchanged',
  note: SENTENCE,
};
const cbrsInside = (unit: string, type: string, date: string) => ({ status: 'inside', unit, type, floodInsuranceProhibitionDate: date, note: SENTENCE });
const cbrsNone = (status: 'buffer' | 'outside') => ({ status, unit: null, type: null, floodInsuranceProhibitionDate: null, note: SENTENCE });

/** The parts at `la` (seen from `p`, which may be moved by a few decimetres) with every include. */
function laParts(p: LonLat) {
  return {
    lomas: laLomasFrom(p),
    estimatedBaseFloodElevation: interpolated(p, laL1, 4, laL2, 6, 'NAVD88'),
    nearby: {
      radiusM: 500,
      sfha: hazard(0, 'AE', null),
      floodway: hazard(polygonM(p, laFloodway), 'AE', 'FLOODWAY'),
      moderate: hazard(polygonM(p, laLevee), 'X', LEVEE),
      note: SENTENCE,
    },
    mapChange: {
      status: 'preliminary',
      issuedDate: '2025-05-15',
      floodZone: 'X',
      zoneSubtype: SHADED,
      inSpecialFloodHazardArea: false,
      staticBaseFloodElevationFt: null,
      sfhaChange: 'out_of_sfha',
      note: SENTENCE,
    },
    coastalBarrier: cbrsInside('LA-09P', 'Otherwise Protected Area', '1990-11-16'),
    unavailable: [],
  };
}

const ALL = '&include=nearby,preliminary,cbrs';
/** Fast failures, but answers cached as by default, so an incomplete answer's max-age shows. */
const CACHED = { CACHE_TTL_SECONDS: '86400', GEOCODE_CACHE_TTL_SECONDS: '604800' };
const maxAgeOf = (res: ApiResponse) => Number(/^public, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
/** A point `steps` millionths of a degree east of `p` (about 0.1 m each). */
const east = (p: LonLat, steps: number): LonLat => [Math.round((p[0] + steps * 1e-6) * 1e6) / 1e6, p[1]];

// ---------------------------------------------------------------------------------------------

describe('the independent map, value by value (LOMAs, estimated BFE, nearby, map changes, CBRS)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({}, emulatorOptions());
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('Louisiana: every part, and the zone fields beside them', async () => {
    const res = await stack.get(query(at.la, ALL));
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      coverage: 'mapped',
      floodZone: 'AE',
      zoneSubtype: null,
      staticBaseFloodElevationFt: null,
      verticalDatum: 'NAVD88',
      firmPanel: { panel: '22051C0105F', panelNumber: '0105', suffix: 'F', effectiveDate: '2008-02-20', panelType: 'Countywide, Panel Printed' },
      community: { name: 'Jefferson Parish', communityId: '225199' },
      lomrs: [],
      ...laParts(at.la),
    });
    expect(res.body.result.lomas).toHaveLength(8);
    expectRounded(res.body.result);
  });

  it('LOMAs: FEMA renderer status from OUTCOME / REVAL_STAT with odd case and spaces; 9999-09-09 and null dates; blanks null; 100 m cut', async () => {
    const res = await stack.get(query(at.la));
    expect(res.body.result.lomas).toEqual(laLomasFrom(at.la));
    expect(res.body.result.lomas.map((l: { caseNumber: string }) => l.caseNumber)).toEqual([
      '19-06-1234A',
      '20-06-0456A',
      '12-06-0789A',
      '15-06-1111A',
      '16-06-2222A',
      '17-06-3333A',
      '18-06-4444A',
      '21-06-5555A',
    ]);
  });

  it('a LOMA never changes the zone of the point (a denied one 20 m away, valid ones around)', async () => {
    const res = await stack.get(query(at.la));
    expect(res.body.result).toMatchObject({
      floodZone: 'AE',
      inSpecialFloodHazardArea: true,
      zonesAtPoint: [{ floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: null }],
    });
  });

  describe('estimated BFE (10.2)', () => {
    it('Louisiana: bracketed by the nearest line and the nearest other-side line, past ELEV -1 and 0, another DFIRM, the same ELEV, another datum and a same-side line', async () => {
      const res = await stack.get(query(at.la));
      expect(res.body.result.estimatedBaseFloodElevation).toEqual(interpolated(at.la, laL1, 4, laL2, 6, 'NAVD88'));
    });

    it('Alaska (AH, lines in metres): interpolated, converted to feet; a Feet line is not the same LEN_UNIT', async () => {
      const res = await stack.get(query(at.ak));
      expect(res.body.result).toMatchObject({ floodZone: 'AH', staticBaseFloodElevationFt: null });
      expect(res.body.result.estimatedBaseFloodElevation).toEqual(interpolated(at.ak, akL1, 132 * FEET_PER_METRE, akL2, 133 * FEET_PER_METRE, 'NAVD88'));
      expectRounded(res.body.result.estimatedBaseFloodElevation);
    });

    it('Hawaii: LOCAL TIDAL DATUM lines interpolate among themselves; an MSL line between does not', async () => {
      const res = await stack.get(query(at.hi));
      expect(res.body.result.estimatedBaseFloodElevation).toEqual(interpolated(at.hi, hiL1, 53, hiL2, 55, 'LOCAL TIDAL DATUM'));
    });

    it('Alabama (AE floodway): the other side is NGVD29, the nearest line "NAVD29": never mixed, so nearest_line with the published datum', async () => {
      const res = await stack.get(query(at.al));
      expect(res.body.result).toMatchObject({ floodZone: 'AE', zoneSubtype: 'FLOODWAY', isFloodway: true });
      expect(res.body.result.estimatedBaseFloodElevation).toEqual(nearestLine(at.al, alL1, 613, 'NAVD29'));
    });

    it('North Carolina: "U.S. Survey Feet" lines bracket each other; the Feet line between is another LEN_UNIT', async () => {
      const res = await stack.get(query(at.nc));
      expect(res.body.result.estimatedBaseFloodElevation).toEqual(interpolated(at.nc, ncL1, 712, ncL2, 714, 'NAVD88'));
    });

    it('a line with LEN_UNIT "NP" is a line like any other (ELEV > 0, same DFIRM, within 300 m): nearest_line at 15 m, not the Feet line at 50 m', async () => {
      const res = await stack.get(query(at.np));
      expect(res.body.result.estimatedBaseFloodElevation).toEqual(nearestLine(at.np, npLine, 68, 'NAVD88'));
    });

    it('West Virginia: only ELEV 0, another DFIRM and a line 310 m away: null, and not unavailable', async () => {
      const res = await stack.get(query(at.wv));
      expect(res.body.result).toMatchObject({ floodZone: 'AE', estimatedBaseFloodElevation: null, unavailable: [] });
    });

    it('a printed static BFE: null, even with a BFE line 30 m away', async () => {
      const res = await stack.get(query(at.staticBfe));
      expect(res.body.result).toMatchObject({ floodZone: 'AE', staticBaseFloodElevationFt: 12, estimatedBaseFloodElevation: null, unavailable: [] });
    });
  });

  describe('nearby (11.1)', () => {
    it('Louisiana, default radius: inside the AE (0); floodway; the levee X nearer than the 0.2 PCT X; OPEN WATER and minimal X ignored', async () => {
      const res = await stack.get(query(at.la, '&include=nearby'));
      expect(res.body.result.nearby).toEqual(laParts(at.la).nearby);
    });

    it('Lafourche: the point in the hole of an AE polygon (30 m to the hole edge), a two-ring floodway, a 4000-vertex moderate zone; an X row with SFHA_TF "T" is not an SFHA', async () => {
      const res = await stack.get(query(at.hole, '&include=nearby'));
      expect(res.body.result).toMatchObject({ floodZone: 'X', zoneSubtype: MINIMAL, inSpecialFloodHazardArea: false, riskLevel: 'minimal' });
      expect(res.body.result.nearby).toEqual({
        radiusM: 500,
        sfha: hazard(polygonM(at.hole, holeAe), 'AE', null),
        floodway: hazard(polygonM(at.hole, holeFloodway), 'AE', 'FLOODWAY', 7),
        moderate: hazard(polygonM(at.hole, holeCircle), 'X', SHALLOW),
        note: SENTENCE,
      });
      // the reference distances are what the map was built for
      expect([polygonM(at.hole, holeAe), polygonM(at.hole, holeFloodway), polygonM(at.hole, holeCircle)].map(Math.round)).toEqual([30, 120, 300]);
    });

    it('Alaska, radius 2000: hazards 1.5 and 1.8 km away at 65° N, a metre static BFE in feet; the B zone 2.1 km away (in the envelope corner) is not', async () => {
      const res = await stack.get(query(at.ak, '&include=nearby&radius=2000'));
      expect(res.body.result.nearby).toEqual({
        radiusM: 2000,
        sfha: hazard(0, 'AH', null),
        floodway: hazard(polygonM(at.ak, akFloodway), 'AE', 'FLOODWAY', feet(140 * FEET_PER_METRE)),
        moderate: hazard(polygonM(at.ak, akModerate), 'X', SHADED),
        note: SENTENCE,
      });
      expectRounded(res.body.result.nearby);
    });

    it('Alaska, radius 1000 and the default 500: only the AH at the point', async () => {
      for (const [extra, radiusM] of [
        ['&radius=1000', 1000],
        ['', 500],
      ] as const) {
        const res = await stack.get(query(at.ak, `&include=nearby${extra}`));
        expect(res.body.result.nearby).toEqual({ radiusM, sfha: hazard(0, 'AH', null), floodway: null, moderate: null, note: SENTENCE });
      }
    });
  });

  describe('map change (11.2), from services whose layers sit at other ids', () => {
    it.each([
      ['Louisiana: preliminary shaded X over an effective AE → out_of_sfha', at.la, laParts(at.la).mapChange],
      [
        'Lafourche: pending AE (3 m = 9.8 ft) wins over preliminary VE; effective X → into_sfha',
        at.hole,
        {
          status: 'pending',
          issuedDate: '2025-01-30',
          floodZone: 'AE',
          zoneSubtype: null,
          inSpecialFloodHazardArea: true,
          staticBaseFloodElevationFt: 9.8,
          sfhaChange: 'into_sfha',
          note: SENTENCE,
        },
      ],
      [
        'Alabama: pending X and AE floodway at the point, the floodway governs; effective AE → unchanged',
        at.al,
        {
          status: 'pending',
          issuedDate: '2024-11-20',
          floodZone: 'AE',
          zoneSubtype: 'FLOODWAY',
          inSpecialFloodHazardArea: true,
          staticBaseFloodElevationFt: 615,
          sfhaChange: 'unchanged',
          note: SENTENCE,
        },
      ],
      [
        'Alaska: preliminary availability without zones → zone fields null, unknown',
        at.ak,
        {
          status: 'preliminary',
          issuedDate: '2023-08-31',
          floodZone: null,
          zoneSubtype: null,
          inSpecialFloodHazardArea: null,
          staticBaseFloodElevationFt: null,
          sfhaChange: 'unknown',
          note: SENTENCE,
        },
      ],
      [
        'New Orleans: effective open water only (no zone) and a preliminary AE → unknown',
        at.noZone,
        {
          status: 'preliminary',
          issuedDate: '2024-02-29',
          floodZone: 'AE',
          zoneSubtype: null,
          inSpecialFloodHazardArea: true,
          staticBaseFloodElevationFt: 11,
          sfhaChange: 'unknown',
          note: SENTENCE,
        },
      ],
      ['Hawaii: no coming map → none, unchanged', at.hi, NO_MAP_CHANGE],
    ])('%s', async (_what, p, expected) => {
      const res = await stack.get(query(p, '&include=preliminary'));
      expect(res.status).toBe(200);
      expect(res.body.result.mapChange).toEqual(expected);
      expect(res.body.result.unavailable).toEqual([]);
    });
  });

  describe('coastal barrier (11.3), FI_Date in every form', () => {
    it.each([
      ['System Unit, epoch ms at 05:00 UTC', at.hole, cbrsInside('LA-07', 'System Unit', '1990-11-16')],
      ['System Unit, epoch ms at midnight UTC', at.al, cbrsInside('AL-01', 'System Unit', '1982-10-18')],
      ['OPA, ISO date-time "1990-11-16T00:00:00Z"', at.la, cbrsInside('LA-09P', 'Otherwise Protected Area', '1990-11-16')],
      ['System Unit, ISO date "1990-11-16"', at.np, cbrsInside('LA-05', 'System Unit', '1990-11-16')],
      ['OPA, "11/16/1990"', at.nc, cbrsInside('NC-03P', 'Otherwise Protected Area', '1990-11-16')],
      ['OPA, "1982-10-18T23:00:00-05:00" is 1982-10-19 in UTC', at.wv, cbrsInside('WV-01P', 'Otherwise Protected Area', '1982-10-19')],
      ['buffer zone only', at.hi, cbrsNone('buffer')],
      ['outside', at.ak, cbrsNone('outside')],
    ])('%s', async (_what, p, expected) => {
      const res = await stack.get(query(p, '&include=cbrs'));
      expect(res.status).toBe(200);
      expect(res.body.result.coastalBarrier).toEqual(expected);
      expect(res.body.result.unavailable).toEqual([]);
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe('upstream calls, case by case: each query once, none for a repeated lookup', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({}, emulatorOptions());
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.emulators.resetCalls());

  const nfhlQueriesByLayer = (s: Stack) => {
    const counts: Record<string, number> = {};
    for (const call of s.emulators.nfhl.callsMatching({ endpoint: 'query' })) counts[call.layerName ?? '?'] = (counts[call.layerName ?? '?'] ?? 0) + 1;
    return counts;
  };
  const otherServiceCalls = (s: Stack) => [s.emulators.preliminary.totalCalls, s.emulators.pending.totalCalls, s.emulators.cbrs.totalCalls];

  it('an X point: zones, panels, LOMRs, jurisdictions and LOMAs once each; never BFE lines or availability; no other service', async () => {
    const res = await stack.get(query(at.hole));
    expect(res.status).toBe(200);
    expect(nfhlQueriesByLayer(stack)).toEqual({ 'Flood Hazard Zones': 1, 'FIRM Panels': 1, LOMRs: 1, 'Political Jurisdictions': 1, LOMAs: 1 });
    expect(otherServiceCalls(stack)).toEqual([0, 0, 0]);
    expect(stack.emulators.census.callCount({ endpoint: 'coordinates' })).toBe(1);
  });

  it('then include=nearby adds exactly the nearby zone query; then the same lookup makes no call at all', async () => {
    const plain = await stack.get(query(at.hole));
    stack.emulators.resetCalls();
    const nearby = await stack.get(query(at.hole, '&include=nearby'));
    expect(nearby.status).toBe(200);
    expect(nearby.body.retrievedAt).toBe(plain.body.retrievedAt);
    const calls = stack.emulators.nfhl.callsMatching({ endpoint: 'query' });
    expect(calls.map((c) => [c.layerName, c.query.geometryType])).toEqual([['Flood Hazard Zones', 'esriGeometryEnvelope']]);
    expect(stack.emulators.census.totalCalls + otherServiceCalls(stack).reduce((a, b) => a + b)).toBe(0);

    stack.emulators.resetCalls();
    const again = await stack.get(query(at.hole, '&include=nearby'));
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.body).toEqual(nearby.body);
    const everything = [stack.emulators.nfhl, stack.emulators.census, stack.emulators.preliminary, stack.emulators.pending, stack.emulators.cbrs];
    expect(everything.map((e) => e.totalCalls)).toEqual([0, 0, 0, 0, 0]);
  });

  it('then include=preliminary,cbrs: two queries on each of the three other services, none on NFHL', async () => {
    await stack.get(query(at.hole));
    stack.emulators.resetCalls();
    const res = await stack.get(query(at.hole, '&include=preliminary,cbrs'));
    expect(res.body.result.unavailable).toEqual([]);
    const { preliminary, pending, cbrs, nfhl } = stack.emulators;
    expect([preliminary, pending, cbrs, nfhl].map((e) => e.callCount({ endpoint: 'query' }))).toEqual([2, 2, 2, 0]);
    expect(preliminary.queryCount('Preliminary Flood Hazard Zones')).toBe(1);
    expect(preliminary.queryCount('Preliminary Data Availability')).toBe(1);
    expect(pending.queryCount('Pending Flood Hazard Zones')).toBe(1);
    expect(pending.queryCount('Pending Data Availability')).toBe(1);
    expect(cbrs.queryCount('CBRS Prohibitions')).toBe(1);
    expect(cbrs.queryCount('CBRS Buffer Zone')).toBe(1);
    expect(cbrs.queryCount('CBRS Units')).toBe(0);
  });

  it('a lookup with every include, repeated: the second makes no call on any of the five upstreams', async () => {
    const first = await stack.get(query(at.al, ALL));
    expect(first.body.result.unavailable).toEqual([]);
    stack.emulators.resetCalls();
    const second = await stack.get(query(at.al, ALL));
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.body).toEqual(first.body);
    const everything = [stack.emulators.nfhl, stack.emulators.census, stack.emulators.preliminary, stack.emulators.pending, stack.emulators.cbrs];
    expect(everything.map((e) => e.totalCalls)).toEqual([0, 0, 0, 0, 0]);
  });

  it('an AE point without a printed BFE: one BFE line query beside the five; with a printed BFE: none', async () => {
    await stack.get(query(at.nc));
    expect(nfhlQueriesByLayer(stack)).toEqual({
      'Flood Hazard Zones': 1,
      'FIRM Panels': 1,
      LOMRs: 1,
      'Political Jurisdictions': 1,
      LOMAs: 1,
      'Base Flood Elevations': 1,
    });
    stack.emulators.resetCalls();
    await stack.get(query(at.staticBfe));
    expect(nfhlQueriesByLayer(stack)).toEqual({ 'Flood Hazard Zones': 1, 'FIRM Panels': 1, LOMRs: 1, 'Political Jurisdictions': 1, LOMAs: 1 });
  });

  it('open water only: the zone answer already shows the map, so neither availability nor BFE lines are asked', async () => {
    const res = await stack.get(query(at.noZone));
    expect(res.body.result.coverage).toBe('mapped_no_zone');
    expect(nfhlQueriesByLayer(stack)).toEqual({ 'Flood Hazard Zones': 1, 'FIRM Panels': 1, LOMRs: 1, 'Political Jurisdictions': 1, LOMAs: 1 });
  });

  it('no zone polygon at all: availability is asked (after the zones), BFE lines are not', async () => {
    const res = await stack.get(query(at.gap));
    expect(res.body.result).toMatchObject({ coverage: 'mapped_no_zone', estimatedBaseFloodElevation: null, unavailable: [] });
    expect(nfhlQueriesByLayer(stack)).toEqual({
      'Flood Hazard Zones': 1,
      'FIRM Panels': 1,
      LOMRs: 1,
      'Political Jurisdictions': 1,
      LOMAs: 1,
      'NFHL Availability': 1,
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe('faults on each new layer and service: exactly that part null and named, HTTP 200, max-age ≤ 60', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...FAST_FAULTS, ...CACHED }, emulatorOptions());
    // every service's layer list read once, so a fault below strikes the query it names
    await stack.get(query(at.la, ALL));
  });
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(() => stack.emulators.clearFaults());

  const outage: Fault = { kind: 'http-status', status: 503 };
  const isNearbyQuery = (call: CallRecord) => call.layerName === 'Flood Hazard Zones' && call.query.geometryType === 'esriGeometryEnvelope';
  type Case = [string, string, (s: Stack) => void];
  const cases: Case[] = [
    ['LOMAs layer answers 503', 'lomas', (s) => s.emulators.nfhl.injectFault({ ...outage, match: 'LOMAs' })],
    ['LOMAs layer answers an ArcGIS error in HTTP 200', 'lomas', (s) => s.emulators.nfhl.injectFault({ kind: 'arcgis-error', code: 400, match: 'LOMAs' })],
    [
      'BFE lines layer resets the connection',
      'estimatedBaseFloodElevation',
      (s) => s.emulators.nfhl.injectFault({ kind: 'reset', match: 'Base Flood Elevations' }),
    ],
    [
      'BFE lines layer answers {}',
      'estimatedBaseFloodElevation',
      (s) => s.emulators.nfhl.injectFault({ kind: 'empty-object', match: 'Base Flood Elevations' }),
    ],
    ['the nearby zone query answers malformed JSON', 'nearby', (s) => s.emulators.nfhl.injectFault({ kind: 'malformed-json', match: isNearbyQuery })],
    ['the nearby zone query times out', 'nearby', (s) => s.emulators.nfhl.injectFault({ kind: 'delay', ms: 2000, match: isNearbyQuery })],
    [
      'the preliminary availability layer alone',
      'mapChange',
      (s) => s.emulators.preliminary.injectFault({ ...outage, match: 'Preliminary Data Availability' }),
    ],
    ['the pending zones layer alone', 'mapChange', (s) => s.emulators.pending.injectFault({ kind: 'html', match: 'Pending Flood Hazard Zones' })],
    ['the CBRS buffer layer alone', 'coastalBarrier', (s) => s.emulators.cbrs.injectFault({ ...outage, match: 'CBRS Buffer Zone' })],
    [
      'the CBRS prohibitions layer alone (ArcGIS error)',
      'coastalBarrier',
      (s) => s.emulators.cbrs.injectFault({ kind: 'arcgis-error', match: 'CBRS Prohibitions' }),
    ],
  ];

  it.each(cases.map((c, i) => [...c, i] as const))('%s → %s', async (_what, part, inject, i) => {
    // each case at its own point (0.1 m apart), so no answer cached by another case is served
    const p = east(at.la, i + 1);
    inject(stack);
    const res = await stack.get(query(p, ALL));
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ ...laParts(p), [part]: null, unavailable: [part] });
    expect(maxAgeOf(res)).toBeGreaterThan(0);
    expect(maxAgeOf(res)).toBeLessThanOrEqual(60);
  });
});

describe('paged answers (maxRecordCount 3, an upstream that ignores where)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...FAST_FAULTS, ...CACHED }, emulatorOptions({ nfhl: { maxRecordCount: 3, ignoreWhere: true } }));
  });
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(() => stack.emulators.clearFaults());
  beforeEach(() => stack.emulators.resetCalls());

  const pagedParts = (p: LonLat) => ({
    lomas: pagedLomas
      .map((l) => ({ ...l, exact: geodesicMetres(p, lomaPoint(l.caseNumber)) }))
      .sort((a, b) => a.exact - b.exact)
      .map((l) => ({
        caseNumber: l.caseNumber,
        effectiveDate: '2024-06-01',
        status: 'valid',
        outcome: 'Property out as shown',
        category: 'LOMA',
        distanceM: metres(l.exact),
      })),
    estimatedBaseFloodElevation: interpolated(p, pagedL1, 20, pagedL2, 22, 'NAVD88'),
    nearby: {
      radiusM: 500,
      sfha: hazard(0, 'AE', null),
      floodway: hazard(polygonM(p, pagedFloodway), 'AE', 'FLOODWAY'),
      moderate: hazard(Math.min(...pagedModerate.map((f) => polygonM(p, f))), 'X', SHADED),
      note: SENTENCE,
    },
  });
  const offsets = (s: Stack, layerName: string, envelope = true) =>
    s.emulators.nfhl
      .callsMatching({ endpoint: 'query', layerName })
      .filter((c) => !envelope || c.query.geometryType === 'esriGeometryEnvelope')
      .map((c) => c.query.resultOffset ?? '0');

  it('every page is read: LOMAs on 3 pages, BFE lines on 2, nearby zones on 5, each page asked once', async () => {
    const res = await stack.get(query(at.paged, '&include=nearby'));
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ ...pagedParts(at.paged), unavailable: [] });
    expect(offsets(stack, 'LOMAs')).toEqual(['0', '3', '6']);
    expect(offsets(stack, 'Base Flood Elevations')).toEqual(['0', '3']);
    expect(offsets(stack, 'Flood Hazard Zones')).toEqual(['0', '3', '6', '9', '12']);
  });

  it.each([
    ['LOMAs', 'lomas'],
    ['Base Flood Elevations', 'estimatedBaseFloodElevation'],
    ['Flood Hazard Zones', 'nearby'],
  ])('the second page of %s fails → %s null and named, the rest intact', async (layerName, part) => {
    const p = east(at.paged, ['lomas', 'estimatedBaseFloodElevation', 'nearby'].indexOf(part) + 1);
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 502, match: (c) => c.layerName === layerName && c.query.resultOffset === '3' });
    const res = await stack.get(query(p, '&include=nearby'));
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ ...pagedParts(p), [part]: null, unavailable: [part] });
    expect(maxAgeOf(res)).toBeLessThanOrEqual(60);
  });

  it('200 polygons within the radius (67 pages of 3): the nearest, on page 51, is found', async () => {
    const res = await stack.get(query(at.many, '&include=nearby'));
    expect(res.status).toBe(200);
    const nearest = manyModerate[manyNearest.index];
    expect(Math.round(polygonM(at.many, nearest))).toBe(manyNearest.metres);
    expect(res.body.result.nearby).toEqual({
      radiusM: 500,
      sfha: null,
      floodway: null,
      moderate: hazard(polygonM(at.many, nearest), 'X', SHADED),
      note: SENTENCE,
    });
    expect(res.body.result.unavailable).toEqual([]);
  });
});

describe.each([
  ['preliminary', 'mapChange', '&include=preliminary'],
  ['pending', 'mapChange', '&include=preliminary'],
  ['cbrs', 'coastalBarrier', '&include=cbrs'],
] as const)('the %s service layer list fails at the first lookup', (service, part, extra) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...FAST_FAULTS }, emulatorOptions());
  });
  afterAll(async () => {
    await stack?.close();
  });

  it(`${part} is unavailable; once the list answers, the next lookup asks for it again and the part is back`, async () => {
    stack.emulators[service].injectFault({ kind: 'http-status', status: 503, match: 'root' });
    const failed = await stack.get(query(at.la, extra));
    expect(failed.status).toBe(200);
    expect(failed.body.result).toMatchObject({ [part]: null, unavailable: [part] });
    stack.emulators.clearFaults();
    const later = await stack.get(query(at.la, extra));
    expect(later.body.result).toMatchObject({ [part]: laParts(at.la)[part], unavailable: [] });
  });
});

// ---------------------------------------------------------------------------------------------

describe('include and radius parameters, checked after the location, against the running app', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({}, emulatorOptions());
  });
  afterAll(async () => {
    await stack?.close();
  });

  const laQuery = (extra: string) => query(at.la, extra);

  it.each([
    ['include=NEARBY (items are lower case)', '&include=NEARBY'],
    ['include=Nearby', '&include=Nearby'],
    ['include=nearby,, (empty item)', '&include=nearby,,'],
    ['include=,nearby', '&include=,nearby'],
    ['include= alone', '&include='],
    ['include=nearby, cbrs (an item with a space)', '&include=nearby,%20cbrs'],
    ['include=floodway (unknown item)', '&include=floodway'],
    ['include repeated', '&include=nearby&include=cbrs'],
    ['include repeated with the same value', '&include=nearby&include=nearby'],
  ])('include: %s → 400 naming the allowed values', async (_what, extra) => {
    const res = await stack.get(laQuery(extra));
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    if (!/repeated/.test(_what)) for (const item of ['nearby', 'preliminary', 'cbrs']) expect(res.body.error).toContain(item);
  });

  it.each([
    ['radius without include', '&radius=500'],
    ['radius with include=cbrs only', '&include=cbrs&radius=500'],
    ['radius with include=preliminary,cbrs', '&include=preliminary,cbrs&radius=500'],
    ['radius repeated', '&include=nearby&radius=500&radius=600'],
    ['radius repeated with the same value', '&include=nearby&radius=500&radius=500'],
    ['radius=1e3', '&include=nearby&radius=1e3'],
    ['radius=+500', '&include=nearby&radius=%2B500'],
    ['radius=-10', '&include=nearby&radius=-10'],
    ['radius=500.0', '&include=nearby&radius=500.0'],
    ['radius= (empty)', '&include=nearby&radius='],
    ['radius=0x1F4', '&include=nearby&radius=0x1F4'],
    ['radius= 500 (a space)', '&include=nearby&radius=%20500'],
    ['radius without nearby, out of range too (checked before the range)', '&radius=9'],
    ['radius out of range with an unknown include item (include is checked first)', '&include=bogus&radius=9'],
  ])('radius: %s → 400', async (_what, extra) => {
    expectErrorEnvelope(await stack.get(laQuery(extra)), 400, 'INVALID_PARAMETERS');
  });

  it.each(['9', '2001', '0', '00000', '0009', '99999999999999999999999'])('radius outside [10, 2000]: radius=%s → 422 RADIUS_OUT_OF_RANGE', async (radius) => {
    expectErrorEnvelope(await stack.get(laQuery(`&include=nearby&radius=${radius}`)), 422, 'RADIUS_OUT_OF_RANGE');
  });

  it.each([
    ['10', 10],
    ['0010', 10],
    ['2000', 2000],
    ['02000', 2000],
  ])('radius=%s is %i m', async (radius, radiusM) => {
    const res = await stack.get(laQuery(`&include=nearby&radius=${radius}`));
    expect(res.status).toBe(200);
    expect(res.body.result.nearby.radiusM).toBe(radiusM);
    if (radiusM === 10) expect(res.body.result.nearby).toEqual({ radiusM: 10, sfha: hazard(0, 'AE', null), floodway: null, moderate: null, note: SENTENCE });
    else expect(res.body.result.nearby).toEqual({ ...laParts(at.la).nearby, radiusM });
  });

  it.each([
    ['include=nearby,nearby counts once', '&include=nearby,nearby'],
    ['include=nearby%2Cnearby (an encoded comma) too', '&include=nearby%2Cnearby'],
  ])('%s', async (_what, extra) => {
    const res = await stack.get(laQuery(extra));
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ nearby: laParts(at.la).nearby, mapChange: null, coastalBarrier: null, unavailable: [] });
  });

  it('every item in any order, the radius before the include', async () => {
    const res = await stack.get(query(at.la, '&radius=500&include=cbrs,nearby,preliminary'));
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject(laParts(at.la));
  });

  it('the location is checked first: an out-of-range lat with a bad include is 422 COORDINATES_OUT_OF_RANGE', async () => {
    expectErrorEnvelope(await stack.get('/flood-zone?lat=91&lon=0&include=bogus&radius=9'), 422, 'COORDINATES_OUT_OF_RANGE');
  });

  it('an address with a bad include is a 400 before the geocoder is asked', async () => {
    stack.emulators.resetCalls();
    expectErrorEnvelope(await stack.get('/flood-zone?address=1%20Main%20St&include=nearby&radius=9'), 422, 'RADIUS_OUT_OF_RANGE');
    expectErrorEnvelope(await stack.get('/flood-zone?address=1%20Main%20St&include=everything'), 400, 'INVALID_PARAMETERS');
    expect(stack.emulators.census.totalCalls + stack.emulators.nfhl.totalCalls).toBe(0);
  });
});
