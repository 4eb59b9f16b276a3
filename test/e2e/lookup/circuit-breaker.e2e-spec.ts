/**
 * Circuit breakers judge outages (on top of timeouts and retries, tuned by the CIRCUIT_BREAKER_* variables):
 * a circuit opens on the failure rate of timeouts, resets, 5xx and HTML answers over a window with a
 * minimum number of calls, never on answers that fail at one place, and each operation that fails on
 * its own (NFHL, Census address geocoding, Census county/ZIP of a point) has its own circuit.
 */
import { DEMO_PLACES, demoPlace, type CallRecord, type Fault } from '../../emulators';
import { apiGet } from '../../support/api-client';
import { NO_CACHE, addressQuery, nfhlQueries, pointQuery, sleep, Stack, startStack } from '../../support/stack';

const at = pointQuery;
const dc = demoPlace('dc-white-house-ae');
const outsideUs = demoPlace('outside-us-atlantic');
/** Distinct demo points other than the White House, each its own place for place-bound faults. */
const otherPlaces = DEMO_PLACES.filter((p) => p.id !== dc.id && p.id !== outsideUs.id);
const addressed = DEMO_PLACES.filter((p) => p.address !== undefined);

const MIN_CALLS = 6;
const HALF_OPEN_MS = 400;
/** Small numbers so an outage is quick to cause; a long window so a slow machine never ages calls out of it. */
const BREAKER = {
  ...NO_CACHE,
  UPSTREAM_RETRIES: '0',
  CIRCUIT_BREAKER_FAILURE_RATE: '50',
  CIRCUIT_BREAKER_WINDOW_MS: '120000',
  CIRCUIT_BREAKER_MIN_CALLS: String(MIN_CALLS),
  CIRCUIT_BREAKER_HALF_OPEN_MS: String(HALF_OPEN_MS),
};

type CircuitKey = 'flood_data' | 'geocoder' | 'geocoder_point';

async function circuitsOf(stack: Stack): Promise<Record<CircuitKey, string>> {
  const { upstreams } = (await apiGet(stack.url, '/health')).body as { upstreams: Record<string, { circuit: string }> };
  return { flood_data: upstreams.flood_data.circuit, geocoder: upstreams.geocoder.circuit, geocoder_point: upstreams.geocoder_point.circuit };
}

