import { DEMO_ADDRESSES, demoPlace, RunningEmulators, startEmulators } from '../../emulators';
import { apiRequest } from '../../support/api-client';
import { RunningApp, startApp } from '../../support/app-harness';
import { DisposableRedis } from '../../support/redis-server';
import { sleep } from '../../support/stack';

/**
 * A hung Redis (SIGSTOP: its connections stay open and nothing answers) under the shared cache and the rate
 * limit. Every lookup, cached or cold, and every refusal still comes promptly, cached and counted locally;
 * once Redis answers again the replicas share both again.
 */
/** One Redis command timeout of extra wait at most, with room for a busy test machine (the bug: 40 s). */
const PROMPT_MS = 2000;
const at = (p: { lat: number; lon: number }) => `/flood-zone?lat=${p.lat}&lon=${p.lon}`;

let clientCount = 0;
/** A client address of its own (TRUST_PROXY is set), so each test step starts with a fresh rate limit. */
const newClient = () => ({ 'X-Forwarded-For': `203.0.113.${(clientCount += 1)}` });

/** A request that must be answered within PROMPT_MS: a hang fails the test instead of stalling it. */
const promptly = (url: string, path: string, headers: Record<string, string>) => apiRequest(url, path, { headers, signal: AbortSignal.timeout(PROMPT_MS) });

describe('a hung Redis (REDIS_URL, RATE_LIMIT_PER_MINUTE)', () => {
  let emulators: RunningEmulators;
  let redis: DisposableRedis;
  let first: RunningApp;
  let second: RunningApp;
  beforeAll(async () => {
    emulators = await startEmulators();
    redis = await DisposableRedis.start();
    const env = { ...emulators.env, REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: 'true' };
    first = await startApp(env);
    second = await startApp(env);
  });
  afterAll(async () => {
    redis?.thaw();
    await first?.close();
    await second?.close();
    await redis?.stop();
    await emulators?.close();
  });

  it('answers cached and cold lookups and refuses a client over its limit promptly while Redis hangs', async () => {
    const cached = at(demoPlace('houston-a'));
    expect((await promptly(first.url, cached, newClient())).headers.get('x-cache')).toBe('MISS');
    expect((await promptly(first.url, cached, newClient())).headers.get('x-cache')).toBe('HIT');
    redis.freeze();

    for (let i = 0; i < 3; i += 1) {
      const hit = await promptly(first.url, cached, newClient());
      expect(hit.status).toBe(200);
      expect(hit.headers.get('x-cache')).toBe('HIT');
      expect(hit.headers.get('ratelimit-limit')).toBe('2');
      expect(hit.headers.get('ratelimit-remaining')).toBe('1');
    }
    const cold = [
      at(demoPlace('sacramento-d')),
      at(demoPlace('renton-ae-floodway')),
      `/flood-zone?address=${encodeURIComponent(DEMO_ADDRESSES.nearDuplicate)}`,
    ];
    for (const path of cold) {
      const miss = await promptly(second.url, path, newClient());
      expect(miss.status).toBe(200);
      expect(miss.headers.get('x-cache')).toBe('MISS');
      expect(miss.body.result.coverage).toBe('mapped');
    }

    const client = newClient();
    expect((await promptly(first.url, cached, client)).headers.get('ratelimit-remaining')).toBe('1');
    expect((await promptly(first.url, cached, client)).headers.get('ratelimit-remaining')).toBe('0');
    const limited = await promptly(first.url, cached, client);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('shares the cache and the rate limits between replicas again once Redis answers', async () => {
    redis.thaw();
    // A replica tries Redis again a couple of seconds after it stopped answering.
    const places = ['menominee-v', 'menominee-ve', 'pr-ae-meters', 'pr-ae-centimeters', 'pr-ae-datum-9999', 'renton-x-unshaded'].map(demoPlace);
    let cacheShared = false;
    let limitShared = false;
    for (const place of places) {
      await sleep(1000);
      await promptly(first.url, at(place), newClient());
      await sleep(50);
      cacheShared ||= (await promptly(second.url, at(place), newClient())).headers.get('x-cache') === 'HIT';
      const client = newClient();
      await promptly(first.url, at(place), client);
      limitShared ||= (await promptly(second.url, at(place), client)).headers.get('ratelimit-remaining') === '0';
      if (cacheShared && limitShared) break;
    }
    expect({ cacheShared, limitShared }).toEqual({ cacheShared: true, limitShared: true });
  });
});
