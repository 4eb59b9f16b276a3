/**
 * Scenario 15: hostile polygons. Two clients send POST /flood-zone footprints shaped to cost the most, one after
 * another without pause: two meanders crossing each other 62,000 times (1,996 vertices) and 1,999-vertex
 * self-crossing stars. Meanwhile one client asks /health/ready and another makes healthy cold lookups; in rounds,
 * idle and under attack in A-B-B-A order (interleaved.ts). Printed: the health p99 under attack, the lookups' p50
 * under attack against idle (the median of the rounds' ratios), and how much more RSS the service (its worker
 * threads included) reached under attack than idle, beside their goals. Then the hostile-geometry fuzz's run, its
 * cases drawn by the generator the fuzzing suite uses (test/support/hostile-geometry-fuzz.ts), one request at a time:
 * each shape as a POST /flood-zone footprint, all of them as one batch's rows, each served by USA Structures as a
 * building's footprint and by NFHL as a zone polygon over a footprint; printed, the answers by status and the
 * service's longest event-loop block meanwhile (its own monitorEventLoopDelay, through /metrics), beside the goal.
 */
import * as http from 'node:http';
import { FUZZ_PLACE, FUZZ_SEED, UNDER_ZONE, hostileGeometryCases, pointInside } from '../../test/support/hostile-geometry-fuzz';
import { hostileShapesAround } from '../../test/support/hostile-shapes';
import { CENTRE, POINTS } from '../config';
import { Emulators, Service, expectOk, httpGet, keepAlive, percentile, round } from '../lib';
import { pointPath } from '../points';
import { interleave, spreadLabel, spreadText } from '../interleaved';
import { log, results, row } from '../report';

const S = '15 hostile polygons';
const HEALTH_P99_GOAL_MS = 50;
const LOOKUP_P50_GOAL_RATIO = 1.2;
const RSS_GROWTH_GOAL_MB = 150;
/** The goal: no polygon, from a caller or an upstream, holds the event loop longer than this. */
const FUZZ_BLOCK_GOAL_MS = 100;
/** Rounds, each measuring idle and under attack (in A-B-B-A order), and requests of each kind in each. */
const ROUNDS = 10;
const SAMPLES_PER_ROUND = 60;

const { star, meander } = hostileShapesAround(CENTRE);

const HOSTILE_BODIES = [[meander(249, 60, false), meander(249, 50, true).reverse()], [star(1999, 12)]].map((coordinates) =>
  JSON.stringify({ lat: CENTRE.lat, lon: CENTRE.lon, footprint: { type: 'Polygon', coordinates } }),
);

/** A POST of a JSON body: its status and its text. */
function post(url: string, body: string, agent: http.Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The fuzz's run, one request at a time; its answers by status (a batch's by its rows') and the service's longest event-loop block meanwhile. */
async function fuzzRun(
  service: Service,
  emulators: Emulators,
): Promise<{ cases: number; statuses: Record<string, number>; longestBlockMs: number; seconds: number }> {
  const cases = hostileGeometryCases(FUZZ_SEED);
  const agent = keepAlive(1);
  const statuses: Record<string, number> = {};
  const count = (status: number) => (statuses[status] = (statuses[status] ?? 0) + 1);
  const lookup = (footprint: unknown) => JSON.stringify({ lat: FUZZ_PLACE.lat, lon: FUZZ_PLACE.lon, include: ['structure'], footprint });
  const started = performance.now();
  // Scraped once before, so that the figure read after covers the run alone.
  await service.longestLoopDelayMs(agent);
  for (const c of cases) count((await post(`${service.base}/flood-zone`, lookup(c.footprint), agent)).status);
  const locations = cases.map((c, n) => ({ id: String(n), lat: FUZZ_PLACE.lat, lon: FUZZ_PLACE.lon, footprint: c.footprint }));
  const batch = await post(`${service.base}/flood-zone/batch?include=structure`, JSON.stringify({ locations }), agent);
  for (const line of batch.text.split('\n').filter(Boolean)) count((JSON.parse(line) as { status: number }).status);
  const served = cases.filter((c) => c.served);
  for (const c of served) {
    await emulators.serveFootprint(c.served!.rings);
    const { point } = pointInside(c.served!);
    count((await httpGet(`${service.base}/flood-zone?lat=${point.lat}&lon=${point.lon}&include=structure`, agent)).status);
  }
  await emulators.serveFootprint(null);
  for (const c of served) {
    await emulators.serveZone(c.served!.rings);
    count((await post(`${service.base}/flood-zone`, lookup(UNDER_ZONE), agent)).status);
  }
  await emulators.serveZone(null);
  const longestBlockMs = await service.longestLoopDelayMs(agent);
  return { cases: cases.length * 2 + served.length * 2, statuses, longestBlockMs, seconds: (performance.now() - started) / 1000 };
}

/** Sequential GETs of `path()`, timed one by one (ms). */
async function timed(service: Service, agent: http.Agent, path: () => string): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < SAMPLES_PER_ROUND; i++) {
    const asked = path();
    const answer = await httpGet(`${service.base}${asked}`, agent);
    expectOk(answer, asked);
    ms.push(answer.ms);
  }
  return ms;
}

interface Measured {
  health: number[];
  lookups: number[];
}

