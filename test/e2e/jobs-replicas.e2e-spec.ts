/**
 * Portfolio jobs across replicas: built service processes (dist/main.js, as operators run it) sharing one Redis
 * (appendonly, as the compose file runs it) in front of the emulators. One process is SIGKILLed and another
 * SIGTERMed mid-job, Redis itself is restarted mid-job: every row is answered exactly once, in order, equal to
 * GET; the job calls of all processes together, counted at the emulators, stay within the shared rate; and
 * processes answering chunks that share points at the same moment ask the upstreams once per point.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_PLACES, startEmulators, type RunningEmulators } from '../emulators';
import { BuiltService } from '../support/built-service';
import { closedPort, redisAnswers, redisCli } from '../support/redis-server';
import { sleep } from '../support/stack';

const JOBS = '/flood-zone/jobs';
const RATE = 150;
const DISTINCT_POINTS = 300;

/** A redis-server of the test's own with the settings the compose file gives Redis: it survives a restart. */
class PersistentRedis {
  private process?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'jobs-redis-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<PersistentRedis> {
    const redis = new PersistentRedis(await closedPort());
    await redis.resume();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async resume(): Promise<void> {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      '--appendonly',
      'yes',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
    ];
    this.process = spawn('redis-server', args, { stdio: 'ignore' });
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await redisAnswers(this.port)) return;
      await sleep(50);
    }
    throw new Error('redis-server did not start');
  }

  /** A clean stop (SHUTDOWN writes the append-only file out), as an orchestrator restarting Redis does. */
  async restart(downMs: number): Promise<void> {
    const stopped = new Promise((resolve) => this.process!.once('exit', resolve));
    redisCli(this.port, 'shutdown');
    await stopped;
    await sleep(downMs);
    await this.resume();
  }

  async stop(): Promise<void> {
    const running = this.process;
    if (running && running.exitCode === null) {
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `DISTINCT_POINTS` points near the demo places, each a place of its own for the caches. */
const POINTS = Array.from({ length: DISTINCT_POINTS }, (_, i) => {
  const place = DEMO_PLACES[i % DEMO_PLACES.length];
  return { lat: place.lat, lon: Number((place.lon + Math.floor(i / DEMO_PLACES.length) * 0.0001).toFixed(6)) };
});

/** Rows r0..r{n-1}, row r at POINTS[r % DISTINCT_POINTS]. */
const portfolio = (rows: number) =>
  `id,lat,lon\n${Array.from({ length: rows }, (_, r) => `r${r},${POINTS[r % DISTINCT_POINTS].lat},${POINTS[r % DISTINCT_POINTS].lon}`).join('\n')}\n`;

async function json(url: string, init?: RequestInit): Promise<any> {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json() };
}

async function submit(service: BuiltService, rows: number): Promise<string> {
  const { status, body } = await json(`${service.url}${JOBS}`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: portfolio(rows) });
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

/** Each row equal to GET at its point (asked of `service` now, ignoring only retrievedAt). */
async function expectRowsEqualToGet(service: BuiltService, rows: Array<{ status: number; body: any }>): Promise<void> {
  const expected = await Promise.all(
    POINTS.map(async (point) => {
      const { status, body } = await json(`${service.url}/flood-zone?lat=${point.lat}&lon=${point.lon}`);
      return JSON.stringify({ status, body: withoutTime(body) });
    }),
  );
  const differing = rows.filter((row, r) => JSON.stringify({ status: row.status, body: withoutTime(row.body) }) !== expected[r % DISTINCT_POINTS]);
  expect(differing.length).toBe(0);
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

async function startService(): Promise<BuiltService> {
  const service = await BuiltService.start({
    ...emulators.env,
    JOBS_REDIS_URL: redis.url,
    REDIS_URL: redis.url,
    JOB_UPSTREAM_RATE_PER_SECOND: String(RATE),
    JOB_WORKERS: '2',
    SHUTDOWN_GRACE_MS: '8000',
    LOG_LEVEL: 'warn',
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

it('three processes, one SIGKILLed and one SIGTERMed mid-job: 25,000 rows each exactly once, in order, equal to GET, within the shared rate', async () => {
  const [first, killed, stopped] = [await startService(), await startService(), await startService()];
  const submittedAt = Date.now();
  const id = await submit(first, 25_000);

  await waitFor(first, id, (job) => job.done >= 4000);
  killed.process.kill('SIGKILL');
  await waitFor(first, id, (job) => job.done >= 9000);
  const stopAsked = Date.now();
  stopped.process.kill('SIGTERM');
  const exit = await stopped.exited;
  expect(exit).toEqual({ code: 0, signal: null });
  expect(Date.now() - stopAsked).toBeLessThan(8000 + 1000);

  const job = await waitFor(first, id, (current) => current.status === 'completed');
  expect(job).toEqual(expect.objectContaining({ total: 25_000, done: 25_000, errors: 0 }));
  const finishedAt = Date.parse(job.finishedAt);
  const rows = await resultRows(first, id, 25_000);

  // The job's calls alone (GETs below come after it), at every upstream the job uses.
  const busiest = busiestSecond(emulators, submittedAt, finishedAt);
  expect(busiest.calls).toBeGreaterThan(0);
  expect(busiest.calls).toBeLessThanOrEqual(RATE);

  await expectRowsEqualToGet(first, rows);
  const metrics = await (await fetch(`${first.url}/metrics`)).text();
  expect(metrics).toMatch(/^jobs\{status="completed"\} 1$/m);
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

it('three processes answering chunks that share every point at once: one upstream call per distinct point per layer', async () => {
  const [first] = [await startService(), await startService(), await startService()];
  // Every chunk of 1,000 rows holds all 300 points, and the 6 chunks are taken at once by the 6 workers.
  const id = await submit(first, 6000);
  const job = await waitFor(first, id, (current) => current.status === 'completed');
  expect(job).toEqual(expect.objectContaining({ total: 6000, done: 6000, errors: 0 }));

  const asks = new Map<string, number>();
  const pointsByLayer = new Map<string, Set<string>>();
  for (const name of ['nfhl', 'preliminary', 'pending', 'cbrs', 'census', 'elevation'] as const) {
    for (const call of emulators[name].calls) {
      if (call.endpoint !== 'query' && call.endpoint !== 'coordinates') continue;
      const layer = `${name} ${call.layerName ?? call.endpoint}`;
      const ask = `${layer} ${JSON.stringify(call.query)}`;
      asks.set(ask, (asks.get(ask) ?? 0) + 1);
      pointsByLayer.set(layer, (pointsByLayer.get(layer) ?? new Set()).add(JSON.stringify(call.point ?? [call.query.x, call.query.y])));
    }
  }
  const askedTwice = [...asks].filter(([, count]) => count > 1);
  expect(askedTwice).toEqual([]);
  expect(pointsByLayer.get('nfhl Flood Hazard Zones')?.size).toBe(DISTINCT_POINTS);
  expect(pointsByLayer.get('census coordinates')?.size).toBe(DISTINCT_POINTS);
});
