import { createReadStream } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { CsvError, parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { ROW_FIELDS } from '../batch/batch-row';
import { badArguments } from './command-failure';

/** Consecutive rows of the portfolio, as the CSV body of one batch request. */
export interface PortfolioChunk {
  /** Position of the chunk's first row in the whole input (0 = the first row after the header). */
  start: number;
  rows: number;
  csv: string;
}

/** Fails early (exit 2) when the input cannot be opened, before anything is written. */
export async function checkReadable(path: string): Promise<void> {
  try {
    await access(path, constants.R_OK);
  } catch (error) {
    throw badArguments(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * The records of a CSV file, header first, read as a stream, with the rules the batch endpoint reads a CSV
 * body by (byte-order mark dropped, blank lines skipped), so a row's position is the one the service would give it.
 */
async function* csvRecords(path: string): AsyncGenerator<string[]> {
  const records = createReadStream(path).pipe(parse({ bom: true, skip_empty_lines: true, relax_column_count: true }));
  try {
    for await (const record of records as AsyncIterable<string[]>) yield record;
  } catch (error) {
    if (error instanceof CsvError) throw badArguments(`${path} is not valid CSV at line ${error.lines}: ${error.message}`);
    throw badArguments(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    records.destroy();
  }
}

/** How many rows (records after the header) the input holds: the progress bar's total. */
export async function countPortfolioRows(path: string): Promise<number> {
  let records = 0;
  for await (const _record of csvRecords(path)) records += 1;
  return Math.max(0, records - 1);
}

/**
 * The input in chunks of at most `chunkSize` rows, after the first `skipRows` rows (already answered), holding
 * only the columns the service reads (id, address, lat, lon, as it matches them): a portfolio's other columns
 * would only make the request bodies larger. At most one chunk is held at a time.
 */
export async function* portfolioChunks(path: string, chunkSize: number, skipRows = 0): AsyncGenerator<PortfolioChunk> {
  let kept: number[] | undefined;
  let header: string[] = [];
  let position = 0;
  let rows: string[][] = [];
  const chunk = (): PortfolioChunk => ({ start: position - rows.length, rows: rows.length, csv: stringify([header, ...rows]) });
  for await (const record of csvRecords(path)) {
    if (!kept) {
      kept = record.flatMap((name, column) => ((ROW_FIELDS as readonly string[]).includes(name.trim().toLowerCase()) ? [column] : []));
      if (kept.length === 0) throw badArguments(`${path} has no column named ${ROW_FIELDS.join(', ')} in its header row.`);
      header = kept.map((column) => record[column]);
      continue;
    }
    position += 1;
    if (position <= skipRows) continue;
    rows.push(kept.map((column) => record[column] ?? ''));
    if (rows.length === chunkSize) {
      yield chunk();
      rows = [];
    }
  }
  if (!kept) throw badArguments(`${path} is empty: it needs a header row naming ${ROW_FIELDS.join(', ')} and one row per location.`);
  if (position === 0) throw badArguments(`${path} has a header row but no rows.`);
  if (rows.length > 0) yield chunk();
}
