/**
 * The job budget is a ceiling at every instant: three service processes (dist/main.js) sharing one Redis budget
 * answer a portfolio while FEMA stalls for a few seconds in the middle, and no sliding second at any emulator
 * holds more job calls than JOB_UPSTREAM_RATE_PER_SECOND, before, during or after the stall. (A turn is taken
 * when a call is sent: turns are not taken while calls wait for a slot, to be spent together once it clears.)
 */
import { DEMO_PLACES, startEmulators, type RunningEmulators } from '../../emulators';
import { BuiltService } from '../../support/built-service';
import { DisposableRedis } from '../../support/redis-server';
import { busiestSlidingSecond } from '../../support/sliding-second';
import { sleep } from '../../support/stack';

const JOBS = '/flood-zone/jobs';
const RATE = 50;
const DISTINCT_POINTS = 240;
/** Six chunks of 1,000 rows: one for each of the six workers of the three processes. */
const ROWS = 6000;
const STALL_MS = 4000;

/** `DISTINCT_POINTS` points near the demo places, each a place of its own for the caches. */
const POINTS = Array.from({ length: DISTINCT_POINTS }, (_, i) => {
  const place = DEMO_PLACES[i % DEMO_PLACES.length];
  return { lat: place.lat, lon: Number((place.lon + Math.floor(i / DEMO_PLACES.length) * 0.0001).toFixed(6)) };
});
const PORTFOLIO = `id,lat,lon\n${Array.from({ length: ROWS }, (_, r) => `r${r},${POINTS[r % DISTINCT_POINTS].lat},${POINTS[r % DISTINCT_POINTS].lon}`).join('\n')}\n`;

let emulators: RunningEmulators;
let redis: DisposableRedis;
let services: BuiltService[] = [];

beforeAll(async () => {
  emulators = await startEmulators({ latencyMs: 10 });
  redis = await DisposableRedis.start();
  const env = {
    ...emulators.env,
    JOBS_REDIS_URL: redis.url,
    REDIS_URL: redis.url,
    JOB_UPSTREAM_RATE_PER_SECOND: String(RATE),
    JOB_WORKERS: '2',
    LOG_LEVEL: 'warn',
  };
  services = [await BuiltService.start(env), await BuiltService.start(env), await BuiltService.start(env)];
});
afterAll(async () => {
  await Promise.all(services.map((service) => service.stop()));
  await redis?.stop();
  await emulators?.close();
});

async function jobStatus(service: BuiltService, id: string): Promise<any> {
  return (await fetch(`${service.url}${JOBS}/${id}`)).json();
}

it(`three processes, FEMA stalled ${STALL_MS / 1000} s mid-job: no sliding second at any upstream holds more than ${RATE} job calls`, async () => {
  const [first] = services;
  const submitted = await fetch(`${first.url}${JOBS}`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: PORTFOLIO });
  expect(submitted.status).toBe(202);
  const { id } = await submitted.json();

  // A stall once the job's calls flow: every NFHL call arriving within it waits STALL_MS, holding its slot.
  while (emulators.nfhl.callCount({ endpoint: 'query' }) < 300) await sleep(50);
  const stall = emulators.nfhl.injectFault({ kind: 'delay', ms: STALL_MS });
  await sleep(STALL_MS);
  emulators.nfhl.removeFault(stall);
  expect(stall.hits).toBeGreaterThan(0);

  let job = await jobStatus(first, id);
  for (let polls = 0; job.status !== 'completed' && polls < 1200; polls++) {
    expect(['queued', 'running']).toContain(job.status);
    await sleep(250);
    job = await jobStatus(first, id);
  }
  expect(job).toEqual(expect.objectContaining({ status: 'completed', total: ROWS, done: ROWS, errors: 0 }));

  const busiest = Object.fromEntries((['nfhl', 'census'] as const).map((name) => [name, busiestSlidingSecond(emulators[name].calls.map((call) => call.at))]));
  // The budget was used (the job's calls came at about its rate), and never exceeded.
  expect(busiest.nfhl).toBeGreaterThan(RATE / 2);
  expect(busiest.nfhl).toBeLessThanOrEqual(RATE);
  expect(busiest.census).toBeLessThanOrEqual(RATE);
});
