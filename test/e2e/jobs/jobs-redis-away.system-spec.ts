/**
 * dist/main.js with a jobs Redis that is away (stopped), hung (SIGSTOP) or unfit for jobs (it evicts keys): every job
 * endpoint answers a prompt 503 JOBS_UNAVAILABLE with Retry-After, /health says so in its `jobs` entry,
 * nothing escapes the structured log, and jobs work again once the Redis is back or fixed.
 * Build first: `npm run build`.
 */
import { BuiltService } from '../../support/built-service';
import { DisposableRedis, redisCli } from '../../support/redis-server';
import { sleep } from '../../support/stack';

const JOBS = '/flood-zone/jobs';
const SOME_JOB = `${JOBS}/3f2b9c1e-7a4d-4e8b-9c61-0d5e2a7b4f18`;
/** A hang fails the test instead of stalling it (the bug: 500 after 15 and 30 s), with room for a busy machine. */
const PROMPT_MS = 5000;
/** Rows answered without any upstream call (latitude out of range): a job that needs only Redis to complete. */
const OFF_MAP_CSV = 'id,lat,lon\na,95,10\nb,95,11\n';

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function ask(service: BuiltService, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${service.url}${path}`, { ...init, signal: AbortSignal.timeout(PROMPT_MS) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const submit = (service: BuiltService) => ask(service, JOBS, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: OFF_MAP_CSV });

/** Every job endpoint, each asked once. */
const everyJobEndpoint = async (service: BuiltService) => [
  await submit(service),
  await ask(service, SOME_JOB),
  await ask(service, `${SOME_JOB}/results`),
  await ask(service, SOME_JOB, { method: 'DELETE' }),
];

/** The /health `jobs` entry once it says `state` (and a reason matching `reason`), asked until then a bounded number of times. */
async function jobsEntryOnceIt(service: BuiltService, state: string, reason?: RegExp): Promise<any> {
  let jobs;
  for (let attempt = 0; attempt < 100; attempt++) {
    jobs = (await ask(service, '/health')).body.jobs;
    if (jobs?.state === state && (!reason || reason.test(jobs.reason))) return jobs;
    await sleep(100);
  }
  throw new Error(`/health jobs never said ${state}: ${JSON.stringify(jobs)}`);
}

async function completed(service: BuiltService, id: string): Promise<any> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { body } = await ask(service, `${JOBS}/${id}`);
    if (body.status !== 'queued' && body.status !== 'running') return body;
    await sleep(100);
  }
  throw new Error(`job ${id} did not finish`);
}

function expectJobsUnavailable(answer: Answer, message: RegExp): void {
  expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 503, code: 'JOBS_UNAVAILABLE' });
  expect(answer.body.error).toMatch(message);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(answer.headers.get('cache-control')).toBe('no-store');
}

describe('a jobs Redis that stops', () => {
  let redis: DisposableRedis;
  let service: BuiltService;
  beforeAll(async () => {
    redis = await DisposableRedis.start();
    service = await BuiltService.start({ JOBS_REDIS_URL: redis.url, LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await service?.stop();
    await redis?.stop();
  });

  it('turns every job endpoint into a prompt 503 JOBS_UNAVAILABLE with Retry-After, says unavailable in /health, and comes back with it', async () => {
    expect(await jobsEntryOnceIt(service, 'ready')).toEqual({ state: 'ready', reason: null });
    await redis.stop();
    expect(await jobsEntryOnceIt(service, 'unavailable')).toEqual({ state: 'unavailable', reason: expect.stringMatching(/not answering/) });
    for (const answer of await everyJobEndpoint(service)) expectJobsUnavailable(answer, /not answering/);
    // The service itself goes on: liveness and readiness never depend on Redis.
    expect((await ask(service, '/health/ready')).status).toBe(200);

    await redis.resume();
    expect(await jobsEntryOnceIt(service, 'ready')).toEqual({ state: 'ready', reason: null });
    const submitted = await submit(service);
    expect(submitted.status).toBe(202);
    expect(await completed(service, submitted.body.id)).toEqual(expect.objectContaining({ status: 'completed', total: 2, done: 2 }));

    // Nothing written around the structured log (such as an ioredis or BullMQ error no one handled), and no error logged
    // but the 503s' request lines.
    expect(service.errorLines).toEqual([]);
    expect(service.logs().filter((line) => line.level >= 50 && line.res?.statusCode !== 503)).toEqual([]);
  });
});

describe('a jobs Redis that hangs (SIGSTOP: it keeps its connections and answers nothing)', () => {
  let redis: DisposableRedis;
  let service: BuiltService;
  beforeAll(async () => {
    redis = await DisposableRedis.start();
    service = await BuiltService.start({ JOBS_REDIS_URL: redis.url, LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    redis?.thaw();
    await service?.stop();
    await redis?.stop();
  });

  it('answers every job endpoint 503 JOBS_UNAVAILABLE with Retry-After, says unavailable in /health while it hangs, and comes back with it', async () => {
    expect(await jobsEntryOnceIt(service, 'ready')).toEqual({ state: 'ready', reason: null });
    redis.freeze();
    // Asked before the service can have noticed: the request meets the hung Redis itself, and still gets the 503.
    expectJobsUnavailable(await submit(service), /not answering/);
    expect(await jobsEntryOnceIt(service, 'unavailable')).toEqual({ state: 'unavailable', reason: expect.stringMatching(/not answering/) });
    for (const answer of await everyJobEndpoint(service)) expectJobsUnavailable(answer, /not answering/);
    expect((await ask(service, '/health/ready')).status).toBe(200);

    redis.thaw();
    expect(await jobsEntryOnceIt(service, 'ready')).toEqual({ state: 'ready', reason: null });
    const submitted = await submit(service);
    expect(submitted.status).toBe(202);
    expect(await completed(service, submitted.body.id)).toEqual(expect.objectContaining({ status: 'completed', total: 2, done: 2 }));

    expect(service.errorLines).toEqual([]);
    expect(service.logs().filter((line) => line.level >= 50 && line.res?.statusCode !== 503)).toEqual([]);
  });
});

describe('a jobs Redis that evicts keys (maxmemory-policy other than noeviction)', () => {
  let redis: DisposableRedis;
  let service: BuiltService;
  beforeAll(async () => {
    redis = await DisposableRedis.start();
    redisCli(redis.port, 'config', 'set', 'maxmemory-policy', 'allkeys-lru');
    service = await BuiltService.start({ JOBS_REDIS_URL: redis.url, LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await service?.stop();
    await redis?.stop();
  });

  it('is refused with one log line: jobs answer 503 until the policy is noeviction, then run', async () => {
    const refusal = /maxmemory-policy is allkeys-lru.*noeviction/;
    expect(await jobsEntryOnceIt(service, 'unavailable', refusal)).toEqual({ state: 'unavailable', reason: expect.stringMatching(refusal) });
    for (const answer of await everyJobEndpoint(service)) expectJobsUnavailable(answer, /noeviction/);

    redisCli(redis.port, 'config', 'set', 'maxmemory-policy', 'noeviction');
    expect(await jobsEntryOnceIt(service, 'ready')).toEqual({ state: 'ready', reason: null });
    const submitted = await submit(service);
    expect(submitted.status).toBe(202);
    expect(await completed(service, submitted.body.id)).toEqual(expect.objectContaining({ status: 'completed', total: 2, done: 2 }));

    const sayingSo = [...service.lines, ...service.errorLines].filter((line) => /allkeys-lru/.test(line));
    expect(sayingSo).toHaveLength(1);
    expect(JSON.parse(sayingSo[0])).toEqual(expect.objectContaining({ level: 50, msg: expect.stringMatching(/noeviction/) }));
  });
});
