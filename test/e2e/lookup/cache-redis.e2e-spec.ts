import { DEMO_ADDRESSES, demoPlace, RunningEmulators, startEmulators } from '../../emulators';
import { apiGet } from '../../support/api-client';
import { RunningApp, startApp } from '../../support/app-harness';
import { BystanderKeys, closedPort, DisposableRedis, redisCli } from '../../support/redis-server';
import { sleep } from '../../support/stack';

/**
 * The shared cache against real redis-server processes of the suite's own, on free ports (never anyone
 * else's Redis). Without redis-server installed the suite fails and says how to install it.
 */
const at = (p: { lat: number; lon: number }) => `/flood-zone?lat=${p.lat}&lon=${p.lon}`;
const upstreamCalls = (e: RunningEmulators) => e.nfhl.totalCalls + e.census.totalCalls;

describe('shared cache in Redis (REDIS_URL)', () => {
  let emulators: RunningEmulators;
  let bystander: BystanderKeys;
  beforeAll(async () => {
    bystander = await BystanderKeys.plant();
    emulators = await startEmulators();
  });
  afterAll(async () => {
    await emulators?.close();
    await bystander?.remove();
  });
  beforeEach(() => emulators.resetCalls());

  describe('two replicas sharing one Redis', () => {
    let redis: DisposableRedis;
    let first: RunningApp;
    let second: RunningApp;
    beforeAll(async () => {
      redis = await DisposableRedis.start();
      const env = { ...emulators.env, REDIS_URL: redis.url };
      first = await startApp(env);
      second = await startApp(env);
    });
    afterAll(async () => {
      await first?.close();
      await second?.close();
      await redis?.stop();
    });

    it("serves one replica's flood result to the other without calling FEMA", async () => {
      const place = demoPlace('toa-baja-ae');
      const miss = await apiGet(first.url, at(place));
      expect(miss.headers.get('x-cache')).toBe('MISS');
      expect(emulators.nfhl.queryCount('floodHazardZones')).toBe(1);
      await sleep(50);
      emulators.resetCalls();

      const hit = await apiGet(second.url, at(place));
      expect(hit.status).toBe(200);
      expect(hit.headers.get('x-cache')).toBe('HIT');
      expect(hit.body.retrievedAt).toBe(miss.body.retrievedAt);
      expect(hit.body.result).toEqual(miss.body.result);
      expect(hit.body.location).toEqual(miss.body.location);
      expect(upstreamCalls(emulators)).toBe(0);
    });

    it("serves one replica's geocode to the other without calling Census", async () => {
      const path = `/flood-zone?address=${encodeURIComponent(DEMO_ADDRESSES.nearDuplicate)}`;
      const miss = await apiGet(first.url, path);
      expect(miss.status).toBe(200);
      await sleep(50);
      emulators.resetCalls();
      const hit = await apiGet(second.url, path);
      expect(hit.headers.get('x-cache')).toBe('HIT');
      expect(hit.body.location).toEqual(miss.body.location);
      expect(upstreamCalls(emulators)).toBe(0);
    });

    it('keeps its entries in Redis with a TTL', () => {
      const keys = redisCli(redis.port, 'keys', '*').split('\n').filter(Boolean);
      expect(keys.length).toBeGreaterThanOrEqual(3);
      const floodKey = keys.find((k) => k.includes('flood:'));
      expect(floodKey).toBeDefined();
      const ttl = Number(redisCli(redis.port, 'pttl', floodKey as string));
      expect(ttl).toBeGreaterThan(86_000_000);
      expect(ttl).toBeLessThanOrEqual(86_400_000);
    });
  });

  it('answers every lookup when REDIS_URL points at a closed port, caching in memory', async () => {
    const service = await startApp({ ...emulators.env, REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    try {
      const places = ['houston-a', 'houston-ah', 'sacramento-d', 'renton-ae-floodway'].map(demoPlace);
      for (const place of places) {
        const miss = await apiGet(service.url, at(place));
        expect(miss.status).toBe(200);
        expect(miss.headers.get('x-cache')).toBe('MISS');
        const hit = await apiGet(service.url, at(place));
        expect(hit.status).toBe(200);
        expect(hit.headers.get('x-cache')).toBe('HIT');
      }
      expect(emulators.nfhl.queryCount('floodHazardZones')).toBe(places.length);
    } finally {
      await service.close();
    }
  });

  it('keeps answering while Redis is stopped and shares again once it is back', async () => {
    const redis = await DisposableRedis.start();
    const first = await startApp({ ...emulators.env, REDIS_URL: redis.url });
    const second = await startApp({ ...emulators.env, REDIS_URL: redis.url });
    try {
      const before = demoPlace('houston-x-shaded');
      await apiGet(first.url, at(before));
      await sleep(50);
      expect((await apiGet(second.url, at(before))).headers.get('x-cache')).toBe('HIT');

      await redis.stop();
      const during = ['houston-x-unshaded', 'houston-ae-floodway', 'sacramento-ar'].map(demoPlace);
      for (const place of during) {
        for (const service of [first, second, first]) {
          const answer = await apiGet(service.url, at(place));
          expect(answer.status).toBe(200);
          expect(answer.body.result.coverage).toBe('mapped');
        }
      }

      await redis.resume();
      // The clients reconnect on their own (backoff of at most 2 s); then sharing resumes.
      const after = ['menominee-v', 'menominee-ve', 'pr-ae-meters', 'pr-ae-centimeters', 'pr-ae-datum-9999', 'renton-x-unshaded'].map(demoPlace);
      let shared = false;
      for (const place of after) {
        await sleep(1000);
        await apiGet(first.url, at(place));
        await sleep(50);
        const answer = await apiGet(second.url, at(place));
        expect(answer.status).toBe(200);
        if (answer.headers.get('x-cache') === 'HIT') {
          shared = true;
          break;
        }
      }
      expect(shared).toBe(true);
    } finally {
      await first.close();
      await second.close();
      await redis.stop();
    }
  });

  it('leaves alone a key someone else keeps in the Redis on 127.0.0.1:6379', () => {
    expect(bystander.survivors()).toEqual(['0', '7', '8']);
  });
});
