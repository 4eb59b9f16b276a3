import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { CsvRecord } from '../batch/batch-row';
import type { RowAnswer } from '../batch/row-answer';

/** Rows per chunk: the unit a worker takes, stores and hands back. */
export const CHUNK_ROWS = 1000;

const packed = promisify(gzip);
const unpacked = promisify(gunzip);

/**
 * A stored input row: a JSON element as it was read, or a CSV record (its fields, its problem or null, its other
 * cells; a job stored before other cells were kept has none).
 */
type StoredRow = [0, unknown] | [1, CsvRecord['fields'], string | null, string[]?];

/** One chunk of input rows, compressed; a CsvRecord keeps its class through the round trip. */
export function packRows(rows: readonly unknown[]): Promise<Buffer> {
  const stored = rows.map((row): StoredRow => (row instanceof CsvRecord ? [1, row.fields, row.problem ?? null, row.otherCells] : [0, row]));
  return packed(JSON.stringify(stored));
}

export async function unpackRows(chunk: Buffer): Promise<unknown[]> {
  const stored = JSON.parse((await unpacked(chunk)).toString('utf8')) as StoredRow[];
  return stored.map((row) => (row[0] === 1 ? new CsvRecord(row[1], row[3] ?? [], row[2] ?? undefined) : row[1]));
}

/** One chunk's answers, compressed, each with its index in the whole job. */
export function packAnswers(answers: readonly RowAnswer[]): Promise<Buffer> {
  return packed(JSON.stringify(answers));
}

export async function unpackAnswers(chunk: Buffer): Promise<RowAnswer[]> {
  return JSON.parse((await unpacked(chunk)).toString('utf8')) as RowAnswer[];
}
