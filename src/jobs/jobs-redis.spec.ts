import { setTimeout as sleep } from 'node:timers/promises';
import { DisposableRedis } from '../../test/support/redis-server';
import { evictionPolicyOf, isRedisOutage, JOBS_REDIS_HEARTBEAT_MS, JOBS_REDIS_NOT_ANSWERING, JobsAvailability, JobsRedis, JobsState } from './jobs-redis';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const reply = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });

describe('isRedisOutage: a failure that says the jobs Redis is away or cannot serve now (a 503), not a fault of ours (a 500)', () => {
  it.each([
    ['connection refused', withCode('connect ECONNREFUSED 127.0.0.1:6379', 'ECONNREFUSED'), true],
    ['connection reset', withCode('read ECONNRESET', 'ECONNRESET'), true],
    ['host not found', withCode('getaddrinfo ENOTFOUND redis', 'ENOTFOUND'), true],
    ['a hung Redis: the command timed out', new Error('Command timed out'), true],
    ['the connection closed under the command', new Error('Connection is closed.'), true],
    ['disconnected, with no offline queue', new Error("Stream isn't writeable and enableOfflineQueue options is false"), true],
    [
      'given up after the retries',
      new Error('Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option for details.'),
      true,
    ],
    ['Redis still loading its data after a restart', reply('LOADING Redis is loading the dataset in memory'), true],
    ['Redis out of memory (noeviction at maxmemory)', reply("OOM command not allowed when used memory > 'maxmemory'."), true],
    ['a replica that cannot take writes', reply("READONLY You can't write against a read only replica."), true],
    ['a script of ours that fails', reply('ERR user_script:3: Script attempted to access nonexistent global variable'), false],
    ['a wrong type', reply('WRONGTYPE Operation against a key holding the wrong kind of value'), false],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'chunks')"), false],
    ['not an error', 'Command timed out', false],
  ])('%s → %s', (_case, error, outage) => {
    expect(isRedisOutage(error)).toBe(outage);
  });
});

describe('evictionPolicyOf: the maxmemory-policy INFO memory reports', () => {
  it.each([
    ['# Memory\r\nused_memory:1024\r\nmaxmemory:0\r\nmaxmemory_policy:noeviction\r\n', 'noeviction'],
    ['# Memory\r\nmaxmemory_policy:allkeys-lru\r\nallocator_frag_ratio:1.00\r\n', 'allkeys-lru'],
    ['# Memory\r\nused_memory:1024\r\n', undefined],
  ])('%j → %s', (info, policy) => {
    expect(evictionPolicyOf(info)).toBe(policy);
  });
});

/**
 * JobsRedis over a real Redis that hangs (SIGSTOP: its connection stays open and nothing answers): what it
 * says of the jobs must turn `unavailable` while the Redis is silent, and back to `ready` once it answers.
 */
describe('JobsRedis: a jobs Redis that hangs', () => {
  let redis: DisposableRedis;
  let jobsRedis: JobsRedis;
  beforeAll(async () => {
    redis = await DisposableRedis.start();
    jobsRedis = new JobsRedis(redis.url);
    await jobsRedis.onModuleInit();
  });
  afterAll(async () => {
    redis?.thaw();
    jobsRedis?.onApplicationShutdown();
    await redis?.stop();
  });

  /** The jobs' availability once it says `state`, read a bounded number of times (generous for a busy machine). */
  async function availabilityOnceIt(state: JobsState): Promise<JobsAvailability> {
    let now = jobsRedis.availability();
    for (let attempt = 0; attempt < 150 && now.state !== state; attempt++) {
      await sleep(100);
      now = jobsRedis.availability();
    }
    return now;
  }

  it("bounds the endpoints' wait on it to a second and the notice of a hang to two: one command timeout, and a ping a beat", () => {
    const { commandTimeout } = jobsRedis.endpointClient.options;
    expect(commandTimeout).toBeLessThanOrEqual(1000);
    expect(JOBS_REDIS_HEARTBEAT_MS + commandTimeout!).toBeLessThanOrEqual(2000);
  });

  it('says unavailable (not answering) while the Redis hangs, and ready again once it answers', async () => {
    expect(await availabilityOnceIt('ready')).toEqual({ state: 'ready', reason: null });
    redis.freeze();
    expect(await availabilityOnceIt('unavailable')).toEqual({ state: 'unavailable', reason: JOBS_REDIS_NOT_ANSWERING });
    redis.thaw();
    expect(await availabilityOnceIt('ready')).toEqual({ state: 'ready', reason: null });
  });
});
