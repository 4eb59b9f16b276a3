import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { CsvError, parse } from 'csv-parse';
import { badArguments } from './command-failure';

/** Where an interrupted run stopped: the rows of OUTPUT answered in full, and the bytes they take. */
export interface ResumePoint {
  /** The answer's header row, when OUTPUT holds one in full. */
  header?: string[];
  rowsDone: number;
  bytes: number;
}

type ParsedRecord = { record: string[]; info: { bytes: number } };

/**
 * Counts what an interrupted run left in `path`: the header and every complete row, each checked to carry
 * the index of its position (so OUTPUT is the answer to this input from its first row); a last line cut off
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
  const notAnswer = (why: string) => badArguments(`cannot resume: ${path} is not a flood-zone CSV answer (${why}).`);
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
