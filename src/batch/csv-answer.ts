import { stringify } from 'csv-stringify/sync';
import type { ErrorEnvelope } from '../common/error-envelope';
import { asSpreadsheetText } from '../common/spreadsheet-cell';
import type { FloodZoneLookup } from '../lookup/flood-zone-lookup';
import type { CsvCell } from '../parts/answer-part';
import { INCLUDED_PARTS, RegisteredIncludedPart } from '../parts/answer-parts';
import { isLookup, RowAnswer } from './row-answer';

type Column = [string, (lookup: FloodZoneLookup) => CsvCell];

/** The answer's own columns, in the documented order (docs/api.md), each read from a row's answer. */
const OWN_COLUMNS: Column[] = [
  ['matched_address', (b) => b.location.matchedAddress],
  ['lat', (b) => b.location.lat],
  ['lon', (b) => b.location.lon],
  ['county', (b) => b.location.county],
  ['county_fips', (b) => b.location.countyFips],
  ['zip', (b) => b.location.zip],
  ['coverage', (b) => b.result.coverage],
  ['flood_zone', (b) => b.result.floodZone],
  ['zone_subtype', (b) => b.result.zoneSubtype],
  ['in_sfha', (b) => b.result.inSpecialFloodHazardArea],
  ['risk_level', (b) => b.result.riskLevel],
  ['is_floodway', (b) => b.result.isFloodway],
  ['static_bfe_ft', (b) => b.result.staticBaseFloodElevationFt],
  ['estimated_bfe_ft', (b) => b.result.estimatedBaseFloodElevation?.elevationFt],
  // The governing zone's datum (the estimate, when there is one, states its own in the JSON answers).
  ['vertical_datum', (b) => b.result.verticalDatum],
  ['depth_ft', (b) => b.result.depthFt],
  ['firm_panel', (b) => b.result.firmPanel?.panel],
  ['firm_effective_date', (b) => b.result.firmPanel?.effectiveDate],
  ['community_id', (b) => b.result.community?.communityId],
  ['loma_count', (b) => b.result.lomas?.length],
  // The community's standing in the NFIP: empty when there is no community, the table is not held, or it does not say.
  ['nfip_participating', (b) => b.result.community?.nfip?.participating],
  ['crs_class', (b) => b.result.community?.nfip?.crsClass],
  ['sfha_discount_percent', (b) => b.result.community?.nfip?.sfhaDiscountPercent],
  ['unavailable', (b) => b.result.unavailable.join(';')],
  ['retrieved_at', (b) => b.retrievedAt],
];

/** Every column of the CSV answer: the answer's own, and each opt-in part's after the column it names. */
const COLUMNS = INCLUDED_PARTS.reduce((columns: Column[], part: RegisteredIncludedPart) => {
  const after = columns.findIndex(([name]) => name === part.csv.after);
  if (after < 0) throw new Error(`The CSV answer has no column ${part.csv.after} for the ${part.field} part's columns to follow`);
  const added = part.csv.columns.map(({ name, cell }): Column => [name, (lookup) => cell(lookup.result[part.field])]);
  return [...columns.slice(0, after + 1), ...added, ...columns.slice(after + 1)];
}, OWN_COLUMNS);

export const CSV_ANSWER_COLUMNS = ['index', 'id', 'status', 'error_code', 'query_address', 'query_lat', 'query_lon', ...COLUMNS.map(([name]) => name)];

/**
 * Booleans as words, null as an empty cell (csv-stringify's defaults are "1" and "" for booleans), and every text cell
 * as text a spreadsheet will not run as a formula: ids, addresses and matched addresses come from the caller or upstream,
 * and so do the names of the input's columns in a header.
 */
const CAST = { boolean: (value: boolean) => (value ? 'true' : 'false'), string: asSpreadsheetText };

/** One line of CSV, a header's or a row's: every cell written by the same rules (CAST). */
const csvLine = (cells: CsvCell[]): string => stringify([cells], { cast: CAST });

export const csvHeader = (): string => csvLine(CSV_ANSWER_COLUMNS);

/** The cells of a row of the CSV answer: an error row fills only its index, id, status, code and the query it has. */
export function csvCells(answer: RowAnswer): CsvCell[] {
  const { index, id, status, asked } = answer;
  const known: CsvCell[] = [index, id, status, isLookup(answer) ? null : (answer.body as ErrorEnvelope).code, asked.address, asked.lat, asked.lon];
  const rest = COLUMNS.map(([, read]) => (isLookup(answer) ? read(answer.body) : null));
  return [...known, ...rest].map((cell) => cell ?? null);
}

/** One row of the CSV answer, `more` cells after the answer's own (text as a spreadsheet reads it safely). */
export function csvRow(answer: RowAnswer, more: CsvCell[] = []): string {
  return csvLine([...csvCells(answer), ...more]);
}

/**
 * The columns written after the answer's own by `flood-zone batch`, and by a job's CSV results asked for with the
 * input's columns: what an error row's envelope says, and an ambiguous address's candidates (the envelope's array
 * as JSON), so that a row can be fixed and sent again.
 */
export const ERROR_COLUMNS = ['error_message', 'candidates'];

/** Prefixed to an input column whose name is already an output column, so no two columns share a name. */
const CLASH_PREFIX = 'input_';

/**
 * The header of the answer with the input's columns: the answer's columns, the error columns, then the input's other
 * columns, each name as the header line writes it (a caller's name that a spreadsheet would run as a formula as text,
 * like any cell), so that a header read back from the file is this list.
 */
export function csvHeaderWithInput(otherColumns: string[]): string[] {
  const names = [...CSV_ANSWER_COLUMNS, ...ERROR_COLUMNS];
  for (const name of otherColumns) {
    let kept = asSpreadsheetText(name);
    while (names.includes(kept)) kept = `${CLASH_PREFIX}${kept}`;
    names.push(kept);
  }
  return names;
}

export const csvHeaderLineWithInput = (otherColumns: string[]): string => csvLine(csvHeaderWithInput(otherColumns));

/** A row of the answer with the input's columns: the answer's row, then the error columns and the row's other cells as given. */
export function csvRowWithInput(answer: RowAnswer, otherCells: string[]): string {
  const envelope = isLookup(answer) ? undefined : (answer.body as ErrorEnvelope);
  const candidates = Array.isArray(envelope?.candidates) ? JSON.stringify(envelope.candidates) : '';
  return csvRow(answer, [envelope?.error ?? '', candidates, ...otherCells]);
}