export async function hostilePolygons(emulators: Emulators): Promise<void> {
  log(
    `${S}: ${ROUNDS} rounds of ${SAMPLES_PER_ROUND} health probes and ${SAMPLES_PER_ROUND} cold lookups, idle and beside 2 clients sending hostile footprints`,
  );
  await emulators.setLatency(0);
  const service = await Service.start(emulators.env, { CACHE_TTL_SECONDS: '0' });
  const [healthAgent, lookupAgent] = [keepAlive(1), keepAlive(1)];
  try {
    // The most RSS seen in the idle blocks and in the attacked ones; growth is over the first idle block's, before any
    // worker thread started (the threads then stay a minute idle, in every later idle block's RSS).
    const rssPeak = { idle: 0, attacked: 0 };
    let rssBeforeAttack: number | undefined;
    let sampled: keyof typeof rssPeak = 'idle';
    const sampler = setInterval(() => (rssPeak[sampled] = Math.max(rssPeak[sampled], service.rssMiB())), 100);
    const statuses: Record<string, number> = {};
    let attacking = false;
    const attacker = async (first: number) => {
      const agent = keepAlive(1);
      for (let i = first; attacking; i++) {
        const { status } = await post(`${service.base}/flood-zone`, HOSTILE_BODIES[i % HOSTILE_BODIES.length], agent);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    };
    // Health and healthy lookups side by side (each its own client), as the goals speak of them together.
    const measure = async (variant: 'idle' | 'attacked'): Promise<Measured> => {
      attacking = variant === 'attacked';
      if (attacking) rssBeforeAttack ??= rssPeak.idle;
      sampled = variant;
      const attackers = attacking ? [attacker(0), attacker(1)] : [];
      const [health, lookups] = await Promise.all([
        timed(service, healthAgent, () => '/health/ready'),
        timed(service, lookupAgent, () => pointPath(POINTS.next())),
      ]);
      attacking = false;
      await Promise.all(attackers);
      return { health, lookups };
    };
    const rounds = await interleave(['idle', 'attacked'] as const, ROUNDS, measure).finally(() => clearInterval(sampler));

    const all = (variant: 'idle' | 'attacked', kind: keyof Measured) => rounds.of(variant).flatMap((m) => m[kind]);
    const healthP99 = percentile(all('attacked', 'health'), 99);
    const lookupRatio = rounds.compare('attacked', 'idle', (a, b) => percentile(a.lookups, 50) / percentile(b.lookups, 50), 2);
    const growthMB = (rssPeak.attacked - (rssBeforeAttack ?? 0)) * 1.048576;
    const refusedOnly = Object.keys(statuses).every((status) => status === '400' || status === '503');
    const p50p99 = (ms: number[]) => `${round(percentile(ms, 50), 1)} / ${round(percentile(ms, 99), 1)}`;
    row(S, 'hostile footprints answered, by status', JSON.stringify(statuses), 'only 400 / 503', refusedOnly);
    row(S, 'health p50 / p99 ms, idle', p50p99(all('idle', 'health')));
    row(S, 'health p50 / p99 ms, under attack', p50p99(all('attacked', 'health')), `p99 <= ${HEALTH_P99_GOAL_MS}`, healthP99 <= HEALTH_P99_GOAL_MS);
    row(S, 'lookup p50 / p99 ms, idle', p50p99(all('idle', 'lookups')));
    row(S, 'lookup p50 / p99 ms, under attack', p50p99(all('attacked', 'lookups')));
    row(
      S,
      `lookup p50 under attack / idle, ${spreadLabel(ROUNDS)}`,
      spreadText(lookupRatio),
      `<= ${LOOKUP_P50_GOAL_RATIO}`,
      lookupRatio.median <= LOOKUP_P50_GOAL_RATIO,
    );
    row(
      S,
      'service RSS before any attack / peak idle after one / peak under attack MiB; growth MB',
      `${rssBeforeAttack} / ${rssPeak.idle} / ${rssPeak.attacked}; ${round(growthMB, 1)}`,
      `<= ${RSS_GROWTH_GOAL_MB} MB`,
      growthMB <= RSS_GROWTH_GOAL_MB,
    );
    const fuzz = await fuzzRun(service, emulators);
    row(
      S,
      `fuzz: ${fuzz.cases} hostile cases (seed ${FUZZ_SEED}) in ${round(fuzz.seconds, 1)} s, by status`,
      JSON.stringify(fuzz.statuses),
      'no 500',
      !('500' in fuzz.statuses),
    );
    row(S, 'fuzz: longest event-loop block ms', round(fuzz.longestBlockMs, 1), `<= ${FUZZ_BLOCK_GOAL_MS}`, fuzz.longestBlockMs <= FUZZ_BLOCK_GOAL_MS);
    results.hostilePolygons = {
      fuzz,
      rounds: ROUNDS,
      samplesPerRound: SAMPLES_PER_ROUND,
      statuses,
      idle: { healthMs: summary(all('idle', 'health')), lookupMs: summary(all('idle', 'lookups')) },
      attacked: { healthMs: summary(all('attacked', 'health')), lookupMs: summary(all('attacked', 'lookups')) },
      lookupP50Ratio: lookupRatio,
      rssMiB: { beforeAttack: rssBeforeAttack, ...rssPeak },
    };
  } finally {
    await service.stop();
  }
}

const summary = (ms: number[]) => ({ p50: round(percentile(ms, 50), 1), p99: round(percentile(ms, 99), 1), max: round(Math.max(...ms), 1) });
