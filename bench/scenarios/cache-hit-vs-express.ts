/**
 * Scenario 1: cache hits vs plain Express. The same cached answer from the service (at LOG_LEVEL warn and info,
 * and with a rate limit counted in memory and in Redis) and from a bare Express app, under the same load.
 */
import * as http from 'node:http';
import autocannon from 'autocannon';
import { DisposableRedis } from '../../test/support/redis-server';
import { CENTRE, CFG, POINTS } from '../config';
import { Emulators, Service, expectOk, httpGet, keepAlive, round, startExpressBaseline } from '../lib';
import { PointGrid, pointPath } from '../points';
import { cannonFigures, log, results, row } from '../report';

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

export async function cacheHitVsExpress(emulators: Emulators): Promise<void> {
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
    ready = await autocannon({
      url: `${atWarn.service.base}/health/ready`,
      connections: CFG.cacheHit.connections,
      duration: CFG.cacheHit.healthSeconds,
      timeout: 10,
    });
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
    row(
      S,
      `rate-limited (${storage} storage), warn: req/s, p50 / p99 ms`,
      `${round(result.requests.average, 0)}, ${result.latency.p50} / ${result.latency.p99}`,
    );
    row(S, `ratio rate-limited (${storage}) / Express; req/s lost to the limit`, `${ratio(result)}; ${costPercent(result)} %`, '>= 0.7', ratio(result) >= 0.7);
  }
  row(S, 'for scale: service GET /health/ready req/s, p50 / p99 ms', `${round(ready.requests.average, 0)}, ${ready.latency.p50} / ${ready.latency.p99}`);
  const runs = [atWarn.result, atInfo.result, limited.result, limitedRedis.result, base];
  const bad = runs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
  row(S, 'non-2xx + errors + timeouts', bad, '0', bad === 0);
}
