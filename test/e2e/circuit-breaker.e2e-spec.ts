import { demoPlace } from '../emulators';
import { apiGet } from '../support/api-client';
import { nfhlQueries, sleep, Stack, startStack } from '../support/stack';

const at = (p: { lat: number; lon: number }) => `/flood-zone?lat=${p.lat}&lon=${p.lon}`;
const dc = demoPlace('dc-white-house-ae');

async function circuitOf(stack: Stack, upstream: 'flood_data' | 'geocoder'): Promise<string> {
  return (await apiGet(stack.url, '/health')).body.upstreams[upstream].circuit;
}

async function circuitGauge(stack: Stack, upstream: string): Promise<number> {
  const text = await (await fetch(`${stack.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`upstream_circuit_state{upstream="${upstream}"}`));
  return Number(line?.split(' ')[1]);
}

describe('resilience toward the upstreams', () => {
  describe('circuit breaker per upstream', () => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack({
        CACHE_TTL_SECONDS: '0',
        GEOCODE_CACHE_TTL_SECONDS: '0',
        UPSTREAM_RETRIES: '0',
        CIRCUIT_BREAKER_THRESHOLD: '3',
        CIRCUIT_BREAKER_HALF_OPEN_MS: '400',
      });
    });
    afterAll(() => stack.close());
    beforeEach(() => {
      stack.emulators.clearFaults();
      stack.emulators.resetCalls();
    });

    it('opens after repeated failed lookups, then fails fast without calling FEMA', async () => {
      stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'Flood Hazard Zones' });
      for (let i = 0; i < 3; i += 1) {
        const failed = await apiGet(stack.url, at(dc));
        expect(failed.status).toBe(502);
        expect(failed.body.upstream).toBe('flood_data');
      }
      expect(await circuitOf(stack, 'flood_data')).toBe('open');
      expect(await circuitGauge(stack, 'flood_data')).toBe(1);
      expect(await circuitOf(stack, 'geocoder')).toBe('closed');

      const callsWhenOpened = nfhlQueries(stack.emulators);
      const fast = await apiGet(stack.url, at(dc));
      expect(fast.status).toBe(502);
      expect(fast.body.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(fast.body.upstream).toBe('flood_data');
      expect(fast.headers.get('retry-after')).toBe('5');
      expect(nfhlQueries(stack.emulators)).toBe(callsWhenOpened);
    });

    it('probes half-open after the pause and closes again when FEMA answers', async () => {
      expect(await circuitOf(stack, 'flood_data')).toBe('open');
      await sleep(450);
      const recovered = await apiGet(stack.url, at(dc));
      expect(recovered.status).toBe(200);
      expect(recovered.body.result.floodZone).toBe('AE');
      expect(await circuitOf(stack, 'flood_data')).toBe('closed');
      expect(await circuitGauge(stack, 'flood_data')).toBe(0);
    });

    it('re-opens when the half-open probe fails', async () => {
      stack.emulators.nfhl.injectFault({ kind: 'reset', match: 'Flood Hazard Zones' });
      for (let i = 0; i < 3; i += 1) expect((await apiGet(stack.url, at(dc))).status).toBe(502);
      expect(await circuitOf(stack, 'flood_data')).toBe('open');
      await sleep(450);
      stack.emulators.resetCalls();
      expect((await apiGet(stack.url, at(dc))).status).toBe(502);
      expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(1);
      expect(await circuitOf(stack, 'flood_data')).toBe('open');
      stack.emulators.clearFaults();
      await sleep(450);
      expect((await apiGet(stack.url, at(dc))).status).toBe(200);
    });

    it('keeps one breaker per upstream: a failing geocoder does not stop coordinate lookups', async () => {
      stack.emulators.census.injectFault({ kind: 'http-status', status: 500 });
      for (let i = 0; i < 3; i += 1) {
        const failed = await apiGet(stack.url, `/flood-zone?address=${encodeURIComponent(dc.address as string)}`);
        expect(failed.status).toBe(502);
        expect(failed.body.upstream).toBe('geocoder');
      }
      expect(await circuitOf(stack, 'geocoder')).toBe('open');
      const byPoint = await apiGet(stack.url, at(dc));
      expect(byPoint.status).toBe(200);
      expect(byPoint.body.result.floodZone).toBe('AE');
      expect(byPoint.body.location.county).toBeNull();
      stack.emulators.clearFaults();
      await sleep(450);
      expect((await apiGet(stack.url, `/flood-zone?address=${encodeURIComponent(dc.address as string)}`)).status).toBe(200);
      expect(await circuitOf(stack, 'geocoder')).toBe('closed');
    });
  });

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
        const started = Date.now();
        const answer = await apiGet(stack.url, at(dc));
        expect(answer.status).toBe(502);
        expect(answer.body.upstream).toBe('flood_data');
        expect(Date.now() - started).toBeLessThan(2500);
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
      stack.emulators.resetCalls();
      const answer = await apiGet(stack.url, at(dc));
      expect(answer.status).toBe(200);
      // Four layer queries of one lookup, one at a time: each starts after the previous answered.
      const arrivals = stack.emulators.nfhl.calls.filter((c) => c.endpoint === 'query').map((c) => c.at).sort((a, b) => a - b);
      expect(arrivals).toHaveLength(4);
      for (let i = 1; i < arrivals.length; i += 1) expect(arrivals[i] - arrivals[i - 1]).toBeGreaterThanOrEqual(90);
    } finally {
      await stack.close();
    }
  });
});
