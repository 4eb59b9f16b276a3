import { HttpException } from '@nestjs/common';

export type ErrorCode =
  | 'INVALID_PARAMETERS'
  | 'ADDRESS_NOT_FOUND'
  | 'AMBIGUOUS_ADDRESS'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'COORDINATES_OUT_OF_RANGE'
  | 'RATE_LIMITED'
  | 'UPSTREAM_UNAVAILABLE'
  | 'INTERNAL_ERROR';

/** An error the client caused or must know about, carried to the error envelope (CONTRACT section 5). */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message, status);
  }
}

export type UpstreamName = 'flood_data' | 'geocoder';

/**
 * An upstream (FEMA NFHL or the Census geocoder) could not give a trustworthy answer. Never turned
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
