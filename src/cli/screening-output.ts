import { stringify } from 'csv-stringify/sync';
import { CSV_ANSWER_COLUMNS, csvRow } from '../batch/csv-answer';
import type { RowAnswer } from '../batch/row-answer';
import type { ErrorEnvelope } from '../common/error-envelope';
import { asSpreadsheetText } from '../common/spreadsheet-cell';
import { askedLocation, PortfolioColumns, PortfolioRow, rowId } from './portfolio-input';

/**
 * The columns `flood-zone batch` writes after the endpoint's CSV answer columns: what an error row's envelope
 * says, and an ambiguous address's candidates (the envelope's array as JSON), so a row can be fixed and sent again.
 */
const ERROR_COLUMNS = ['error_message', 'candidates'];

/** Prefixed to a passed-through column whose name is already an output column, so no two columns share a name. */
const CLASH_PREFIX = 'input_';

/** The output's header: the endpoint's CSV answer columns, the error columns, then the input's other columns. */
export function outputHeader(columns: PortfolioColumns): string[] {
  const names = [...CSV_ANSWER_COLUMNS, ...ERROR_COLUMNS];
  for (const { name } of columns.passedThrough) {
    let kept = name;
    while (names.includes(kept)) kept = `${CLASH_PREFIX}${kept}`;
    names.push(kept);
  }
  return names;
}

export const outputHeaderLine = (columns: PortfolioColumns): string => stringify([outputHeader(columns)]);

/** One output line: the row's answer as the endpoint's CSV answer writes it, then the error columns and the row's other cells. */
export function outputLine(answer: RowAnswer, row: PortfolioRow): string {
  const envelope = answer.status === 200 ? undefined : (answer.body as ErrorEnvelope);
  const candidates = Array.isArray(envelope?.candidates) ? JSON.stringify(envelope.candidates) : '';
  return csvRow(answer, [envelope?.error ?? '', candidates, ...row.passedThrough]);
}

/** A ragged row's answer, made here as the endpoint makes it: that row's 400, with the line it starts on. */
export function raggedRowAnswer(row: PortfolioRow, index: number): RowAnswer {
  const body = { error: row.ragged!, statusCode: 400, code: 'INVALID_PARAMETERS', requestId: '' } satisfies ErrorEnvelope;
  return { index, id: rowId(row), status: 400, body, asked: askedLocation(row) };
}

/** Output columns that echo the input row: id, query_address, query_lat, query_lon. */
const ECHO_COLUMNS = ['id', 'query_address', 'query_lat', 'query_lon'].map((name) => CSV_ANSWER_COLUMNS.indexOf(name));
const PASSED_THROUGH_START = CSV_ANSWER_COLUMNS.length + ERROR_COLUMNS.length;

/**
 * Whether an output record is the answer to this input row: its echo of the row's location and id, and its copy
 * of the row's other cells, as this command writes them. `--resume` refuses an OUTPUT written for another input.
 */
export function echoesRow(record: string[], row: PortfolioRow): boolean {
  const asked = askedLocation(row);
  const expected = [rowId(row), asked.address, asked.lat, asked.lon].map((cell) => (cell === null || cell === undefined ? '' : asSpreadsheetText(cell)));
  if (ECHO_COLUMNS.some((column, i) => record[column] !== expected[i])) return false;
  return row.passedThrough.every((cell, i) => record[PASSED_THROUGH_START + i] === asSpreadsheetText(cell));
}

/** The status column of an output record. */
export const STATUS_COLUMN = CSV_ANSWER_COLUMNS.indexOf('status');
