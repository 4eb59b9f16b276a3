/**
 * Informational, not part of `npm run bench`: cold lookups piling up behind a FEMA that takes 12 s per call,
 * all reaching their deadline together, while /health is asked every 100 ms. Prints /health's latency through
 * the storm and the NFHL calls FEMA received. Run after the bench build step (see run.ts):
 *
 *   npx tsc -p tsconfig.build.json --outDir bench/.service/dist --tsBuildInfoFile bench/.service/dist/.tsbuildinfo
 *   node -r ts-node/register/transpile-only bench/expiring-storm.ts
 *
 *   STORM_LOOKUPS=n     cold lookups at distinct points, all sent at once (default 80)
 *   STORM_LATENCY_MS=n  every upstream's time per call (default 12000)
 */
import { POINTS } from './config';
import { Emulators, Service, Tally, httpGet, keepAlive, killAllChildren, percentile, prepareServiceBuild, round, sleep } from './lib';
import { pointPath } from './points';

const LOOKUPS = Number(process.env.STORM_LOOKUPS ?? 80);
const LATENCY_MS = Number(process.env.STORM_LATENCY_MS ?? 12_000);

async function main(): Promise<void> {
  prepareServiceBuild();
  const emulators = await Emulators.start(0);
  try {
    const service = await Service.start(emulators.env, { CACHE_TTL_SECONDS: '0', GEOCODE_CACHE_TTL_SECONDS: '0' });
    // The first lookup also fetches the NFHL layer list: done before FEMA slows down.
    await httpGet(`${service.base}${pointPath(POINTS.next())}`, keepAlive(1));
    await emulators.setLatency(LATENCY_MS);
    await emulators.resetCalls();

    const lookupAgent = keepAlive(LOOKUPS);
    const statuses: Tally = {};
    let pending = LOOKUPS;
    const started = Date.now();
    const lookups = Array.from({ length: LOOKUPS }, () => POINTS.next()).map(async (point) => {
      const { status } = await httpGet(`${service.base}${pointPath(point)}`, lookupAgent, 120_000);
      statuses[status] = (statuses[status] ?? 0) + 1;
      pending--;
    });

    const healthAgent = keepAlive(1);
    const healthMs: number[] = [];
    while (pending > 0) {
      const { status, ms } = await httpGet(`${service.base}/health`, healthAgent, 10_000);
      if (status !== 200) throw new Error(`/health answered ${status}`);
      healthMs.push(ms);
      await sleep(100);
    }
    await Promise.all(lookups);
    const counts = await emulators.counts();
    const [p50Ms, p99Ms, maxMs] = [percentile(healthMs, 50), percentile(healthMs, 99), Math.max(...healthMs)].map((ms) => round(ms));
    const health = { samples: healthMs.length, p50Ms, p99Ms, maxMs };
    const stormSeconds = round((Date.now() - started) / 1000, 1);
    const figures = { lookups: LOOKUPS, upstreamLatencyMs: LATENCY_MS, lookupStatuses: statuses, stormSeconds, nfhlCallsReceived: counts.nfhlTotal, health };
    console.log(JSON.stringify(figures, null, 2));
    await service.stop();
  } finally {
    await emulators.close();
    killAllChildren();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  killAllChildren();
  process.exit(1);
});
