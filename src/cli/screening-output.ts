import { CSV_ANSWER_COLUMNS, csvHeaderLineWithInput, csvHeaderWithInput, csvRowWithInput, ERROR_COLUMNS } from '../batch/csv-answer';
import type { LocationColumns } from '../batch/location-columns';
import type { RowAnswer } from '../batch/row-answer';
import type { ErrorEnvelope } from '../common/error-envelope';
import { asSpreadsheetText } from '../common/spreadsheet-cell';
import { askedLocation, PortfolioRow, rowId } from './portfolio-input';

/** The output's header: the endpoint's CSV answer columns, the error columns, then the input's other columns. */
export const outputHeader = (columns: LocationColumns): string[] => csvHeaderWithInput(columns.others.map(({ name }) => name));

export const outputHeaderLine = (columns: LocationColumns): string => csvHeaderLineWithInput(columns.others.map(({ name }) => name));

/** One output line: the row's answer as the endpoint's CSV answer writes it, then the error columns and the row's other cells. */
export const outputLine = (answer: RowAnswer, row: PortfolioRow): string => csvRowWithInput(answer, row.passedThrough);

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
