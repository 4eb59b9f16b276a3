import type { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import { ApiError } from '../common/api-error';
import { ANSWER_FORMATS, AnswerFormat, NDJSON } from './answer-formats';
import { BodyNotes, csvLocationRows, readCsvLocations } from './csv-locations';
import { jsonLocationRows, readJsonLocations } from './json-locations';
import { BodyLimits, bufferedBody, contentEncodingOf, mediaTypeOf, readBody } from '../common/request-body';
import { bodyTooLarge, invalidBatch } from './batch-input-errors';

/** Reads a batch body's rows (400 INVALID_BATCH, 413 BATCH_TOO_LARGE), at most `maxRows` of them, noting what it learns beside them. */
type LocationReader = (body: Readable, maxRows: number, notes: BodyNotes) => Promise<unknown[]>;

/** Gives a body's rows one by one as it streams in, with the errors of a LocationReader. */
type LocationStream = (body: Readable, maxRows: number, notes: BodyNotes) => AsyncIterable<unknown>;

/** The readers of each media type: the whole body at once (a batch, at most 10 MiB), or row by row (a portfolio job). */
const READERS: Record<string, { whole: LocationReader; streamed: LocationStream }> = {
  'application/json': { whole: async (body, maxRows) => readJsonLocations(await bufferedBody(body), maxRows), streamed: jsonLocationRows },
  'text/csv': { whole: readCsvLocations, streamed: csvLocationRows },
};

/**
 * The readers for the request's Content-Type; 415 UNSUPPORTED_MEDIA_TYPE for any other, and for a compressed
 * body (any Content-Encoding but identity), which the service does not inflate.
 */
function readersOf(req: Request): { whole: LocationReader; streamed: LocationStream } {
  const encoding = contentEncodingOf(req);
  if (encoding !== '') {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `A batch body is sent uncompressed, not with Content-Encoding: ${encoding}.`);
  }
  const mediaType = mediaTypeOf(req);
  const readers = READERS[mediaType];
  if (!readers) {
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `A batch is sent as application/json ({"locations": [...]}) or text/csv (a header row naming id, address, lat, lon), not ${mediaType || 'a body without Content-Type'}.`,
    );
  }
  return readers;
}

/** The reader of the whole body for the request's Content-Type (415 as readersOf). */
export const locationReader = (req: Request): LocationReader => readersOf(req).whole;

/** The row-by-row reader for the request's Content-Type (415 as readersOf). */
export const streamedLocationReader = (req: Request): LocationStream => readersOf(req).streamed;

/** A batch body may be up to 10 MiB (10,000 rows fit easily). */
const BATCH_BODY_MAX_BYTES = 10 * 1024 * 1024;

/** A body of locations: at most `maxBytes` (see readBody). */
const locationsBody = (maxBytes = BATCH_BODY_MAX_BYTES): BodyLimits => ({
  maxBytes,
  tooLarge: () => bodyTooLarge(maxBytes),
  cutShort: () => invalidBatch('The body ended before it was complete.'),
});

/** The rows of the body, all at once (see readBody), what the reader learns beside them in `notes`. */
export function readLocations(req: Request, reader: LocationReader, maxRows: number, notes: BodyNotes): Promise<unknown[]> {
  return readBody(req, locationsBody(), (body) => reader(body, maxRows, notes));
}

/**
 * Hands the rows of the body to `store` one by one as they arrive, so that however large the body, only what
 * `store` holds is in memory (see readBody); `store`'s outcome, or the body's error once `store` has let go of
 * what it stored.
 */
export function storeLocations<T>(
  req: Request,
  reader: LocationStream,
  limits: { maxRows: number; maxBytes: number },
  notes: BodyNotes,
  store: (rows: AsyncIterable<unknown>) => Promise<T>,
): Promise<T> {
  return readBody(req, locationsBody(limits.maxBytes), (body) => store(reader(body, limits.maxRows, notes)));
}

/**
 * The reader's warnings as `Warning: 299 - "…"` headers (the miscellaneous persistent warning), each quoted as a
 * JSON string with every character outside printable ASCII escaped: a column name may hold any character.
 */
export function sendWarnings(res: Response, notes: BodyNotes): void {
  if (notes.warnings.length === 0) return;
  const quoted = (text: string) => JSON.stringify(text).replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  res.setHeader('Warning', notes.warnings.map((warning) => `299 - ${quoted(warning)}`).join(', '));
}

/** The answer format `Accept` asks for: NDJSON for anything or nothing, undefined when it names none of them. */
export function acceptedAnswerFormat(req: Request): AnswerFormat | undefined {
  const chosen = req.accepts(Object.keys(ANSWER_FORMATS));
  return chosen ? ANSWER_FORMATS[chosen] : undefined;
}

/** The answer format `Accept` asks for; NDJSON when it names none of them (or anything, or nothing). */
export function answerFormat(req: Request): AnswerFormat {
  return acceptedAnswerFormat(req) ?? ANSWER_FORMATS[NDJSON];
}
