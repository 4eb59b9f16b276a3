import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { ApiError } from '../common/api-error';
import { bodyTooLarge, invalidBatch } from './batch-input-errors';

/** A batch body may be up to 10 MiB (10,000 rows fit easily). */
const BATCH_BODY_MAX_BYTES = 10 * 1024 * 1024;

/** The slowest a batch body may arrive, on average, once its grace is over: any real uploader is far faster. */
export const BATCH_BODY_MIN_BYTES_PER_SECOND = 1024;

/** How often a body's pace is checked. */
const PACE_CHECK_MS = 500;

/** A body slower than BATCH_BODY_MIN_BYTES_PER_SECOND: the request is answered 408 and its connection closed. */
export class BodyTooSlowError extends ApiError {
  constructor(graceMs: number) {
    super(
      408,
      'REQUEST_TIMEOUT',
      `The batch body arrived slower than ${BATCH_BODY_MIN_BYTES_PER_SECOND} bytes per second on average after the first ${graceMs} ms; send it again, at full speed.`,
    );
  }
}

/**
 * The request body as a stream that fails with 413 BATCH_TOO_LARGE past `maxBytes` (at once when
 * Content-Length already says so), and with BodyTooSlowError when, `graceMs` after it was asked for, the
 * body has arrived slower than BATCH_BODY_MIN_BYTES_PER_SECOND on average (a client dripping its upload
 * would otherwise hold the request for as long as it likes). The request itself is never destroyed by a
 * 413: call `discardRest` before answering, so the client can finish sending and read the answer.
 */
export function cappedBody(req: IncomingMessage, graceMs: number, maxBytes = BATCH_BODY_MAX_BYTES): Readable {
  let received = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > maxBytes) done(bodyTooLarge(maxBytes));
      else done(null, chunk);
    },
  });
  if (Number(req.headers['content-length']) > maxBytes) {
    process.nextTick(() => capped.destroy(bodyTooLarge(maxBytes)));
    return capped;
  }
  const started = performance.now();
  const pace = setInterval(() => {
    const seconds = (performance.now() - started) / 1000;
    if (seconds * 1000 >= graceMs && received < seconds * BATCH_BODY_MIN_BYTES_PER_SECOND) capped.destroy(new BodyTooSlowError(graceMs));
  }, PACE_CHECK_MS);
  const stopPace = () => clearInterval(pace);
  req.once('end', stopPace);
  capped.once('close', stopPace);
  // A client gone mid-body ends the body too (pipe passes no error on), or the reader would wait for ever.
  req.once('close', () => {
    if (!req.complete) capped.destroy(invalidBatch('The body ended before it was complete.'));
  });
  req.pipe(capped);
  return capped;
}

/** Reads and drops what is left of the body (after a whole-request error), so an answer can follow it. */
export function discardRest(req: IncomingMessage): Promise<void> {
  req.unpipe();
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    req.once('end', resolve).once('close', resolve).once('error', resolve);
    req.resume();
  });
}

/** The whole capped body as one buffer (a JSON body is parsed in one piece; the cap bounds it). */
export async function bufferedBody(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
