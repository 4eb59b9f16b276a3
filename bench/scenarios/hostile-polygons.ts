/**
 * Scenario 15: hostile polygons. Two clients send POST /flood-zone footprints shaped to cost the most, one after
 * another without pause: two meanders crossing each other 250,000 times (2,000 vertices, about a second of sweep on
 * this machine) and 1,999-vertex self-crossing stars. Meanwhile one client asks /health/ready and another makes
 * healthy cold lookups, as they did idle just before. Printed: the health p99 under attack, the lookups' p50 under
 * attack against idle, and the growth of the service's RSS (its worker threads included), beside their goals.
 */
import * as http from 'node:http';
import CheapRuler from 'cheap-ruler';
import { CENTRE, POINTS } from '../config';
import { Emulators, Service, expectOk, httpGet, keepAlive, percentile, round } from '../lib';
import { pointPath } from '../points';
import { log, results, row } from '../report';

const S = '15 hostile polygons';
const HEALTH_P99_GOAL_MS = 50;
const LOOKUP_P50_GOAL_RATIO = 1.2;
const RSS_GROWTH_GOAL_MB = 150;
/** Requests of each kind measured idle, and again under attack. */
const SAMPLES = 200;

type Position = [number, number];
const ruler = new CheapRuler(CENTRE.lat, 'meters');
const at = (eastM: number, northM: number) => ruler.offset([CENTRE.lon, CENTRE.lat], eastM, northM) as Position;

/** A star of `vertices` points (odd), each edge crossing most others. */
function star(vertices: number, radiusM: number): Position[] {
  const step = (vertices - 1) / 2;
  const ring = Array.from<unknown, Position>({ length: vertices }, (_, i) => {
    const angle = (2 * Math.PI * ((i * step) % vertices)) / vertices;
    return at(radiusM * Math.cos(angle), radiusM * Math.sin(angle));
  });
  return [...ring, ring[0]];
}

/** A meander of `teeth` teeth over a square `sizeM` across; one up and down and one left and right cross teeth² times. */
function meander(teeth: number, sizeM: number, across: boolean): Position[] {
  const half = sizeM / 2;
  const step = sizeM / teeth;
  const place = (along: number, side: number) => (across ? at(side, along) : at(along, side));
  const ring: Position[] = [];
  for (let i = 0; i < teeth; i++) {
    const [a, b] = [-half + i * step, -half + i * step + step / 2];
    ring.push(place(a, -half), place(a, half), place(b, half), place(b, -half));
  }
  ring.push(place(half, -half - 1), place(-half, -half - 1), ring[0]);
  return ring;
}

const HOSTILE_BODIES = [[meander(250, 60, false), meander(250, 50, true).reverse()], [star(1999, 12)]].map((coordinates) =>
  JSON.stringify({ lat: CENTRE.lat, lon: CENTRE.lon, footprint: { type: 'Polygon', coordinates } }),
);

function post(url: string, body: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Sequential GETs of `path(i)`, timed one by one (ms). */
async function timed(service: Service, agent: http.Agent, path: (i: number) => string): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const answer = await httpGet(`${service.base}${path(i)}`, agent);
    expectOk(answer, path(i));
    ms.push(answer.ms);
  }
  return ms;
}

/** Health and healthy lookups side by side (each its own client), as the goals speak of them together. */
async function measured(service: Service): Promise<{ health: number[]; lookups: number[] }> {
  const [health, lookups] = await Promise.all([
    timed(service, keepAlive(1), () => '/health/ready'),
    timed(service, keepAlive(1), () => pointPath(POINTS.next())),
  ]);
  return { health, lookups };
}

export async function hostilePolygons(emulators: Emulators): Promise<void> {
  log(`${S}: ${SAMPLES} health probes and ${SAMPLES} cold lookups idle, then again beside 2 clients sending hostile footprints`);
  await emulators.setLatency(0);
  const service = await Service.start(emulators.env, { CACHE_TTL_SECONDS: '0' });
  try {
    const idle = await measured(service);
    const rssIdle = service.rssMiB();
    let rssPeak = rssIdle;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, service.rssMiB())), 100);
    const statuses: Record<string, number> = {};
    let attacking = true;
    const attacker = async (first: number) => {
      const agent = keepAlive(1);
      for (let i = first; attacking; i++) {
        const status = await post(`${service.base}/flood-zone`, HOSTILE_BODIES[i % HOSTILE_BODIES.length], agent);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    };
    const attackers = [attacker(0), attacker(1)];
    const attacked = await measured(service).finally(() => {
      attacking = false;
      clearInterval(sampler);
    });
    await Promise.all(attackers);

    const healthP99 = percentile(attacked.health, 99);
    const lookupRatio = percentile(attacked.lookups, 50) / percentile(idle.lookups, 50);
    const growthMB = (rssPeak - rssIdle) * 1.048576;
    const refusedOnly = Object.keys(statuses).every((status) => status === '400' || status === '503');
    row(S, 'hostile footprints answered, by status', JSON.stringify(statuses), 'only 400 / 503', refusedOnly);
    row(S, 'health p50 / p99 ms, idle', `${round(percentile(idle.health, 50), 1)} / ${round(percentile(idle.health, 99), 1)}`);
    row(
      S,
      'health p50 / p99 ms, under attack',
      `${round(percentile(attacked.health, 50), 1)} / ${round(healthP99, 1)}`,
      `p99 <= ${HEALTH_P99_GOAL_MS}`,
      healthP99 <= HEALTH_P99_GOAL_MS,
    );
    row(S, 'lookup p50 ms, idle / under attack', `${round(percentile(idle.lookups, 50), 1)} / ${round(percentile(attacked.lookups, 50), 1)}`);
    row(S, 'lookup p50 under attack / idle', round(lookupRatio, 2), `<= ${LOOKUP_P50_GOAL_RATIO}`, lookupRatio <= LOOKUP_P50_GOAL_RATIO);
    row(
      S,
      'service RSS idle / peak MiB; growth MB',
      `${rssIdle} / ${rssPeak}; ${round(growthMB, 1)}`,
      `<= ${RSS_GROWTH_GOAL_MB} MB`,
      growthMB <= RSS_GROWTH_GOAL_MB,
    );
    results.hostilePolygons = {
      samples: SAMPLES,
      statuses,
      idle: { healthMs: summary(idle.health), lookupMs: summary(idle.lookups) },
      attacked: { healthMs: summary(attacked.health), lookupMs: summary(attacked.lookups) },
      rssMiB: { idle: rssIdle, peak: rssPeak },
    };
  } finally {
    await service.stop();
  }
}

const summary = (ms: number[]) => ({ p50: round(percentile(ms, 50), 1), p99: round(percentile(ms, 99), 1), max: round(Math.max(...ms), 1) });
