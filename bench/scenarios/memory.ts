/** Scenario 4: memory of the service with many distinct cached lookups: bounded once the LRU cache is full. */
import autocannon from 'autocannon';
import { CFG, POINTS } from '../config';
import { Emulators, Service, expectOk, httpGet, keepAlive, round } from '../lib';
import { pointPath } from '../points';
import { log, results, row, statusCounts } from '../report';

export async function memory(emulators: Emulators, maxEntries?: number): Promise<void> {
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
      row(
        S,
        `RSS growth from ${round(ref.lookups / 1000, 1)}k to ${round(last.lookups / 1000, 1)}k lookups (LRU full at ${lruFullAt / 1000}k)${tag} MiB`,
        growth,
        '<= 10% of RSS',
        growth <= 0.1 * ref.rssMiB,
      );
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
