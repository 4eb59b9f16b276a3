/**
 * `npm run bench`: performance figures of the built service against the offline upstream emulators, all on
 * 127.0.0.1. Prints a table and writes bench/results.json (with the machine and the date).
 *
 *   BENCH_QUICK=1          shortens every scenario (smoke run, under 2 minutes)
 *   BENCH_MIXED_SECONDS=n  length of the mixed-load scenario (default 60; 10 with BENCH_QUICK)
 *   BENCH_MEMORY_LOOKUPS=n distinct lookups of the memory scenario (default 100000; 4000 with BENCH_QUICK)
 *   BENCH_MEMORY_SECONDS=n time cap of the memory scenario (default 900; 30 with BENCH_QUICK): it stops at the
 *                          first checkpoint (every twentieth of the lookups) past the cap and reports how far it got
 *   BENCH_ONLY=a,b         run only these scenarios (cacheHitVsExpress, cold, burst, memory, memoryLarge, mixed,
 *                          includes, batch, batchFairness)
 *   BENCH_MEMORY_LARGE_ENTRIES=n  also measure memory with CACHE_MAX_ENTRIES=n (default off)
 *   BENCH_BATCH_ROWS=n     rows of each batch (default 10000; 3000 with BENCH_QUICK)
 *   BENCH_BATCH_CONCURRENCY=n  UPSTREAM_MAX_CONCURRENCY of the batch scenarios' service (default 64; a batch gets half)
 *
 * Processes: this one drives the load (autocannon, node:http); the emulators, the service (`node dist/main.js`)
 * and the Express baseline each run in a child process, killed at the end whatever happens. Scenario 1 also
 * starts a redis-server of its own on a free port (for the rate-limit counts in Redis): Redis must be installed.
 * Figures here are informational: nothing in the test suite asserts on timing.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import autocannon = require('autocannon');
import { DEMO_PLACES, DemoPlace, demoPlace } from '../test/emulators/demo-map';
import { DisposableRedis } from '../test/support/redis-server';
import {
  Emulators,
  HttpAnswer,
  Service,
  httpGet,
  killAllChildren,
  mean,
  percentile,
  postStreamed,
  prepareServiceBuild,
  round,
  sleep,
  startExpressBaseline,
} from './lib';
import { PlaceJitter, Point, PointGrid, pointPath } from './points';
import { PORTFOLIO_PLACE, PortfolioRow, portfolio } from './portfolio';

const QUICK = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';

function intEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer in [${min}, ${max}], got "${raw}"`);
  return n;
}

const CFG = {
  quick: QUICK,
  upstreamLatencyMs: 50,
  cacheHit: { seconds: QUICK ? 3 : 10, healthSeconds: QUICK ? 2 : 5, connections: 50 },
  cold: { points: QUICK ? 30 : 100, addresses: QUICK ? 20 : 100 },
  burst: { concurrent: 200 },
  memory: {
    lookups: intEnv('BENCH_MEMORY_LOOKUPS', QUICK ? 4000 : 100_000, 1000, 250_000),
    seconds: intEnv('BENCH_MEMORY_SECONDS', QUICK ? 30 : 900, 5, 3600),
    chunks: 20,
    connections: 100,
    largeEntries: intEnv('BENCH_MEMORY_LARGE_ENTRIES', 0, 0, 1_000_000),
  },
  mixed: {
    seconds: intEnv('BENCH_MIXED_SECONDS', QUICK ? 10 : 60, 1, 600),
    connections: 200,
    coldEvery: 10, // 1 request in 10 is a cold lookup of a new point, the rest hit a small warm set
    warmPoints: 20,
    faultProbability: 0.05,
    faultKind: 'http-status', // HTTP 500 with an HTML page: a transient failure, which the service retries once
    faultStatus: 500,
  },
  includes: { lookups: QUICK ? 40 : 100, block: 10 },
  batch: {
    rows: intEnv('BENCH_BATCH_ROWS', QUICK ? 3000 : 10_000, 100, 10_000),
    // The default 16 would make a 10,000-row batch take 3.5 minutes at 50 ms per call: the floor scales with it.
    concurrency: intEnv('BENCH_BATCH_CONCURRENCY', 64, 2, 1024),
    censusChunkRows: 1000,
    wallGoalFactor: 1.2,
    rssGrowthGoalMB: 100,
    interactiveLookups: QUICK ? 20 : 60,
    interactiveGoalFactor: 2,
  },
};

/** A mapped AE point whose ~300 m zone square holds every generated point. */
const CENTRE = DEMO_PLACES.find((p) => p.id === 'dc-white-house-ae')!;
const POINTS = new PointGrid(CENTRE);

interface Row {
  scenario: string;
  metric: string;
  value: string;
  goal?: string;
  met?: boolean;
}
const rows: Row[] = [];
const results: Record<string, unknown> = {};
const shortfalls: string[] = [];

function row(scenario: string, metric: string, value: string | number, goal?: string, met?: boolean): void {
  rows.push({ scenario, metric, value: String(value), goal, met });
  if (met === false) shortfalls.push(`${scenario}: ${metric} = ${value} (goal ${goal})`);
}

