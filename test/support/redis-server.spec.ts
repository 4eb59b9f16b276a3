import { BystanderKeys, closedPort, DisposableRedis, redisAnswers, redisCli } from './redis-server';

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

  it('freezes a server so that it accepts connections but answers nothing, then thaws it with its keys', async () => {
    const redis = await DisposableRedis.start();
    try {
      redisCli(redis.port, 'set', 'kept', 'yes');
      redis.freeze();
      expect(await redisAnswers(redis.port)).toBe(false);
      redis.thaw();
      expect(await redisAnswers(redis.port)).toBe(true);
      expect(redisCli(redis.port, 'get', 'kept')).toBe('yes');
    } finally {
      await redis.stop();
    }
  });

  it("tells which databases of 127.0.0.1:6379 still hold someone else's key", async () => {
    const onDefaultPort = await redisAnswers(6379);
    const bystander = await BystanderKeys.plant();
    try {
      expect(bystander.survivors()).toEqual(['0', '7', '8']);
      // Its own key, not any: suites running beside this one plant theirs in the same databases.
      expect(redisCli(6379, '-n', '7', 'del', bystander.key)).toBe('1');
      expect(bystander.survivors()).toEqual(['0', '8']);
    } finally {
      await bystander.remove();
    }
    expect(await redisAnswers(6379)).toBe(onDefaultPort);
  });

  it('fails, saying how to install Redis, when redis-server is not installed', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await expect(DisposableRedis.start()).rejects.toThrow(
        'redis-server is not installed: install Redis and run the tests again (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis).',
      );
    } finally {
      process.env.PATH = path;
    }
  });
});
