import { DEMO_ADDRESSES, demoPlace } from '../../emulators';
import { apiGet } from '../../support/api-client';
import { sleep, Stack, startStack } from '../../support/stack';

const dc = demoPlace('dc-white-house-ae');
const renton = demoPlace('renton-x-shaded');
const at = (p: { lat: number; lon: number }) => `/flood-zone?lat=${p.lat}&lon=${p.lon}`;
const omitMapUrl = ({ femaMapUrl: _link, ...rest }: Record<string, unknown>) => rest;

describe('caching: Cache-Control, ETag and X-Cache', () => {
  describe('with the default TTLs', () => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack();
    });
    afterAll(() => stack.close());
    beforeEach(() => stack.emulators.resetCalls());

    it('answers a repeated lookup from the cache, with no upstream call and the original retrievedAt', async () => {
      const first = await apiGet(stack.url, at(dc));
      expect(first.status).toBe(200);
      expect(first.headers.get('x-cache')).toBe('MISS');
      const callsAfterFirst = stack.emulators.nfhl.totalCalls + stack.emulators.census.totalCalls;
      expect(callsAfterFirst).toBeGreaterThan(0);

      await sleep(20);
      const second = await apiGet(stack.url, at(dc));
      expect(second.status).toBe(200);
      expect(second.headers.get('x-cache')).toBe('HIT');
      expect(second.body.retrievedAt).toBe(first.body.retrievedAt);
      expect(second.body).toEqual(first.body);
      expect(stack.emulators.nfhl.totalCalls + stack.emulators.census.totalCalls).toBe(callsAfterFirst);
    });

    it('gives 200s public max-age of the seconds left and a strong ETag', async () => {
      const answer = await apiGet(stack.url, at(renton));
      const maxAge = Number(/^public, max-age=(\d+)$/.exec(answer.headers.get('cache-control') ?? '')?.[1]);
      // The lat/lon answer combines the flood entry (86400 s) and the county/ZCTA entry (604800 s).
      expect(maxAge).toBeGreaterThanOrEqual(86399);
      expect(maxAge).toBeLessThanOrEqual(86400);
      expect(answer.headers.get('etag')).toMatch(/^"[^"]+"$/);
    });

    it('counts max-age down as the entry ages', async () => {
      await apiGet(stack.url, at(demoPlace('renton-x-unshaded')));
      await sleep(2100);
      const later = await apiGet(stack.url, at(demoPlace('renton-x-unshaded')));
      expect(later.headers.get('x-cache')).toBe('HIT');
      const maxAge = Number(/max-age=(\d+)/.exec(later.headers.get('cache-control') ?? '')?.[1]);
      expect(maxAge).toBeLessThanOrEqual(86398);
      expect(maxAge).toBeGreaterThanOrEqual(86390);
    });

    it('answers 304 with no body to a matching If-None-Match, and 200 to a stale one', async () => {
      const first = await apiGet(stack.url, at(dc));
      const etag = first.headers.get('etag') as string;
      const notModified = await fetch(`${stack.url}${at(dc)}`, { headers: { 'If-None-Match': etag } });
      expect(notModified.status).toBe(304);
      expect(await notModified.text()).toBe('');
      expect(notModified.headers.get('etag')).toBe(etag);
      const listed = await fetch(`${stack.url}${at(dc)}`, { headers: { 'If-None-Match': `"other", W/${etag}` } });
      expect(listed.status).toBe(304);
      const changed = await apiGet(stack.url, at(dc), { 'If-None-Match': '"not-this-one"' });
      expect(changed.status).toBe(200);
      expect(changed.text.length).toBeGreaterThan(0);
    });

    it('marks errors no-store', async () => {
      for (const path of ['/flood-zone', '/flood-zone?lat=91&lon=0', `/flood-zone?address=${encodeURIComponent(DEMO_ADDRESSES.noMatch)}`]) {
        const answer = await apiGet(stack.url, path);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.headers.get('cache-control')).toBe('no-store');
        expect(answer.headers.get('x-cache')).toBe(answer.status === 404 ? 'MISS' : null);
      }
    });

    it('ignores parameter order, extra parameters and digits beyond the sixth decimal', async () => {
      const place = demoPlace('houston-ao');
      const first = await apiGet(stack.url, `/flood-zone?lat=${place.lat}&lon=${place.lon}`);
      expect(first.headers.get('x-cache')).toBe('MISS');
      stack.emulators.resetCalls();
      for (const path of [
        `/flood-zone?lon=${place.lon}&lat=${place.lat}`,
        `/flood-zone?lat=${place.lat}&lon=${place.lon}&_=12345`,
        `/flood-zone?lat=${place.lat.toFixed(6)}0&lon=${place.lon.toFixed(6)}00`,
        `/flood-zone?lat=${(place.lat + 0.0000001).toFixed(7)}&lon=${place.lon}`,
      ]) {
        const again = await apiGet(stack.url, path);
        expect(again.status).toBe(200);
        expect(again.headers.get('x-cache')).toBe('HIT');
        expect(again.body.retrievedAt).toBe(first.body.retrievedAt);
        const { femaMapUrl, ...sameResult } = again.body.result;
        expect(sameResult).toEqual(omitMapUrl(first.body.result));
        expect(femaMapUrl).toBe(`https://msc.fema.gov/portal/search?AddressQuery=${again.body.location.lat}%2C${again.body.location.lon}`);
      }
      expect(stack.emulators.nfhl.totalCalls + stack.emulators.census.totalCalls).toBe(0);
    });

    it('shares one geocode between spellings that differ only in spacing and case, and echoes each as sent', async () => {
      const first = await apiGet(stack.url, `/flood-zone?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}`);
      expect(first.status).toBe(200);
      stack.emulators.resetCalls();
      const respelled = `  ${DEMO_ADDRESSES.whiteHouse.toUpperCase().replace(/ /g, '   ')} `;
      const again = await apiGet(stack.url, `/flood-zone?address=${encodeURIComponent(respelled)}`);
      expect(again.status).toBe(200);
      expect(again.headers.get('x-cache')).toBe('HIT');
      expect(again.body.query.address).toBe(respelled);
      expect(again.body.location).toEqual(first.body.location);
      expect(stack.emulators.census.totalCalls).toBe(0);
      expect(stack.emulators.nfhl.totalCalls).toBe(0);
    });

    it('makes one upstream call per layer for 50 concurrent identical cold lookups', async () => {
      const place = demoPlace('menominee-overlap');
      stack.emulators.nfhl.setLatency(100);
      stack.emulators.census.setLatency(100);
      try {
        const answers = await Promise.all(Array.from({ length: 50 }, () => apiGet(stack.url, at(place))));
        expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
        expect(new Set(answers.map((a) => a.text)).size).toBe(1);
      } finally {
        stack.emulators.nfhl.setLatency(0);
        stack.emulators.census.setLatency(0);
      }
      const { nfhl, census } = stack.emulators;
      expect(nfhl.queryCount('floodHazardZones')).toBe(1);
      expect(nfhl.queryCount('firmPanels')).toBe(1);
      expect(nfhl.queryCount('lomrs')).toBe(1);
      expect(nfhl.queryCount('politicalJurisdictions')).toBe(1);
      expect(nfhl.queryCount('lomas')).toBe(1);
      expect(nfhl.queryCount('availability')).toBe(0);
      expect(census.callCount({ endpoint: 'coordinates' })).toBe(1);
    });

    it('makes one geocode for 50 concurrent identical cold address lookups', async () => {
      const address = encodeURIComponent(demoPlace('sacramento-a99').address as string);
      stack.emulators.census.setLatency(100);
      try {
        const answers = await Promise.all(Array.from({ length: 50 }, () => apiGet(stack.url, `/flood-zone?address=${address}`)));
        expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
      } finally {
        stack.emulators.census.setLatency(0);
      }
      expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(1);
      expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(1);
    });
  });

  describe('with caching disabled (CACHE_TTL_SECONDS=0, GEOCODE_CACHE_TTL_SECONDS=0)', () => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack({ CACHE_TTL_SECONDS: '0', GEOCODE_CACHE_TTL_SECONDS: '0' });
    });
    afterAll(() => stack.close());

    it('asks the upstreams every time and says max-age=0', async () => {
      await apiGet(stack.url, at(dc));
      stack.emulators.resetCalls();
      const again = await apiGet(stack.url, at(dc));
      expect(again.status).toBe(200);
      expect(again.headers.get('x-cache')).toBe('MISS');
      expect(again.headers.get('cache-control')).toBe('public, max-age=0');
      expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(1);
    });
  });

  describe('stale answers (STALE_IF_ERROR_SECONDS)', () => {
    const faultZones = (stack: Stack) => stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'Flood Hazard Zones' });

    it('serves an expired flood result with X-Cache STALE and its original retrievedAt when FEMA fails', async () => {
      const stack = await startStack({ CACHE_TTL_SECONDS: '1', STALE_IF_ERROR_SECONDS: '60', UPSTREAM_RETRIES: '0' });
      try {
        const fresh = await apiGet(stack.url, at(dc));
        expect(fresh.headers.get('x-cache')).toBe('MISS');
        await sleep(1100);
        faultZones(stack);
        const stale = await apiGet(stack.url, at(dc));
        expect(stale.status).toBe(200);
        expect(stale.headers.get('x-cache')).toBe('STALE');
        expect(stale.headers.get('cache-control')).toBe('public, max-age=0');
        expect(stale.body.retrievedAt).toBe(fresh.body.retrievedAt);
        expect(stale.body.result).toEqual(fresh.body.result);
        expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(2);
      } finally {
        await stack.close();
      }
    });

    it('never serves a stale answer unless asked to: the default is a 502', async () => {
      const stack = await startStack({ CACHE_TTL_SECONDS: '1', UPSTREAM_RETRIES: '0' });
      try {
        await apiGet(stack.url, at(dc));
        await sleep(1100);
        faultZones(stack);
        const failed = await apiGet(stack.url, at(dc));
        expect(failed.status).toBe(502);
        expect(failed.body.code).toBe('UPSTREAM_UNAVAILABLE');
        expect(failed.body.upstream).toBe('flood_data');
      } finally {
        await stack.close();
      }
    });

    it('does not serve an answer that expired longer ago than STALE_IF_ERROR_SECONDS', async () => {
      const stack = await startStack({ CACHE_TTL_SECONDS: '1', STALE_IF_ERROR_SECONDS: '1', UPSTREAM_RETRIES: '0' });
      try {
        await apiGet(stack.url, at(dc));
        await sleep(2300);
        faultZones(stack);
        const failed = await apiGet(stack.url, at(dc));
        expect(failed.status).toBe(502);
      } finally {
        await stack.close();
      }
    });
  });
});