function log(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

function keepAlive(maxSockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
}

function expectOk(r: HttpAnswer, what: string): Record<string, any> {
  if (r.status !== 200) throw new Error(`${what}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
  return JSON.parse(r.body) as Record<string, any>;
}

/** Every generated point lies in the same AE zone: check the extremes of the grid once, on a running service. */
async function checkGridInsideZone(service: Service, agent: http.Agent): Promise<void> {
  const corners = [0, 999, PointGrid.CAPACITY - 1000, PointGrid.CAPACITY - 1];
  for (const i of corners) {
    const p = POINTS.at(i);
    const body = expectOk(await httpGet(`${service.base}${pointPath(p)}`, agent), `grid corner ${p.lat},${p.lon}`);
    if (body.result.floodZone !== CENTRE.expect.floodZone) {
      throw new Error(`grid corner ${p.lat},${p.lon} is in zone ${body.result.floodZone}, not ${CENTRE.expect.floodZone}`);
    }
  }
}

function statusCounts(r: autocannon.Result): Record<string, number> {
  return Object.fromEntries(Object.entries(r.statusCodeStats).map(([s, v]) => [s, v.count]));
}

function cannonFigures(r: autocannon.Result) {
  return {
    requests: r.requests.total,
    durationSeconds: r.duration,
    reqPerSec: round(r.requests.average, 0),
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: round(r.latency.mean, 2) },
    statuses: statusCounts(r),
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

// -------------------------------------------------------------------------------------------------
// 1. Cache hits vs plain Express
// -------------------------------------------------------------------------------------------------
/** A rate limit no benchmark client reaches: every request pays for the counting, none is refused. */
const UNREACHED_RATE_LIMIT = '1000000000';

/**
 * Load on `url` after an unmeasured second of the same load: otherwise whichever target runs first pays
 * for the JIT warm-up of the load generator (and every target for its own).
 */
async function measureWarm(url: string): Promise<autocannon.Result> {
  await autocannon({ url, connections: CFG.cacheHit.connections, duration: 1, timeout: 10 });
  return autocannon({ url, connections: CFG.cacheHit.connections, duration: CFG.cacheHit.seconds, timeout: 10 });
}

/** One service configuration of scenario 1: a cached lookup under load, after checking it is a HIT. */
async function loadCachedLookup(emulators: Emulators, overrides: Record<string, string>, agent: http.Agent) {
  const service = await Service.start(emulators.env, overrides);
  try {
    const url = `${service.base}/flood-zone?lat=${CENTRE.lat}&lon=${CENTRE.lon}`;
    expectOk(await httpGet(url, agent), 'warm-up');
    const warm = await httpGet(url, agent);
    expectOk(warm, 'second lookup');
    if (warm.headers['x-cache'] !== 'HIT') throw new Error(`second lookup was X-Cache ${String(warm.headers['x-cache'])}, not HIT`);
    const result = await measureWarm(url);
    return { service, warm, result };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

async function cacheHitVsExpress(emulators: Emulators): Promise<void> {
  const S = '1 cache hit vs Express';
  log(
    `${S}: ${CFG.cacheHit.seconds} s x ${CFG.cacheHit.connections} connections each; service at LOG_LEVEL warn, info, and warn with a rate limit (memory, Redis)`,
  );
  await emulators.setLatency(0);
  const agent = keepAlive(4);

  const atWarn = await loadCachedLookup(emulators, { LOG_LEVEL: 'warn' }, agent);
  let ready: autocannon.Result;
  try {
    await checkGridInsideZone(atWarn.service, agent);
    // the same edge without the lookup: how much of the gap is the stack, how much the route
    ready = await autocannon({ url: `${atWarn.service.base}/health/ready`, connections: CFG.cacheHit.connections, duration: CFG.cacheHit.healthSeconds, timeout: 10 });
  } finally {
    await atWarn.service.stop();
  }
  const body = atWarn.warm.body;

  const express = await startExpressBaseline(body);
  let base: autocannon.Result;
  try {
    const path = `/flood-zone?lat=${CENTRE.lat}&lon=${CENTRE.lon}`;
    const check = await httpGet(`${express.base}${path}`, agent);
    if (check.body !== body) throw new Error('the Express baseline does not serve the captured body');
    base = await measureWarm(`${express.base}${path}`);
  } finally {
    await express.stop();
  }

  const atInfo = await loadCachedLookup(emulators, { LOG_LEVEL: 'info' }, agent);
  await atInfo.service.stop();
  const limited = await loadCachedLookup(emulators, { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: UNREACHED_RATE_LIMIT }, agent);
  await limited.service.stop();
  // The same with the counts in Redis (a redis-server of the bench's own), as replicas share them.
  const redis = await DisposableRedis.start();
  const limitedRedis = await loadCachedLookup(
    emulators,
    { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: UNREACHED_RATE_LIMIT, REDIS_URL: redis.url },
    agent,
  ).finally(() => redis.stop());
  await limitedRedis.service.stop();
  for (const run of [limited, limitedRedis]) {
    if (run.warm.headers['ratelimit-limit'] !== UNREACHED_RATE_LIMIT) throw new Error('a rate-limited service sent no RateLimit-Limit header');
  }

  const ratio = (r: autocannon.Result) => round(r.requests.average / base.requests.average, 2);
  const costPercent = (r: autocannon.Result) => round((1 - r.requests.average / atWarn.result.requests.average) * 100, 1);
  results.cacheHitVsExpress = {
    bodyBytes: Buffer.byteLength(body),
    connections: CFG.cacheHit.connections,
    seconds: CFG.cacheHit.seconds,
    serviceWarn: cannonFigures(atWarn.result),
    serviceInfo: cannonFigures(atInfo.result),
    serviceRateLimited: { ...cannonFigures(limited.result), rateLimitPerMinute: Number(UNREACHED_RATE_LIMIT), storage: 'memory' },
    serviceRateLimitedRedis: { ...cannonFigures(limitedRedis.result), rateLimitPerMinute: Number(UNREACHED_RATE_LIMIT), storage: 'Redis' },
    express: cannonFigures(base),
    serviceHealthReady: cannonFigures(ready),
    ratioReqPerSec: {
      warn: ratio(atWarn.result),
      info: ratio(atInfo.result),
      rateLimitedWarn: ratio(limited.result),
      rateLimitedRedisWarn: ratio(limitedRedis.result),
    },
    rateLimitCostPercent: { memory: costPercent(limited.result), redis: costPercent(limitedRedis.result) },
  };
  row(S, 'Express req/s, p50 / p99 ms', `${round(base.requests.average, 0)}, ${base.latency.p50} / ${base.latency.p99}`);
  row(S, 'service at warn: req/s, p50 / p99 ms', `${round(atWarn.result.requests.average, 0)}, ${atWarn.result.latency.p50} / ${atWarn.result.latency.p99}`);
  row(S, 'ratio service / Express at LOG_LEVEL=warn', ratio(atWarn.result), '>= 0.8', ratio(atWarn.result) >= 0.8);
  row(S, 'service at info: req/s, p50 / p99 ms', `${round(atInfo.result.requests.average, 0)}, ${atInfo.result.latency.p50} / ${atInfo.result.latency.p99}`);
  row(S, 'ratio service / Express at LOG_LEVEL=info', ratio(atInfo.result), '>= 0.7', ratio(atInfo.result) >= 0.7);
  const storages = { memory: limited, Redis: limitedRedis };
  for (const [storage, { result }] of Object.entries(storages)) {
    row(S, `rate-limited (${storage} storage), warn: req/s, p50 / p99 ms`, `${round(result.requests.average, 0)}, ${result.latency.p50} / ${result.latency.p99}`);
    row(S, `ratio rate-limited (${storage}) / Express; req/s lost to the limit`, `${ratio(result)}; ${costPercent(result)} %`, '>= 0.7', ratio(result) >= 0.7);
  }
  row(S, 'for scale: service GET /health/ready req/s, p50 / p99 ms', `${round(ready.requests.average, 0)}, ${ready.latency.p50} / ${ready.latency.p99}`);
  const runs = [atWarn.result, atInfo.result, limited.result, limitedRedis.result, base];
  const bad = runs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
  row(S, 'non-2xx + errors + timeouts', bad, '0', bad === 0);
}

// -------------------------------------------------------------------------------------------------
// 2. Cold lookups, sequential, 50 ms per upstream answer
// -------------------------------------------------------------------------------------------------
async function sequentialCold(
  service: Service,
  agent: http.Agent,
  n: number,
  pathOf: (i: number) => string,
  check: (body: Record<string, any>, r: HttpAnswer, i: number) => void,
): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await httpGet(`${service.base}${pathOf(i)}`, agent);
    const body = expectOk(r, `cold lookup ${i}`);
    if (r.headers['x-cache'] !== 'MISS') throw new Error(`cold lookup ${i} answered X-Cache ${String(r.headers['x-cache'])}`);
    check(body, r, i);
    ms.push(r.ms);
  }
  return ms;
}

function coldFigures(ms: number[], idealMs: number) {
  const p50 = percentile(ms, 50);
  return {
    lookups: ms.length,
    idealMs,
    p50Ms: round(p50, 1),
    p90Ms: round(percentile(ms, 90), 1),
    p99Ms: round(percentile(ms, 99), 1),
    maxMs: round(Math.max(...ms), 1),
    meanMs: round(mean(ms), 1),
    overheadP50Ms: round(p50 - idealMs, 1),
    overheadMeanMs: round(mean(ms) - idealMs, 1),
  };
}

async function coldLookups(emulators: Emulators): Promise<void> {
  const S = '2 cold, 50 ms upstream';
  const latency = CFG.upstreamLatencyMs;
  await emulators.setLatency(latency);
  const agent = keepAlive(1);

  // lat/lon: distinct points, each one NFHL round (4 layer queries in parallel) with the Census coordinates call alongside
  log(`${S}: ${CFG.cold.points} sequential lat/lon lookups of distinct points`);
  let service = await Service.start(emulators.env);
  try {
    const warm = POINTS.next(); // the first lookup also fetches the NFHL layer list (once per process)
    expectOk(await httpGet(`${service.base}${pointPath(warm)}`, agent), 'layer-list warm-up');
    await emulators.resetCalls();
    const points = Array.from({ length: CFG.cold.points }, () => POINTS.next());
    const ms = await sequentialCold(service, agent, points.length, (i) => pointPath(points[i]), (body, _r, i) => {
      if (body.result.floodZone !== CENTRE.expect.floodZone) throw new Error(`point ${i} left the zone polygon: ${body.result.floodZone}`);
    });
    const counts = await emulators.counts();
    const f = coldFigures(ms, latency);
    results.coldLatLon = { ...f, upstreamLatencyMs: latency, upstreamCalls: counts };
    row(S, `lat/lon: ${f.lookups} distinct points, p50 / p99 ms`, `${f.p50Ms} / ${f.p99Ms}`);
    row(S, `lat/lon: overhead over ideal ${latency} ms (p50 / mean)`, `${f.overheadP50Ms} / ${f.overheadMeanMs} ms`);
    row(S, 'lat/lon: upstream calls per lookup (NFHL query / Census)',
      `${round(counts.nfhlTotal / f.lookups, 2)} / ${round(counts.censusTotal / f.lookups, 2)}`);
  } finally {
    await service.stop();
  }

  // address: the demo has only a handful of addresses, so caching is switched off (CACHE_TTL_SECONDS=0,
  // GEOCODE_CACHE_TTL_SECONDS=0): every lookup geocodes (50 ms) and then reads one NFHL round (50 ms).
  const addresses = DEMO_PLACES.filter((p) => p.address && p.expect.coverage === 'mapped');
  log(`${S}: ${CFG.cold.addresses} sequential address lookups over ${addresses.length} mapped demo addresses, caches off`);
  service = await Service.start(emulators.env, { CACHE_TTL_SECONDS: '0', GEOCODE_CACHE_TTL_SECONDS: '0' });
  try {
    const pathOf = (i: number) => `/flood-zone?address=${encodeURIComponent(addresses[i % addresses.length].address!)}`;
    expectOk(await httpGet(`${service.base}${pathOf(0)}`, agent), 'layer-list warm-up');
    await emulators.resetCalls();
    const ms = await sequentialCold(service, agent, CFG.cold.addresses, pathOf, (body, _r, i) => {
      const want = addresses[i % addresses.length].expect.floodZone;
      if (body.result.floodZone !== want) throw new Error(`address ${i}: zone ${body.result.floodZone}, expected ${want}`);
    });
    const counts = await emulators.counts();
    const f = coldFigures(ms, 2 * latency);
    results.coldAddress = {
      ...f,
      upstreamLatencyMs: latency,
      distinctAddresses: addresses.length,
      note: 'caches disabled (CACHE_TTL_SECONDS=0, GEOCODE_CACHE_TTL_SECONDS=0) so that every lookup is cold; the demo has only a handful of addresses',
      upstreamCalls: counts,
    };
    row(S, `address: ${f.lookups} lookups (caches off), p50 / p99 ms`, `${f.p50Ms} / ${f.p99Ms}`);
    row(S, `address: overhead over ideal ${2 * latency} ms (p50 / mean)`, `${f.overheadP50Ms} / ${f.overheadMeanMs} ms`);
  } finally {
    await service.stop();
  }
}

// -------------------------------------------------------------------------------------------------
// 3. Burst of identical cold lookups
// -------------------------------------------------------------------------------------------------
async function burst(emulators: Emulators): Promise<void> {
  const S = '3 burst';
  const n = CFG.burst.concurrent;
  log(`${S}: ${n} concurrent identical cold lookups, fresh service`);
  await emulators.setLatency(CFG.upstreamLatencyMs);
  const service = await Service.start(emulators.env);
  const agent = keepAlive(n);
  try {
    expectOk(await httpGet(`${service.base}${pointPath(POINTS.next())}`, agent), 'layer-list warm-up');
    // open the sockets first (a /health round on each), so the burst itself is only the lookups
    await Promise.all(Array.from({ length: n }, () => httpGet(`${service.base}/health/ready`, agent)));
    await emulators.resetCalls();
    const url = `${service.base}${pointPath(POINTS.next())}`;
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: n }, () => httpGet(url, agent).catch((e: Error): HttpAnswer => ({ status: 0, headers: {}, body: e.message, ms: NaN }))),
    );
    const wallMs = round(performance.now() - started, 1);
    await sleep(200); // let any straggling upstream call land in the log
    const counts = await emulators.counts();
    const statuses: Record<string, number> = {};
    const xcache: Record<string, number> = {};
    for (const a of answers) {
      statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      const x = String(a.headers['x-cache'] ?? '-');
      xcache[x] = (xcache[x] ?? 0) + 1;
    }
    const bodies = new Set(answers.filter((a) => a.status === 200).map((a) => a.body));
    const ms = answers.map((a) => a.ms).filter((v) => Number.isFinite(v));
    results.burst = {
      concurrent: n,
      upstreamLatencyMs: CFG.upstreamLatencyMs,
      wallMs,
      latencyMs: { p50: round(percentile(ms, 50), 1), p99: round(percentile(ms, 99), 1), max: round(Math.max(...ms), 1) },
      statuses,
      xCache: xcache,
      distinctBodies: bodies.size,
      upstreamCalls: counts,
    };
    const layers: Array<[string, number]> = [
      ['Flood Hazard Zones', counts.floodHazardZones],
      ['FIRM Panels', counts.firmPanels],
      ['LOMRs', counts.lomrs],
      ['Political Jurisdictions', counts.politicalJurisdictions],
      ['LOMAs', counts.lomas],
      ['Census coordinates', counts.censusCoordinates],
    ];
    for (const [name, c] of layers) row(S, `${name} calls`, c, '1', c === 1);
    row(S, 'NFHL Availability calls (mapped point: none needed)', counts.availability, '0', counts.availability === 0);
    row(S, 'statuses', JSON.stringify(statuses), `{"200":${n}}`, statuses['200'] === n);
    row(S, 'X-Cache', JSON.stringify(xcache));
    row(S, 'wall time / p99 ms', `${wallMs} / ${round(percentile(ms, 99), 1)}`);
  } finally {
    await service.stop();
  }
}

// -------------------------------------------------------------------------------------------------
// 4. Memory with many distinct cached lookups
// -------------------------------------------------------------------------------------------------
async function memory(emulators: Emulators, maxEntries?: number): Promise<void> {
  const S = '4 memory';
  const total = CFG.memory.lookups;
  const label = maxEntries ? `CACHE_MAX_ENTRIES=${maxEntries}` : 'CACHE_MAX_ENTRIES=10000 (default)';
  log(`${S}: ${total} distinct lookups, ${label}, upstream latency 0, fresh service`);
  await emulators.setLatency(0);
  const service = await Service.start(emulators.env, maxEntries ? { CACHE_MAX_ENTRIES: String(maxEntries) } : {});
  const agent = keepAlive(2);
  try {
    const rssIdle = service.rssMiB();
    expectOk(await httpGet(`${service.base}${pointPath(POINTS.next())}`, agent), 'warm-up');
    const rssStart = service.rssMiB();
    const heapStart = await service.heapUsedMiB(agent);
    let peak = rssStart;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, service.rssMiB());
      } catch {
        // process gone; reported below
      }
    }, 250);
    const checkpoints: Array<{ lookups: number; rssMiB: number; heapUsedMiB: number | null; reqPerSec: number }> = [];
    const statuses: Record<string, number> = {};
    let errors = 0;
    let done = 0;
    const started = performance.now();
    try {
      const perChunk = Math.ceil(total / CFG.memory.chunks);
      for (let c = 0; c < CFG.memory.chunks && done < total; c++) {
        if (performance.now() - started > CFG.memory.seconds * 1000) {
          log(`${S}: time cap of ${CFG.memory.seconds} s reached after ${done} lookups`);
          break;
        }
        const amount = Math.min(perChunk, total - done);
        const r = await autocannon({
          url: service.base,
          connections: CFG.memory.connections,
          amount,
          timeout: 30,
          requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pointPath(POINTS.next()) }) }],
        });
        done += r.requests.total;
        errors += r.errors + r.timeouts;
        for (const [s, v] of Object.entries(statusCounts(r))) statuses[s] = (statuses[s] ?? 0) + v;
        checkpoints.push({ lookups: done, rssMiB: service.rssMiB(), heapUsedMiB: await service.heapUsedMiB(agent), reqPerSec: round(r.requests.average, 0) });
        log(`${S}: ${done} lookups, RSS ${checkpoints[checkpoints.length - 1].rssMiB} MiB`);
      }
    } finally {
      clearInterval(sampler);
    }
    const seconds = round((performance.now() - started) / 1000, 1);
    const last = checkpoints[checkpoints.length - 1];
        const counts = await emulators.counts();
    const key = maxEntries ? `memoryMaxEntries${maxEntries}` : 'memory';
    results[key] = {
      cacheMaxEntries: maxEntries ?? 10000,
      lookups: done,
      lookupsTarget: total,
      timeCapSeconds: CFG.memory.seconds,
      seconds,
      connections: CFG.memory.connections,
      rssIdleMiB: rssIdle,
      rssStartMiB: rssStart,
      heapStartMiB: heapStart,
      rssPeakMiB: peak,
      checkpoints,
      statuses,
      errorsAndTimeouts: errors,
      upstreamCallsNfhlTotalSinceStart: counts.nfhlTotal,
    };
    const tag = maxEntries ? ` [max ${maxEntries}]` : '';
    row(S, `distinct lookups done / target${tag}`, `${done} / ${total} in ${seconds} s`, `${total}`, done >= total);
    row(S, `RSS at start${tag} MiB`, rssStart);
    row(S, `RSS after ${done} distinct lookups${tag} MiB (peak)`, `${last.rssMiB} (${peak})`);
    const every = Math.max(1, Math.floor(checkpoints.length / 5));
    const shown = checkpoints.filter((_c, i) => i % every === every - 1 || i === checkpoints.length - 1);
    row(S, `RSS / heap used at k lookups${tag} MiB`, [...new Set(shown)].map((c) => `${round(c.lookups / 1000, 1)}k:${c.rssMiB}/${c.heapUsedMiB}`).join(' '));
    // Bounded: once the LRU is full (each lat/lon lookup stores 2 entries, flood and county/ZCTA, so after
    // CACHE_MAX_ENTRIES / 2 lookups), further distinct lookups should add (almost) nothing.
    const lruFullAt = (maxEntries ?? 10000) / 2;
    const ref = checkpoints.find((c) => c.lookups >= 1.5 * lruFullAt);
    if (ref && ref !== last) {
      const growth = round(last.rssMiB - ref.rssMiB, 1);
      row(S, `RSS growth from ${round(ref.lookups / 1000, 1)}k to ${round(last.lookups / 1000, 1)}k lookups (LRU full at ${lruFullAt / 1000}k)${tag} MiB`,
        growth, '<= 10% of RSS', growth <= 0.1 * ref.rssMiB);
    } else {
      row(S, `RSS growth once the LRU is full (at ${lruFullAt / 1000}k lookups)${tag}`, 'n/a: too few lookups to tell');
    }
    row(S, `lookups/s (cold, latency 0)${tag}`, round(done / seconds, 0));
    const non200 = done - (statuses['200'] ?? 0);
    row(S, `non-200 + errors${tag}`, non200 + errors, '0', non200 + errors === 0);
  } finally {
    await service.stop();
  }
}

// -------------------------------------------------------------------------------------------------
// 5. Mixed load: 90% hits, 10% cold, 5% of NFHL queries failing, 50 ms upstream latency
// -------------------------------------------------------------------------------------------------
async function mixed(emulators: Emulators): Promise<void> {
  const S = '5 mixed load';
  const M = CFG.mixed;
  log(`${S}: ${M.seconds} s at ${M.connections} connections, 1 in ${M.coldEvery} cold, ${M.faultProbability * 100}% NFHL queries failing`);
  await emulators.setLatency(CFG.upstreamLatencyMs);
  const service = await Service.start(emulators.env);
  const agent = keepAlive(M.warmPoints);
  try {
    const warm = Array.from({ length: M.warmPoints }, () => POINTS.next());
    const warmed = await Promise.all(warm.map((p) => httpGet(`${service.base}${pointPath(p)}`, agent)));
    warmed.forEach((r, i) => expectOk(r, `warm point ${i}`));
    const rssStart = service.rssMiB();
    await emulators.resetCalls();
    await emulators.injectRandomNfhlQueryFault(M.faultProbability, M.faultKind, M.faultStatus);

    let n = 0;
    let w = 0;
    let cold = 0;
    const xcache: Record<string, number> = {};
    const errorsByKind: Record<string, number> = {};
    const r = await autocannon({
      url: service.base,
      connections: M.connections,
      duration: M.seconds,
      timeout: 30,
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => {
            n += 1;
            let p;
            if (n % M.coldEvery === 0) {
              cold += 1;
              p = POINTS.next();
            } else {
              p = warm[w++ % warm.length];
            }
            return { ...req, path: pointPath(p) };
          },
          onResponse: (status, body, _ctx, headers) => {
            const x = String(headers['x-cache'] ?? headers['X-Cache'] ?? '-');
            xcache[x] = (xcache[x] ?? 0) + 1;
            if (status >= 300) {
              let kind = `${status}`;
              try {
                const e = JSON.parse(body) as { code?: string; upstream?: string };
                kind = `${status} ${e.code ?? '?'}${e.upstream ? ` (${e.upstream})` : ''}`;
              } catch {
                kind = `${status} (non-JSON body)`;
              }
              errorsByKind[kind] = (errorsByKind[kind] ?? 0) + 1;
            }
          },
        },
      ],
    });
    await emulators.clearFaults();
    await sleep(200);
    const rssEnd = service.rssMiB();
    const counts = await emulators.counts();
    const figures = cannonFigures(r);
    const statuses = figures.statuses;
    const non2xxByStatus = Object.fromEntries(Object.entries(statuses).filter(([s]) => !s.startsWith('2')));
    const otherThan502 = Object.entries(non2xxByStatus).filter(([s]) => s !== '502').reduce((a, [, c]) => a + c, 0);
    const only502FromFlood = Object.keys(errorsByKind).every((k) => k === '502 UPSTREAM_UNAVAILABLE (flood_data)');
    results.mixed = {
      ...figures,
      connections: M.connections,
      seconds: M.seconds,
      upstreamLatencyMs: CFG.upstreamLatencyMs,
      warmPoints: M.warmPoints,
      coldRequestsGenerated: cold,
      xCache: xcache,
      non2xxByStatus,
      errorBodies: errorsByKind,
      fault: { kind: M.faultKind, status: M.faultStatus, probabilityPerNfhlQuery: M.faultProbability },
      upstreamCalls: counts,
      rssStartMiB: rssStart,
      rssEndMiB: rssEnd,
    };
    row(S, 'total requests / req/s', `${r.requests.total} / ${round(r.requests.average, 0)}`);
    row(S, 'latency p50 / p99 / max ms', `${r.latency.p50} / ${r.latency.p99} / ${r.latency.max}`);
    row(S, 'X-Cache', JSON.stringify(xcache));
    row(S, 'NFHL queries / faulted (injected HTTP 500)', `${counts.floodHazardZones + counts.firmPanels + counts.lomrs + counts.politicalJurisdictions + counts.lomas + counts.bfeLines + counts.availability} / ${counts.nfhlFaulted}`);
    row(S, 'non-2xx by status', JSON.stringify(non2xxByStatus), 'only 502', otherThan502 === 0);
    row(S, 'error bodies', JSON.stringify(errorsByKind), '502 UPSTREAM_UNAVAILABLE (flood_data)', only502FromFlood);
    row(S, 'socket errors / timeouts', `${r.errors} / ${r.timeouts}`, '0 / 0', r.errors === 0 && r.timeouts === 0);
    row(S, 'service RSS start / end MiB', `${rssStart} / ${rssEnd}`);
  } finally {
    await emulators.clearFaults().catch(() => undefined);
    await service.stop();
  }
}

// -------------------------------------------------------------------------------------------------
// 6. Cold lookup with every include vs the plain lookup, 50 ms upstream latency
// -------------------------------------------------------------------------------------------------
/** Places where each opt-in part has something to find: nearby hazards, a pending and a preliminary map, a CBRS unit. */
const INCLUDE_PLACES = ['houston-nearby-hazards', 'charleston-pending-out-of-sfha', 'charleston-preliminary-into-sfha', 'fernandina-cbrs-system-unit'].map(demoPlace);
const ALL_INCLUDES = 'nearby,preliminary,cbrs';
const INCLUDE_POINTS = new PlaceJitter(INCLUDE_PLACES);

type Tally = Record<string, number>;

function addTally(into: Tally, from: Tally): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

/** The zone, complete parts, and each opt-in part present exactly when asked for, as the demo place expects. */
function checkParts(place: DemoPlace, result: Record<string, any>, withIncludes: boolean, what: string): void {
  const e = place.expect;
  const got = {
    floodZone: result.floodZone,
    unavailable: result.unavailable,
    nearby: result.nearby !== null,
    mapChange: result.mapChange?.status ?? null,
    coastalBarrier: result.coastalBarrier?.status ?? null,
  };
  const want = {
    floodZone: e.floodZone,
    unavailable: [],
    nearby: withIncludes,
    mapChange: withIncludes ? e.mapChange.status : null,
    coastalBarrier: withIncludes ? e.coastalBarrier.status : null,
  };
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${what} at ${place.id}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
}

async function includesVsPlain(emulators: Emulators): Promise<void> {
  const S = '6 all includes, 50 ms upstream';
  const latency = CFG.upstreamLatencyMs;
  const { lookups: n, block } = CFG.includes;
  log(`${S}: ${n} plain and ${n} include=${ALL_INCLUDES} cold lookups, sequential, in alternating blocks of ${block}`);
  await emulators.setLatency(latency);
  const service = await Service.start(emulators.env);
  const agent = keepAlive(1);
  const kinds = {
    plain: { query: '', ms: [] as number[], calls: {} as Tally },
    includes: { query: `&include=${ALL_INCLUDES}`, ms: [] as number[], calls: {} as Tally },
  };
  const lookup = async (kind: keyof typeof kinds, what: string): Promise<number> => {
    const { place, point } = INCLUDE_POINTS.next();
    const r = await httpGet(`${service.base}${pointPath(point)}${kinds[kind].query}`, agent);
    const body = expectOk(r, `${what} at ${place.id}`);
    if (r.headers['x-cache'] !== 'MISS') throw new Error(`${what} answered X-Cache ${String(r.headers['x-cache'])}`);
    checkParts(place, body.result, kind === 'includes', what);
    return r.ms;
  };
  try {
    // the first lookups also read each MapServer's layer list (once per process)
    await lookup('plain', 'layer-list warm-up');
    await lookup('includes', 'layer-list warm-up');
    // alternating blocks: a drift in the machine's load falls on both kinds alike
    for (let done = 0; done < n; done += block) {
      for (const kind of ['plain', 'includes'] as const) {
        await emulators.resetCalls();
        for (let i = done; i < Math.min(n, done + block); i++) kinds[kind].ms.push(await lookup(kind, `${kind} lookup ${i}`));
        addTally(kinds[kind].calls, await emulators.breakdown());
      }
    }
  } finally {
    await service.stop();
  }
  const plain = coldFigures(kinds.plain.ms, latency);
  const all = coldFigures(kinds.includes.ms, latency);
  const extraP50 = round(all.p50Ms - plain.p50Ms, 1);
  const perLookup = (t: Tally, key: string) => round((t[key] ?? 0) / n, 2);
  const keys = [...new Set([...Object.keys(kinds.plain.calls), ...Object.keys(kinds.includes.calls)])].sort();
  const callsPerLookup = Object.fromEntries(
    keys.map((k) => [k, { plain: perLookup(kinds.plain.calls, k), includes: perLookup(kinds.includes.calls, k) }]),
  );
  const total = (t: Tally) => round(Object.values(t).reduce((a, b) => a + b, 0) / n, 2);
  results.includes = {
    upstreamLatencyMs: latency,
    places: INCLUDE_PLACES.map((p) => p.id),
    include: ALL_INCLUDES,
    plain,
    allIncludes: all,
    extraP50Ms: extraP50,
    callsPerLookup,
  };
  row(S, `plain: ${n} distinct points at ${INCLUDE_PLACES.length} places, p50 / p90 ms`, `${plain.p50Ms} / ${plain.p90Ms}`);
  row(S, `include=${ALL_INCLUDES}: ${n} distinct points, p50 / p90 ms`, `${all.p50Ms} / ${all.p90Ms}`);
  row(S, 'p50(all includes) - p50(plain) ms', extraP50, `<= ${latency} (one NFHL round trip)`, extraP50 <= latency);
  for (const [k, c] of Object.entries(callsPerLookup)) {
    row(S, `calls per lookup, plain -> includes: ${k}`, `${c.plain} -> ${c.includes} (+${round(c.includes - c.plain, 2)})`);
  }
  const plainTotal = total(kinds.plain.calls);
  const allTotal = total(kinds.includes.calls);
  row(S, 'upstream calls per lookup, plain -> includes (extra)', `${plainTotal} -> ${allTotal} (+${round(allTotal - plainTotal, 2)})`);
}

// -------------------------------------------------------------------------------------------------
// 7. A 10,000-row batch (half addresses, a third of points repeated), 50 ms upstream latency
// -------------------------------------------------------------------------------------------------
const PORTFOLIO_ZONE = PORTFOLIO_PLACE.expect.floodZone;

function batchBody(rows: PortfolioRow[]): string {
  return JSON.stringify({ locations: rows.map((r) => ('address' in r ? { id: r.id, address: r.address } : { id: r.id, lat: r.lat, lon: r.lon })) });
}

/** Reads a batch's NDJSON lines: in input order, ids echoed, statuses tallied, the first problem kept. */
function batchReader(rows: PortfolioRow[]) {
  const reader = { next: 0, statuses: {} as Tally, problem: undefined as string | undefined };
  const onLine = (line: string) => {
    const i = reader.next++;
    try {
      const a = JSON.parse(line) as { index: number; id: string | null; status: number; body: Record<string, any> };
      reader.statuses[a.status] = (reader.statuses[a.status] ?? 0) + 1;
      if (a.index !== i || a.id !== rows[i]?.id) reader.problem ??= `line ${i}: index ${a.index}, id ${a.id}; expected ${i}, ${rows[i]?.id}`;
      else if (a.status === 200 && a.body.result.floodZone !== PORTFOLIO_ZONE) reader.problem ??= `row ${i}: zone ${a.body.result.floodZone}, not ${PORTFOLIO_ZONE}`;
    } catch (error) {
      reader.problem ??= `line ${i} is not JSON: ${(error as Error).message}`;
    }
  };
  return { reader, onLine };
}

async function startBatchService(emulators: Emulators, agent: http.Agent): Promise<Service> {
  await emulators.setLatency(CFG.upstreamLatencyMs);
  const service = await Service.start(emulators.env, { UPSTREAM_MAX_CONCURRENCY: String(CFG.batch.concurrency) });
  try {
    expectOk(await httpGet(`${service.base}${pointPath(POINTS.next())}`, agent), 'layer-list warm-up');
    return service;
  } catch (error) {
    await service.stop();
    throw error;
  }
}

async function batch(emulators: Emulators): Promise<void> {
  const S = '7 batch, 50 ms upstream';
  const B = CFG.batch;
  const latency = CFG.upstreamLatencyMs;
  const share = Math.floor(B.concurrency / 2);
  const p = portfolio(0, B.rows);
  log(`${S}: ${B.rows} rows (${p.addresses} addresses, ${p.distinctPoints} distinct points), UPSTREAM_MAX_CONCURRENCY=${B.concurrency}`);
  const agent = keepAlive(1);
  const service = await startBatchService(emulators, agent);
  try {
    // what one lat/lon lookup asks of each upstream: the batch should ask it once per distinct point
    await emulators.resetCalls();
    expectOk(await httpGet(`${service.base}${pointPath(POINTS.next())}`, agent), 'calls of one lookup');
    const perPoint = await emulators.breakdown();
    const expected: Tally = { 'census addressbatch': Math.ceil(p.addresses / B.censusChunkRows) };
    for (const [k, v] of Object.entries(perPoint)) expected[k] = v * (k === 'census coordinates' ? p.distinctLatLonPoints : p.distinctPoints);

    await emulators.resetCalls();
    const rssBefore = service.rssMiB();
    const heapBefore = await service.heapUsedMiB(agent);
    let rssPeak = rssBefore;
    // RSS when each quarter of the rows has been answered: flat, or growing with the rows?
    const rssAtQuarter: number[] = [];
    const { reader, onLine } = batchReader(p.rows);
    const sampler = setInterval(() => {
      const rss = service.rssMiB();
      rssPeak = Math.max(rssPeak, rss);
      while (rssAtQuarter.length < 4 && reader.next >= ((rssAtQuarter.length + 1) * B.rows) / 4) rssAtQuarter.push(rss);
    }, 100);
    let answer;
    try {
      answer = await postStreamed(`${service.base}/flood-zone/batch`, 'application/json', batchBody(p.rows), onLine).done;
    } finally {
      clearInterval(sampler);
    }
    while (rssAtQuarter.length < 4) rssAtQuarter.push(service.rssMiB()); // the last rows came between two samples
    const heapAfter = await service.heapUsedMiB(agent);
    await sleep(200); // let any straggling upstream call land in the log
    const counted = await emulators.breakdown();
    if (answer.status !== 200) throw new Error(`batch answered HTTP ${answer.status}`);
    if (reader.problem) throw new Error(`batch answer: ${reader.problem}`);

    const keys = [...new Set([...Object.keys(expected), ...Object.keys(counted)])].sort();
    const exact = keys.every((k) => (expected[k] ?? 0) === (counted[k] ?? 0));
    const byUpstream = (t: Tally) => {
      const out: Tally = {};
      for (const [k, v] of Object.entries(t)) out[k.split(' ')[0]] = (out[k.split(' ')[0]] ?? 0) + v;
      return out;
    };
    const floors = Object.fromEntries(Object.entries(byUpstream(expected)).map(([u, calls]) => [u, (calls * latency) / share]));
    const floorMs = Math.max(...Object.values(floors));
    const nfhlPerPoint = Object.entries(perPoint).filter(([k]) => k.startsWith('nfhl ')).reduce((a, [, v]) => a + v, 0);
    const wallRatio = round(answer.ms / floorMs, 2);
    const growthMB = round(((rssPeak - rssBefore) * 1048576) / 1e6, 1);
    results.batch = {
      rows: B.rows,
      addresses: p.addresses,
      distinctPoints: p.distinctPoints,
      distinctLatLonPoints: p.distinctLatLonPoints,
      upstreamLatencyMs: latency,
      upstreamMaxConcurrency: B.concurrency,
      batchShare: share,
      callsOfOneLatLonLookup: perPoint,
      upstreamCalls: { expected, counted },
      wallMs: round(answer.ms, 0),
      floorMsByUpstream: floors,
      floorMs,
      wallOverFloor: wallRatio,
      statuses: reader.statuses,
      rssBeforeMiB: rssBefore,
      rssPeakMiB: rssPeak,
      rssAtQuarterOfRowsMiB: rssAtQuarter,
      rssGrowthMB: growthMB,
      heapUsedBeforeMiB: heapBefore,
      heapUsedAfterMiB: heapAfter,
    };
    row(S, `rows / addresses / distinct points (of lat/lon rows)`, `${B.rows} / ${p.addresses} / ${p.distinctPoints} (${p.distinctLatLonPoints})`);
    row(S, 'statuses', JSON.stringify(reader.statuses), `{"200":${B.rows}}`, reader.statuses['200'] === B.rows);
    for (const k of keys) {
      row(S, `upstream calls, expected / counted: ${k}`, `${expected[k] ?? 0} / ${counted[k] ?? 0}`, 'exact', (expected[k] ?? 0) === (counted[k] ?? 0));
    }
    row(S, 'upstream calls: one per distinct point per layer + one Census batch call per 1,000 addresses', exact ? 'exact' : 'differ', 'exact', exact);
    row(S, `floor: ${p.distinctPoints} points x ${nfhlPerPoint} NFHL calls x ${latency} ms / ${share} (half of ${B.concurrency}) s`, round(floorMs / 1000, 1));
    row(S, 'wall time s (rows/s); wall / floor', `${round(answer.ms / 1000, 1)} (${round(B.rows / (answer.ms / 1000), 0)}); ${wallRatio}`, `<= ${B.wallGoalFactor}`, wallRatio <= B.wallGoalFactor);
    row(S, 'service RSS at 1/4, 2/4, 3/4, 4/4 of the rows MiB; heap used before / after', `${rssAtQuarter.join(', ')}; ${heapBefore} / ${heapAfter}`);
    row(S, 'service RSS before / peak MiB; growth MB', `${rssBefore} / ${rssPeak}; ${growthMB}`, `<= ${B.rssGrowthGoalMB} MB`, growthMB <= B.rssGrowthGoalMB);
  } finally {
    await service.stop();
  }
}

// -------------------------------------------------------------------------------------------------
// 8. Interactive GET while two such batches run
// -------------------------------------------------------------------------------------------------
/** Sequential cold GETs of `points`, each checked to be in the zone of the grid's place. */
async function coldGets(service: Service, agent: http.Agent, n: number, points: Point[]): Promise<number[]> {
  return sequentialCold(service, agent, n, (i) => pointPath(points[i]), (body, _r, i) => {
    if (body.result.floodZone !== CENTRE.expect.floodZone) throw new Error(`point ${i} left the zone polygon: ${body.result.floodZone}`);
  });
}

async function batchFairness(emulators: Emulators): Promise<void> {
  const S = '8 GET beside 2 batches';
  const B = CFG.batch;
  const n = B.interactiveLookups;
  log(`${S}: ${n} sequential cold GETs idle, then ${n} while two ${B.rows}-row batches run (UPSTREAM_MAX_CONCURRENCY=${B.concurrency})`);
  const agent = keepAlive(1);
  const service = await startBatchService(emulators, agent);
  const batches = [0, 1].map((set) => {
    const { rows } = portfolio(set, B.rows);
    return { rows, ...batchReader(rows), post: undefined as ReturnType<typeof postStreamed> | undefined, finished: false };
  });
  try {
    const idle = await coldGets(service, agent, n, Array.from({ length: n }, () => POINTS.next()));
    for (const b of batches) {
      b.post = postStreamed(`${service.base}/flood-zone/batch`, 'application/json', batchBody(b.rows), b.onLine);
      b.post.done.then(() => (b.finished = true), () => (b.finished = true));
    }
    // measure once both batches stream rows, i.e. both run
    const until = Date.now() + 60_000;
    while (batches.some((b) => !b.finished && b.post!.lines === 0) && Date.now() < until) await sleep(20);
    for (const b of batches) {
      if (b.post!.status !== 200 || b.post!.lines === 0) throw new Error(`a batch did not start streaming: HTTP ${b.post!.status}, ${b.post!.lines} lines`);
    }
    const rowsAtStart = batches.map((b) => b.post!.lines);
    const loaded = await coldGets(service, agent, n, Array.from({ length: n }, () => POINTS.next()));
    const rowsAtEnd = batches.map((b) => b.post!.lines);
    const ranThroughout = batches.every((b) => !b.finished);
    const problems = batches.map((b) => b.reader.problem).filter(Boolean);
    if (problems.length) throw new Error(`batch answer: ${problems[0]}`);
    const idleP50 = round(percentile(idle, 50), 1);
    const loadedP50 = round(percentile(loaded, 50), 1);
    const ratio = round(loadedP50 / idleP50, 2);
    results.batchFairness = {
      upstreamLatencyMs: CFG.upstreamLatencyMs,
      upstreamMaxConcurrency: B.concurrency,
      rowsPerBatch: B.rows,
      lookups: n,
      idle: coldFigures(idle, CFG.upstreamLatencyMs),
      besideTwoBatches: coldFigures(loaded, CFG.upstreamLatencyMs),
      ratioP50: ratio,
      batchRowsAnsweredDuringMeasurement: rowsAtEnd.map((e, i) => e - rowsAtStart[i]),
      batchesRanThroughout: ranThroughout,
    };
    row(S, `idle: ${n} cold GETs, p50 / p90 ms`, `${idleP50} / ${round(percentile(idle, 90), 1)}`);
    row(S, `beside two batches: ${n} cold GETs, p50 / p90 ms`, `${loadedP50} / ${round(percentile(loaded, 90), 1)}`);
    row(S, 'batch rows answered meanwhile; both still running at the end', `${rowsAtEnd.map((e, i) => e - rowsAtStart[i]).join(' + ')}; ${ranThroughout ? 'yes' : 'no'}`, 'yes', ranThroughout);
    row(S, 'p50 beside two batches / p50 idle', ratio, `<= ${B.interactiveGoalFactor}`, ratio <= B.interactiveGoalFactor);
  } finally {
    for (const b of batches) b.post?.abort();
    await service.stop();
  }
}

// -------------------------------------------------------------------------------------------------

function printTable(): string {
  const header: Row = { scenario: 'scenario', metric: 'metric', value: 'value', goal: 'goal' };
  const all = [header, ...rows];
  const w = {
    scenario: Math.max(...all.map((r) => r.scenario.length)),
    metric: Math.max(...all.map((r) => r.metric.length)),
    value: Math.max(...all.map((r) => r.value.length)),
  };
  const line = (r: Row) => {
    const goal = r.goal === undefined ? '' : `${r.goal}${r.met === undefined ? '' : r.met ? '  ok' : '  MISSED'}`;
    return `${r.scenario.padEnd(w.scenario)} | ${r.metric.padEnd(w.metric)} | ${r.value.padEnd(w.value)} | ${goal}`.trimEnd();
  };
  const sep = `${'-'.repeat(w.scenario)}-+-${'-'.repeat(w.metric)}-+-${'-'.repeat(w.value)}-+-${'-'.repeat(20)}`;
  return [line(header), sep, ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const began = Date.now();
  const cpus = os.cpus();
  const machine = {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    totalMemoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  };
  prepareServiceBuild();
  const loadAtStart = os.loadavg().map((v) => round(v, 2));
  log(`${QUICK ? 'QUICK ' : ''}run on ${machine.cpuModel}, ${machine.cores} cores, ${machine.totalMemoryGiB} GiB, Node ${machine.node}`);
  const emulators = await Emulators.start(0, { sets: 2, size: CFG.batch.rows });
  const failures: string[] = [];
  const scenarios: Array<[string, () => Promise<void>]> = [
    ['cacheHitVsExpress', () => cacheHitVsExpress(emulators)],
    ['cold', () => coldLookups(emulators)],
    ['burst', () => burst(emulators)],
    ['memory', () => memory(emulators)],
    ...(CFG.memory.largeEntries > 0 || (process.env.BENCH_ONLY ?? '').includes('memoryLarge') ? [['memoryLarge', () => memory(emulators, CFG.memory.largeEntries || 100_000)] as [string, () => Promise<void>]] : []),
    ['mixed', () => mixed(emulators)],
    ['includes', () => includesVsPlain(emulators)],
    ['batch', () => batch(emulators)],
    ['batchFairness', () => batchFairness(emulators)],
  ];
  const only = (process.env.BENCH_ONLY ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  try {
    for (const [name, run] of scenarios) {
      if (only.length && !only.includes(name)) continue;
      try {
        await run();
      } catch (error) {
        const msg = error instanceof Error ? error.message : String(error);
        failures.push(`${name}: ${msg}`);
        row(name, 'FAILED', msg.split('\n')[0].slice(0, 120));
        log(`${name} failed: ${error instanceof Error ? error.stack : msg}`);
      }
    }
  } finally {
    await emulators.close();
  }

  const table = printTable();
  const report = {
    date: new Date().toISOString(),
    machine,
    quick: QUICK,
    totalSeconds: round((Date.now() - began) / 1000, 1),
    loadAverage: { atStart: loadAtStart, atEnd: os.loadavg().map((v) => round(v, 2)) },
    config: CFG,
    distinctPointsUsed: POINTS.used,
    scenarios: results,
    shortfalls,
    failures,
    table: table.split('\n'),
  };
  fs.writeFileSync(path.join(__dirname, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nflood-zone-lookup benchmark${QUICK ? ' (QUICK)' : ''}, ${report.date}`);
  console.log(`${machine.cpuModel}, ${machine.cores} cores, ${machine.totalMemoryGiB} GiB, Node ${machine.node}; ${report.totalSeconds} s`);
  console.log(`load average (1/5/15 min) at start ${loadAtStart.join(' ')}, at end ${report.loadAverage.atEnd.join(' ')}\n`);
  if (loadAtStart[0] > machine.cores / 2) {
    console.log(`NOTE: the machine was busy when the run began (1-min load ${loadAtStart[0]} on ${machine.cores} cores): figures are pessimistic and noisy.\n`);
  }
  console.log(table);
  if (shortfalls.length) console.log(`\nbelow goal:\n  ${shortfalls.join('\n  ')}`);
  console.log(`\nwritten: bench/results.json`);
  if (failures.length) {
    console.error(`\nscenarios that failed:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  }
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    killAllChildren();
    // autocannon and keep-alive agents may hold handles; everything is written, so leave now
    setTimeout(() => process.exit(), 100).unref();
  });
