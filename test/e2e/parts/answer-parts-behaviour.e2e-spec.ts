/**
 * How an answer is put together from its parts (see docs/api.md): each failed part is null and named in
 * `unavailable` while the rest stands, an incomplete answer is cached at most 60 seconds, every query that
 * does not depend on another runs in one parallel round, each part is cached on its own, and the CBRS
 * service is an upstream of its own. (The values of each part, place by place, are in lookup-coverage.)
 */
import CheapRuler from 'cheap-ruler';
import { demoPlace, type CallRecord, type Fault } from '../../emulators';
import { apiGet } from '../../support/api-client';
import { FAST_FAULTS, IncludeItem, NO_CACHE, RESULT_KEYS, Stack, expectedResult, pointQuery, startStack } from '../../support/stack';

const ALL: IncludeItem[] = ['nearby', 'preliminary', 'cbrs'];
/** Every part has a value here: SFHA, floodway and moderate zones nearby, no coming map, outside CBRS. */
const nearbyPlace = demoPlace('houston-nearby-hazards');
const bfePlace = demoPlace('franklin-bfe-bracketed');
const lomaPlace = demoPlace('houston-lomas');

const withIncludes = (place: { lat: number; lon: number }, include: IncludeItem[]) =>
  `${pointQuery(place)}${include.length > 0 ? `&include=${include.join(',')}` : ''}`;
const maxAgeOf = (res: { headers: Headers }) => Number(/^public, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);

const isEnvelopeQuery = (call: CallRecord) => call.endpoint === 'query' && call.query.geometryType === 'esriGeometryEnvelope';
const nearbyZoneQuery = (call: CallRecord) => isEnvelopeQuery(call) && call.layerName === 'Flood Hazard Zones';

describe('each failed part is null and named in unavailable, the rest intact, HTTP 200', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...FAST_FAULTS });
  });
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(() => stack.emulators.clearFaults());

  const outage: Fault = { kind: 'http-status', status: 503 };
  const arcgisError: Fault = { kind: 'arcgis-error', code: 400, message: 'Failed to execute query.' };

  it('the complete answer first: every part present, unavailable []', async () => {
    const res = await stack.get(withIncludes(nearbyPlace, ALL));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.result).sort()).toEqual(RESULT_KEYS);
    expect(res.body.result).toEqual(expectedResult(nearbyPlace, ALL));
  });

  /** What fails, and the part it must take down (a part is named in `unavailable` like its field). */
  type Case = [string, string, (s: Stack) => void];
  const cases: Case[] = [
    ['LOMAs layer (503)', 'lomas', (s) => s.emulators.nfhl.injectFault({ ...outage, match: 'LOMAs' })],
    ['LOMAs layer (ArcGIS error)', 'lomas', (s) => s.emulators.nfhl.injectFault({ ...arcgisError, match: 'LOMAs' })],
    ['LOMRs layer', 'lomrs', (s) => s.emulators.nfhl.injectFault({ ...outage, match: 'LOMRs' })],
    ['Political Jurisdictions layer', 'community', (s) => s.emulators.nfhl.injectFault({ ...outage, match: 'Political Jurisdictions' })],
    ['the nearby zone query', 'nearby', (s) => s.emulators.nfhl.injectFault({ ...outage, match: nearbyZoneQuery })],
    ['the preliminary service', 'mapChange', (s) => s.emulators.preliminary.injectFault(outage)],
    ['the pending service', 'mapChange', (s) => s.emulators.pending.injectFault(arcgisError)],
    ['the CBRS service', 'coastalBarrier', (s) => s.emulators.cbrs.injectFault(outage)],
  ];

  it.each(cases)('%s → %s null and named', async (_what, part, inject) => {
    inject(stack);
    const res = await stack.get(withIncludes(nearbyPlace, ALL));
    expect(res.status).toBe(200);
    // The jurisdictions' failure leaves every community at the point unknown, not only the one named.
    const communities = part === 'community' ? { communitiesAtPoint: null } : {};
    expect(res.body.result).toEqual({ ...expectedResult(nearbyPlace, ALL), [part]: null, ...communities, unavailable: [part] });
  });

  it('LOMAs at a place that has some: a failure is null, never []', async () => {
    stack.emulators.nfhl.injectFault({ ...outage, match: 'LOMAs' });
    const res = await stack.get(pointQuery(lomaPlace));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ ...expectedResult(lomaPlace), lomas: null, unavailable: ['lomas'] });
  });

  it('the BFE lines layer → estimatedBaseFloodElevation null and named', async () => {
    stack.emulators.nfhl.injectFault({ ...outage, match: 'Base Flood Elevations' });
    const res = await stack.get(pointQuery(bfePlace));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ ...expectedResult(bfePlace), estimatedBaseFloodElevation: null, unavailable: ['estimatedBaseFloodElevation'] });
  });

  it('a part not asked for is null and not named, even when its service is down', async () => {
    // Another place than the tests above, whose retries may still be arriving: only this lookup's calls count.
    const place = demoPlace('houston-nearby-inside-ae');
    stack.emulators.cbrs.injectFault(outage);
    stack.emulators.preliminary.injectFault(outage);
    const res = await stack.get(withIncludes(place, ['nearby']));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual(expectedResult(place, ['nearby']));
    const atThisPoint = (call: CallRecord) => call.query.geometry === `${place.lon},${place.lat}`;
    const { cbrs, preliminary, pending } = stack.emulators;
    expect([cbrs, preliminary, pending].map((emulator) => emulator.callsMatching(atThisPoint).length)).toEqual([0, 0, 0]);
  });
});

