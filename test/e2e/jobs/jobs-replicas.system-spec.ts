/**
 * Portfolio jobs across replicas: built service processes (dist/main.js, as operators run it) sharing one Redis
 * (appendonly, as the compose file runs it) in front of the emulators. One process is SIGKILLed and another
 * SIGTERMed mid-job, Redis itself is restarted mid-job: every row is answered exactly once, in order, equal to
 * GET; the job calls of all processes together, counted at the emulators, stay within the shared rate; and
 * processes answering chunks that share points at the same moment ask the upstreams once per point. A process
 * stopped or killed while loading rows leaves nothing cut short behind and loses almost nothing it had loaded.
 */
import { DEMO_PLACES, startEmulators, type RunningEmulators } from '../../emulators';
import type { CallRecord } from '../../emulators/emulator-core';
import { BuiltService } from '../../support/built-service';
import { PersistentRedis } from '../../support/redis-server';
import { sleep } from '../../support/stack';

const JOBS = '/flood-zone/jobs';
const RATE = 150;
const DISTINCT_POINTS = 300;

type Point = { lat: number; lon: number };

/** `count` points near the demo places, `stepDeg` of longitude apart, each a place of its own for the caches. */
const pointsNearDemoPlaces = (count: number, stepDeg: number): Point[] =>
  Array.from({ length: count }, (_, i) => {
    const place = DEMO_PLACES[i % DEMO_PLACES.length];
    return { lat: place.lat, lon: Number((place.lon + Math.floor(i / DEMO_PLACES.length) * stepDeg).toFixed(6)) };
  });

const POINTS = pointsNearDemoPlaces(DISTINCT_POINTS, 0.0001);

/** Rows r0..r{n-1}, row r at points[r % points.length]. */
const portfolio = (rows: number, points: Point[]) =>
  `id,lat,lon\n${Array.from({ length: rows }, (_, r) => `r${r},${points[r % points.length].lat},${points[r % points.length].lon}`).join('\n')}\n`;

async function json(url: string, init?: RequestInit): Promise<any> {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json() };
}

async function submit(service: BuiltService, rows: number, points = POINTS): Promise<string> {
  const { status, body } = await json(`${service.url}${JOBS}`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: portfolio(rows, points) });
  expect(status).toBe(202);
  return body.id;
}

/** Polls the job at `service` until `until` holds of its status. */
async function waitFor(service: BuiltService, id: string, until: (job: any) => boolean, timeoutMs = 120_000): Promise<any> {
  const giveUpAt = Date.now() + timeoutMs;
  while (Date.now() < giveUpAt) {
    const response = await fetch(`${service.url}${JOBS}/${id}`).catch(() => undefined);
    if (response?.ok) {
      const job = await response.json();
      if (until(job)) return job;
      if (job.status === 'failed' || job.status === 'cancelled') throw new Error(`job ${id} ended ${job.status}`);
    }
    await sleep(200);
  }
  throw new Error(`job ${id}: condition not met in time`);
}

/** The job's NDJSON results, checked to hold rows r0.. r{total-1} exactly once each, in order. */
async function resultRows(service: BuiltService, id: string, total: number): Promise<Array<{ index: number; id: string; status: number; body: any }>> {
  const text = await (await fetch(`${service.url}${JOBS}/${id}/results`)).text();
  const rows = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(rows.length).toBe(total);
  const misplaced = rows.filter((row, r) => row.index !== r || row.id !== `r${r}`).length;
  expect(misplaced).toBe(0);
  return rows;
}

const withoutTime = ({ retrievedAt: _retrievedAt, ...body }: Record<string, unknown>) => body;

/** Each row equal to GET at its point (asked of `service` now, ignoring only retrievedAt); row r is at points[r % points.length]. */
async function expectRowsEqualToGet(service: BuiltService, rows: Array<{ status: number; body: any }>, points = POINTS): Promise<void> {
  const expected: string[] = [];
  // A few GETs at a time: thousands at once would only queue.
  for (let start = 0; start < points.length; start += 50) {
    const asked = points.slice(start, start + 50).map(async (point) => {
      const { status, body } = await json(`${service.url}/flood-zone?lat=${point.lat}&lon=${point.lon}`);
      return JSON.stringify({ status, body: withoutTime(body) });
    });
    expected.push(...(await Promise.all(asked)));
  }
  const differing = rows.filter((row, r) => JSON.stringify({ status: row.status, body: withoutTime(row.body) }) !== expected[r % points.length]);
  expect(differing).toEqual([]);
}

/** The NFHL queries asked more than once between `from` and `to`: each asked again counts once per time. */
function repeatedNfhlCalls(emulators: RunningEmulators, from: number, to: number): number {
  const asks = new Map<string, number>();
  for (const call of emulators.nfhl.calls) {
    if (call.endpoint !== 'query' || call.at < from || call.at > to) continue;
    const ask = `${call.layerName} ${JSON.stringify(call.query)}`;
    asks.set(ask, (asks.get(ask) ?? 0) + 1);
  }
  return [...asks.values()].reduce((repeated, count) => repeated + count - 1, 0);
}

