import { Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerRequest, ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { ApiError } from '../common/api-error';
import type { ClientAdmission } from '../common/cache-hit-path';

/** The one window of RATE_LIMIT_PER_MINUTE: a fixed minute per client; a client over the limit waits for its window to end. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Counts one request of the client against its limit, sets the IETF RateLimit-* headers, and throws the
 * 429 (Retry-After among its headers) when the client is over it. Shared by the guard, by cached answers served
 * before the router and by the tool calls of an MCP request after its first, so all count in the same place.
 * `req.ip` honours X-Forwarded-For only when TRUST_PROXY is set, so a client cannot pick its own identity.
 */
export async function admitClient(storage: ThrottlerStorage, limit: number, req: Request, res: Response): Promise<void> {
  const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = await storage.increment(
    `client-rate:${req.ip ?? 'unknown'}`,
    RATE_LIMIT_WINDOW_MS,
    limit,
    RATE_LIMIT_WINDOW_MS,
    'default',
  );
  if (isBlocked) {
    const message = `Too many requests: at most ${limit} per minute from one client. Retry after ${timeToBlockExpire} seconds.`;
    throw new ApiError(429, 'RATE_LIMITED', message, {}, { 'Retry-After': String(timeToBlockExpire) });
  }
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - totalHits)));
  res.setHeader('RateLimit-Reset', String(timeToExpire));
}

/**
 * The client rate limit, for what counts beyond a request's own admission (the further tool calls of an MCP request).
 * Provided everywhere, so that a feature need not know whether rate limiting is on.
 */
export class ClientRateLimit {
  /** Counts one more request of the client (see admitClient); undefined where rate limiting is off. */
  constructor(readonly admission?: ClientAdmission) {}
}

/** Per-client-IP limit (RATE_LIMIT_PER_MINUTE) on every route without @SkipThrottle(). */
@Injectable()
export class ClientRateLimitGuard extends ThrottlerGuard {
  protected async handleRequest({ context, limit }: ThrottlerRequest): Promise<boolean> {
    const { req, res } = this.getRequestResponse(context);
    await admitClient(this.storageService, limit, req as unknown as Request, res as unknown as Response);
    return true;
  }
}
