import type { Request } from 'express';
import { ApiError } from '../../common/api-error';
import type { GeoPoint } from '../../common/geo-point';
import { jsonPlace, numberAsPlainDecimal, numbersAsWritten, parseJsonBody, plainDecimal } from '../../common/json-body';
import { BodyLimits, bufferedBody, contentEncodingOf, mediaTypeOf, readBody } from '../../common/request-body';
import { refuseUnreadParameters } from '../../common/query-string';
import { INCLUDE_ITEMS } from '../../parts/answer-parts';
import { checkFootprintReach } from '../../parts/structure/footprint-check';
import { PolygonWork, PolygonWorkRefused } from '../../parts/structure/polygon-work.client';
import type { Footprint } from '../../parts/structure/structure.types';
import type { LocationQuery } from '../location-query';
import { isIncludeItem } from './flood-zone-query.dto';
import { LOCATION_PARAMETERS, OPTION_PARAMETERS, readLookupLocation, readLookupOptions } from './lookup-parameters';

/** The largest body POST /flood-zone takes: a footprint of 2,000 vertices written out in full is under 100 KB. */
const FOOTPRINT_BODY_MAX_BYTES = 256 * 1024;

const invalid = (message: string) => new ApiError(400, 'INVALID_PARAMETERS', message);

/** The body of POST /flood-zone (held to the upload pace like every body). */
const FOOTPRINT_BODY: BodyLimits = {
  maxBytes: FOOTPRINT_BODY_MAX_BYTES,
  tooLarge: () =>
    new ApiError(
      413,
      'REQUEST_BODY_TOO_LARGE',
      `The body holds at most ${FOOTPRINT_BODY_MAX_BYTES} bytes (256 KiB); a footprint of 2,000 vertices needs far less.`,
    ),
  cutShort: () => invalid('The body ended before it was complete.'),
};

/** A footprint refused: the message names the rule it broke. */
export const invalidFootprint = (problem: string) => new ApiError(400, 'INVALID_FOOTPRINT', problem);

/** Every field the body may have; any other is refused, since a misspelt one ("lng") would otherwise go unread. */
const BODY_FIELDS = [...LOCATION_PARAMETERS, ...OPTION_PARAMETERS, 'footprint'];

/** The fields GET reads as text. */
const TEXT_FIELDS = ['address', 'lat', 'lon', 'radius'] as const;
type TextField = (typeof TEXT_FIELDS)[number];
/** The text fields a number may give, as its text. */
const NUMERIC_FIELDS: readonly TextField[] = ['lat', 'lon', 'radius'];

const INCLUDE_LIST = `include must be a list of some of ${INCLUDE_ITEMS.join(', ')} (lower case), such as ["nearby"]`;

/**
 * What POST /flood-zone asks for, from the request: 415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON or is
 * compressed, 413 REQUEST_BODY_TOO_LARGE past 256 KiB, 400 for malformed JSON (saying where), then readFootprintLookup's
 * rules, and last the footprint, whole (checkGivenFootprint). Throws ApiError.
 */
export async function readFootprintLookupRequest(req: Request, work: PolygonWork): Promise<LocationQuery & { footprint: Footprint }> {
  const encoding = contentEncodingOf(req);
  if (encoding !== '') throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `The body is sent uncompressed, not with Content-Encoding: ${encoding}.`);
  const mediaType = mediaTypeOf(req);
  if (mediaType !== 'application/json') {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `The body is sent as application/json, not ${mediaType || 'without a Content-Type'}.`);
  }
  const { document, text } = parseJsonBody(await readBody(req, FOOTPRINT_BODY, bufferedBody), invalid);
  const { query, footprint } = readFootprintLookup(document, text);
  return { ...query, footprint: await checkGivenFootprint(footprint, work) };
}

/**
 * What POST /flood-zone asks for, from its parsed JSON body (and its text, where numbers are read as written): the
 * same parameters as GET /flood-zone, checked by the same rules in the same order (docs/api.md), then the footprint.
 * Fields first: the body must be an object of known fields (400). Then the location (400, then 422 for a coordinate
 * out of range), `include` (a JSON list) and `radius` (400, 422); the footprint is given back as sent, for
 * checkGivenFootprint. Where it lies is checked once the location is known (refuseFootprintFarFrom). Throws ApiError.
 */
