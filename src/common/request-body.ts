import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import type { Request } from 'express';
import { ApiError } from './api-error';
import { BodyPace, UploadPace } from './upload-pace';

/** How often a body's pace is checked. */
const PACE_CHECK_MS = 500;

/** A body slower than its pace (see UploadPace): the request is answered 408 and its connection closed. */
export class BodyTooSlowError extends ApiError {
  constructor({ graceMs, windowMs, minBytesPerSecond }: UploadPace) {
    super(
      408,
      'REQUEST_TIMEOUT',
      `The body arrived slower than ${minBytesPerSecond} bytes per second on average over ${windowMs / 1000} s, past its first ${graceMs} ms; ` +
        'send it again, without pausing.',
    );
  }
}

/** How an endpoint takes its body: how large it may be, and the endpoint's own errors for the rest. */
export interface BodyLimits {
  maxBytes: number;
  /** The 413 of a body past `maxBytes`, in the endpoint's envelope code. */
  tooLarge: () => ApiError;
  /** The client went away before its body was complete. */
  cutShort: () => ApiError;
}

/**
 * Holds the rest of `req`'s body to `pace` from now until it ends, its connection closes or the returned function is called: calls
 * `tooSlow` once if it falls behind. The pace is judged on the reading clock, which runs only while `reading` says the
 * service wants the body (by default: while the request flows, not while a reader busy with what it has holds it back),
 * on the bytes read from the connection.
 */
export function watchBodyPace(req: IncomingMessage, pace: UploadPace, tooSlow: () => void, reading = () => req.readableFlowing === true): () => void {
  if (req.readableEnded) return () => undefined;
  const { socket } = req;
  const bytesBefore = socket.bytesRead;
  const body = new BodyPace(pace);
  let clockMs = 0;
  let last = performance.now();
  const check = setInterval(() => {
    const now = performance.now();
    if (reading()) clockMs += now - last;
    last = now;
    if (!body.record(clockMs, socket.bytesRead - bytesBefore)) return;
    stop();
    tooSlow();
  }, PACE_CHECK_MS);
  check.unref();
  const stop = () => {
    clearInterval(check);
    req.off('end', stop);
    socket.off('close', stop);
  };
  req.once('end', stop);
  socket.once('close', stop);
  return stop;
}

/**
 * The request body as a stream that fails with `tooLarge` past `maxBytes` (at once when Content-Length already says
 * so). The request itself is never destroyed by a 413: readBody reads the rest before answering, so the client can
 * finish sending and read the answer.
 */
function cappedBody(req: IncomingMessage, limits: BodyLimits): Readable {
  const { maxBytes } = limits;
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
 * `read` over the body, within `limits` (see cappedBody) and at the request's upload pace (see watchBodyPace): a
 * body that falls behind fails with BodyTooSlowError. On a failure the rest of the body is read and dropped first,
 * so the answer reaches the client; but a body too slow to wait for is not: its answer closes the connection
 * instead, and a rest that falls behind while it is dropped closes the connection without one.
 */
export async function readBody<T>(req: Request, limits: BodyLimits, read: (body: Readable) => Promise<T>): Promise<T> {
  const body = cappedBody(req, limits);
  const stopPace = watchBodyPace(req, req.uploadPace, () => {
    if (body.destroyed) req.destroy();
    else body.destroy(new BodyTooSlowError(req.uploadPace));
  });
  try {
    return await read(body);
  } catch (error) {
    if (error instanceof BodyTooSlowError) req.res?.setHeader('Connection', 'close');
    else await discardRest(req);
    throw error;
  } finally {
    stopPace();
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
