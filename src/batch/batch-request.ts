import type { Readable } from 'node:stream';
import type { Request } from 'express';
import { ApiError } from '../common/api-error';
import { ANSWER_FORMATS, AnswerFormat, NDJSON } from './answer-formats';
import { readCsvLocations } from './csv-locations';
import { readJsonLocations } from './json-locations';
import { BodyTooSlowError, bufferedBody, cappedBody, discardRest } from './request-body';

/** Reads a batch body's rows (400 INVALID_BATCH, 413 BATCH_TOO_LARGE), at most `maxRows` of them. */
type LocationReader = (body: Readable, maxRows: number) => Promise<unknown[]>;

const READERS: Record<string, LocationReader> = {
  'application/json': async (body, maxRows) => readJsonLocations(await bufferedBody(body), maxRows),
  'text/csv': (body, maxRows) => readCsvLocations(body, maxRows),
};

/**
 * The reader for the request's Content-Type; 415 UNSUPPORTED_MEDIA_TYPE for any other, and for a compressed
 * body (any Content-Encoding but identity), which the service does not inflate.
 */
export function locationReader(req: Request): LocationReader {
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `A batch body is sent uncompressed, not with Content-Encoding: ${encoding}.`);
  }
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const reader = READERS[mediaType];
  if (!reader) {
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `A batch is sent as application/json ({"locations": [...]}) or text/csv (a header row naming id, address, lat, lon), not ${mediaType || 'a body without Content-Type'}.`,
    );
  }
  return reader;
}

/**
 * The rows of the body (which must keep pace after `graceMs`, see cappedBody). On a whole-request error the
 * rest of the body is read and dropped first, so the answer reaches the client; but a body too slow to wait
 * for is not: its answer closes the connection instead.
 */
export async function readLocations(req: Request, reader: LocationReader, maxRows: number, graceMs: number): Promise<unknown[]> {
  try {
    return await reader(cappedBody(req, graceMs), maxRows);
  } catch (error) {
    if (error instanceof BodyTooSlowError) req.res?.setHeader('Connection', 'close');
    else await discardRest(req);
    throw error;
  }
}

/** The answer format `Accept` asks for; NDJSON when it names none of them (or anything, or nothing). */
export function answerFormat(req: Request): AnswerFormat {
  const chosen = req.accepts(Object.keys(ANSWER_FORMATS));
  return ANSWER_FORMATS[chosen || NDJSON];
}
