import { closedPort, DisposableRedis, redisAnswers, sharedRedis } from './redis-server';

/** The Redis helpers of the shared-cache suites, against real redis-server processes. */
describe('test Redis servers', () => {
  it('starts a disposable redis-server that answers PING until it is stopped', async () => {
    const redis = await DisposableRedis.start();
    try {
      expect(await redisAnswers(redis.port)).toBe(true);
      expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    } finally {
      await redis.stop();
    }
    expect(await redisAnswers(redis.port)).toBe(false);
  });

  it('sees no Redis on a closed port', async () => {
    expect(await redisAnswers(await closedPort())).toBe(false);
  });

  it('shares the Redis on 6379 when it answers, else runs its own', async () => {
    const onDefaultPort = await redisAnswers(6379);
    const shared = await sharedRedis();
    try {
      expect(shared.port === 6379).toBe(onDefaultPort);
      expect(await redisAnswers(shared.port)).toBe(true);
      expect(shared.url(7)).toBe(`redis://127.0.0.1:${shared.port}/7`);
    } finally {
      await shared.close();
    }
    expect(await redisAnswers(shared.port)).toBe(onDefaultPort);
  });

  it('fails, saying how to install Redis, when redis-server is not installed', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await expect(DisposableRedis.start()).rejects.toThrow(
        'No Redis answers on 127.0.0.1:6379 and redis-server is not installed: install Redis and run the tests again ' +
          '(Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis), or start one on 127.0.0.1:6379.',
      );
    } finally {
      process.env.PATH = path;
    }
  });
});
