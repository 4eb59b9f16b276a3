/**
 * Scenario 1: cache hits vs plain Express. The same cached answer from the service (at LOG_LEVEL warn and info,
 * and with a rate limit counted in memory and in Redis) and from a bare Express app, under the same load. Every
 * target runs at once, each in its own process, and is loaded in short A-B-B-A rounds (interleaved.ts): each
 * ratio is taken within a round and reported as the median of the rounds, with their spread.
 */
import * as http from 'node:http';
import autocannon from 'autocannon';
import { DisposableRedis } from '../../test/support/redis-server';
import { CENTRE, CFG, POINTS } from '../config';
import { interleave, spreadLabel, spreadText } from '../interleaved';
import { Emulators, Service, expectOk, httpGet, keepAlive, round, startExpressBaseline } from '../lib';
import { PointGrid, pointPath } from '../points';
import { cannonFigures, log, reqPerSec, results, row } from '../report';

/** A rate limit no benchmark client reaches: every request pays for the counting, none is refused. */
const UNREACHED_RATE_LIMIT = '1000000000';
const LOOKUP_PATH = `/flood-zone?lat=${CENTRE.lat}&lon=${CENTRE.lon}`;

/**
 * One round of load on `url` (scenario 12 loads its targets alike). autocannon stops at its first sample after
 * the duration: sampled every 100 ms instead of every second, a half-second round lasts half a second, not one.
 */
export function loadRound(url: string, seconds: number = CFG.cacheHit.roundSeconds): Promise<autocannon.Result> {
  return autocannon({ url, connections: CFG.cacheHit.connections, duration: seconds, sampleInt: 100, timeout: 10 });
}

/**
 * An unmeasured second of load on each target before the rounds: otherwise whichever is measured first pays for
 * the JIT warm-up of the load generator (and every target for its own).
 */