function readFootprintLookup(document: unknown, text: string): { query: LocationQuery; footprint: unknown } {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw invalid('The JSON body must be an object: {"lat": …, "lon": …, "footprint": {…}}, or {"address": "…", "footprint": {…}}.');
  }
  const body = document as Record<string, unknown>;
  refuseUnreadParameters(body, BODY_FIELDS, 'field');
  const raw = asParameters(body, text);
  const location = readLookupLocation(raw);
  const options = readLookupOptions({ include: includeOf(body.include), radius: raw.radius });
  return { query: { ...location, ...options }, footprint: body.footprint };
}

/** How long a client waits before sending a footprint again when the polygon pool is full. */
export const POLYGONS_BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * A footprint as the caller sent it, checked whole before anything is asked of an upstream: on the event loop when
 * small, in a worker thread when large (PolygonWork). 400 INVALID_FOOTPRINT naming the rule it breaks, or saying it
 * could not be checked within POLYGON_DEADLINE_MS; 503 POLYGONS_BUSY with Retry-After when the polygon pool is full.
 */
export async function checkGivenFootprint(value: unknown, work: PolygonWork, signal?: AbortSignal): Promise<Footprint> {
  const checked = await work.run('givenFootprint', value, signal).catch((error: unknown) => {
    if (!(error instanceof PolygonWorkRefused)) throw error;
    if (error.reason === 'busy') {
      throw new ApiError(
        503,
        'POLYGONS_BUSY',
        `Too many large footprints are being checked at once; retry after ${POLYGONS_BUSY_RETRY_AFTER_SECONDS} second.`,
        {},
        { 'Retry-After': String(POLYGONS_BUSY_RETRY_AFTER_SECONDS) },
      );
    }
    throw invalidFootprint(
      `footprint: it could not be checked within ${error.reason === 'deadline' ? `${work.deadline} ms` : 'the memory a check may take'}, as its rings cross each other a great many times; give its outline without crossings, or with fewer vertices`,
    );
  });
  if ('problem' in checked) throw invalidFootprint(checked.problem);
  return checked.footprint;
}

/** Refuses a footprint lying too far from the location (400 INVALID_FOOTPRINT): a point's at once, an address's once it is geocoded. */
export function refuseFootprintFarFrom(footprint: Footprint, location: GeoPoint): void {
  const problem = checkFootprintReach(footprint, location);
  if (problem !== undefined) throw invalidFootprint(problem);
}

/**
 * The text fields as GET reads them: a number (for lat, lon, radius) as the plain decimal text it was written as (so
 * 90.00000000000000001 is beyond 90, as in a query string), null as not given. A list is no repeated parameter here:
 * it is refused as a value of the wrong type, as an object is.
 */
function asParameters(body: Record<string, unknown>, text: string): Record<TextField, unknown> {
  const numeric = NUMERIC_FIELDS.filter((field) => typeof body[field] === 'number');
  const written = numeric.length > 0 ? numbersAsWritten(text, new Set(numeric.map((field) => jsonPlace(field))), invalid) : new Map<string, string>();
  const parameter = (field: TextField): unknown => {
    const value = body[field];
    if (value === null) return undefined;
    if (typeof value === 'number' && NUMERIC_FIELDS.includes(field)) {
      const asWritten = written.get(jsonPlace(field));
      return (asWritten === undefined ? undefined : plainDecimal(asWritten)) ?? numberAsPlainDecimal(value);
    }
    return Array.isArray(value) ? { ...value } : value;
  };
  return Object.fromEntries(TEXT_FIELDS.map((field) => [field, parameter(field)])) as Record<TextField, unknown>;
}

/** A JSON list of include items as GET's comma-separated text; null or an empty list as none. */
function includeOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && isIncludeItem(item))) throw invalid(INCLUDE_LIST);
  return value.length > 0 ? value.join(',') : undefined;
}
