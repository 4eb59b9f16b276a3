import { Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerRequest, ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { ApiError } from '../common/api-error';

/** The one window of RATE_LIMIT_PER_MINUTE: a fixed minute per client; a client over the limit waits for its window to end. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Counts one request of the client against its limit, sets the IETF RateLimit-* headers, and throws the
 * 429 when the client is over it. Shared by the guard and by cached answers served before the router,
 * so both count in the same place. `req.ip` honours X-Forwarded-For only when TRUST_PROXY is set, so a
 * client cannot pick its own identity.
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
    res.setHeader('Retry-After', String(timeToBlockExpire));
    throw new ApiError(429, 'RATE_LIMITED', `Too many requests: at most ${limit} per minute from one client. Retry after ${timeToBlockExpire} seconds.`);
  }
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - totalHits)));
  res.setHeader('RateLimit-Reset', String(timeToExpire));
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
