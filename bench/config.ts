/**
 * What every scenario runs with: its figures (from the environment variables documented at the top of run.ts)
 * and the grid of distinct points the scenarios ask about.
 */
import { DEMO_PLACES } from '../test/emulators/demo-map';
import { PointGrid } from './points';

const QUICK = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';

function intEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer in [${min}, ${max}], got "${raw}"`);
  return n;
}

/** Runs of the loan book in turn: spatial reuse off or on, e.g. "off,on" or "off,on,on,off". */
function variantsEnv(name: string, fallback: Array<'off' | 'on'>): Array<'off' | 'on'> {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const variants = raw.split(',').map((v) => v.trim());
  if (!variants.every((v): v is 'off' | 'on' => v === 'off' || v === 'on')) throw new Error(`${name} must list off and on, comma-separated, got "${raw}"`);
  return variants;
}

export const CFG = {
  quick: QUICK,
  upstreamLatencyMs: 50,
  // each target loaded for roundSeconds once per A-B-B-A round (interleaved.ts)
  cacheHit: { rounds: QUICK ? 2 : 20, roundSeconds: 0.5, healthSeconds: QUICK ? 2 : 5, connections: 50 },
  cold: { points: QUICK ? 30 : 100, addresses: QUICK ? 20 : 100 },
  burst: { concurrent: 200 },
  memory: {
    lookups: intEnv('BENCH_MEMORY_LOOKUPS', QUICK ? 4000 : 100_000, 1000, 250_000),
    seconds: intEnv('BENCH_MEMORY_SECONDS', QUICK ? 30 : 900, 5, 3600),
    chunks: 20,
    connections: 100,
    largeEntries: intEnv('BENCH_MEMORY_LARGE_ENTRIES', 0, 0, 1_000_000),
  },
  mixed: {
    seconds: intEnv('BENCH_MIXED_SECONDS', QUICK ? 10 : 60, 1, 600),
    connections: 200,
    coldEvery: 10, // 1 request in 10 is a cold lookup of a new point, the rest hit a small warm set
    warmPoints: 20,
    faultProbability: 0.05,
    faultKind: 'http-status', // HTTP 500 with an HTML page: a transient failure, which the service retries once
    faultStatus: 500,
  },
  // cold lookups of each kind, in A-B-B-A rounds of `block` lookups each (interleaved.ts)
  includes: { rounds: QUICK ? 4 : 10, block: 10 },
  elevation: { rounds: QUICK ? 4 : 10, block: 10 },
  history: { rounds: QUICK ? 4 : 10, block: 10 },
  nfipJoin: { joins: QUICK ? 200_000 : 2_000_000, loads: QUICK ? 2 : 5 },
  // cached pictures are loaded like cache hits (cacheHit.rounds, roundSeconds, connections)
  picture: { coldRounds: QUICK ? 4 : 10, block: 10 },
  batch: {
    rows: intEnv('BENCH_BATCH_ROWS', QUICK ? 3000 : 10_000, 100, 10_000),
    // The default 16 would make a 10,000-row batch take 3.5 minutes at 50 ms per call: the floor scales with it.
    concurrency: intEnv('BENCH_BATCH_CONCURRENCY', 64, 2, 1024),
    censusChunkRows: 1000,
    wallGoalFactor: 1.2,
    rssGrowthGoalMB: 100,
    // cold GETs idle and beside two batches, in A-B-B-A rounds of interactiveBlock each
    interactiveRounds: QUICK ? 2 : 6,
    interactiveBlock: 10,
    interactiveGoalFactor: 2,
  },
  jobs: {
    rows: intEnv('BENCH_JOB_ROWS', QUICK ? 10_000 : 100_000, 3000, 300_000),
    // JOB_UPSTREAM_RATE_PER_SECOND is set so that the busiest upstream's distinct calls take this long at that rate.
    floorSeconds: intEnv('BENCH_JOB_FLOOR_SECONDS', QUICK ? 20 : 120, 5, 600),
    processes: 3,
    workers: 2,
    // Half of it per process is the jobs' share of each upstream: 3 x 48 calls of 50 ms at once carry 2,880 a second.
    concurrency: intEnv('BENCH_JOB_CONCURRENCY', 96, 16, 1024),
    uploadRows: intEnv('BENCH_JOB_UPLOAD_ROWS', QUICK ? 100_000 : 1_000_000, 10_000, 1_000_000),
    rssGrowthGoalMB: 100,
  },
  loanBook: {
    rows: intEnv('BENCH_LOAN_BOOK_ROWS', QUICK ? 3000 : 20_000, 300, 200_000),
    // k: the budget is k times the default and every emulated upstream answers k times sooner (50 / k ms).
    timeScale: intEnv('BENCH_LOAN_BOOK_TIME_SCALE', 20, 1, 100),
    order: variantsEnv('BENCH_LOAN_BOOK_ORDER', ['off', 'on']),
    // Rows of each run compared with GET /flood-zone, spread over the book.
    sampleRows: QUICK ? 50 : 200,
    callsPerRowGoal: 1.5,
    wallGoalFactor: 1.1,
    hoursGoal: 24,
  },
  watchSweep: {
    locations: intEnv('BENCH_WATCH_LOCATIONS', QUICK ? 100_000 : 1_000_000, 10_000, 2_000_000),
    // k: the county's re-checks at a budget of 20 x k calls a second, every emulated upstream answering in 50 / k ms.
    timeScale: intEnv('BENCH_WATCH_TIME_SCALE', 20, 1, 100),
    callsGoal: 50,
    secondsGoal: 60,
  },
};

/** A mapped AE point whose ~300 m zone square holds every generated point. */
export const CENTRE = DEMO_PLACES.find((p) => p.id === 'dc-white-house-ae')!;
export const POINTS = new PointGrid(CENTRE);
