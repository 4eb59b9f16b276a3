/**
 * A job's progress as a person watches it (GET /flood-zone/jobs/{id} on the real app, the emulators and a Redis
 * of the test's own): `done` moves while the rows of a chunk are answered, not only once the chunk is written;
 * it never goes back and never passes `total`; the time left is given once 1% of the rows are done; the calls per
 * row are those of the rows done.
 */
import { DEMO_PLACES, type UpstreamEmulator } from '../../emulators';
import { PROGRESS_NOTE_MS } from '../../../src/jobs/chunk-progress';
import { call, finished, JOBS, submitCsv } from '../../support/portfolio-jobs';
import { DisposableRedis } from '../../support/redis-server';
import { sleep, Stack, startStack } from '../../support/stack';

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
  const submitted = await submitCsv(stack.url, csv);
  expect(submitted.status).toBe(202);
  const { id } = submitted.body as { id: string };

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

it('counts the calls of the rows done only: rows answered after a stalled one are not done yet, and neither are their calls', async () => {
  // 30 points 0.2° apart, far from the demo map and from one another: each is asked at its point alone (no square of
  // any layer is fetched for two of them), so each row's calls are those the emulators saw at its point.
  const points = Array.from({ length: 30 }, (_, i) => ({ lat: Number((31.05 + i * 0.2).toFixed(6)), lon: -103.55 }));
  const STALLED = 12;
  const { nfhl, census } = stack.emulators;
  const at = (emulator: UpstreamEmulator, p: { lat: number; lon: number }) =>
    emulator.callsMatching().filter((c) => c.point && Math.abs(c.point[0] - p.lon) < 1e-7 && Math.abs(c.point[1] - p.lat) < 1e-7).length;
  /** What upstreamCallsPerRow says when it counts the calls of the first `done` rows. */
  const ofRowsDone = (done: number) => {
    const perRow = (emulator: UpstreamEmulator) => Math.round((points.slice(0, done).reduce((sum, p) => sum + at(emulator, p), 0) * 100) / done) / 100;
    return { flood_data: perRow(nfhl), geocoder: perRow(census) };
  };
  const stalled = points[STALLED];
  nfhl.injectFault({ kind: 'delay', ms: 60_000, match: { near: [stalled.lon, stalled.lat], withinM: 3 } });
  let id: string;
  try {
    const submitted = await submitCsv(stack.url, `lat,lon\n${points.map((p) => `${p.lat},${p.lon}`).join('\n')}\n`);
    expect(submitted.status).toBe(202);
    id = submitted.body.id;
    // Every row after the stalled one answered: as many calls at its point as the first row made.
    const laterRowsAnswered = () => at(nfhl, points[0]) > 0 && points.slice(STALLED + 1).every((p) => at(nfhl, p) === at(nfhl, points[0]) && at(census, p) > 0);
    let status = (await call(stack.url, `${JOBS}/${id}`)).body;
    for (let attempt = 0; attempt < 300 && !(status.done === STALLED && laterRowsAnswered()); attempt++) {
      await sleep(100);
      status = (await call(stack.url, `${JOBS}/${id}`)).body;
    }
    expect([status.status, status.done]).toEqual(['running', STALLED]);
    // Past a note or two of the worker's progress: the calls of the rows answered after the stalled one were made.
    await sleep(2 * PROGRESS_NOTE_MS + 500);
    status = (await call(stack.url, `${JOBS}/${id}`)).body;
    expect([status.status, status.done]).toEqual(['running', STALLED]);
    expect(status.upstreamCallsPerRow).toEqual(ofRowsDone(STALLED));
  } finally {
    nfhl.clearFaults();
  }
  // The stalled row's attempt times out and is tried again: then every row is done, and every call counts.
  const ended = await finished(stack.url, id);
  expect([ended.status, ended.done]).toEqual(['completed', points.length]);
  expect(ended.upstreamCallsPerRow).toEqual(ofRowsDone(points.length));
});
