/**
 * Scenario 16: the area's flood record (include=history). First, what a warm record costs a lookup: every upstream
 * answering in 50 ms, the records of the places' tracts already kept (one lookup each before the rounds), then
 * distinct points (the rest of each answer asked anew) with and without include=history in interleaved rounds; the
 * record waits only for the geocoder's county call, which the plain lookup makes too, so it should add nothing
 * (goal: p50 at most 1 ms more) and no OpenFEMA call. Second, what the record costs the 20,000-row loan book
 * (bench/loan-book.ts): the record is kept per tract and the declarations per county, so OpenFEMA is asked 2 calls
 * per distinct tract (claims, policies; one page each, every demo and loan-book tract has under 10,000 rows) and 1
 * per distinct county; the book's tracts are counted with the tracts the Census emulator names
 * (test/emulators/census-tracts.ts, 0.02° squares), the tail's points having no county and so no tract.
 */
import { demoPlace } from '../../test/emulators/demo-map';
import { tractGeoidAt } from '../../test/emulators/census-tracts';
import { CFG } from '../config';
import { Rounds, interleave, spreadLabel, spreadText } from '../interleaved';
import { LOAN_BOOK_COUNTIES, loanBook } from '../loan-book';
import { Emulators, Service, Tally, TimedBlock, callsOf, expectOk, httpGet, keepAlive, msOf, p50Gap, round, timedBlock } from '../lib';
import { PlaceJitter, microDegrees, pointPath } from '../points';
import { coldFigures, log, results, row } from '../report';

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

/** The loan book's distinct tracts and counties, and what OpenFEMA calls they come to. */
function loanBookRecordCalls(rows: number) {
  const book = loanBook(rows);
  const tracts = new Set<string>();
  const counties = new Set<string>();
  for (const row of book.rows) {
    const point = { lat: Number(row.point.lat), lon: Number(row.point.lon) };
    const county = LOAN_BOOK_COUNTIES.find(
      ({ box: [west, south, east, north] }) => point.lon >= west && point.lon <= east && point.lat >= south && point.lat <= north,
    );
    if (county === undefined) continue;
    tracts.add(tractGeoidAt(county.state, county.county, point.lon, point.lat));
    counties.add(`${county.state}${county.county}`);
  }
  const calls = 2 * tracts.size + counties.size;
  return { rows, tracts: tracts.size, counties: counties.size, calls, callsPerRow: calls / rows };
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
  const book = loanBookRecordCalls(CFG.loanBook.rows);
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
  row(S, `loan book of ${book.rows} rows: distinct tracts; counties (the tail has no county)`, `${book.tracts}; ${book.counties}`);
  row(
    S,
    'loan book: OpenFEMA calls per row (2 per distinct tract + 1 per county)',
    `${round(book.callsPerRow, 3)} (${book.calls})`,
    `<= ${CALLS_PER_ROW_GOAL}`,
    book.callsPerRow <= CALLS_PER_ROW_GOAL,
  );
}
