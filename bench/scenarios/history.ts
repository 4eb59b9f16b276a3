/**
 * Scenario 16: the area's flood record (include=history). First, what a warm record costs a lookup: every upstream
 * answering in 50 ms, the records of the places' tracts already kept (one lookup each before the rounds), then
 * distinct points (the rest of each answer asked anew) with and without include=history in interleaved rounds; the
 * record waits only for the geocoder's county call, which the plain lookup makes too, so it should add nothing
 * (goal: p50 at most 1 ms more) and no OpenFEMA call. Second, what the record costs the loan book (bench/loan-book.ts,
 * BENCH_LOAN_BOOK_ROWS rows, 20,000 by default), measured: the book run as a real portfolio job with include=history
 * against the emulators (its map, a fresh Redis, the budget and latency of scenario 14 scaled by k), OpenFEMA's calls
 * counted at its emulator (goal: at most 0.05 a row). Asked per tract, it would cost 2 calls per distinct tract (claims,
 * policies) and 1 per county (declarations): the book's tracts are counted with the tracts the Census emulator names
 * (test/emulators/census-tracts.ts, 0.02° squares), the tail's points having no county and so no tract. The emulator's
 * records are the demo's (area-records.ts): one tract of Harris County with a long record, the rest with none, so a
 * county's download is a page or two; a real county's is more pages, and one past the byte cap is asked per tract.
 */
import { demoPlace } from '../../test/emulators/demo-map';
import { tractGeoidAt } from '../../test/emulators/census-tracts';
import { DisposableRedis } from '../../test/support/redis-server';
import { csvPieces, postPieces } from '../../test/support/streamed-body';
import { CFG } from '../config';
import { Rounds, interleave, spreadLabel, spreadText } from '../interleaved';
import { LOAN_BOOK_COUNTIES, LoanBook, loanBook } from '../loan-book';
import { Emulators, Service, Tally, TimedBlock, callsOf, expectOk, httpGet, keepAlive, msOf, p50Gap, round, timedBlock } from '../lib';
import { PlaceJitter, microDegrees, pointPath } from '../points';
import { coldFigures, log, results, row } from '../report';
import { finished } from './jobs';
import { DEFAULT_RATE, readResults } from './loan-book';

const S = '16 include=history, 50 ms upstream';
/** Places whose tracts have a record of each kind: a long one, a withheld one, none. */
const PLACES = ['houston-ae-floodway', 'sacramento-ar', 'menominee-ve'].map(demoPlace);
const POINTS = new PlaceJitter(PLACES);
/** Just outside the corners of PlaceJitter's square (±10 µdeg), in µdeg from the place: in the same tracts, never a point it gives. */
const JITTER_CORNERS = [
  [-11, -11],
  [-11, 11],
  [11, -11],
  [11, 11],
] as const;
/** The goals of the issue. */
const WARM_GOAL_MS = 1;
const CALLS_PER_ROW_GOAL = 0.05;

/** OpenFEMA's calls for the area's record (the Community Status Book's are not the record's). */
const recordCalls = (t: Tally) => (t['openfema NfipClaims'] ?? 0) + (t['openfema NfipPolicies'] ?? 0) + (t['openfema DisasterDeclarationsSummaries'] ?? 0);

/** The county of a loan-book point, as the bench's map has it; undefined for the tail. */
const countyOf = (point: { lat: number; lon: number }) =>
  LOAN_BOOK_COUNTIES.find(({ box: [west, south, east, north] }) => point.lon >= west && point.lon <= east && point.lat >= south && point.lat <= north);

/** The loan book's distinct tracts and counties, and what OpenFEMA calls they would come to asked per tract. */
function perTractCalls(book: LoanBook) {
  const tracts = new Set<string>();
  const counties = new Set<string>();
  for (const { point } of book.rows) {
    const at = { lat: Number(point.lat), lon: Number(point.lon) };
    const county = countyOf(at);
    if (county === undefined) continue;
    tracts.add(tractGeoidAt(county.state, county.county, at.lon, at.lat));
    counties.add(`${county.state}${county.county}`);
  }
  return { tracts: tracts.size, counties: counties.size, calls: 2 * tracts.size + counties.size };
}

