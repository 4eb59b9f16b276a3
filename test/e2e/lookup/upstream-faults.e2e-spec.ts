/**
 * What each upstream failure makes of a lookup. Essential NFHL layers (zones, FIRM panels, availability) and
 * the address geocoder fail the lookup with a 502 (never a guess); LOMRs, Political Jurisdictions and
 * the county/ZCTA lookup of a point are supplementary and only become null, as does the building of
 * `include=structure` when USA Structures fails. Retries follow
 * UPSTREAM_RETRIES for transient failures only, and the whole lookup respects LOOKUP_DEADLINE_MS.
 */
import { DEMO_ADDRESSES, demoPlace, type Fault } from '../../emulators';
import type { ApiResponse } from '../../support/api-client';
import { FAST_FAULTS, Stack, addressQuery, expectErrorEnvelope, expectedResult, pointQuery, sleep, startStack } from '../../support/stack';

/** How often a lookup may ask a failing query: once, and again for each retry (never more, whatever the time). */
const ATTEMPTS = 1 + Number(FAST_FAULTS.UPSTREAM_RETRIES);

const dc = demoPlace('dc-white-house-ae');
const gap = demoPlace('houston-gap');
/** A place inside a demo house (the AE floodway one), so that `include=structure` has a building to find. */
const housePlace = demoPlace('houston-ae-floodway');
const withStructure = (place: { lat: number; lon: number }) => `${pointQuery(place)}&include=structure`;

function expectUpstreamUnavailable(res: ApiResponse, upstream: 'flood_data' | 'geocoder'): void {
  expectErrorEnvelope(res, 502, 'UPSTREAM_UNAVAILABLE');
  expect(res.body.upstream).toBe(upstream);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.body.error).toMatch(/retry/i);
  expect(res.body.error).toMatch(upstream === 'flood_data' ? /FEMA|NFHL|flood/i : /Census|geocod/i);
  // never a flood answer
  expect(res.body).not.toHaveProperty('result');
  expect(res.body).not.toHaveProperty('floodZone');
}

/** Faults that make an NFHL answer unusable, each a 502 UPSTREAM_UNAVAILABLE when it hits an essential layer. */
const NFHL_FAULTS: Array<[string, Fault]> = [
  ['connection reset', { kind: 'reset' }],
  ['HTTP 500', { kind: 'http-status', status: 500 }],
  ['HTTP 503', { kind: 'http-status', status: 503 }],
  ['an HTML page with HTTP 200', { kind: 'html' }],
  ['malformed JSON', { kind: 'malformed-json' }],
  ['an ArcGIS error inside HTTP 200 (code 500)', { kind: 'arcgis-error' }],
  ['an ArcGIS error inside HTTP 200 (code 400)', { kind: 'arcgis-error', code: 400, message: 'Invalid or missing input parameters.' }],
  ['an empty JSON object', { kind: 'empty-object' }],
  ['a delay beyond UPSTREAM_TIMEOUT_MS', { kind: 'delay', ms: 1000 }],
];

