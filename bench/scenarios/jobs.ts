/**
 * Scenario 11: a portfolio job of 100,000 lat/lon rows (a third of the points repeated) on three built service
 * processes sharing one Redis (the shared cache and the jobs), 50 ms per upstream call, with
 * JOB_UPSTREAM_RATE_PER_SECOND set so that the limiter's floor (the busiest upstream's distinct calls at that
 * rate) is BENCH_JOB_FLOOR_SECONDS: wall time against the floor (how many rows a second the machine answers),
 * upstream calls against distinct points per layer, the busiest second at each emulator against the rate, Redis
 * memory per 1,000 rows of results, and each process's RSS growth. First, what storing a body of 1,000,000 rows
 * costs the process that takes it in.
 */
import * as http from 'node:http';
import { DisposableRedis, redisCli } from '../../test/support/redis-server';
import { csvPieces, postPieces } from '../../test/support/streamed-body';
import { CENTRE, CFG } from '../config';
import { Emulators, Service, Tally, expectOk, httpGet, keepAlive, round, sleep } from '../lib';
import { Point, PointGrid, pointPath } from '../points';
import { log, results, row } from '../report';

const S = '11 portfolio job, 3 processes';
const JOBS = '/flood-zone/jobs';

/** The job's rows: row i at a new point, except every third, which repeats the point of an earlier row (near or far back). */
export function jobRows(grid: PointGrid, rows: number): { points: Point[]; distinctPoints: number } {
  const points: Point[] = [];
  let distinctPoints = 0;
  for (let i = 0; i < rows; i++) points.push(i % 3 === 2 ? points[Math.floor(i * 0.618)] : grid.at(distinctPoints++));
  return { points, distinctPoints };
}

