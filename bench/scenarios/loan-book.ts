/**
 * Scenario 14: what a portfolio job costs FEMA, in NFHL calls per row, and so how long a loan book takes at the
 * default budget (JOB_UPSTREAM_RATE_PER_SECOND 20), with spatial reuse off (HELD_POLYGONS_MAX_MB=0: point queries
 * only) and on (the default). A 20,000-row loan book clustered as lenders' are, over a synthetic NFHL map of FEMA's
 * feature sizes (bench/loan-book.ts), answered by one built service process with the default JOB_WORKERS and a
 * fresh Redis (shared cache and jobs) per run; the runs take turns (BENCH_LOAN_BOOK_ORDER, default off,on).
 *
 * Time is scaled by k (BENCH_LOAN_BOOK_TIME_SCALE, default 20) so that a run takes minutes, not the 12 hours the
 * book takes at the real budget: the budget is 20 x k calls a second and every emulated upstream answers in 50 / k
 * ms, which keeps the calls in flight per turn of the limiter as at the real budget. Calls per row do not depend
 * on k; the hours are scaled back to 20 calls a second.
 *
 * Figures per run: NFHL calls per row (by layer) and Census calls per row from the emulators' counts; wall time
 * against the floor (the busiest upstream's calls over the budget); the busiest second at each emulator against
 * the budget; the hours 1,000,000 rows take at 20 calls a second; the rows whose zone is the map's at their point;
 * and every sampled row against GET /flood-zone of a service that queries points only, with a cache of its own.
 */
import * as http from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { spacedRate } from '../../src/jobs/redis-call-budget';
import { DisposableRedis } from '../../test/support/redis-server';
import { csvPieces, postPieces } from '../../test/support/streamed-body';
import { CFG } from '../config';
import { Emulators, Service, Tally, httpGet, keepAlive, round, sleep } from '../lib';
import { LOAN_BOOK_COUNTIES, LoanBook, TAIL_REGION, loanBook } from '../loan-book';
import { pointPath } from '../points';
import { log, results, row } from '../report';
import { byUpstream, finished, perPointCalls } from './jobs';

const S = '14 loan book';
const JOBS = '/flood-zone/jobs';
/** JOB_UPSTREAM_RATE_PER_SECOND's default: the budget the hours are given for. */
export const DEFAULT_RATE = 20;
/** The configuration of a service that answers by point queries only. */
const REUSE_OFF = { HELD_POLYGONS_MAX_MB: '0' };
/** Rows of each region whose zone is checked against the map's. */
const CHECKED_PER_REGION = 3;
const MILLION = 1_000_000;

type Variant = 'off' | 'on';

export interface RowLine {
  index: number;
  status: number;
  body: Record<string, any>;
}

/** A lookup's answer without what differs from one request to the next. */
const lasting = ({ retrievedAt: _at, requestId: _id, ...rest }: Record<string, any>) => rest;

