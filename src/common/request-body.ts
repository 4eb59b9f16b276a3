import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import type { Request } from 'express';
import { ApiError } from './api-error';

/** The slowest a body may arrive, on average, once its grace is over: any real uploader is far faster. */
export const BODY_MIN_BYTES_PER_SECOND = 1024;

/** How often a body's pace is checked. */
const PACE_CHECK_MS = 500;

/** A body slower than BODY_MIN_BYTES_PER_SECOND: the request is answered 408 and its connection closed. */
export class BodyTooSlowError extends ApiError {
  constructor(graceMs: number) {
    super(
      408,
      'REQUEST_TIMEOUT',
      `The body arrived slower than ${BODY_MIN_BYTES_PER_SECOND} bytes per second on average after the first ${graceMs} ms; send it again, at full speed.`,
    );
  }
}

/** How an endpoint takes its body: how large it may be, how slowly it may come, and the endpoint's own errors for the rest. */
export interface BodyLimits {
  maxBytes: number;
  /**
   * From this long after the body was asked for, it must have kept BODY_MIN_BYTES_PER_SECOND on average. Unset for a
   * small body, which the server's whole-request timeout bounds well enough.
   */
  graceMs?: number;
  /** The 413 of a body past `maxBytes`, in the endpoint's envelope code. */
  tooLarge: () => ApiError;
  /** The client went away before its body was complete. */
  cutShort: () => ApiError;
}

/**
 * The request body as a stream that fails with `tooLarge` past `maxBytes` (at once when Content-Length already says
 * so), and with BodyTooSlowError when, `graceMs` after it was asked for, the body has arrived slower than
 * BODY_MIN_BYTES_PER_SECOND on average (a client dripping its upload would otherwise hold the request for as long as
 * it likes). The request itself is never destroyed by a 413: readBody reads the rest before answering, so the client
 * can finish sending and read the answer.
 */
function cappedBody(req: IncomingMessage, limits: BodyLimits): Readable {
  const { maxBytes, graceMs } = limits;
  let received = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > maxBytes) done(limits.tooLarge());
      else done(null, chunk);
    },
  });
  if (Number(req.headers['content-length']) > maxBytes) {
    process.nextTick(() => capped.destroy(limits.tooLarge()));
    return capped;
  }
  if (graceMs !== undefined) {
    const started = performance.now();
    const pace = setInterval(() => {
      const seconds = (performance.now() - started) / 1000;
      if (seconds * 1000 >= graceMs && received < seconds * BODY_MIN_BYTES_PER_SECOND) capped.destroy(new BodyTooSlowError(graceMs));
    }, PACE_CHECK_MS);
    const stopPace = () => clearInterval(pace);
    req.once('end', stopPace);
    capped.once('close', stopPace);
  }
  // A client gone mid-body ends the body too (pipe passes no error on), or the reader would wait for ever.
  req.once('close', () => {
    if (!req.complete) capped.destroy(limits.cutShort());
  });
  req.pipe(capped);
  return capped;
}

/** Reads and drops what is left of the body (after a whole-request error), so an answer can follow it. */
function discardRest(req: IncomingMessage): Promise<void> {
  req.unpipe();
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    req.once('end', resolve).once('close', resolve).once('error', resolve);
    req.resume();
  });
}

/**
 * `read` over the body, within `limits` (see cappedBody). On a failure the rest of the body is read and dropped
 * first, so the answer reaches the client; but a body too slow to wait for is not: its answer closes the connection
 * instead.
 */
export async function readBody<T>(req: Request, limits: BodyLimits, read: (body: Readable) => Promise<T>): Promise<T> {
  try {
    return await read(cappedBody(req, limits));
  } catch (error) {
    if (error instanceof BodyTooSlowError) req.res?.setHeader('Connection', 'close');
    else await discardRest(req);
    throw error;
  }
}

/** The whole capped body as one buffer (a JSON body is parsed in one piece; the cap bounds it). */
export async function bufferedBody(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The request's media type (Content-Type without its parameters, lower case); '' when it has none. */
export const mediaTypeOf = (req: IncomingMessage): string => (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();

/** The request's Content-Encoding, lower case; '' for none (identity counts as none). The service inflates no body. */
export function contentEncodingOf(req: IncomingMessage): string {
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  return encoding === 'identity' ? '' : encoding;
}
