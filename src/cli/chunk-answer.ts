import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { RowAnswer } from '../batch/row-answer';
import { serviceFailed } from './command-failure';
import { errorResponseText, FloodZoneApi } from './flood-zone-api';
import { askedLocation, Portfolio, PortfolioRow } from './portfolio-input';
import { outputLine, raggedRowAnswer } from './screening-output';

/** A busy service (429 BATCH_BUSY: other batches running) is asked again after its Retry-After, this many times. */
const BUSY_RETRIES = 30;

/** Consecutive rows of the portfolio, answered by one batch request (ragged rows are answered here, not sent). */
export interface PortfolioChunk {
  /** Position of the chunk's first row in the whole input (0 = the first row after the header). */
  start: number;
  rows: PortfolioRow[];
}

/** One row of the output, ready to write, and its answer's status (for the summary). */
export interface OutputRow {
  line: string;
  status: number;
}

export const rowsOf = (chunk: PortfolioChunk) => `rows ${chunk.start + 1}-${chunk.start + chunk.rows.length}`;

const NDJSON = 'application/x-ndjson';

/**
 * Sends one chunk to `POST /flood-zone/batch` (answered as NDJSON, which carries each error row's message and
 * candidates) and returns its output rows, in order, as they stream in. The answer is read on at once into a
 * buffer of one chunk's rows whether or not its turn to be written has come, so a service streaming a later
 * chunk never waits for this client. An answer that ends early or breaks off fails the chunk: its reader sees it.
 */
export async function requestChunkAnswer(
  api: FloodZoneApi,
  portfolio: Portfolio,
  chunk: PortfolioChunk,
  signal: AbortSignal,
): Promise<AsyncIterable<OutputRow>> {
  const sent = chunk.rows.filter((row) => !row.ragged);
  const lines = sent.length === 0 ? undefined : ndjsonLines(await requestAnswer(api, portfolio.requestCsv(sent), chunk, signal));
  // Room for the whole chunk's rows: the reader of the answer never waits for the writer.
  const rows = new PassThrough({ objectMode: true, highWaterMark: chunk.rows.length + 1 });
  // A chunk called off is never read: its failure must not be an unhandled 'error' event. A reader still sees it.
  rows.on('error', () => undefined);
  const fill = async () => {
    let answered = 0;
    for (const [offset, row] of chunk.rows.entries()) {
      const index = chunk.start + offset;
      const answer = row.ragged ? raggedRowAnswer(row, index) : readRowAnswer(await lines!.next(), answered++, sent.length, chunk, row, index);
      rows.write({ line: outputLine(answer, row), status: answer.status } satisfies OutputRow);
    }
    if (lines && !(await lines.next()).done) throw serviceFailed(`the answer to ${rowsOf(chunk)} has more rows than the ${sent.length} sent.`);
    rows.end();
  };
  fill().catch((error: Error) => rows.destroy(error));
  return rows;
}

async function requestAnswer(api: FloodZoneApi, csv: string, chunk: PortfolioChunk, signal: AbortSignal): Promise<Readable> {
  const init = { method: 'POST', headers: { 'content-type': 'text/csv', accept: NDJSON }, body: csv, signal };
  const response = await api.requestPatiently(api.urlOf('/flood-zone/batch'), init, { retries: BUSY_RETRIES, later: (answer) => answer.status === 429 });
  if (response.status !== 200 || !response.body) {
    throw serviceFailed(`the service did not answer ${rowsOf(chunk)}: ${await errorResponseText(response)}`);
  }
  return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
}

/** A sent row's answer from its NDJSON line, checked to be the next one (the service numbers rows within the request). */
function readRowAnswer(next: IteratorResult<string>, expected: number, sent: number, chunk: PortfolioChunk, row: PortfolioRow, index: number): RowAnswer {
  if (next.done) throw serviceFailed(`the answer to ${rowsOf(chunk)} ended after ${expected} of the ${sent} rows sent.`);
  let parsed: { index?: unknown; id?: unknown; status?: unknown; body?: unknown };
  try {
    parsed = JSON.parse(next.value) as typeof parsed;
  } catch {
    throw serviceFailed(`the answer to ${rowsOf(chunk)} is not NDJSON: ${next.value.slice(0, 80)}`);
  }
  if (parsed.index !== expected || typeof parsed.status !== 'number' || typeof parsed.body !== 'object' || parsed.body === null) {
    throw serviceFailed(`the answer to ${rowsOf(chunk)} has ${JSON.stringify(parsed.index)} where row ${expected} belongs.`);
  }
  const id = typeof parsed.id === 'string' ? parsed.id : null;
  return { index, id, status: parsed.status, body: parsed.body as RowAnswer['body'], asked: askedLocation(row) };
}

/** The lines of an NDJSON stream; a last line without its line end was cut off, and fails the stream. */
async function* ndjsonLines(body: Readable): AsyncGenerator<string> {
  let pending = '';
  body.setEncoding('utf8');
  for await (const part of body as AsyncIterable<string>) {
    const lines = (pending + part).split('\n');
    pending = lines.pop()!;
    for (const line of lines) if (line.trim() !== '') yield line;
  }
  if (pending.trim() !== '') throw new Error('the last line has no line end');
}