/** Waits until the Census emulator has been asked the county of `points` points (one per row's point: nothing answers it for a whole area). */
async function countyQueriesReach(points: number): Promise<void> {
  while (emulators.census.callCount({ endpoint: 'coordinates' }) < points) await sleep(20);
}

/** The most calls any one emulator received within one second (by arrival) between `from` and `to`. */
function busiestSecond(emulators: RunningEmulators, from: number, to: number): { emulator: string; calls: number } {
  let busiest = { emulator: '', calls: 0 };
  for (const name of ['nfhl', 'preliminary', 'pending', 'cbrs', 'census', 'elevation'] as const) {
    const perSecond = new Map<number, number>();
    for (const call of emulators[name].calls) {
      if (call.at < from || call.at > to) continue;
      const second = Math.floor(call.at / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    for (const calls of perSecond.values()) if (calls > busiest.calls) busiest = { emulator: name, calls };
  }
  return busiest;
}

let emulators: RunningEmulators;
let redis: PersistentRedis;
const services: BuiltService[] = [];

async function startService(settings: Record<string, string> = {}): Promise<BuiltService> {
  const service = await BuiltService.start({
    ...emulators.env,
    JOBS_REDIS_URL: redis.url,
    REDIS_URL: redis.url,
    JOB_UPSTREAM_RATE_PER_SECOND: String(RATE),
    JOB_WORKERS: '2',
    SHUTDOWN_GRACE_MS: '8000',
    LOG_LEVEL: 'warn',
    ...settings,
  });
  services.push(service);
  return service;
}

beforeEach(async () => {
  emulators = await startEmulators({ latencyMs: 10 });
  redis = await PersistentRedis.start();
});
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.stop()));
  await redis?.stop();
  await emulators?.close();
});

it('three processes, one SIGKILLed and one SIGTERMed mid-job: 12,000 rows each exactly once, in order, equal to GET, within the shared rate', async () => {
  const [first, killed, stopped] = [await startService(), await startService(), await startService()];
  const submittedAt = Date.now();
  const id = await submit(first, 12_000);

  await waitFor(first, id, (job) => job.done >= 2000);
  killed.process.kill('SIGKILL');
  await waitFor(first, id, (job) => job.done >= 5000);
  stopped.process.kill('SIGTERM');
  // Code 0: stopped within its grace (past it the process exits with code 1).
  expect(await stopped.exited).toEqual({ code: 0, signal: null });

  const job = await waitFor(first, id, (current) => current.status === 'completed');
  expect(job).toEqual(expect.objectContaining({ total: 12_000, done: 12_000, errors: 0 }));
  const finishedAt = Date.parse(job.finishedAt);
  const rows = await resultRows(first, id, 12_000);

  // The job's calls alone (GETs below come after it), at every upstream the job uses.
  const busiest = busiestSecond(emulators, submittedAt, finishedAt);
  expect(busiest.calls).toBeGreaterThan(0);
  expect(busiest.calls).toBeLessThanOrEqual(RATE);

  await expectRowsEqualToGet(first, rows);
  const metrics = await (await fetch(`${first.url}/metrics`)).text();
  expect(metrics).toMatch(/^jobs\{status="completed"\} 1$/m);
});

describe('a process stopped or killed while its rows are being loaded', () => {
  /** Every row a point of its own, so that rows are being loaded whenever a process stops. */
  const ROWS = 2000;
  const DISTINCT = pointsNearDemoPlaces(ROWS, 0.00002);
  /** One chunk each: each of the two processes holds one of the job's two chunks from the start. */
  const ONE_CHUNK_EACH = { JOB_WORKERS: '1', JOB_UPSTREAM_RATE_PER_SECOND: '1000' };
  /** The NFHL calls a process can have in flight for job work when it dies: its batch lane (half of UPSTREAM_MAX_CONCURRENCY, 16). */
  const BATCH_LANE = 8;
  /** Two processes answering 2,000 rows at a point each, on a machine others share. */
  const JOB_TIMEOUT_MS = 300_000;

  /** Runs the job while `interrupt` stops one of its two processes midway; its rows, and the NFHL queries asked again. */
  async function interruptedJob(interrupt: (service: BuiltService) => Promise<void>) {
    const [staying, leaving] = [await startService(ONE_CHUNK_EACH), await startService(ONE_CHUNK_EACH)];
    const submittedAt = Date.now();
    const id = await submit(staying, ROWS, DISTINCT);
    // About half of each chunk's rows under way.
    await countyQueriesReach(ROWS / 2);
    await interrupt(leaving);
    const job = await waitFor(staying, id, (current) => current.status === 'completed', JOB_TIMEOUT_MS);
    expect(job).toEqual(expect.objectContaining({ total: ROWS, done: ROWS, errors: 0 }));
    const repeated = repeatedNfhlCalls(emulators, submittedAt, Date.parse(job.finishedAt));
    return { rows: await resultRows(staying, id, ROWS), repeated, staying };
  }

  it(
    'SIGTERM: the rows under way finish before it stops; every row equal to GET, and no NFHL query asked twice',
    async () => {
      const { rows, repeated, staying } = await interruptedJob(async (leaving) => {
        leaving.process.kill('SIGTERM');
        expect(await leaving.exited).toEqual({ code: 0, signal: null });
      });
      process.stdout.write(`NFHL queries asked again after a SIGTERM: ${repeated}\n`);
      expect(repeated).toBe(0);
      await expectRowsEqualToGet(staying, rows, DISTINCT);
    },
    JOB_TIMEOUT_MS,
  );

  it(
    'SIGKILL: the layers it had answered are kept; every row equal to GET, and no more NFHL queries asked twice than it had in flight',
    async () => {
      const { rows, repeated, staying } = await interruptedJob(async (leaving) => {
        leaving.process.kill('SIGKILL');
        await leaving.exited;
      });
      process.stdout.write(`NFHL queries asked again after a SIGKILL: ${repeated}\n`);
      expect(repeated).toBeLessThanOrEqual(BATCH_LANE);
      await expectRowsEqualToGet(staying, rows, DISTINCT);
    },
    JOB_TIMEOUT_MS,
  );
});