describe('NFHL faults (UPSTREAM_TIMEOUT_MS=300, UPSTREAM_RETRIES=1, LOOKUP_DEADLINE_MS=1500)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ ...FAST_FAULTS });
    // the layer list is fetched once per app: get it before the layer faults
    expect((await stack.get(pointQuery(dc))).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.emulators.resetCalls());
  afterEach(() => stack.emulators.clearFaults());

  describe.each([
    ['Flood Hazard Zones', 'floodHazardZones', dc],
    ['FIRM Panels', 'firmPanels', dc],
    ['NFHL Availability (point with no zone polygon)', 'availability', gap],
  ] as const)('%s layer', (_name, layer, place) => {
    it.each(NFHL_FAULTS)('%s → 502 flood_data within the deadline', async (_what, fault) => {
      const active = stack.emulators.nfhl.injectFault({ ...fault, match: layer });
      const res = await stack.get(pointQuery(place));
      expectUpstreamUnavailable(res, 'flood_data');
      expect(active.hits).toBeGreaterThan(0);
      expect(active.hits).toBeLessThanOrEqual(ATTEMPTS);
    });
  });

  it('a failed lookup stops its sibling queries: no upstream call after the 502 (no retries in the background)', async () => {
    // Every layer at the point answers 500: each query would retry after a backoff, but the first essential
    // failure ends the lookup, and the queries still waiting to retry are abandoned.
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 500, match: (call) => call.endpoint === 'query' });
    const res = await stack.get(pointQuery(dc));
    expectUpstreamUnavailable(res, 'flood_data');
    const atAnswer = stack.emulators.nfhl.callCount();
    await sleep(2500); // longer than the longest retry backoff (2 s)
    expect(stack.emulators.nfhl.callCount()).toBe(atAnswer);
  });

  it.each([
    ['features is not an array', { features: 'none' }],
    ['a feature without attributes', { features: [{ geometry: null }] }],
    ['attributes null', { features: [{ attributes: null }] }],
    ['a JSON array', []],
    ['JSON null', null],
  ] as Array<[string, unknown]>)('zones layer answering HTTP 200 JSON of the wrong shape (%s) → 502 flood_data, never 500', async (_what, body) => {
    stack.emulators.nfhl.injectFault({
      kind: 'http-status',
      status: 200,
      body: JSON.stringify(body),
      contentType: 'application/json;charset=UTF-8',
      match: 'floodHazardZones',
    });
    const res = await stack.get(pointQuery(dc));
    expectUpstreamUnavailable(res, 'flood_data');
  });

  it('an address lookup whose flood query fails is a 502 flood_data, not geocoder', async () => {
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 500, match: 'floodHazardZones' });
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse));
    expectUpstreamUnavailable(res, 'flood_data');
  });

  it('after the fault clears, the same point answers normally', async () => {
    stack.emulators.nfhl.injectFault({ kind: 'reset', match: 'floodHazardZones', times: 2 });
    expectUpstreamUnavailable(await stack.get(pointQuery(dc)), 'flood_data');
    const res = await stack.get(pointQuery(dc));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(expectedResult(dc));
  });

  describe('supplementary layers: the lookup still answers, that field is null (unknown)', () => {
    const SUPPLEMENTARY_FAULTS = NFHL_FAULTS.filter(([what]) => what !== 'an empty JSON object');

    it.each(SUPPLEMENTARY_FAULTS)('LOMRs: %s → 200 with lomrs null', async (_what, fault) => {
      const active = stack.emulators.nfhl.injectFault({ ...fault, match: 'lomrs' });
      const res = await stack.get(pointQuery(dc));
      expect(res.status).toBe(200);
      expect(active.hits).toBeGreaterThan(0);
      expect(res.body.result).toEqual({ ...expectedResult(dc), lomrs: null, unavailable: ['lomrs'] });
      expect(active.hits).toBeLessThanOrEqual(ATTEMPTS);
    });

    it.each(SUPPLEMENTARY_FAULTS)('Political Jurisdictions: %s → 200 with community null', async (_what, fault) => {
      const active = stack.emulators.nfhl.injectFault({ ...fault, match: 'politicalJurisdictions' });
      const res = await stack.get(pointQuery(dc));
      expect(res.status).toBe(200);
      expect(active.hits).toBeGreaterThan(0);
      expect(res.body.result).toEqual({ ...expectedResult(dc), community: null, communitiesAtPoint: null, unavailable: ['community'] });
      expect(active.hits).toBeLessThanOrEqual(ATTEMPTS);
    });

    it('both at once: zone answer with lomrs and community null', async () => {
      stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: ['lomrs', 'politicalJurisdictions'] });
      const res = await stack.get(pointQuery(dc));
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual({ ...expectedResult(dc), lomrs: null, community: null, communitiesAtPoint: null, unavailable: ['community', 'lomrs'] });
    });
  });

  describe('retries (UPSTREAM_RETRIES=1)', () => {
    it.each([
      ['connection reset', { kind: 'reset' }],
      ['HTTP 500', { kind: 'http-status', status: 500 }],
      ['HTTP 503', { kind: 'http-status', status: 503 }],
      ['an HTML page', { kind: 'html' }],
      ['a delay beyond UPSTREAM_TIMEOUT_MS', { kind: 'delay', ms: 1000 }],
    ] as Array<[string, Fault]>)('one transient %s on the zones layer → 200 after exactly 2 zone queries', async (_what, fault) => {
      stack.emulators.nfhl.injectFault({ ...fault, match: 'floodHazardZones', times: 1 });
      const res = await stack.get(pointQuery(dc));
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual(expectedResult(dc));
      expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(2);
    });

    it('one transient HTTP 503 on the panels layer → 200 after exactly 2 panel queries', async () => {
      stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'firmPanels', times: 1 });
      const res = await stack.get(pointQuery(dc));
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual(expectedResult(dc));
      expect(stack.emulators.nfhl.queryCount('firmPanels')).toBe(2);
    });

    it.each([
      ['an ArcGIS error code 400', { kind: 'arcgis-error', code: 400, message: 'Invalid or missing input parameters.' }],
      ['malformed JSON', { kind: 'malformed-json' }],
    ] as Array<[string, Fault]>)('one non-transient %s on the zones layer → 502 after exactly 1 zone query (no retry)', async (_what, fault) => {
      stack.emulators.nfhl.injectFault({ ...fault, match: 'floodHazardZones', times: 1 });
      const res = await stack.get(pointQuery(dc));
      expectUpstreamUnavailable(res, 'flood_data');
      expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(1);
    });

    it('a transient fault that persists is tried exactly 1 + UPSTREAM_RETRIES times', async () => {
      stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'floodHazardZones' });
      const res = await stack.get(pointQuery(dc));
      expectUpstreamUnavailable(res, 'flood_data');
      expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(2);
    });
  });
});

