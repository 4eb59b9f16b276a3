import { PassThrough, Readable, pipeline } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'csv-parse';
import { serviceFailed } from './command-failure';
import { errorAnswerText, FloodZoneService } from './flood-zone-service';
import type { PortfolioChunk } from './portfolio-input';

/** A busy service (429 BATCH_BUSY: other batches running) is asked again after its Retry-After, this many times. */
const BUSY_RETRIES = 30;
const RETRY_AFTER_DEFAULT_S = 1;
const RETRY_AFTER_MAX_S = 60;

export const rowsOf = (chunk: PortfolioChunk) => `rows ${chunk.start + 1}-${chunk.start + chunk.rows}`;

/**
 * Sends one chunk to `POST /flood-zone/batch` and returns its CSV answer as records, header first, as they
 * stream in. The answer is read on at once into a buffer of one chunk's rows whether or not its turn to be
 * written has come, so a service streaming a later chunk never waits for this client.
 */
export async function requestChunkAnswer(service: FloodZoneService, chunk: PortfolioChunk, signal: AbortSignal): Promise<AsyncIterable<string[]>> {
  const url = service.urlOf('/flood-zone/batch');
  for (let attempt = 0; ; attempt += 1) {
    const response = await service.request(url, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', accept: 'text/csv' },
      body: chunk.csv,
      signal,
    });
    if (response.status === 429 && attempt < BUSY_RETRIES) {
      await response.body?.cancel();
      await sleep(retryAfterMs(response.headers.get('retry-after')), undefined, { signal });
      continue;
    }
    if (response.status !== 200 || !response.body) {
      throw serviceFailed(`the service did not answer ${rowsOf(chunk)}: ${await errorAnswerText(response)}`);
    }
    // Room for the whole chunk's records: the parser never waits for the writer.
    const records = new PassThrough({ objectMode: true, highWaterMark: chunk.rows + 2 });
    // A cut-off answer destroys `records` with the error, and its reader sees it there.
    pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), parse(), records, () => undefined);
    return records;
  }
}

function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  const wait = Number.isFinite(seconds) && seconds >= 0 ? seconds : RETRY_AFTER_DEFAULT_S;
  return Math.min(wait, RETRY_AFTER_MAX_S) * 1000;
}