function request(url: string, method: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Samples the RSS of each process every 100 ms: the peak of each since `start`. */
function rssSampler(services: Service[]) {
  const before = services.map((service) => service.rssMiB());
  const peak = [...before];
  const timer = setInterval(() => services.forEach((service, i) => (peak[i] = Math.max(peak[i], service.rssMiB()))), 100);
  return {
    before,
    peak,
    /** Each process's growth in MB (10^6 bytes). */
    stop: () => {
      clearInterval(timer);
      return peak.map((mib, i) => round(((mib - before[i]) * 1048576) / 1e6, 1));
    },
  };
}

const usedMemory = (redis: DisposableRedis, field: 'used_memory' | 'used_memory_peak') =>
  Number(new RegExp(`^${field}:(\\d+)`, 'm').exec(redisCli(redis.port, 'info', 'memory'))?.[1]);

/** Counts by upstream ("nfhl", "census") of a tally by "upstream endpoint layer". */
export function byUpstream(tally: Tally): Tally {
  const out: Tally = {};
  for (const [key, count] of Object.entries(tally)) out[key.split(' ')[0]] = (out[key.split(' ')[0]] ?? 0) + count;
  return out;
}

/** Only what a lookup asks about its point (layer queries, the county), not the layer lists each process reads once. */
export const perPointCalls = (tally: Tally): Tally =>
  Object.fromEntries(Object.entries(tally).filter(([key]) => key.includes(' query ') || key === 'census coordinates'));

/** Polls the job until it is no longer queued or running; its last status. */
export async function finished(service: Service, id: string, agent: http.Agent): Promise<Record<string, any>> {
  for (;;) {
    const status = expectOk(await httpGet(`${service.base}${JOBS}/${id}`, agent), 'job status');
    if (status.status !== 'queued' && status.status !== 'running') return status;
    await sleep(250);
  }
}

/** Reads the job's CSV results as they stream in: every row in input order with its id as sent, statuses tallied. */
function checkResults(url: string, rows: number): Promise<{ statuses: Tally; problem?: string }> {
  return new Promise((resolve, reject) => {
    const statuses: Tally = {};
    let problem: string | undefined;
    let line = -1; // the header comes first
    let rest = '';
    const read = (text: string) => {
      line++;
      if (line === 0) return;
      const [index, id, status] = text.split(',', 3);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (index !== String(line - 1) || id !== `j${line - 1}`) problem ??= `result line ${line}: index ${index}, id ${id}`;
    };
    const req = http.get(url, { agent: false, headers: { Accept: 'text/csv' } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`job results: HTTP ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        lines.forEach(read);
      });
      res.on('end', () => {
        if (rest !== '') read(rest);
        if (line !== rows) problem ??= `${line} result rows, not ${rows}`;
        resolve({ statuses, problem });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

export async function jobs(emulators: Emulators): Promise<void> {
  const J = CFG.jobs;
  const latency = CFG.upstreamLatencyMs;
  const grid = new PointGrid(CENTRE);
  const { points, distinctPoints } = jobRows(grid, J.rows);
  log(`${S}: ${J.rows} rows (${distinctPoints} distinct points), ${J.processes} processes x ${J.workers} workers, UPSTREAM_MAX_CONCURRENCY=${J.concurrency}`);
  await emulators.setLatency(latency);
  const agent = keepAlive(4);
  const redis = await DisposableRedis.start();
  const services: Service[] = [];
  try {
    // What one lookup asks of each upstream, and a body of a million rows stored: on a process of their own.
    const probe = await Service.start(emulators.env, { JOBS_REDIS_URL: redis.url });
    services.push(probe);
    expectOk(await httpGet(`${probe.base}${pointPath(grid.at(PointGrid.CAPACITY - 1))}`, agent), 'layer-list warm-up');
    await emulators.resetCalls();
    expectOk(await httpGet(`${probe.base}${pointPath(grid.at(PointGrid.CAPACITY - 2))}`, agent), 'calls of one lookup');
    const perPoint = perPointCalls(await emulators.breakdown());
    const expected = Object.fromEntries(Object.entries(perPoint).map(([key, count]) => [key, count * distinctPoints]));
    const distinctCalls = byUpstream(expected);
    const busiestUpstream = Object.entries(distinctCalls).sort((a, b) => b[1] - a[1])[0];
    const rate = Math.ceil(busiestUpstream[1] / J.floorSeconds);
    const floorS = round(busiestUpstream[1] / rate, 1);

    // Coordinates out of range: every row is its own 400, no upstream call; the job is cancelled at once anyway.
    const upload = rssSampler([probe]);
    const uploadStarted = performance.now();
    const uploaded = await postPieces(
      probe.base,
      JOBS,
      'text/csv',
      csvPieces('id,lat,lon', J.uploadRows, (r) => `u${r},95,${(r % 360) - 180}`),
    );
    const uploadMs = performance.now() - uploadStarted;
    const [uploadGrowthMB] = upload.stop();
    if (uploaded.status !== 202 || uploaded.body.total !== J.uploadRows) throw new Error(`upload: HTTP ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
    await request(`${probe.base}${JOBS}/${uploaded.body.id}`, 'DELETE');
    await probe.stop();
    services.length = 0;

    const env = {
      REDIS_URL: redis.url,
      JOBS_REDIS_URL: redis.url,
      JOB_UPSTREAM_RATE_PER_SECOND: String(rate),
      JOB_WORKERS: String(J.workers),
      UPSTREAM_MAX_CONCURRENCY: String(J.concurrency),
    };
    for (let p = 0; p < J.processes; p++) {
      const service = await Service.start(emulators.env, env);
      services.push(service);
      expectOk(await httpGet(`${service.base}${pointPath(grid.at(PointGrid.CAPACITY - 3 - p))}`, agent), 'layer-list warm-up');
    }
    log(`${S}: JOB_UPSTREAM_RATE_PER_SECOND=${rate} (floor ${floorS} s for ${busiestUpstream[1]} ${busiestUpstream[0]} calls); running`);
    await emulators.resetCalls();
    const heapBefore = await Promise.all(services.map((service) => service.heapUsedMiB(agent)));
    const redisBefore = usedMemory(redis, 'used_memory');
    redisCli(redis.port, 'config', 'resetstat');
    const rss = rssSampler(services);
    const started = performance.now();
    const submitted = await postPieces(
      services[0].base,
      JOBS,
      'text/csv',
      csvPieces('id,lat,lon', J.rows, (r) => `j${r},${points[r].lat},${points[r].lon}`),
    );
    const storedMs = performance.now() - started;
    if (submitted.status !== 202) throw new Error(`job: HTTP ${submitted.status} ${JSON.stringify(submitted.body)}`);
    const status = await finished(services[1], submitted.body.id, agent);
    const wallMs = performance.now() - started;
    const growthMB = rss.stop();
    if (status.status !== 'completed') throw new Error(`job ended ${status.status}`);
    await sleep(200); // let any straggling upstream call land in the log
    const [counted, busiest] = await Promise.all([emulators.breakdown().then(perPointCalls), emulators.busiestSecond()]);
    const heapAfter = await Promise.all(services.map((service) => service.heapUsedMiB(agent)));
    const redisAfter = usedMemory(redis, 'used_memory');
    const redisPeak = usedMemory(redis, 'used_memory_peak');
    const outKeys = redisCli(redis.port, '--scan', '--pattern', `flood-zone:job:${submitted.body.id}:out:*`).split('\n').filter(Boolean);
    const resultBytes = outKeys.reduce((sum, key) => sum + Number(redisCli(redis.port, 'memory', 'usage', key)), 0);
    const { statuses, problem } = await checkResults(`${services[2].base}${JOBS}/${submitted.body.id}/results`, J.rows);
    if (problem) throw new Error(`job results: ${problem}`);

    const keys = [...new Set([...Object.keys(expected), ...Object.keys(counted)])].sort();
    const exact = keys.every((key) => (expected[key] ?? 0) === (counted[key] ?? 0));
    const wallRatio = round(wallMs / (floorS * 1000), 2);
    const perThousand = (bytes: number) => round(bytes / 1e6 / (J.rows / 1000), 3);
    const within = Object.fromEntries(Object.entries(distinctCalls).map(([upstream]) => [upstream, (busiest[upstream] ?? 0) <= rate]));
    results.jobs = {
      rows: J.rows,
      distinctPoints,
      processes: J.processes,
      workersPerProcess: J.workers,
      upstreamMaxConcurrency: J.concurrency,
      upstreamLatencyMs: latency,
      jobUpstreamRatePerSecond: rate,
      floorSeconds: floorS,
      wallMs: round(wallMs, 0),
      storedMs: round(storedMs, 0),
      wallOverFloor: wallRatio,
      callsOfOneLookup: perPoint,
      upstreamCalls: { expected, counted },
      busiestSecondByEmulator: busiest,
      statuses,
      errors: status.errors,
      redisUsedMemoryBytes: { before: redisBefore, after: redisAfter, peak: redisPeak },
      resultKeysBytes: resultBytes,
      rssBeforeMiB: rss.before,
      rssPeakMiB: rss.peak,
      rssGrowthMB: growthMB,
      heapUsedBeforeMiB: heapBefore,
      heapUsedAfterMiB: heapAfter,
      upload: { rows: J.uploadRows, ms: round(uploadMs, 0), rssGrowthMB: uploadGrowthMB },
    };
    row(
      S,
      `upload of ${J.uploadRows} CSV rows: s; RSS growth of the process storing it MB`,
      `${round(uploadMs / 1000, 1)}; ${uploadGrowthMB}`,
      '<= 100 MB',
      uploadGrowthMB <= 100,
    );
    row(S, 'rows / distinct points; JOB_UPSTREAM_RATE_PER_SECOND', `${J.rows} / ${distinctPoints}; ${rate}`);
    row(
      S,
      'statuses; rows failed upstream (errors)',
      `${JSON.stringify(statuses)}; ${status.errors}`,
      `{"200":${J.rows}}; 0`,
      statuses['200'] === J.rows && status.errors === 0,
    );
    for (const key of keys) {
      row(
        S,
        `upstream calls, distinct points / counted: ${key}`,
        `${expected[key] ?? 0} / ${counted[key] ?? 0}`,
        'exact',
        (expected[key] ?? 0) === (counted[key] ?? 0),
      );
    }
    row(S, 'upstream calls: one per distinct point per layer', exact ? 'exact' : 'differ', 'exact', exact);
    row(S, `floor: ${busiestUpstream[1]} ${busiestUpstream[0]} calls / ${rate} a second, s`, floorS);
    // No goal: at a budget this high the job is bound by the machine's CPU, not the limiter (the loan book measures the real budget).
    row(
      S,
      'wall time s (rows/s; of which storing the body s); wall / floor',
      `${round(wallMs / 1000, 1)} (${round(J.rows / (wallMs / 1000), 0)}; ${round(storedMs / 1000, 1)}); ${wallRatio}`,
    );
    for (const upstream of Object.keys(distinctCalls)) {
      row(S, `busiest second at the emulator: ${upstream} calls`, busiest[upstream] ?? 0, `<= ${rate}`, within[upstream]);
    }
    row(
      S,
      'Redis memory per 1,000 rows: peak growth (INFO) / results alone (MEMORY USAGE) MB',
      `${perThousand(redisPeak - redisBefore)} / ${perThousand(resultBytes)}`,
    );
    row(
      S,
      'service RSS before / peak MiB; heap used before / after MiB, each process',
      services.map((_, i) => `${rss.before[i]} / ${rss.peak[i]}; ${heapBefore[i]} / ${heapAfter[i]}`).join('; '),
    );
    const worst = Math.max(...growthMB);
    row(S, 'service RSS growth MB, each process', growthMB.join('; '), `<= ${J.rssGrowthGoalMB} MB`, worst <= J.rssGrowthGoalMB);
  } finally {
    await Promise.all(services.map((service) => service.stop()));
    await redis.stop();
  }
}
