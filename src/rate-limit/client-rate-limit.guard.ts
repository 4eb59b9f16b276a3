import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request } from 'express';
import { ApiError } from '../common/api-error';

/**
 * Per-client-IP limit (RATE_LIMIT_PER_MINUTE). `req.ip` honours X-Forwarded-For only when TRUST_PROXY
 * is set, so a client cannot pick its own identity. Headers follow the IETF RateLimit-* names.
 */
@Injectable()
export class ClientRateLimitGuard extends ThrottlerGuard {
  protected headerPrefix = 'RateLimit';

  protected async getTracker(req: Record<string, unknown>): Promise<string> {
    return (req as unknown as Request).ip ?? 'unknown';
  }

  protected async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new ApiError(
      429,
      'RATE_LIMITED',
      `Too many requests: at most ${detail.limit} per minute from one client. Retry after ${detail.timeToBlockExpire} seconds.`,
    );
  }
}