export async function warmUp(urls: string[]): Promise<void> {
  for (const url of urls) await loadRound(url, 1);
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

/** One service configuration of scenario 1, started, its cached lookup checked to be a HIT. */
async function startCachedLookup(emulators: Emulators, overrides: Record<string, string>, agent: http.Agent) {
  const service = await Service.start(emulators.env, overrides);
  try {
    const url = `${service.base}${LOOKUP_PATH}`;
    expectOk(await httpGet(url, agent), 'warm-up');
    const warm = await httpGet(url, agent);
    expectOk(warm, 'second lookup');
    if (warm.headers['x-cache'] !== 'HIT') throw new Error(`second lookup was X-Cache ${String(warm.headers['x-cache'])}, not HIT`);
    return { service, warm, url };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

/** The targets, in the order of a round: the baseline, then the service as it is configured more and more. */
const TARGETS = ['express', 'warn', 'info', 'memory', 'redis'] as const;
type Target = (typeof TARGETS)[number];

export async function cacheHitVsExpress(emulators: Emulators): Promise<void> {
  const S = '1 cache hit vs Express';
  const { rounds, roundSeconds, connections } = CFG.cacheHit;
  log(
    `${S}: Express and the service at LOG_LEVEL warn, info, and warn with a rate limit (memory, Redis), all running, in ${rounds} A-B-B-A rounds of ${roundSeconds} s x ${connections} connections`,
  );
  await emulators.setLatency(0);
  const agent = keepAlive(4);
  const stops: Array<() => Promise<unknown>> = [];
  try {
    const atWarn = await startCachedLookup(emulators, { LOG_LEVEL: 'warn' }, agent);
    stops.push(() => atWarn.service.stop());
    await checkGridInsideZone(atWarn.service, agent);
    const body = atWarn.warm.body;
    const express = await startExpressBaseline(body);
    stops.push(express.stop);
    const expressUrl = `${express.base}${LOOKUP_PATH}`;
    if ((await httpGet(expressUrl, agent)).body !== body) throw new Error('the Express baseline does not serve the captured body');
    const atInfo = await startCachedLookup(emulators, { LOG_LEVEL: 'info' }, agent);
    stops.push(() => atInfo.service.stop());
    const limited = await startCachedLookup(emulators, { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: UNREACHED_RATE_LIMIT }, agent);
    stops.push(() => limited.service.stop());
    // The same with the counts in Redis (a redis-server of the bench's own), as replicas share them.
    const redis = await DisposableRedis.start();
    stops.push(() => redis.stop());
    const limitedRedis = await startCachedLookup(emulators, { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: UNREACHED_RATE_LIMIT, REDIS_URL: redis.url }, agent);
    stops.push(() => limitedRedis.service.stop());
    for (const run of [limited, limitedRedis]) {
      if (run.warm.headers['ratelimit-limit'] !== UNREACHED_RATE_LIMIT) throw new Error('a rate-limited service sent no RateLimit-Limit header');
    }

    const urls: Record<Target, string> = { express: expressUrl, warn: atWarn.url, info: atInfo.url, memory: limited.url, redis: limitedRedis.url };
    await warmUp(TARGETS.map((t) => urls[t]));
    // the same edge without the lookup: how much of the gap is the stack, how much the route
    const ready = await loadRound(`${atWarn.service.base}/health/ready`, CFG.cacheHit.healthSeconds);
    const measured = await interleave(TARGETS, rounds, (target) => loadRound(urls[target]));

    const ratio = (target: Target) => measured.compare(target, 'express', (t, e) => reqPerSec(t) / reqPerSec(e), 2);
    const lostToLimit = (target: Target) => measured.compare(target, 'warn', (t, w) => (1 - reqPerSec(t) / reqPerSec(w)) * 100, 1);
    const figures = (target: Target) => ({
      reqPerSec: measured.figure(target, reqPerSec, 0),
      p50Ms: measured.figure(target, (r) => r.latency.p50, 0),
      p99Ms: measured.figure(target, (r) => r.latency.p99, 0),
    });
    const ratios = { warn: ratio('warn'), info: ratio('info'), memory: ratio('memory'), redis: ratio('redis') };
    const lost = { memory: lostToLimit('memory'), redis: lostToLimit('redis') };
    results.cacheHitVsExpress = {
      bodyBytes: Buffer.byteLength(body),
      connections,
      rounds,
      roundSeconds,
      rateLimitPerMinute: Number(UNREACHED_RATE_LIMIT),
      targets: Object.fromEntries(TARGETS.map((t) => [t, { ...figures(t), runs: measured.of(t).map(cannonFigures) }])),
      serviceHealthReady: cannonFigures(ready),
      ratioReqPerSecToExpress: ratios,
      rateLimitCostPercent: lost,
    };
    const spread = spreadLabel(rounds);
    const load = (target: Target) => {
      const f = figures(target);
      return `${spreadText(f.reqPerSec)}, ${f.p50Ms.median} / ${f.p99Ms.median}`;
    };
    row(S, `Express req/s, ${spread}; p50 / p99 ms, medians`, load('express'));
    row(S, `service at warn: req/s, ${spread}; p50 / p99 ms, medians`, load('warn'));
    row(S, `ratio service / Express at LOG_LEVEL=warn, ${spread}`, spreadText(ratios.warn), '>= 0.8', ratios.warn.median >= 0.8);
    row(S, `service at info: req/s, ${spread}; p50 / p99 ms, medians`, load('info'));
    row(S, `ratio service / Express at LOG_LEVEL=info, ${spread}`, spreadText(ratios.info), '>= 0.7', ratios.info.median >= 0.7);
    for (const [target, storage] of [
      ['memory', 'memory'],
      ['redis', 'Redis'],
    ] as const) {
      row(S, `rate-limited (${storage} storage), warn: req/s, ${spread}; p50 / p99 ms, medians`, load(target));
      row(
        S,
        `ratio rate-limited (${storage}) / Express; req/s lost to the limit %, ${spread}`,
        `${spreadText(ratios[target])}; ${spreadText(lost[target])}`,
        '>= 0.7',
        ratios[target].median >= 0.7,
      );
    }
    row(S, 'for scale: service GET /health/ready req/s, p50 / p99 ms', `${round(reqPerSec(ready), 0)}, ${ready.latency.p50} / ${ready.latency.p99}`);
    const bad = [ready, ...TARGETS.flatMap((t) => measured.of(t))].reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
    row(S, 'non-2xx + errors + timeouts', bad, '0', bad === 0);
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}