/**
 * The loan book as one portfolio job with include=history on a fresh service and Redis (the map of the book, the budget
 * 20 x k calls a second, upstreams answering in 50 / k ms, as scenario 14): OpenFEMA's calls for the record, by dataset,
 * and the rows that have a record (every row in a county) or none (the tail, with no tract).
 */
async function loanBookJob(emulators: Emulators) {
  const k = CFG.loanBook.timeScale;
  const book = loanBook(CFG.loanBook.rows);
  const rows = book.rows.length;
  await emulators.loadLoanBookMap(rows);
  await emulators.setLatency(CFG.upstreamLatencyMs / k);
  const redis = await DisposableRedis.start();
  const agent = keepAlive(4);
  let service: Service | undefined;
  try {
    service = await Service.start(emulators.env, { REDIS_URL: redis.url, JOBS_REDIS_URL: redis.url, JOB_UPSTREAM_RATE_PER_SECOND: String(DEFAULT_RATE * k) });
    log(`${S}: the loan book of ${rows} rows (${book.distinctPoints} distinct points) as a job with include=history`);
    await emulators.resetCalls();
    const started = performance.now();
    const submitted = await postPieces(
      service.base,
      '/flood-zone/jobs?include=history',
      'text/csv',
      csvPieces('id,lat,lon', rows, (r) => `L${r},${book.rows[r].point.lat},${book.rows[r].point.lon}`),
    );
    if (submitted.status !== 202) throw new Error(`job: HTTP ${submitted.status} ${JSON.stringify(submitted.body)}`);
    const status = await finished(service, submitted.body.id, agent);
    const wallSeconds = (performance.now() - started) / 1000;
    if (status.status !== 'completed') throw new Error(`job ended ${status.status}`);
    const calls = await emulators.breakdown();
    const answered = { withRecord: 0, withoutTract: 0, recordUnavailableInACounty: 0 };
    const { statuses } = await readResults(service, submitted.body.id, new Set(), agent, ({ index, body }) => {
      const inCounty = countyOf({ lat: Number(book.rows[index].point.lat), lon: Number(book.rows[index].point.lon) }) !== undefined;
      if (body?.result?.history) answered.withRecord += 1;
      else if (inCounty) answered.recordUnavailableInACounty += 1;
      else answered.withoutTract += 1;
    });
    const byDataset = Object.fromEntries(
      ['NfipClaims', 'NfipPolicies', 'DisasterDeclarationsSummaries'].map((dataset) => [dataset, calls[`openfema ${dataset}`] ?? 0]),
    );
    const recordCalls = Object.values(byDataset).reduce((sum, count) => sum + count, 0);
    return {
      rows,
      distinctPoints: book.distinctPoints,
      timeScale: k,
      wallSeconds,
      statuses,
      answered,
      byDataset,
      recordCalls,
      callsPerRow: recordCalls / rows,
      perTract: perTractCalls(book),
    };
  } finally {
    await service?.stop();
    await redis.stop();
    await emulators.loadDemoMap();
    await emulators.setLatency(CFG.upstreamLatencyMs);
  }
}

