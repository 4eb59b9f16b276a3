/** Scenario 5: mixed load: 90% hits, 10% cold, 5% of NFHL queries failing, 50 ms upstream latency. */
import autocannon from 'autocannon';
import { CFG, POINTS } from '../config';
import { Emulators, Service, expectOk, httpGet, keepAlive, round, sleep } from '../lib';
import { pointPath } from '../points';
import { cannonFigures, log, results, row } from '../report';

/** An error answer as its status, code and failing upstream, e.g. `502 UPSTREAM_UNAVAILABLE (flood_data)`. */
function errorKind(status: number, body: string): string {
  try {
    const e = JSON.parse(body) as { code?: string; upstream?: string };
    return `${status} ${e.code ?? '?'}${e.upstream ? ` (${e.upstream})` : ''}`;
  } catch {
    return `${status} (non-JSON body)`;
  }
}

export async function mixed(emulators: Emulators): Promise<void> {
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
              const kind = errorKind(status, body);
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
    const otherThan502 = Object.entries(non2xxByStatus)
      .filter(([s]) => s !== '502')
      .reduce((a, [, c]) => a + c, 0);
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
    row(
      S,
      'NFHL queries / faulted (injected HTTP 500)',
      `${counts.floodHazardZones + counts.firmPanels + counts.lomrs + counts.politicalJurisdictions + counts.lomas + counts.bfeLines + counts.availability} / ${counts.nfhlFaulted}`,
    );
    row(S, 'non-2xx by status', JSON.stringify(non2xxByStatus), 'only 502', otherThan502 === 0);
    row(S, 'error bodies', JSON.stringify(errorsByKind), '502 UPSTREAM_UNAVAILABLE (flood_data)', only502FromFlood);
    row(S, 'socket errors / timeouts', `${r.errors} / ${r.timeouts}`, '0 / 0', r.errors === 0 && r.timeouts === 0);
    row(S, 'service RSS start / end MiB', `${rssStart} / ${rssEnd}`);
  } finally {
    await emulators.clearFaults().catch(() => undefined);
    await service.stop();
  }
}
