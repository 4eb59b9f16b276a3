import { HttpException } from '@nestjs/common';
import type { UpstreamName } from './upstream/upstream-registry';

/** Every `code` an error envelope can carry; the OpenAPI enum is this list. */
export const ERROR_CODES = [
  'INVALID_PARAMETERS',
  'INVALID_FOOTPRINT',
  'BAD_REQUEST',
  'REQUEST_TIMEOUT',
  'REQUEST_HEADER_TOO_LARGE',
  'REQUEST_BODY_TOO_LARGE',
  'EXPECTATION_FAILED',
  'ADDRESS_NOT_FOUND',
  'AMBIGUOUS_ADDRESS',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'COORDINATES_OUT_OF_RANGE',
  'RADIUS_OUT_OF_RANGE',
  'BUILDING_NOT_FOUND',
  'IMAGE_SIZE_OUT_OF_RANGE',
  'RATE_LIMITED',
  'INVALID_BATCH',
  'BATCH_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'NOT_ACCEPTABLE',
  'BATCH_BUSY',
  'POLYGONS_BUSY',
  'JOB_NOT_FOUND',
  'JOB_NOT_FINISHED',
  'JOBS_UNAVAILABLE',
  'INVALID_WATCH',
  'WEBHOOK_URL_REFUSED',
  'WATCH_NOT_FOUND',
  'LOCATION_NOT_FOUND',
  'UPSTREAM_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error the client caused or must know about, carried to the error envelope (with headers such as Retry-After). */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message, status);
  }
}

/**
 * An upstream (one of UPSTREAM_REGISTRY) could not give a trustworthy answer. Never turned
 * into a guess: it always ends as a 502.
 */
export class UpstreamUnavailableError extends Error {
  constructor(
    readonly upstream: UpstreamName,
    readonly reason: string,
  ) {
    super(`${upstream}: ${reason}`);
  }
}

/** A supplementary answer: null (unknown) when its upstream failed; anything else is a bug and propagates. */
export function unknownOnFailure<T>(answer: Promise<T>): Promise<T | null> {
  return answer.catch((error: unknown) => {
    if (error instanceof UpstreamUnavailableError) return null;
    throw error;
  });
}