async function circuitGauge(stack: Stack, circuit: CircuitKey): Promise<number> {
  const text = await (await fetch(`${stack.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`upstream_circuit_state{upstream="${circuit}"}`));
  return Number(line?.split(' ')[1]);
}

/** NFHL queries at any of these points (the service sends `geometry=lon,lat`). */
function queriesAt(places: ReadonlyArray<{ lat: number; lon: number }>): (call: CallRecord) => boolean {
  return (call) => {
    const [lon, lat] = (call.query.geometry ?? '').split(',').map(Number);
    return places.some((p) => Math.abs(p.lon - lon) < 1e-7 && Math.abs(p.lat - lat) < 1e-7);
  };
}

describe('circuit breakers judge outages, not answers', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(BREAKER);
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.emulators.resetCalls());
  afterEach(() => stack.emulators.clearFaults());

  it('never opens on ArcGIS "Failed to execute query" at many different points: the next healthy lookup is 200', async () => {
    const failing = otherPlaces.slice(0, 3 * MIN_CALLS);
    stack.emulators.nfhl.injectFault({ kind: 'arcgis-error', code: 400, message: 'Failed to execute query.', match: queriesAt(failing) });
    for (const place of failing) {
      const res = await apiGet(stack.url, at(place));
      expect(res.status).toBe(502);
      expect(res.body.upstream).toBe('flood_data');
    }
    expect((await circuitsOf(stack)).flood_data).toBe('closed');
    const healthy = await apiGet(stack.url, at(dc));
    expect(healthy.status).toBe(200);
    expect(healthy.body.result.floodZone).toBe('AE');
  });

  it('never opens on malformed JSON or Census errors arrays at many points', async () => {
    const failing = otherPlaces.slice(0, 2 * MIN_CALLS);
    stack.emulators.nfhl.injectFault({ kind: 'malformed-json', match: queriesAt(failing) });
    stack.emulators.census.injectFault({ kind: 'errors-array', errors: ['Invalid address'], match: 'onelineaddress' });
    for (const place of failing) expect((await apiGet(stack.url, at(place))).status).toBe(502);
    for (let i = 0; i < 2 * MIN_CALLS; i += 1) {
      const res = await apiGet(stack.url, addressQuery(dc.address as string));
      expect(res.status).toBe(502);
      expect(res.body.upstream).toBe('geocoder');
    }
    expect(await circuitsOf(stack)).toEqual({ flood_data: 'closed', geocoder: 'closed', geocoder_point: 'closed' });
    stack.emulators.clearFaults();
    expect((await apiGet(stack.url, addressQuery(dc.address as string))).status).toBe(200);
  });

  it('reads Census outside its coverage (empty layers, 404 with or without a body, an HTML 404, {}) as "no county here"', async () => {
    const outsideCoverage: Fault[] = [
      { kind: 'http-status', status: 404 },
      { kind: 'http-status', status: 404, body: '' },
      { kind: 'http-status', status: 404, body: {} },
      { kind: 'empty-object' },
    ];
    let lookups = 0;
    for (const fault of outsideCoverage) {
      stack.emulators.census.injectFault({ ...fault, match: 'coordinates' });
      for (let i = 0; i < MIN_CALLS; i += 1) {
        const res = await apiGet(stack.url, at(dc));
        expect(res.status).toBe(200);
        expect(res.body.result.floodZone).toBe('AE');
        expect(res.body.location).toEqual(expect.objectContaining({ county: null, countyFips: null, zip: null }));
        lookups += 1;
      }
      stack.emulators.clearFaults();
    }
    for (let i = 0; i < MIN_CALLS; i += 1) {
      const res = await apiGet(stack.url, at(outsideUs));
      expect(res.status).toBe(200);
      expect(res.body.location).toEqual(expect.objectContaining({ county: null, countyFips: null, zip: null }));
      lookups += 1;
    }
    // every lookup asked Census: none was failed fast
    expect(stack.emulators.census.callCount({ endpoint: 'coordinates' })).toBe(lookups);
    expect(await circuitsOf(stack)).toEqual({ flood_data: 'closed', geocoder: 'closed', geocoder_point: 'closed' });

    for (const place of addressed) {
      const res = await apiGet(stack.url, addressQuery(place.address as string));
      expect(res.status).toBe(200);
      expect(res.body.location.county).toBe(place.expect.county);
    }
    const inside = await apiGet(stack.url, at(dc));
    expect(inside.body.location).toEqual(expect.objectContaining({ county: dc.expect.county, countyFips: dc.expect.countyFips }));
  });
});

describe('a few outages under low traffic never open a circuit', () => {
  it('5xx at fewer than CIRCUIT_BREAKER_MIN_CALLS points in a row, then a healthy lookup: 200', async () => {
    const stack = await startStack(BREAKER);
    try {
      const failing = otherPlaces.slice(0, MIN_CALLS - 1);
      stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: queriesAt(failing) });
      for (const place of failing) expect((await apiGet(stack.url, at(place))).status).toBe(502);
      const healthy = await apiGet(stack.url, at(dc));
      expect(healthy.status).toBe(200);
      expect(healthy.body.result.floodZone).toBe('AE');
      expect((await circuitsOf(stack)).flood_data).toBe('closed');
    } finally {
      await stack.close();
    }
  });
});

describe('an outage opens the circuit', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(BREAKER);
    // one healthy lookup first (it also resolves the layer ids): the window now holds 1 success
    expect((await apiGet(stack.url, at(dc))).status).toBe(200);
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.emulators.resetCalls());

  it('opens once the window holds CIRCUIT_BREAKER_MIN_CALLS calls and at least CIRCUIT_BREAKER_FAILURE_RATE of them were outages; then fails fast without calling FEMA', async () => {
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503 });
    const places = otherPlaces.slice(0, MIN_CALLS - 1);
    for (const [i, place] of places.entries()) {
      expect(await circuitsOf(stack)).toEqual({ flood_data: 'closed', geocoder: 'closed', geocoder_point: 'closed' });
      const failed = await apiGet(stack.url, at(place));
      expect({ i, status: failed.status, upstream: failed.body.upstream }).toEqual({ i, status: 502, upstream: 'flood_data' });
    }
    expect(await circuitsOf(stack)).toEqual({ flood_data: 'open', geocoder: 'closed', geocoder_point: 'closed' });
    expect(await circuitGauge(stack, 'flood_data')).toBe(1);
    expect(await circuitGauge(stack, 'geocoder')).toBe(0);

    const callsWhenOpened = stack.emulators.nfhl.callCount();
    const fast = await apiGet(stack.url, at(dc));
    expect(fast.status).toBe(502);
    expect(fast.body.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(fast.body.upstream).toBe('flood_data');
    expect(fast.headers.get('retry-after')).toBe('5');
    expect(stack.emulators.nfhl.callCount()).toBe(callsWhenOpened);
  });

  it('probes after CIRCUIT_BREAKER_HALF_OPEN_MS and closes when FEMA answers', async () => {
    expect((await circuitsOf(stack)).flood_data).toBe('open');
    stack.emulators.clearFaults();
    await sleep(HALF_OPEN_MS + 50);
    const recovered = await apiGet(stack.url, at(dc));
    expect(recovered.status).toBe(200);
    expect(recovered.body.result.floodZone).toBe('AE');
    expect((await circuitsOf(stack)).flood_data).toBe('closed');
    expect(await circuitGauge(stack, 'flood_data')).toBe(0);
  });

  it('re-opens when the probe meets the outage again (connection resets)', async () => {
    stack.emulators.nfhl.injectFault({ kind: 'reset' });
    // closing cleared the window: MIN_CALLS outages open it again
    for (const place of otherPlaces.slice(0, MIN_CALLS)) expect((await apiGet(stack.url, at(place))).status).toBe(502);
    expect((await circuitsOf(stack)).flood_data).toBe('open');

    await sleep(HALF_OPEN_MS + 50);
    stack.emulators.resetCalls();
    expect((await apiGet(stack.url, at(dc))).status).toBe(502);
    expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(1);
    expect((await circuitsOf(stack)).flood_data).toBe('open');
    expect((await apiGet(stack.url, at(dc))).status).toBe(502);
    expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(1);

    stack.emulators.clearFaults();
    await sleep(HALF_OPEN_MS + 50);
    expect((await apiGet(stack.url, at(dc))).status).toBe(200);
    expect((await circuitsOf(stack)).flood_data).toBe('closed');
  });
});

describe('address geocoding and the county of a point have separate circuits', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(BREAKER);
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.emulators.resetCalls());
  afterEach(() => stack.emulators.clearFaults());

  it('an address outage opens `geocoder` only: lat/lon lookups still get their county', async () => {
    stack.emulators.census.injectFault({ kind: 'http-status', status: 500, match: 'onelineaddress' });
    for (let i = 0; i < MIN_CALLS; i += 1) {
      const failed = await apiGet(stack.url, addressQuery(dc.address as string));
      expect(failed.status).toBe(502);
      expect(failed.body.upstream).toBe('geocoder');
    }
    expect(await circuitsOf(stack)).toEqual({ flood_data: 'closed', geocoder: 'open', geocoder_point: 'closed' });
    expect(await circuitGauge(stack, 'geocoder')).toBe(1);
    expect(await circuitGauge(stack, 'geocoder_point')).toBe(0);

    stack.emulators.resetCalls();
    expect((await apiGet(stack.url, addressQuery(dc.address as string))).status).toBe(502);
    expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(0);
    const byPoint = await apiGet(stack.url, at(dc));
    expect(byPoint.status).toBe(200);
    expect(byPoint.body.location).toEqual(expect.objectContaining({ county: dc.expect.county, countyFips: dc.expect.countyFips }));
    expect(stack.emulators.census.callCount({ endpoint: 'coordinates' })).toBe(1);
  });

  it('a county-lookup outage opens `geocoder_point` only: address lookups still geocode, and recover on their own', async () => {
    stack.emulators.census.injectFault({ kind: 'http-status', status: 503, match: 'coordinates' });
    for (let i = 0; i < MIN_CALLS; i += 1) {
      const res = await apiGet(stack.url, at(dc));
      expect(res.status).toBe(200);
      expect(res.body.location.county).toBeNull();
    }
    expect((await circuitsOf(stack)).geocoder_point).toBe('open');
    stack.emulators.resetCalls();
    expect((await apiGet(stack.url, at(dc))).body.location.county).toBeNull();
    expect(stack.emulators.census.callCount({ endpoint: 'coordinates' })).toBe(0);

    // the address circuit, opened by the previous test, probes and closes while the point circuit stays open
    await sleep(HALF_OPEN_MS + 50);
    const byAddress = await apiGet(stack.url, addressQuery(dc.address as string));
    expect(byAddress.status).toBe(200);
    expect(byAddress.body.location).toEqual(expect.objectContaining({ county: dc.expect.county, countyFips: dc.expect.countyFips }));
    expect(await circuitsOf(stack)).toEqual({ flood_data: 'closed', geocoder: 'closed', geocoder_point: 'open' });
    expect(await circuitGauge(stack, 'geocoder_point')).toBe(1);
  });
});

describe('resilience toward the upstreams', () => {
  describe('retries', () => {
    it('retries transient failures with backoff, up to UPSTREAM_RETRIES extra attempts', async () => {
      const stack = await startStack({ CACHE_TTL_SECONDS: '0', UPSTREAM_RETRIES: '2' });
      try {
        stack.emulators.nfhl.injectFault({ kind: 'reset', match: 'Flood Hazard Zones', times: 2 });
        const answer = await apiGet(stack.url, at(dc));
        expect(answer.status).toBe(200);
        expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(3);

        stack.emulators.resetCalls();
        stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'Flood Hazard Zones', times: 3 });
        expect((await apiGet(stack.url, at(dc))).status).toBe(502);
        expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(3);
      } finally {
        await stack.close();
      }
    });

    it('does not retry an ArcGIS error that is not transient', async () => {
      const stack = await startStack({ CACHE_TTL_SECONDS: '0', UPSTREAM_RETRIES: '3' });
      try {
        stack.emulators.nfhl.injectFault({ kind: 'arcgis-error', code: 400, message: 'Failed to execute query.', match: 'Flood Hazard Zones' });
        expect((await apiGet(stack.url, at(dc))).status).toBe(502);
        expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(1);
      } finally {
        await stack.close();
      }
    });

    it('gives up at LOOKUP_DEADLINE_MS even when retries and timeouts would allow more', async () => {
      const stack = await startStack({ CACHE_TTL_SECONDS: '0', UPSTREAM_RETRIES: '5', UPSTREAM_TIMEOUT_MS: '600', LOOKUP_DEADLINE_MS: '1000' });
      try {
        stack.emulators.nfhl.injectFault({ kind: 'delay', ms: 5000, match: 'Flood Hazard Zones' });
        const answer = await apiGet(stack.url, at(dc));
        expect(answer.status).toBe(502);
        expect(answer.body.upstream).toBe('flood_data');
        // Six tries of 600 ms were allowed; at most two fit before the deadline cut the lookup.
        expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBeLessThanOrEqual(2);
      } finally {
        await stack.close();
      }
    });
  });

  it('keeps at most UPSTREAM_MAX_CONCURRENCY calls in flight toward one upstream', async () => {
    const stack = await startStack({ CACHE_TTL_SECONDS: '0', GEOCODE_CACHE_TTL_SECONDS: '0', UPSTREAM_MAX_CONCURRENCY: '1' }, { latencyMs: 100 });
    try {
      await apiGet(stack.url, at(dc));
      // the same lookup makes the same layer queries each time (at least zones, panels, LOMRs, community)
      const queriesPerLookup = nfhlQueries(stack.emulators);
      expect(queriesPerLookup).toBeGreaterThanOrEqual(4);
      stack.emulators.resetCalls();
      const answer = await apiGet(stack.url, at(dc));
      expect(answer.status).toBe(200);
      // The layer queries of one lookup, one at a time: each starts after the previous answered.
      const arrivals = stack.emulators.nfhl.calls
        .filter((c) => c.endpoint === 'query')
        .map((c) => c.at)
        .sort((a, b) => a - b);
      expect(arrivals).toHaveLength(queriesPerLookup);
      for (let i = 1; i < arrivals.length; i += 1) expect(arrivals[i] - arrivals[i - 1]).toBeGreaterThanOrEqual(90);
    } finally {
      await stack.close();
    }
  });
});
