import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { CsvError, parse } from 'csv-parse';
import { badArguments } from './command-failure';
import type { Portfolio } from './portfolio-input';
import { echoesRow, STATUS_COLUMN } from './screening-output';

/** Where an interrupted run stopped: the rows of OUTPUT answered in full, and the bytes they take. */
export interface ResumePoint {
  /** The output's header row, when OUTPUT holds one in full. */
  header?: string[];
  rowsDone: number;
  bytes: number;
}

type ParsedRecord = { record: string[]; info: { bytes: number } };

/**
 * Counts what an interrupted run left in `path`: the header and every complete row, each checked to carry
 * the index of its position (so OUTPUT is this command's output from its first row); a last line cut off
 * mid-write (no line end, or an open quote) does not count. A missing or empty file is a run that wrote nothing.
 */
export async function findResumePoint(path: string): Promise<ResumePoint> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { rowsDone: 0, bytes: 0 };
    throw badArguments(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code}`);
  }
  const notAnswer = (why: string) => badArguments(`cannot resume: ${path} is not an output of flood-zone batch (${why}).`);
  const point: ResumePoint = { rowsDone: 0, bytes: 0 };
  let indexColumn = -1;
  const count = ({ record, info }: ParsedRecord) => {
    if (!point.header) {
      indexColumn = record.indexOf('index');
      if (indexColumn < 0) throw notAnswer('its header row has no index column');
      point.header = record;
    } else if (record.length !== point.header.length) {
      throw notAnswer(`row ${point.rowsDone} has ${record.length} cells under a header of ${point.header.length}`);
    } else if (record[indexColumn] !== String(point.rowsDone)) {
      throw notAnswer(`row ${point.rowsDone} has the index "${record[indexColumn]}"`);
    } else {
      point.rowsDone += 1;
    }
    point.bytes = info.bytes;
  };

  // A record counts once the next one begins, or the file ends with its line end.
  let pending: ParsedRecord | undefined;
  const records = createReadStream(path).pipe(parse({ info: true, relax_column_count: true }));
  try {
    for await (const parsed of records as AsyncIterable<ParsedRecord>) {
      if (pending) count(pending);
      pending = parsed;
    }
    if (pending && (pending.info.bytes < size || (await lastByteIs(path, size, '\n')))) count(pending);
  } catch (error) {
    // An open quote at the very end is a row cut off mid-write: the record before it is complete.
    if (error instanceof CsvError && error.code === 'CSV_QUOTE_NOT_CLOSED') {
      if (pending) count(pending);
    } else {
      throw error instanceof CsvError ? notAnswer(error.message) : error;
    }
  } finally {
    records.destroy();
  }
  return point;
}

async function lastByteIs(path: string, size: number, character: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { buffer } = await file.read(Buffer.alloc(1), 0, 1, size - 1);
    return buffer.toString() === character;
  } finally {
    await file.close();
  }
}

/**
 * Checks that the rows already in OUTPUT answer this input's first rows: the same columns, and each row echoing
 * its input row (id, location, the other cells), so `--resume` never appends to another input's output. Returns
 * the statuses of those rows, for the summary and the exit status. The two files are read side by side.
 */
export async function checkResumable(path: string, point: ResumePoint, portfolio: Portfolio, header: string[]): Promise<number[]> {
  const refuse = (why: string) =>
    badArguments(`cannot resume: ${path} is not the output for ${portfolio.path} (${why}); give another -o OUTPUT, or leave out --resume to start over.`);
  if (point.header!.join('\n') !== header.join('\n')) throw refuse('its columns differ from those this input gives');
  if (point.rowsDone > portfolio.rowCount) throw refuse(`it has ${point.rowsDone} rows, the input ${portfolio.rowCount}`);
  const statuses: number[] = [];
  if (point.rowsDone === 0) return statuses;
  const records = createReadStream(path, { end: point.bytes - 1 }).pipe(parse({ relax_column_count: true, from_line: 2 }));
  const rows = portfolio.rows();
  try {
    for await (const record of records as AsyncIterable<string[]>) {
      const row = (await rows.next()).value!;
      if (!echoesRow(record, row)) throw refuse(`its row ${row.position + 1} is not the input's row at line ${row.line}`);
      statuses.push(Number(record[STATUS_COLUMN]));
    }
  } finally {
    records.destroy();
    await rows.return(undefined);
  }
  return statuses;
}
