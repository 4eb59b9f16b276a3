/** Scenario 3: a burst of identical cold lookups on a fresh service: each upstream should be asked once. */
import { CFG, POINTS } from '../config';
import { Emulators, HttpAnswer, Service, expectOk, httpGet, keepAlive, percentile, round, sleep } from '../lib';
import { pointPath } from '../points';
import { log, results, row } from '../report';

export async function burst(emulators: Emulators): Promise<void> {
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
