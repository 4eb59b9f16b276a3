import { demoPlace, RunningEmulators, startEmulators } from '../../emulators';
import { apiGet } from '../../support/api-client';
import { RunningApp, startApp } from '../../support/app-harness';
import { BystanderKeys, closedPort, DisposableRedis } from '../../support/redis-server';

const lookup = `/flood-zone?lat=${demoPlace('dc-white-house-ae').lat}&lon=${demoPlace('dc-white-house-ae').lon}`;

describe('rate limiting (RATE_LIMIT_PER_MINUTE)', () => {
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

  describe('three lookups a minute per client', () => {
    let service: RunningApp;
    beforeAll(async () => {
      service = await startApp({ ...emulators.env, RATE_LIMIT_PER_MINUTE: '3' });
    });
    afterAll(() => service.close());

    it('counts down RateLimit-* headers, then answers 429 with the envelope and Retry-After', async () => {
      for (let remaining = 2; remaining >= 0; remaining -= 1) {
        const allowed = await apiGet(service.url, lookup);
        expect(allowed.status).toBe(200);
        expect(allowed.headers.get('ratelimit-limit')).toBe('3');
        expect(allowed.headers.get('ratelimit-remaining')).toBe(String(remaining));
        expect(Number(allowed.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      }
      const limited = await apiGet(service.url, lookup);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        error: expect.stringContaining('Too many requests'),
        statusCode: 429,
        code: 'RATE_LIMITED',
        requestId: limited.headers.get('x-request-id'),
      });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(limited.headers.get('cache-control')).toBe('no-store');
    });

    it('never limits the probes or the metrics', async () => {
      for (let i = 0; i < 10; i += 1) {
        for (const path of ['/health', '/health/ready', '/metrics']) {
          const answer = await fetch(`${service.url}${path}`);
          expect(answer.status).toBe(200);
          expect(answer.headers.get('ratelimit-limit')).toBeNull();
        }
      }
    });

    it('ignores X-Forwarded-For unless TRUST_PROXY is set (a client cannot choose its identity)', async () => {
      const spoofed = await apiGet(service.url, lookup, { 'X-Forwarded-For': '203.0.113.9' });
      expect(spoofed.status).toBe(429);
    });
  });

  it('limits each client IP separately behind a trusted proxy (TRUST_PROXY=true)', async () => {
    const service = await startApp({ ...emulators.env, RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: 'true' });
    try {
      expect((await apiGet(service.url, lookup, { 'X-Forwarded-For': '203.0.113.1' })).status).toBe(200);
      expect((await apiGet(service.url, lookup, { 'X-Forwarded-For': '203.0.113.1' })).status).toBe(429);
      expect((await apiGet(service.url, lookup, { 'X-Forwarded-For': '203.0.113.2' })).status).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('shares counts between replicas through Redis', async () => {
    const redis = await DisposableRedis.start();
    const env = { ...emulators.env, RATE_LIMIT_PER_MINUTE: '3', REDIS_URL: redis.url };
    const first = await startApp(env);
    const second = await startApp(env);
    try {
      for (const [service, remaining] of [
        [first, '2'],
        [first, '1'],
        [second, '0'],
      ] as const) {
        const allowed = await apiGet(service.url, lookup);
        expect(allowed.status).toBe(200);
        expect(allowed.headers.get('ratelimit-limit')).toBe('3');
        expect(allowed.headers.get('ratelimit-remaining')).toBe(remaining);
        expect(Number(allowed.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
        expect(Number(allowed.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60);
      }
      const limited = await apiGet(second.url, lookup);
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    } finally {
      await first.close();
      await second.close();
      await redis.stop();
    }
  });

  it('keeps limiting, locally and without errors, when Redis is unreachable', async () => {
    const service = await startApp({ ...emulators.env, RATE_LIMIT_PER_MINUTE: '2', REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    try {
      expect((await apiGet(service.url, lookup)).status).toBe(200);
      expect((await apiGet(service.url, lookup)).status).toBe(200);
      expect((await apiGet(service.url, lookup)).status).toBe(429);
    } finally {
      await service.close();
    }
  });

  it('leaves alone a key someone else keeps in the Redis on 127.0.0.1:6379', () => {
    expect(bystander.survivors()).toEqual(['0', '7', '8']);
  });
});