describe('caching of complete answers (for the cache lifetime) and incomplete ones (at most 60 s)', () => {
  let stack: Stack;
  let clockOffsetMs = 0;
  const realNow = Date.now.bind(Date);
  beforeAll(async () => {
    stack = await startStack({ UPSTREAM_RETRIES: '0' });
    // Time travel for the cache (the app runs in this process): an hour of waiting in one line.
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + clockOffsetMs);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await stack?.close();
  });
  afterEach(() => stack.emulators.clearFaults());

  it('an answer missing an effective-map part (LOMAs) is cached at most 60 s, then the part is asked again', async () => {
    const place = demoPlace('houston-lomas');
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'LOMAs' });
    const first = await apiGet(stack.url, pointQuery(place));
    expect(first.body.result.unavailable).toEqual(['lomas']);
    expect(maxAgeOf(first)).toBeGreaterThan(0);
    expect(maxAgeOf(first)).toBeLessThanOrEqual(60);

    stack.emulators.clearFaults();
    stack.emulators.resetCalls();
    clockOffsetMs += 61_000;
    const later = await apiGet(stack.url, pointQuery(place));
    expect(later.body.result).toEqual(expectedResult(place));
    expect(stack.emulators.nfhl.callCount({ endpoint: 'query', layerName: 'LOMAs' })).toBe(1);
    expect(maxAgeOf(later)).toBeGreaterThanOrEqual(86399);
  });

  it('an answer missing an opt-in part (CBRS) is cached at most 60 s; the zone answer keeps its day, and only CBRS is asked again', async () => {
    const place = demoPlace('fernandina-cbrs-opa');
    const plain = await apiGet(stack.url, pointQuery(place));
    expect(plain.body.result.unavailable).toEqual([]);

    stack.emulators.cbrs.injectFault({ kind: 'http-status', status: 503 });
    const failed = await apiGet(stack.url, withIncludes(place, ['cbrs']));
    expect(failed.body.result).toEqual({ ...expectedResult(place, ['cbrs']), coastalBarrier: null, unavailable: ['coastalBarrier'] });
    expect(maxAgeOf(failed)).toBeGreaterThan(0);
    expect(maxAgeOf(failed)).toBeLessThanOrEqual(60);

    stack.emulators.clearFaults();
    stack.emulators.resetCalls();
    clockOffsetMs += 61_000;
    const later = await apiGet(stack.url, withIncludes(place, ['cbrs']));
    expect(later.body.result).toEqual(expectedResult(place, ['cbrs']));
    expect(stack.emulators.cbrs.callCount({ endpoint: 'query' })).toBe(2);
    expect(stack.emulators.nfhl.callCount({ endpoint: 'query' })).toBe(0);
    expect(later.body.retrievedAt).toBe(plain.body.retrievedAt);
  });

  it('a LOMR or community failure is no longer served for a day', async () => {
    const place = demoPlace('dc-white-house-ae');
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: ['LOMRs', 'Political Jurisdictions'] });
    const first = await apiGet(stack.url, pointQuery(place));
    expect(first.body.result.unavailable).toEqual(['community', 'lomrs']);
    expect(maxAgeOf(first)).toBeLessThanOrEqual(60);

    stack.emulators.clearFaults();
    clockOffsetMs += 61_000;
    const later = await apiGet(stack.url, pointQuery(place));
    expect(later.headers.get('x-cache')).toBe('MISS');
    expect(later.body.result).toEqual(expectedResult(place));
  });
});