describe('UPSTREAM_RETRIES=0', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ ...FAST_FAULTS, UPSTREAM_RETRIES: '0' });
    expect((await stack.get(pointQuery(dc))).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.emulators.resetCalls());
  afterEach(() => stack.emulators.clearFaults());

  it('a single transient NFHL fault is a 502 after exactly 1 query', async () => {
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'floodHazardZones', times: 1 });
    const res = await stack.get(pointQuery(dc));
    expectUpstreamUnavailable(res, 'flood_data');
    expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(1);
  });

  it('a single transient geocoder fault is a 502 after exactly 1 call', async () => {
    stack.emulators.census.injectFault({ kind: 'reset', match: 'onelineaddress', times: 1 });
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse));
    expectUpstreamUnavailable(res, 'geocoder');
    expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(1);
  });
});

describe('LOOKUP_DEADLINE_MS bounds the whole lookup (UPSTREAM_TIMEOUT_MS=1000, UPSTREAM_RETRIES=3, deadline 1500)', () => {
  let stack: Stack;
  const deadline = 1500;

  beforeAll(async () => {
    stack = await startStack({ ...FAST_FAULTS, UPSTREAM_TIMEOUT_MS: '1000', UPSTREAM_RETRIES: '3', LOOKUP_DEADLINE_MS: String(deadline) });
    expect((await stack.get(pointQuery(dc))).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.emulators.resetCalls());
  afterEach(() => stack.emulators.clearFaults());

  it('a hanging zones layer: 502 flood_data at the deadline, not after 4 timeouts', async () => {
    const hanging = stack.emulators.nfhl.injectFault({ kind: 'delay', ms: 60_000, match: 'floodHazardZones' });
    expectUpstreamUnavailable(await stack.get(pointQuery(dc)), 'flood_data');
    // A timeout, then a retry cut short by the deadline: never the four attempts UPSTREAM_RETRIES allows.
    expect(hanging.hits).toBeGreaterThan(0);
    expect(hanging.hits).toBeLessThanOrEqual(2);
  });

  it('a hanging geocoder: 502 geocoder at the deadline', async () => {
    const hanging = stack.emulators.census.injectFault({ kind: 'delay', ms: 60_000, match: 'onelineaddress' });
    expectUpstreamUnavailable(await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse)), 'geocoder');
    expect(hanging.hits).toBeGreaterThan(0);
    expect(hanging.hits).toBeLessThanOrEqual(2);
  });

  it('the deadline covers the whole lookup: a slow geocoder plus a slow zones layer, each within its timeout → 502', async () => {
    stack.emulators.census.injectFault({ kind: 'delay', ms: 900, match: 'onelineaddress' });
    stack.emulators.nfhl.injectFault({ kind: 'delay', ms: 900, match: 'floodHazardZones' });
    expectUpstreamUnavailable(await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse)), 'flood_data');
    // The geocoder was answered within its timeout; the zones query, also within its own, was still held by FEMA
    // when the lookup's deadline ended it.
    expect(stack.emulators.census.callsMatching({ endpoint: 'onelineaddress' }).map((call) => call.answered)).toEqual([true]);
    const zones = stack.emulators.nfhl.callsMatching({ endpoint: 'query' }).filter((call) => call.fault === 'delay');
    expect(zones.map((call) => call.answered)).toEqual([undefined]);
  });

  it('a hanging USA Structures does not hold the answer past the deadline: structure null and named', async () => {
    const hanging = stack.emulators.structures.injectFault({ kind: 'delay', ms: 60_000 });
    const res = await stack.get(withStructure(housePlace));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ ...expectedResult(housePlace), unavailable: ['structure'] });
    expect(hanging.hits).toBeGreaterThan(0);
    expect(hanging.hits).toBeLessThanOrEqual(2);
  });

  it('a hanging LOMRs layer does not hold the answer past the deadline', async () => {
    const hanging = stack.emulators.nfhl.injectFault({ kind: 'delay', ms: 60_000, match: 'lomrs' });
    const res = await stack.get(pointQuery(dc));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ ...expectedResult(dc), lomrs: null, unavailable: ['lomrs'] });
    expect(hanging.hits).toBeGreaterThan(0);
    expect(hanging.hits).toBeLessThanOrEqual(2);
  });
});