export async function historyVsPlain(emulators: Emulators): Promise<void> {
  const latency = CFG.upstreamLatencyMs;
  const { rounds, block } = CFG.history;
  const n = rounds * block;
  log(`${S}: ${n} plain and ${n} include=history lookups at distinct points, the tracts' records kept, in ${rounds} A-B-B-A rounds of ${block} each`);
  await emulators.setLatency(latency);
  const service = await Service.start(emulators.env);
  const agent = keepAlive(1);
  const queries = { plain: '', history: '&include=history' };
  const lookup = async (kind: keyof typeof queries, what: string): Promise<number> => {
    const { place, point } = POINTS.next();
    const r = await httpGet(`${service.base}${pointPath(point)}${queries[kind]}`, agent);
    const body = expectOk(r, `${what} at ${place.id}`);
    if (r.headers['x-cache'] !== 'MISS') throw new Error(`${what} answered X-Cache ${String(r.headers['x-cache'])}`);
    const history = body.result.history;
    if (body.result.unavailable.length > 0 || (kind === 'history') !== (history !== null)) {
      throw new Error(`${what} at ${place.id}: unavailable ${JSON.stringify(body.result.unavailable)}, history ${JSON.stringify(history)?.slice(0, 80)}`);
    }
    return r.ms;
  };
  let measured: Rounds<keyof typeof queries, TimedBlock>;
  try {
    // The first lookups read each MapServer's layer list and wait for the Community Status Book. The records of every
    // tract the jittered points fall in are kept first: the corners of each place's jitter square (demo places sit on
    // the 0.02° tract grid's lines, so one place's points may fall in up to four tracts).
    for (const place of PLACES) {
      for (const [dLat, dLon] of JITTER_CORNERS) {
        const corner = { lat: microDegrees(Math.round(place.lat * 1e6) + dLat), lon: microDegrees(Math.round(place.lon * 1e6) + dLon) };
        const r = await httpGet(`${service.base}${pointPath(corner)}&include=history`, agent);
        expectOk(r, `warm-up at ${place.id}`);
      }
    }
    await lookup('plain', 'warm-up');
    measured = await interleave(['plain', 'history'] as const, rounds, (kind, r) =>
      timedBlock(emulators, block, (i) => lookup(kind, `${kind} lookup ${r * block + i}`)),
    );
  } finally {
    await service.stop();
  }
  const plain = coldFigures(msOf(measured.of('plain')), latency);
  const history = coldFigures(msOf(measured.of('history')), latency);
  const extraP50 = measured.compare('history', 'plain', p50Gap, 1);
  const openfemaPerLookup = round(recordCalls(callsOf(measured.of('history'))) / n, 2);
  const book = await loanBookJob(emulators);
  results.history = {
    upstreamLatencyMs: latency,
    places: PLACES.map(({ id }) => id),
    plain,
    history,
    extraP50Ms: extraP50,
    openfemaPerWarmLookup: openfemaPerLookup,
    loanBook: book,
  };
  row(S, `plain: ${n} distinct points at ${PLACES.length} places, p50 / p90 ms`, `${plain.p50Ms} / ${plain.p90Ms}`);
  row(S, `include=history, the tracts' records kept: ${n} distinct points, p50 / p90 ms`, `${history.p50Ms} / ${history.p90Ms}`);
  row(S, `p50(history) - p50(plain) ms, ${spreadLabel(rounds)}`, spreadText(extraP50), `<= ${WARM_GOAL_MS}`, extraP50.median <= WARM_GOAL_MS);
  row(S, 'OpenFEMA calls per lookup, the record kept', openfemaPerLookup, '0', openfemaPerLookup === 0);
  const L = `16 loan book, include=history`;
  row(
    L,
    'rows / distinct points; budget (20 x k) calls/s; upstream latency (50 / k) ms',
    `${book.rows} / ${book.distinctPoints}; ${DEFAULT_RATE * book.timeScale}; ${latency / book.timeScale}`,
  );
  row(
    L,
    'statuses; rows with a record; rows in a county without one; rows with no tract (the tail)',
    `${JSON.stringify(book.statuses)}; ${book.answered.withRecord}; ${book.answered.recordUnavailableInACounty}; ${book.answered.withoutTract}`,
    '0 in a county without one',
    book.statuses['200'] === book.rows && book.answered.recordUnavailableInACounty === 0,
  );
  row(
    L,
    'OpenFEMA calls: claims, policies, declarations',
    `${book.byDataset.NfipClaims}, ${book.byDataset.NfipPolicies}, ${book.byDataset.DisasterDeclarationsSummaries}`,
  );
  row(
    L,
    'asked per tract instead: distinct tracts; counties; calls per row (2 per tract + 1 per county)',
    `${book.perTract.tracts}; ${book.perTract.counties}; ${round(book.perTract.calls / book.rows, 3)} (${book.perTract.calls})`,
  );
  row(
    L,
    'loan book: OpenFEMA calls per row',
    `${round(book.callsPerRow, 4)} (${book.recordCalls})`,
    `<= ${CALLS_PER_ROW_GOAL}`,
    book.callsPerRow <= CALLS_PER_ROW_GOAL,
  );
  row(L, 'job wall time s', round(book.wallSeconds, 1));
}
