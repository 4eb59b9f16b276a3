import type { Readable } from 'node:stream';
import { CsvError, Info, InfoRecord, parse } from 'csv-parse';
import { CsvRecord, RowField } from './batch-row';
import { invalidBatch, raggedRowProblem, tooManyRows } from './batch-input-errors';
import { HeaderProblem, LocationColumns, READ_COLUMN_NAMES, readLocationHeader, unreadColumnsWarning } from './location-columns';

/** What a body's reader learns of it beside its rows: the names of a CSV body's other columns, and warnings for the client. */
export interface BodyNotes {
  otherColumns: string[];
  warnings: string[];
}

export const noNotes = (): BodyNotes => ({ otherColumns: [], warnings: [] });

/** How much of a bad field a parse error quotes: enough to find it, never the whole (possibly huge) field. */
const EXCERPT_LENGTH = 20;

/**
 * The rows of a `text/csv` batch (UTF-8, RFC 4180), one by one as the body streams in: a header row naming
 * any of id, address, lat, lon or their aliases (see readLocationHeader), then one CsvRecord per record, a
 * blank cell counting as not given. The other columns' names go to `notes`, and a warning naming them. A
 * record with more or fewer cells than the header is that row's 400; a body that cannot be split into records
 * is a 400 INVALID_BATCH naming the line where the bad record starts; more than `maxRows` records is a 413; a
 * body without rows is a 400 once it has ended.
 */
export async function* csvLocationRows(body: Readable, maxRows: number, notes: BodyNotes = noNotes()): AsyncGenerator<CsvRecord> {
  // Where the last record ended, tracked as the parser goes (it reads ahead of the loop below, and an error
  // discards what it read ahead): the next record starts on the next line that is not blank.
  let previous = { lines: 0, empty_lines: 0 };
  const startLine = (at: { empty_lines: number }) => previous.lines + 1 + at.empty_lines - previous.empty_lines;
  const onRecord = (record: string[], at: InfoRecord) => {
    const line = startLine(at);
    previous = { lines: at.lines, empty_lines: at.empty_lines };
    return Object.assign(record, { line });
  };
  const records = body.pipe(parse({ bom: true, skip_empty_lines: true, relax_column_count: true, on_record: onRecord }));
  // A failure of the body (413) is the parser's failure too.
  body.once('error', (error) => records.destroy(error));
  let rows = 0;
  let columns: LocationColumns | undefined;
  try {
    for await (const record of records as AsyncIterable<ReturnType<typeof onRecord>>) {
      if (!columns) {
        columns = headerOf(record, notes);
        continue;
      }
      if (rows === maxRows) throw tooManyRows(maxRows);
      rows += 1;
      const fields: Partial<Record<RowField, string>> = {};
      for (const [field, column] of columns.fields) if (column < record.length && record[column].trim() !== '') fields[field] = record[column];
      const otherCells = columns.others.map(({ column }) => record[column] ?? '');
      const ragged = record.length !== columns.width;
      yield new CsvRecord(fields, otherCells, ragged ? raggedRowProblem(record.line, record.length, columns.width) : undefined);
    }
  } catch (error) {
    if (error instanceof CsvError) throw invalidBatch(`The CSV body is malformed at line ${startLine(error as CsvError & Info)}: ${problemOf(error)}.`);
    throw error;
  } finally {
    records.destroy();
  }
  if (!columns) throw invalidBatch(`The CSV body is empty: send a header row naming ${READ_COLUMN_NAMES}, and one row per location.`);
  if (rows === 0) throw invalidBatch('The CSV body has a header row (line 1) but no rows.');
}

/** Every row of a `text/csv` batch at once (see csvLocationRows). */
export async function readCsvLocations(body: Readable, maxRows: number, notes: BodyNotes = noNotes()): Promise<CsvRecord[]> {
  const rows: CsvRecord[] = [];
  for await (const row of csvLocationRows(body, maxRows, notes)) rows.push(row);
  return rows;
}

/** What broke, in words, quoting at most the start of the bad field (csv-parse's own message may quote all of it). */
function problemOf(error: CsvError): string {
  const cell = `cell ${Number(error.column) + 1}`;
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `the quoted ${cell} goes on after its closing quote`;
    case 'INVALID_OPENING_QUOTE': {
      const field = String(error.field);
      const excerpt = field.length > EXCERPT_LENGTH ? `${field.slice(0, EXCERPT_LENGTH)}…` : field;
      return `a quote inside the unquoted ${cell}, which starts ${JSON.stringify(excerpt)}`;
    }
    default:
      return `the record cannot be read (${error.code})`;
  }
}

/** The header row read (a HeaderProblem is the whole body's 400), its other columns and its warning noted. */
function headerOf(header: string[], notes: BodyNotes): LocationColumns {
  let columns: LocationColumns;
  try {
    columns = readLocationHeader(header);
  } catch (error) {
    if (error instanceof HeaderProblem) throw invalidBatch(`The CSV header row (line 1) ${error.message}.`);
    throw error;
  }
  notes.otherColumns = columns.others.map(({ name }) => name);
  const warning = unreadColumnsWarning(columns);
  if (warning) notes.warnings.push(`${warning}.`);
  return columns;
}