describe('USA Structures faults: the building is null and named in unavailable, never the lookup', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ ...FAST_FAULTS });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.emulators.resetCalls());
  afterEach(() => stack.emulators.clearFaults());

  it.each(NFHL_FAULTS)('%s → 200 with structure null and the zone answer whole', async (_what, fault) => {
    const active = stack.emulators.structures.injectFault(fault);
    const res = await stack.get(withStructure(housePlace));
    expect(res.status).toBe(200);
    expect(active.hits).toBeGreaterThan(0);
    // expectedResult has structure null: only `unavailable` says why
    expect(res.body.result).toEqual({ ...expectedResult(housePlace), unavailable: ['structure'] });
    expect(active.hits).toBeLessThanOrEqual(ATTEMPTS);
  });

  it('one transient HTTP 503 → the building after exactly 2 queries, as without the fault', async () => {
    const whole = await stack.get(withStructure(housePlace));
    expect(whole.body.result.structure).toMatchObject({ match: 'contains', buildId: '48020002', buildingInSfha: true });
    stack.emulators.resetCalls();
    stack.emulators.structures.injectFault({ kind: 'http-status', status: 503, times: 1 });
    const res = await stack.get(withStructure(housePlace));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(whole.body.result);
    expect(stack.emulators.structures.callCount({ endpoint: 'query' })).toBe(2);
  });

  it('a lookup without include=structure never asks USA Structures, so its outage does not touch it', async () => {
    stack.emulators.structures.injectFault({ kind: 'reset' });
    const res = await stack.get(pointQuery(housePlace));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(expectedResult(housePlace));
    expect(stack.emulators.structures.totalCalls).toBe(0);
  });
});

describe('the NFHL layer list failing: default layer ids, still 200', () => {
  it.each([
    ['HTTP 503', { kind: 'http-status', status: 503 }],
    ['connection reset', { kind: 'reset' }],
    ['malformed JSON', { kind: 'malformed-json' }],
    ['an ArcGIS error', { kind: 'arcgis-error', code: 500 }],
    ['a delay beyond UPSTREAM_TIMEOUT_MS', { kind: 'delay', ms: 1000 }],
  ] as Array<[string, Fault]>)('%s', async (_what, fault) => {
    const stack = await startStack({ ...FAST_FAULTS });
    try {
      const active = stack.emulators.nfhl.injectFault({ ...fault, match: 'root' });
      const res = await stack.get(pointQuery(dc));
      expect(active.hits).toBeGreaterThan(0);
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual(expectedResult(dc));
      expect(active.hits).toBeLessThanOrEqual(ATTEMPTS);
      // the default ids were queried: zones 28, FIRM panels 3, LOMRs 1, jurisdictions 22, LOMAs 34
      const queried = stack.emulators.nfhl.callsMatching({ endpoint: 'query' }).map((c) => c.layerId);
      expect([...new Set(queried)].sort((a, b) => a! - b!)).toEqual([1, 3, 22, 28, 34]);
    } finally {
      await stack.close();
    }
  });
});