it('a Redis restart mid-job loses no row', async () => {
  const [first, second] = [await startService(), await startService()];
  const id = await submit(first, 6000);
  await waitFor(first, id, (job) => job.done >= 1000);
  await redis.restart(1000);
  const job = await waitFor(first, id, (current) => current.status === 'completed');
  expect(job).toEqual(expect.objectContaining({ total: 6000, done: 6000, errors: 0 }));
  const rows = await resultRows(second, id, 6000);
  await expectRowsEqualToGet(second, rows);
});

/** Three processes answer a job whose 6 chunks hold every one of the 300 points; every query the emulators were asked, by layer. */
async function sharedPointsJob(settings: Record<string, string>) {
  // The budget is not what this test is about: a high one lets the 6 chunks' first calls go out together.
  const unhurried = { JOB_UPSTREAM_RATE_PER_SECOND: '1000', ...settings };
  const [first] = [await startService(unhurried), await startService(unhurried), await startService(unhurried)];
  // Every chunk of 1,000 rows holds all 300 points, and the 6 chunks are taken at once by the 6 workers.
  const id = await submit(first, 6000);
  const job = await waitFor(first, id, (current) => current.status === 'completed');
  expect(job).toEqual(expect.objectContaining({ total: 6000, done: 6000, errors: 0 }));

  const asks = new Map<string, number>();
  const byLayer = new Map<string, CallRecord[]>();
  for (const name of ['nfhl', 'preliminary', 'pending', 'cbrs', 'census', 'elevation'] as const) {
    for (const call of emulators[name].calls) {
      if (call.endpoint !== 'query' && call.endpoint !== 'coordinates') continue;
      const layer = `${name} ${call.layerName ?? call.endpoint}`;
      const ask = `${layer} ${JSON.stringify(call.query)}`;
      asks.set(ask, (asks.get(ask) ?? 0) + 1);
      byLayer.set(layer, [...(byLayer.get(layer) ?? []), call]);
    }
  }
  // No query asked twice by any process: neither a point's nor a whole square's.
  expect([...asks].filter(([, count]) => count > 1)).toEqual([]);
  const pointsAsked = (layer: string) => new Set((byLayer.get(layer) ?? []).flatMap((call) => (call.point ? [JSON.stringify(call.point)] : [])));
  const squaresAsked = (layer: string) =>
    (byLayer.get(layer) ?? []).filter((call) => call.query.geometryType === 'esriGeometryEnvelope').map((call) => call.query.geometry.split(',').map(Number));
  expect(pointsAsked('census coordinates').size).toBe(DISTINCT_POINTS);
  return { pointsAsked, squaresAsked };
}

it('three processes answering chunks that share every point at once: one upstream call per distinct point per layer', async () => {
  const { pointsAsked, squaresAsked } = await sharedPointsJob({ HELD_POLYGONS_MAX_MB: '0' });
  expect(pointsAsked('nfhl Flood Hazard Zones').size).toBe(DISTINCT_POINTS);
  expect(squaresAsked('nfhl Flood Hazard Zones')).toEqual([]);
});

it('three processes sharing every point, with squares held: each point asked at most once, each square once, every point answered by one or the other', async () => {
  const { pointsAsked, squaresAsked } = await sharedPointsJob({});
  for (const layer of ['nfhl Flood Hazard Zones', 'nfhl FIRM Panels', 'nfhl Political Jurisdictions']) {
    const squares = squaresAsked(layer);
    expect({ layer, squares: squares.length > 0 }).toEqual({ layer, squares: true });
    const inSquare = ({ lat, lon }: Point) => squares.some(([west, south, east, north]) => lon > west && lon < east && lat > south && lat < north);
    const unanswered = POINTS.filter((point) => !pointsAsked(layer).has(JSON.stringify([point.lon, point.lat])) && !inSquare(point));
    expect({ layer, unanswered }).toEqual({ layer, unanswered: [] });
    expect(pointsAsked(layer).size).toBeLessThan(DISTINCT_POINTS);
  }
});
