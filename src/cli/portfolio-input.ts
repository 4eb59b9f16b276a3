import { createReadStream } from 'node:fs';
import { access, constants, open } from 'node:fs/promises';
import { Transform, TransformCallback } from 'node:stream';
import { CsvError, type InfoRecord, type Options, parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { raggedRowProblem } from '../batch/batch-input-errors';
import { AskedLocation, LOCATION_FIELDS, RowField } from '../batch/batch-row';
import { HeaderProblem, LocationColumns, READ_COLUMN_NAMES, readLocationHeader, unreadColumnsWarning } from '../batch/location-columns';
import { badArguments } from './command-failure';

const LF = 0x0a;
const CR = 0x0d;

const LINE_END = /\r\n|\n|\r/g;

/** One row of the portfolio as read: what the service is sent, and what the output copies through. */
export interface PortfolioRow {
  /** 0 = the first row after the header. */
  position: number;
  /** The file line the row starts on. */
  line: number;
  /** The cells of the columns read as id, address, lat, lon, footprint, as given. */
  fields: Partial<Record<RowField, string>>;
  /** The cells of every other column, in input order ('' where a short row has none). */
  passedThrough: string[];
  /** Set when the row's cells do not line up with the header row: the row is that row's 400 and is not sent. */
  ragged?: string;
}

/**
 * A portfolio CSV, read the way the batch endpoint reads a CSV body (UTF-8, RFC 4180, byte-order mark dropped,
 * blank lines skipped, the same header reading), its other columns copied to the output. `open` reads the whole
 * file once, so a file that cannot be used is a bad argument (exit 2) before any request; `rows` reads it again.
 */
export class Portfolio {
  private constructor(
    readonly path: string,
    readonly columns: LocationColumns,
    /** Rows after the header. */
    readonly rowCount: number,
  ) {}

  static async open(path: string): Promise<Portfolio> {
    try {
      await access(path, constants.R_OK);
    } catch (error) {
      throw badArguments(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    let columns: LocationColumns | undefined;
    let rowCount = 0;
    for await (const { record } of csvRecords(path)) {
      if (columns) rowCount += 1;
      else columns = readHeader(path, record);
    }
    if (!columns) throw badArguments(`${path} is empty: it needs a header row naming ${READ_COLUMN_NAMES}, and one row per location.`);
    if (rowCount === 0) throw badArguments(`${path} has a header row but no rows.`);
    return new Portfolio(path, columns, rowCount);
  }

  /** The warning for the columns copied through to the output unread (a misspelt lat or lon header lands there), as the service words it. */
  get unreadColumnsWarning(): string | undefined {
    return unreadColumnsWarning(this.columns);
  }

  /** The rows after the first `skip` (already answered), in order. */
  async *rows(skip = 0): AsyncGenerator<PortfolioRow> {
    const { fields, others, width } = this.columns;
    let position = -1;
    for await (const { record, line } of csvRecords(this.path)) {
      position += 1;
      if (position <= skip) continue;
      const row: PortfolioRow = {
        position: position - 1,
        line,
        fields: Object.fromEntries(fields.flatMap(([field, column]) => (column < record.length ? [[field, record[column]]] : []))),
        passedThrough: others.map(({ column }) => record[column] ?? ''),
      };
      if (record.length !== width) row.ragged = raggedRowProblem(line, record.length, width);
      yield row;
    }
  }

  /** The CSV body of one batch request: the read columns under their own field names, for rows that are sent. */
  requestCsv(rows: PortfolioRow[]): string {
    const names = this.columns.fields.map(([field]) => field);
    return stringify([names, ...rows.map((row) => names.map((field) => row.fields[field] ?? ''))]);
  }
}

/** The location a row asks for as the service echoes it: a blank cell is not given. */
export function askedLocation(row: PortfolioRow): AskedLocation {
  const asked: AskedLocation = {};
  for (const field of LOCATION_FIELDS) {
    const cell = row.fields[field];
    if (cell !== undefined && cell.trim() !== '') asked[field] = cell;
  }
  return asked;
}

/** The row's id as the service echoes it: null for a blank cell. */
export const rowId = (row: PortfolioRow): string | null => (row.fields.id === undefined || row.fields.id.trim() === '' ? null : row.fields.id);

function readHeader(path: string, header: string[]): LocationColumns {
  try {
    return readLocationHeader(header);
  } catch (error) {
    if (error instanceof HeaderProblem) throw badArguments(`${path}: the header row ${error.message}.`);
    throw error;
  }
}

interface NumberedRecord {
  record: string[];
  line: number;
}

/**
 * The records of a CSV file, each with the line it starts on, as a stream. A file that is not valid CSV is a bad
 * argument naming the line where the record that breaks starts (csv-parse names the line where it gave up).
 */
async function* csvRecords(path: string): AsyncGenerator<NumberedRecord> {
  const lines = new LineBreaks();
  let endOfLast = 0;
  // Lines are counted as the parser ends each record (it may end several, then fail, before any is read here).
  const onRecord = (record: string[], { bytes }: InfoRecord): NumberedRecord => {
    // The record's last byte sits before its line end (if any); line ends inside its quoted cells are lines too.
    const lastLine = lines.lineOf(bytes - 1);
    const inside = record.reduce((count, cell) => count + (cell.match(LINE_END)?.length ?? 0), 0);
    endOfLast = bytes;
    return { record, line: lastLine - inside };
  };
  // Any line end ends a record, as in a file whose rows were appended by different programs.
  const options: Options<NumberedRecord, string[]> = {
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    on_record: onRecord,
  };
  // csv-parse types on_record's result as a record only with `columns`; here it is a numbered record.
  const records = createReadStream(path)
    .pipe(lines)
    .pipe(parse(options as unknown as Options));
  try {
    yield* records as AsyncIterable<NumberedRecord>;
  } catch (error) {
    if (error instanceof CsvError) {
      const reason = error.message.replace(/ at line \d+/, '').replace(/\.$/, '');
      throw badArguments(
        `${path} is not valid CSV: the record starting at line ${await firstLineWithContent(path, endOfLast, lines.lineOf(endOfLast))}: ${reason}.`,
      );
    }
    throw badArguments(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    records.destroy();
  }
}

/** Counts the line ends going by (CRLF, LF or a lone CR), so a byte offset (asked in increasing order) gives its line. */
class LineBreaks extends Transform {
  /** Offsets of the last byte of each line end not yet passed. */
  private readonly ahead: number[] = [];
  private offset = 0;
  private passed = 0;
  private endsWithCr = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.endsWithCr && chunk[0] !== LF) this.ahead.push(this.offset - 1);
    for (let at = 0; at < chunk.length; at += 1) {
      if (chunk[at] === LF || (chunk[at] === CR && at + 1 < chunk.length && chunk[at + 1] !== LF)) this.ahead.push(this.offset + at);
    }
    this.endsWithCr = chunk[chunk.length - 1] === CR;
    this.offset += chunk.length;
    done(null, chunk);
  }

  /** The line (from 1) the byte at `offset` is on. */
  lineOf(offset: number): number {
    while (this.ahead.length > 0 && this.ahead[0] < offset) {
      this.ahead.shift();
      this.passed += 1;
    }
    return this.passed + 1;
  }
}

/** The first line at or after `offset` (on line `line`) that is not blank: where the next record starts. */
async function firstLineWithContent(path: string, offset: number, line: number): Promise<number> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, offset);
    const blank = /^(?:\r\n|\n|\r)*/.exec(buffer.subarray(0, bytesRead).toString('latin1'))![0];
    return line + (blank.match(LINE_END)?.length ?? 0);
  } finally {
    await file.close();
  }
}