describe('one parallel round: only availability and BFE lines wait for the zone answer', () => {
  let stack: Stack;
  const DELAY_MS = 500;
  beforeAll(async () => {
    stack = await startStack({ ...NO_CACHE });
  });
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(() => stack.emulators.clearFaults());

  /** Every query of the first round, from every upstream, in the order received. */
  const queries = (s: Stack): CallRecord[] =>
    [
      ...s.emulators.nfhl.callsMatching({ endpoint: 'query' }),
      ...s.emulators.preliminary.callsMatching({ endpoint: 'query' }),
      ...s.emulators.pending.callsMatching({ endpoint: 'query' }),
      ...s.emulators.cbrs.callsMatching({ endpoint: 'query' }),
      ...s.emulators.census.callsMatching({ endpoint: 'coordinates' }),
    ].sort((a, b) => a.at - b.at);

  it.each([
    ['FIRM Panels', (s: Stack) => s.emulators.nfhl.injectFault({ kind: 'delay', ms: DELAY_MS, match: 'FIRM Panels' })],
    ['the CBRS service', (s: Stack) => s.emulators.cbrs.injectFault({ kind: 'delay', ms: DELAY_MS, match: 'query' })],
    ['the Census county lookup', (s: Stack) => s.emulators.census.injectFault({ kind: 'delay', ms: DELAY_MS, match: 'coordinates' })],
  ])('with %s held back, every other first-round query has already arrived before it answers', async (_what, hold) => {
    // Layer lists are read once per service; read them first so that only the lookup's own queries count.
    await stack.get(withIncludes(nearbyPlace, ALL));
    stack.emulators.resetCalls();
    hold(stack);
    const res = await stack.get(withIncludes(nearbyPlace, ALL));
    expect(res.status).toBe(200);
    expect(res.body.result.unavailable).toEqual([]);

    const round = queries(stack);
    const held = round.filter((call) => call.fault === 'delay');
    expect(held.length).toBeGreaterThan(0);
    const heldAnswerAt = Math.min(...held.map((call) => call.at)) + DELAY_MS;
    // zones, panels, LOMRs, jurisdictions, LOMAs, nearby zones, 2 x (availability + zones), CBRS prohibitions + buffer, Census
    expect(round).toHaveLength(13);
    for (const call of round)
      expect({ path: call.path, arrivedBeforeTheHeldAnswer: call.at < heldAnswerAt }).toEqual({ path: call.path, arrivedBeforeTheHeldAnswer: true });
  });

  it('only the BFE line query waits for the zone answer', async () => {
    await stack.get(pointQuery(bfePlace));
    stack.emulators.resetCalls();
    stack.emulators.nfhl.injectFault({ kind: 'delay', ms: DELAY_MS, match: 'Flood Hazard Zones' });
    const res = await stack.get(pointQuery(bfePlace));
    expect(res.status).toBe(200);
    expect(res.body.result.estimatedBaseFloodElevation).toEqual(expectedResult(bfePlace).estimatedBaseFloodElevation);
    const calls = stack.emulators.nfhl.callsMatching({ endpoint: 'query' });
    const [zones] = calls.filter((call) => call.layerName === 'Flood Hazard Zones');
    const [lines] = calls.filter((call) => call.layerName === 'Base Flood Elevations');
    expect(lines.at).toBeGreaterThanOrEqual(zones.at + DELAY_MS);
    for (const call of calls.filter((c) => c !== lines)) expect(call.at).toBeLessThan(zones.at + DELAY_MS);
  });
});

describe('each part is cached on its own', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('include=nearby after a plain lookup reuses the zone answer: only the nearby zone query reaches FEMA', async () => {
    const plain = await stack.get(pointQuery(nearbyPlace));
    expect(plain.status).toBe(200);
    stack.emulators.resetCalls();

    const nearby = await stack.get(withIncludes(nearbyPlace, ['nearby']));
    expect(nearby.status).toBe(200);
    expect(nearby.body.result).toEqual(expectedResult(nearbyPlace, ['nearby']));
    expect(nearby.body.retrievedAt).toBe(plain.body.retrievedAt);
    expect(nearby.headers.get('x-cache')).toBe('MISS');
    const calls = stack.emulators.nfhl.calls;
    expect(calls).toHaveLength(1);
    expect(nearbyZoneQuery(calls[0])).toBe(true);
    expect(stack.emulators.census.totalCalls).toBe(0);

    stack.emulators.resetCalls();
    const again = await stack.get(withIncludes(nearbyPlace, ['nearby']));
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.body).toEqual(nearby.body);
    expect(stack.emulators.nfhl.totalCalls + stack.emulators.census.totalCalls).toBe(0);
  });

  it('another radius is its own nearby entry; the zone answer is still reused', async () => {
    await stack.get(withIncludes(nearbyPlace, ['nearby']));
    stack.emulators.resetCalls();
    const wider = await stack.get(`${withIncludes(nearbyPlace, ['nearby'])}&radius=800`);
    expect(wider.status).toBe(200);
    expect(wider.body.result.nearby.radiusM).toBe(800);
    expect(stack.emulators.nfhl.calls.map(nearbyZoneQuery)).toEqual([true]);
  });
});