/** The job's NDJSON results: statuses of every row, the lines of the rows in `keep`; each line told to `seen` too. */
export async function readResults(
  service: Service,
  id: string,
  keep: Set<number>,
  agent: http.Agent,
  seen: (line: RowLine) => void = () => undefined,
): Promise<{ statuses: Tally; kept: Map<number, RowLine> }> {
  const answer = await httpGet(`${service.base}${JOBS}/${id}/results`, agent, 300_000);
  if (answer.status !== 200) throw new Error(`job results: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
  const statuses: Tally = {};
  const kept = new Map<number, RowLine>();
  for (const text of answer.body.split('\n')) {
    if (text === '') continue;
    const line = JSON.parse(text) as RowLine;
    statuses[line.status] = (statuses[line.status] ?? 0) + 1;
    seen(line);
    if (keep.has(line.index)) kept.set(line.index, line);
  }
  return { statuses, kept };
}

/** One job over the whole book on a fresh service and Redis; the emulators' counts of its calls. */
async function runJob(emulators: Emulators, book: LoanBook, variant: Variant, rate: number, keep: Set<number>, agent: http.Agent) {
  const redis = await DisposableRedis.start();
  let service: Service | undefined;
  try {
    service = await Service.start(emulators.env, {
      REDIS_URL: redis.url,
      JOBS_REDIS_URL: redis.url,
      JOB_UPSTREAM_RATE_PER_SECOND: String(rate),
      ...(variant === 'off' ? REUSE_OFF : {}),
    });
    await emulators.resetCalls();
    const started = performance.now();
    const submitted = await postPieces(
      service.base,
      JOBS,
      'text/csv',
      csvPieces('id,lat,lon', book.rows.length, (r) => `L${r},${book.rows[r].point.lat},${book.rows[r].point.lon}`),
    );
    if (submitted.status !== 202) throw new Error(`job: HTTP ${submitted.status} ${JSON.stringify(submitted.body)}`);
    const status = await finished(service, submitted.body.id, agent);
    const wallMs = performance.now() - started;
    if (status.status !== 'completed') throw new Error(`job ended ${status.status}`);
    await sleep(200); // let any straggling upstream call land in the log
    const [calls, busiest] = await Promise.all([emulators.breakdown().then(perPointCalls), emulators.busiestSecond()]);
    const { statuses, kept } = await readResults(service, submitted.body.id, keep, agent);
    return { wallMs, calls, busiest, statuses, kept, upstreamCallsPerRow: status.upstreamCallsPerRow as unknown };
  } finally {
    await service?.stop();
    await redis.stop();
  }
}

/** What a run's calls and answers come to: the figures of results.json, from which its rows of the table are printed. */
function runFigures(
  variant: Variant,
  run: Awaited<ReturnType<typeof runJob>>,
  book: { rows: number; rate: number; k: number },
  checks: { checked: number[]; mapZones: Awaited<ReturnType<Emulators['floodZonesAt']>>; sample: number[]; expected: Map<number, Omit<RowLine, 'index'>> },
) {
  const nfhlByLayer = Object.fromEntries(
    Object.entries(run.calls)
      .filter(([key]) => key.startsWith('nfhl query '))
      .map(([key, count]) => [key.slice('nfhl query '.length), count]),
  );
  const nfhlCalls = Object.values(nfhlByLayer).reduce((sum, count) => sum + count, 0);
  const callsByUpstream = byUpstream(run.calls);
  const [busiestUpstream, busiestCalls] = Object.entries(callsByUpstream).sort((a, b) => b[1] - a[1])[0];
  const wallSeconds = run.wallMs / 1000;
  const nfhlCallsPerRow = nfhlCalls / book.rows;
  const zonesMatched = checks.checked.filter((index, i) => {
    const result = run.kept.get(index)?.body.result;
    const zone = checks.mapZones[i];
    return zone !== null && result?.floodZone === zone.floodZone && result?.zoneSubtype === zone.zoneSubtype;
  }).length;
  const equalToGet = checks.sample.filter((index) => {
    const line = run.kept.get(index);
    const get = checks.expected.get(index);
    return line !== undefined && get !== undefined && line.status === get.status && isDeepStrictEqual(lasting(line.body), lasting(get.body));
  }).length;
  return {
    variant,
    wallSeconds,
    floorSeconds: busiestCalls / book.rate,
    /** The floor at the pace the limiter spaces its turns (a little under the budget). */
    spacedFloorSeconds: busiestCalls / spacedRate(book.rate),
    busiestUpstream,
    nfhlCalls,
    nfhlCallsPerRow,
    nfhlCallsPerRowByLayer: Object.fromEntries(Object.entries(nfhlByLayer).map(([layer, count]) => [layer, round(count / book.rows, 3)])),
    censusCallsPerRow: (run.calls['census coordinates'] ?? 0) / book.rows,
    callsByUpstream,
    busiestSecondByEmulator: run.busiest,
    hoursForAMillionRows: {
      byCalls: (nfhlCallsPerRow * MILLION) / DEFAULT_RATE / 3600,
      byPace: (wallSeconds * book.k * (MILLION / book.rows)) / 3600,
    },
    statuses: run.statuses,
    zonesMatched: { matched: zonesMatched, checked: checks.checked.length },
    equalToGet: { equal: equalToGet, sampled: checks.sample.length },
    ...(run.upstreamCallsPerRow !== undefined ? { upstreamCallsPerRow: run.upstreamCallsPerRow } : {}),
  };
}

function reportRun(label: string, f: ReturnType<typeof runFigures>, rows: number, rate: number): void {
  const { matched, checked } = f.zonesMatched;
  row(
    label,
    "statuses; checked rows answering the map's zone at their point",
    `${JSON.stringify(f.statuses)}; ${matched} / ${checked}`,
    `{"200":${rows}}; ${checked} / ${checked}`,
    f.statuses['200'] === rows && matched === checked,
  );
  // The goals are the reuse's: the run without it is the baseline.
  const reuse = f.variant === 'on';
  const L = CFG.loanBook;
  row(
    label,
    'NFHL calls per row (calls)',
    `${round(f.nfhlCallsPerRow, 2)} (${f.nfhlCalls})`,
    reuse ? `<= ${L.callsPerRowGoal}` : undefined,
    reuse ? f.nfhlCallsPerRow <= L.callsPerRowGoal : undefined,
  );
  row(
    label,
    'NFHL calls per row by layer',
    Object.entries(f.nfhlCallsPerRowByLayer)
      .map(([layer, perRow]) => `${layer} ${perRow}`)
      .join(', '),
  );
  row(label, 'Census calls per row', round(f.censusCallsPerRow, 2));
  row(
    label,
    "floor (busiest upstream's calls / budget) s; wall time s; wall / floor (wall / floor at the limiter's spacing)",
    `${round(f.floorSeconds, 1)} (${f.busiestUpstream}); ${round(f.wallSeconds, 1)}; ${round(f.wallSeconds / f.floorSeconds, 2)} (${round(f.wallSeconds / f.spacedFloorSeconds, 2)})`,
    `<= ${L.wallGoalFactor}`,
    f.wallSeconds / f.floorSeconds <= L.wallGoalFactor,
  );
  for (const upstream of Object.keys(f.callsByUpstream)) {
    const busiest = f.busiestSecondByEmulator[upstream] ?? 0;
    row(label, `busiest second at the emulator: ${upstream} calls`, busiest, `<= ${rate}`, busiest <= rate);
  }
  row(
    label,
    'hours for 1,000,000 rows at 20 calls/s: NFHL calls per row x 1e6 / 20 / 3600; the measured pace (wall x k)',
    `${round(f.hoursForAMillionRows.byCalls, 1)}; ${round(f.hoursForAMillionRows.byPace, 1)}`,
    reuse ? `<= ${L.hoursGoal}` : undefined,
    reuse ? f.hoursForAMillionRows.byCalls <= L.hoursGoal : undefined,
  );
  if (f.upstreamCallsPerRow !== undefined) row(label, "the job's upstreamCallsPerRow (GET /flood-zone/jobs/{id})", JSON.stringify(f.upstreamCallsPerRow));
  const { equal, sampled } = f.equalToGet;
  row(label, 'rows equal to GET /flood-zone of a service querying points only', `${equal} / ${sampled}`, `${sampled} / ${sampled}`, equal === sampled);
}

export async function loanBookJob(emulators: Emulators): Promise<void> {
  const L = CFG.loanBook;
  const k = L.timeScale;
  const rate = DEFAULT_RATE * k;
  const latencyMs = CFG.upstreamLatencyMs / k;
  const book = loanBook(L.rows);
  const rows = book.rows.length;
  const features = await emulators.loadLoanBookMap(rows);
  const agent = keepAlive(4);
  let reference: Service | undefined;
  try {
    const sampled = Math.min(L.sampleRows, rows);
    const sample = Array.from({ length: sampled }, (_, i) => Math.floor((i * rows) / sampled));
    const checked = [...LOAN_BOOK_COUNTIES.keys(), TAIL_REGION].flatMap((region) =>
      book.rows.flatMap((r, index) => (r.region === region && !r.repeat ? [index] : [])).slice(0, CHECKED_PER_REGION),
    );
    const mapZones = await emulators.floodZonesAt(checked.map((index) => book.rows[index].point));
    await emulators.setLatency(latencyMs);
    log(`${S}: ${rows} rows (${book.distinctPoints} distinct points), budget ${rate} calls/s, upstream latency ${latencyMs} ms; runs ${L.order.join(', ')}`);

    // The answers to compare with: GET of a service that queries points only, its cache its own.
    reference = await Service.start(emulators.env, REUSE_OFF);
    const expected = new Map<number, Omit<RowLine, 'index'>>();
    for (const index of sample) {
      const answer = await httpGet(`${reference.base}${pointPath(book.rows[index].point)}`, agent);
      expected.set(index, { status: answer.status, body: JSON.parse(answer.body) as Record<string, any> });
    }
    await reference.stop();

    row(
      S,
      'rows / distinct points; budget (20 x k) calls/s; upstream latency (50 / k) ms',
      `${rows} / ${book.distinctPoints}; ${rate} (k = ${k}); ${latencyMs}`,
    );
    row(
      S,
      'synthetic NFHL map: features per layer',
      Object.entries(features)
        .map(([layer, count]) => `${layer} ${count}`)
        .join(', '),
    );
    const runs: Array<ReturnType<typeof runFigures>> = [];
    for (const [n, variant] of L.order.entries()) {
      const label = L.order.filter((v) => v === variant).length > 1 ? `${S}, reuse ${variant} (run ${n + 1})` : `${S}, reuse ${variant}`;
      log(`${label}: running`);
      const run = await runJob(emulators, book, variant, rate, new Set([...sample, ...checked]), agent);
      const figures = runFigures(variant, run, { rows, rate, k }, { checked, mapZones, sample, expected });
      runs.push(figures);
      reportRun(label, figures, rows, rate);
    }
    results.loanBook = { rows, distinctPoints: book.distinctPoints, timeScale: k, rate, upstreamLatencyMs: latencyMs, mapFeatures: features, runs };
  } finally {
    await reference?.stop();
    await emulators.loadDemoMap();
  }
}
