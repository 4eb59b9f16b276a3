/**
 * A job's progress as a person watches it (GET /flood-zone/jobs/{id} on the real app, the emulators and a Redis
 * of the test's own): `done` moves while the rows of a chunk are answered, not only once the chunk is written;
 * it never goes back and never passes `total`; the time left is given once 1% of the rows are done.
 */
import { DEMO_PLACES } from '../../emulators';
import { DisposableRedis } from '../../support/redis-server';
import { sleep, Stack, startStack } from '../../support/stack';

const JOBS = '/flood-zone/jobs';
const ROWS = 40;

let redis: DisposableRedis;
let stack: Stack;

beforeAll(async () => {
  redis = await DisposableRedis.start();
  stack = await startStack({ JOBS_REDIS_URL: redis.url, JOB_UPSTREAM_RATE_PER_SECOND: '400' });
});
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
});

it('counts the rows answered in a chunk before the chunk is written: done reaches every row but a stalled one while the job runs', async () => {
  // One chunk of 40 places of their own; FEMA stalls on the last one, so the chunk cannot be written meanwhile.
  const points = Array.from({ length: ROWS }, (_, i) => {
    const place = DEMO_PLACES[i % DEMO_PLACES.length];
    return { lat: place.lat, lon: Number((place.lon + (500 + i) * 0.0001).toFixed(6)) };
  });
  const stalled = points[ROWS - 1];
  stack.emulators.nfhl.injectFault({ kind: 'delay', ms: 60_000, match: { near: [stalled.lon, stalled.lat], withinM: 3 } });
  const csv = `lat,lon\n${points.map((p) => `${p.lat},${p.lon}`).join('\n')}\n`;
  const submitted = await fetch(`${stack.url}${JOBS}`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: csv });
  expect(submitted.status).toBe(202);
  const { id } = (await submitted.json()) as { id: string };

  const seen: Array<{ status: string; done: number; total: number; etaSeconds: number | null }> = [];
  try {
    const watching = () => seen.length === 0 || (seen.at(-1)!.done !== ROWS - 1 && ['queued', 'running'].includes(seen.at(-1)!.status));
    for (let attempt = 0; attempt < 300 && watching(); attempt++) {
      const { status, done, total, etaSeconds } = (await (await fetch(`${stack.url}${JOBS}/${id}`)).json()) as (typeof seen)[number];
      seen.push({ status, done, total, etaSeconds });
      await sleep(100);
    }
  } finally {
    await fetch(`${stack.url}${JOBS}/${id}`, { method: 'DELETE' });
    stack.emulators.nfhl.clearFaults();
  }

  // Every row but the stalled one counted while the job still runs (its chunk unwritten).
  expect(seen.at(-1)).toEqual({ status: 'running', done: ROWS - 1, total: ROWS, etaSeconds: expect.any(Number) });
  const dones = seen.map((status) => status.done);
  expect(dones).toEqual([...dones].sort((a, b) => a - b));
  expect(Math.max(...dones)).toBeLessThanOrEqual(ROWS);
  // The time left from the first row on (1% of 40 rows is under one row), never before a row is done.
  expect(seen.filter((status) => status.done > 0 !== (status.etaSeconds !== null))).toEqual([]);
});
