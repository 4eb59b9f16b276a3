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
 *                          includes, batch, batchFairness, elevation, nfipJoin, jobs,
 *                          cachedPicture, coldPicture, loanBook, hostilePolygons, history, watchSweep)
 *   BENCH_MEMORY_LARGE_ENTRIES=n  also measure memory with CACHE_MAX_ENTRIES=n (default off)
 *   BENCH_BATCH_ROWS=n     rows of each batch (default 10000; 3000 with BENCH_QUICK)
 *   BENCH_BATCH_CONCURRENCY=n  UPSTREAM_MAX_CONCURRENCY of the batch scenarios' service (default 64; a batch gets half)
 *   BENCH_JOB_ROWS=n       rows of the portfolio job (default 100000; 10000 with BENCH_QUICK)
 *   BENCH_JOB_FLOOR_SECONDS=n  the job's floor: JOB_UPSTREAM_RATE_PER_SECOND is set to the busiest upstream's distinct
 *                          calls over n (default 120; 20 with BENCH_QUICK)
 *   BENCH_JOB_CONCURRENCY=n    UPSTREAM_MAX_CONCURRENCY of the job scenario's processes (default 96)
 *   BENCH_JOB_UPLOAD_ROWS=n    rows of the body whose storing is measured first (default 1000000; 100000 with BENCH_QUICK)
 *   BENCH_LOAN_BOOK_ROWS=n     rows of the loan book (default 20000; 3000 with BENCH_QUICK)
 *   BENCH_LOAN_BOOK_TIME_SCALE=k  the loan book's budget is 20 x k calls a second, its upstreams answer in 50 / k ms (default 20)
 *   BENCH_LOAN_BOOK_ORDER=off,on  the loan book's runs in turn, spatial reuse off or on (default off,on; e.g. off,on,on,off)
 *   BENCH_WATCH_LOCATIONS=n    locations of the swept watch (default 1000000; 100000 with BENCH_QUICK)
 *   BENCH_WATCH_TIME_SCALE=k   the revised county's re-checks at a budget of 20 x k calls a second, upstreams at 50 / k ms (default 20)
 *
 * Each scenario has its own file under bench/scenarios/, in the order they run (BENCH_ONLY name: file):
 *   cacheHitVsExpress: cache-hit-vs-express.ts   cold: cold.ts   burst: burst.ts
 *   memory, memoryLarge: memory.ts               mixed: mixed.ts   includes: includes.ts
 *   batch: batch.ts                              batchFairness: batch-fairness.ts
 *   elevation: elevation.ts                      nfipJoin: nfip-join.ts
 *   jobs: jobs.ts (needs redis-server, like scenario 1)
 *   cachedPicture, coldPicture: map-picture.ts   loanBook: loan-book.ts (needs redis-server)
 *   hostilePolygons: hostile-polygons.ts
 *   history: history.ts                         watchSweep: watch-sweep.ts (needs redis-server)
 * What they share: config.ts (the figures above, read from the environment), report.ts (table rows, results,
 * log), lib.ts (child processes, HTTP, statistics), interleaved.ts (two variants compared in A-B-B-A rounds:
 * the median and interquartile range of the rounds), points.ts, portfolio.ts and loan-book.ts (what they ask about).
 *
 * Processes: this one drives the load (autocannon, node:http); the emulators, the service (`node dist/main.js`)
 * and the Express baseline each run in a child process, killed at the end whatever happens. Scenario 1 also
 * starts a redis-server of its own on a free port (for the rate-limit counts in Redis): Redis must be installed.
 * Figures here are informational: nothing in the test suite asserts on timing.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CFG, POINTS } from './config';
import { Emulators, killAllChildren, prepareServiceBuild, round } from './lib';
import { log, printTable, results, row, shortfalls } from './report';
import { batch } from './scenarios/batch';
import { batchFairness } from './scenarios/batch-fairness';
import { burst } from './scenarios/burst';
import { cacheHitVsExpress } from './scenarios/cache-hit-vs-express';
import { coldLookups } from './scenarios/cold';
import { elevationVsPlain } from './scenarios/elevation';
import { historyVsPlain } from './scenarios/history';
import { includesVsPlain } from './scenarios/includes';
import { jobs } from './scenarios/jobs';
import { loanBookJob } from './scenarios/loan-book';
import { hostilePolygons } from './scenarios/hostile-polygons';
import { cachedPictureVsJson, coldPictureVsLookup } from './scenarios/map-picture';
import { memory } from './scenarios/memory';
import { mixed } from './scenarios/mixed';
import { nfipJoin } from './scenarios/nfip-join';
import { watchSweep } from './scenarios/watch-sweep';

/** Scenarios by BENCH_ONLY name, in order; `byDefault: false` ones run only when BENCH_ONLY names them. */
const SCENARIOS: Array<{ name: string; run: (emulators: Emulators) => Promise<void>; byDefault?: boolean }> = [
  { name: 'cacheHitVsExpress', run: cacheHitVsExpress },
  { name: 'cold', run: coldLookups },
  { name: 'burst', run: burst },
  { name: 'memory', run: memory },
  { name: 'memoryLarge', run: (emulators) => memory(emulators, CFG.memory.largeEntries || 100_000), byDefault: CFG.memory.largeEntries > 0 },
  { name: 'mixed', run: mixed },
  { name: 'includes', run: includesVsPlain },
  { name: 'batch', run: batch },
  { name: 'batchFairness', run: batchFairness },
  { name: 'elevation', run: elevationVsPlain },
  { name: 'nfipJoin', run: nfipJoin },
  { name: 'jobs', run: jobs },
  { name: 'cachedPicture', run: cachedPictureVsJson },
  { name: 'coldPicture', run: coldPictureVsLookup },
  { name: 'loanBook', run: loanBookJob },
  { name: 'hostilePolygons', run: hostilePolygons },
  { name: 'history', run: historyVsPlain },
  { name: 'watchSweep', run: watchSweep },
];

/** The scenarios BENCH_ONLY names; a name no scenario has stops the run before anything starts (a typo would print an empty table). */
function chosenScenarios(): string[] {
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const unknown = only.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
  if (unknown.length > 0) {
    console.error(`BENCH_ONLY names no scenario called ${unknown.join(', ')}; the scenarios are ${SCENARIOS.map(({ name }) => name).join(', ')}.`);
    process.exit(2);
  }
  return only;
}

async function main(): Promise<void> {
  const only = chosenScenarios();
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
  log(`${CFG.quick ? 'QUICK ' : ''}run on ${machine.cpuModel}, ${machine.cores} cores, ${machine.totalMemoryGiB} GiB, Node ${machine.node}`);
  const emulators = await Emulators.start(0, { sets: 2, size: CFG.batch.rows });
  const failures: string[] = [];
  try {
    for (const { name, run, byDefault = true } of SCENARIOS) {
      if (only.length ? !only.includes(name) : !byDefault) continue;
      try {
        await run(emulators);
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
    quick: CFG.quick,
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
  console.log(`\nflood-zone-lookup benchmark${CFG.quick ? ' (QUICK)' : ''}, ${report.date}`);
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