describe('Census geocoder faults', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ ...FAST_FAULTS });
    expect((await stack.get(pointQuery(dc))).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.emulators.resetCalls());
  afterEach(() => stack.emulators.clearFaults());

  const CENSUS_FAULTS: Array<[string, Fault]> = [
    ['connection reset', { kind: 'reset' }],
    ['HTTP 500', { kind: 'http-status', status: 500 }],
    ['HTTP 503', { kind: 'http-status', status: 503 }],
    ['an HTML page with HTTP 400', { kind: 'html', status: 400 }],
    ['an HTML page with HTTP 200', { kind: 'html' }],
    ['an errors array (HTTP 400)', { kind: 'errors-array' }],
    ['malformed JSON', { kind: 'malformed-json' }],
    ['a layer error inside HTTP 200', { kind: 'layer-error' }],
    ['a delay beyond UPSTREAM_TIMEOUT_MS', { kind: 'delay', ms: 1000 }],
  ];

  it.each(CENSUS_FAULTS)('address lookup, onelineaddress %s → 502 geocoder within the deadline, no flood query', async (_what, fault) => {
    const active = stack.emulators.census.injectFault({ ...fault, match: 'onelineaddress' });
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse));
    expectUpstreamUnavailable(res, 'geocoder');
    expect(active.hits).toBeGreaterThan(0);
    expect(active.hits).toBeLessThanOrEqual(ATTEMPTS);
    expect(stack.emulators.nfhl.callCount({ endpoint: 'query' })).toBe(0);
  });

  it.each(CENSUS_FAULTS)('lat/lon lookup, coordinates %s → 200 with county, countyFips and zip null', async (_what, fault) => {
    const active = stack.emulators.census.injectFault({ ...fault, match: 'coordinates' });
    const res = await stack.get(pointQuery(dc));
    expect(active.hits).toBeGreaterThan(0);
    expect(res.status).toBe(200);
    expect(res.body.location).toStrictEqual({
      matchedAddress: null,
      lat: dc.lat,
      lon: dc.lon,
      county: null,
      countyFips: null,
      zip: null,
      source: 'coordinates',
    });
    expect(res.body.result).toEqual(expectedResult(dc));
    expect(active.hits).toBeLessThanOrEqual(ATTEMPTS);
  });

  it.each([
    ['addressMatches is not an array', { result: { addressMatches: 'none' } }],
    ['a match without coordinates', { result: { addressMatches: [{ matchedAddress: 'X' }] } }],
    ['a match with non-numeric coordinates', { result: { addressMatches: [{ matchedAddress: 'X', coordinates: { x: 'a', y: 'b' } }] } }],
    ['no result', { status: 'ok' }],
  ] as Array<[string, unknown]>)('onelineaddress answering HTTP 200 JSON of the wrong shape (%s) → 502 geocoder, never 500', async (_what, body) => {
    stack.emulators.census.injectFault({ kind: 'http-status', status: 200, body: body as object, match: 'onelineaddress' });
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse));
    expectUpstreamUnavailable(res, 'geocoder');
    expect(stack.emulators.nfhl.callCount({ endpoint: 'query' })).toBe(0);
  });

  it('a lat/lon lookup never calls onelineaddress, so an address outage does not touch it', async () => {
    stack.emulators.census.injectFault({ kind: 'reset', match: 'onelineaddress' });
    const res = await stack.get(pointQuery(dc));
    expect(res.status).toBe(200);
    expect(res.body.location.countyFips).toBe(dc.expect.countyFips);
  });

  it('one transient HTTP 500 on onelineaddress (UPSTREAM_RETRIES=1) → 200 after exactly 2 calls', async () => {
    stack.emulators.census.injectFault({ kind: 'http-status', status: 500, match: 'onelineaddress', times: 1 });
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse));
    expect(res.status).toBe(200);
    expect(res.body.location.matchedAddress).toBe('1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500');
    expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(2);
  });

  it('one HTML page with HTTP 400 on onelineaddress (transient at the real geocoder: it passes on retry) → 200 after exactly 2 calls', async () => {
    stack.emulators.census.injectFault({ kind: 'html', status: 400, match: 'onelineaddress', times: 1 });
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse));
    expect(res.status).toBe(200);
    expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(2);
  });

  it.each([
    ['an errors array (HTTP 400)', { kind: 'errors-array' }],
    ['malformed JSON', { kind: 'malformed-json' }],
  ] as Array<[string, Fault]>)('one non-transient %s on onelineaddress → 502 after exactly 1 call', async (_what, fault) => {
    stack.emulators.census.injectFault({ ...fault, match: 'onelineaddress', times: 1 });
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse));
    expectUpstreamUnavailable(res, 'geocoder');
    expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(1);
  });
});
