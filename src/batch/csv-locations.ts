import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { ROW_FIELDS, RowField } from './batch-row';
import { invalidBatch, tooManyRows } from './batch-input-errors';

/**
 * The rows of a `text/csv` batch (UTF-8, RFC 4180), parsed as the body streams in: a header row naming any
 * of id, address, lat, lon (in any case; other columns are ignored), then one location per record, a blank
 * cell counting as not given. Throws 400 INVALID_BATCH naming the line, or 413 past `maxRows` records.
 */
export async function readCsvLocations(body: Readable, maxRows: number): Promise<Array<Partial<Record<RowField, string>>>> {
  const records = body.pipe(parse({ bom: true, skip_empty_lines: true }));
  // A failure of the body (413) is the parser's failure too.
  body.once('error', (error) => records.destroy(error));
  const rows: Array<Partial<Record<RowField, string>>> = [];
  let columns: Array<RowField | undefined> | undefined;
  try {
    for await (const record of records as AsyncIterable<string[]>) {
      if (!columns) {
        columns = usableColumns(record);
        continue;
      }
      if (rows.length === maxRows) throw tooManyRows(maxRows);
      const row: Partial<Record<RowField, string>> = {};
      record.forEach((cell, position) => {
        const field = columns![position];
        if (field && cell.trim() !== '') row[field] = cell;
      });
      rows.push(row);
    }
  } catch (error) {
    if (error instanceof CsvError) throw invalidBatch(`The CSV body is malformed at line ${error.lines}: ${error.message}.`);
    throw error;
  } finally {
    records.destroy();
  }
  if (!columns) throw invalidBatch('The CSV body is empty: send a header row (id, address, lat, lon) and one row per location.');
  if (rows.length === 0) throw invalidBatch('The CSV body has a header row (line 1) but no rows.');
  return rows;
}

/** What each column of the header row is; a usable name given twice would make a row ambiguous. */
function usableColumns(header: string[]): Array<RowField | undefined> {
  const columns = header.map((name) => ROW_FIELDS.find((field) => field === name.trim().toLowerCase()));
  const named = columns.filter((field): field is RowField => field !== undefined);
  if (named.length === 0) {
    throw invalidBatch(`The CSV header row (line 1) names none of the columns ${ROW_FIELDS.join(', ')}.`);
  }
  const repeated = named.find((field, index) => named.indexOf(field) !== index);
  if (repeated) throw invalidBatch(`The CSV header row (line 1) names the column ${repeated} twice.`);
  return columns;
}