describe('what the LOMA, BFE-line and nearby queries ask FEMA for (envelopes in WGS84, with geometry)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...NO_CACHE });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.emulators.resetCalls());

  const envelopeOf = (call: CallRecord) => call.query.geometry.split(',').map(Number);
  /** Half the envelope's height in metres. */
  const halfHeightM = (call: CallRecord) => {
    const [xmin, ymin, , ymax] = envelopeOf(call);
    return new CheapRuler((ymin + ymax) / 2, 'meters').distance([xmin, ymin], [xmin, ymax]) / 2;
  };

  it('LOMAs and BFE lines: envelopes of 100 m and 300 m around the point, in WGS84, with geometry', async () => {
    await stack.get(pointQuery(bfePlace));
    const [loma] = stack.emulators.nfhl.callsMatching({ endpoint: 'query', layerName: 'LOMAs' });
    const [lines] = stack.emulators.nfhl.callsMatching({ endpoint: 'query', layerName: 'Base Flood Elevations' });
    for (const call of [loma, lines]) {
      expect(call.query).toMatchObject({ geometryType: 'esriGeometryEnvelope', inSR: '4326', returnGeometry: 'true', outSR: '4326', f: 'json' });
      const [xmin, ymin, xmax, ymax] = envelopeOf(call);
      expect((xmin + xmax) / 2).toBeCloseTo(bfePlace.lon, 6);
      expect((ymin + ymax) / 2).toBeCloseTo(bfePlace.lat, 6);
    }
    expect(Math.round(halfHeightM(loma))).toBe(100);
    expect(Math.round(halfHeightM(lines))).toBe(300);
    expect(loma.query.outFields.split(',').sort()).toEqual(['CASENUMBER', 'DATEENDED', 'LAT', 'LON', 'OUTCOME', 'PROJECTCATEGORY', 'REVAL_STAT']);
    expect(lines.query.outFields.split(',').sort()).toEqual(['DFIRM_ID', 'ELEV', 'LEN_UNIT', 'V_DATUM']);
    expect(lines.query.geometryPrecision).toBe('6');
  });

  it('the BFE lines are not asked for where the zone does not call for an estimate', async () => {
    await stack.get(pointQuery(demoPlace('franklin-ae-static-bfe-near-line')));
    await stack.get(pointQuery(demoPlace('franklin-a-near-line')));
    expect(stack.emulators.nfhl.callCount({ endpoint: 'query', layerName: 'Base Flood Elevations' })).toBe(0);
  });

  it('nearby zones: an envelope of the radius with little geometry (outSR 4326, 6 decimals, maxAllowableOffset ≤ 0.00001)', async () => {
    await stack.get(`${withIncludes(nearbyPlace, ['nearby'])}&radius=250`);
    const [call] = stack.emulators.nfhl.calls.filter(nearbyZoneQuery);
    expect(call.query).toMatchObject({ inSR: '4326', returnGeometry: 'true', outSR: '4326', geometryPrecision: '6', f: 'json' });
    expect(Number(call.query.maxAllowableOffset)).toBeGreaterThan(0);
    expect(Number(call.query.maxAllowableOffset)).toBeLessThanOrEqual(0.00001);
    expect(Math.round(halfHeightM(call))).toBe(250);
  });
});

describe('the CBRS service is an upstream of its own, named coastal_barrier', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...NO_CACHE });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('/health lists coastal_barrier and the preliminary and pending services among its upstreams', async () => {
    const place = demoPlace('fernandina-cbrs-system-unit');
    const res = await stack.get(withIncludes(place, ['cbrs']));
    expect(res.body.result).toEqual(expectedResult(place, ['cbrs']));
    const health = await stack.get('/health');
    expect(health.body.upstreams).toMatchObject({
      flood_data: { circuit: 'closed' },
      flood_data_preliminary: { circuit: 'closed' },
      flood_data_pending: { circuit: 'closed' },
      coastal_barrier: { circuit: 'closed' },
    });
  });
});
