/** Scenario 2: cold lookups, sequential, 50 ms per upstream answer: what the service adds to the upstreams' time. */
import * as http from 'node:http';
import { DEMO_PLACES } from '../../test/emulators/demo-map';
import { CENTRE, CFG, POINTS } from '../config';
import { Emulators, Service, expectOk, httpGet, keepAlive, round } from '../lib';
import { Point, pointPath } from '../points';
import { coldFigures, log, results, row } from '../report';

/** Times in ms of `n` sequential lookups, each a 200 and a cache MISS whose body passes `check`. */
async function sequentialCold(
  service: Service,
  agent: http.Agent,
  n: number,
  pathOf: (i: number) => string,
  check: (body: Record<string, any>, i: number) => void,
): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await httpGet(`${service.base}${pathOf(i)}`, agent);
    const body = expectOk(r, `cold lookup ${i}`);
    if (r.headers['x-cache'] !== 'MISS') throw new Error(`cold lookup ${i} answered X-Cache ${String(r.headers['x-cache'])}`);
    check(body, i);
    ms.push(r.ms);
  }
  return ms;
}

/** Sequential cold GETs of `points`, each checked to be in the zone of the grid's place. */
export async function coldGets(service: Service, agent: http.Agent, points: Point[]): Promise<number[]> {
  return sequentialCold(
    service,
    agent,
    points.length,
    (i) => pointPath(points[i]),
    (body, i) => {
      if (body.result.floodZone !== CENTRE.expect.floodZone) throw new Error(`point ${i} left the zone polygon: ${body.result.floodZone}`);
    },
  );
}

export async function coldLookups(emulators: Emulators): Promise<void> {
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
    const ms = await coldGets(service, agent, points);
    const counts = await emulators.counts();
    const f = coldFigures(ms, latency);
    results.coldLatLon = { ...f, upstreamLatencyMs: latency, upstreamCalls: counts };
    row(S, `lat/lon: ${f.lookups} distinct points, p50 / p99 ms`, `${f.p50Ms} / ${f.p99Ms}`);
    row(S, `lat/lon: overhead over ideal ${latency} ms (p50 / mean)`, `${f.overheadP50Ms} / ${f.overheadMeanMs} ms`);
    row(
      S,
      'lat/lon: upstream calls per lookup (NFHL query / Census)',
      `${round(counts.nfhlTotal / f.lookups, 2)} / ${round(counts.censusTotal / f.lookups, 2)}`,
    );
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
    const ms = await sequentialCold(service, agent, CFG.cold.addresses, pathOf, (body, i) => {
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
