import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { bodyTooLarge, invalidBatch } from './batch-input-errors';

/** CONTRACT section 12: a batch body may be up to 10 MiB (10,000 rows fit easily). */
const BATCH_BODY_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The request body as a stream that fails with 413 BATCH_TOO_LARGE past `maxBytes` (at once when
 * Content-Length already says so). The request itself is never destroyed by that failure: call
 * `discardRest` before answering, so the client can finish sending and read the answer.
 */
export function cappedBody(req: IncomingMessage, maxBytes = BATCH_BODY_MAX_BYTES): Readable {
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
