import type { CacheStatus } from '../cache/piece-cache';
import { INCOMPLETE_ANSWER_MAX_AGE_SECONDS } from '../parts/answer-part';

/** How one cached piece of an answer was read; a part whose query failed has none. */
export interface PieceRead {
  status: CacheStatus;
  piece?: { freshUntil: number };
}

/** An answer's `X-Cache` status and `Cache-Control` max-age. */
export interface AnswerFreshness {
  cacheStatus: CacheStatus;
  maxAgeSeconds: number;
}

/**
 * How fresh an answer assembled from cached pieces is: STALE with max-age 0 when any piece was served stale; a HIT
 * only when every piece was one and no part failed (a failed part is asked again next time); otherwise a MISS. It
 * may be kept until its first piece expires, and at most 60 s when a part is missing (`incomplete`).
 */
export function answerFreshness(
  reads: readonly PieceRead[],
  { partFailed, incomplete, now }: { partFailed: boolean; incomplete: boolean; now: number },
): AnswerFreshness {
  if (reads.some((read) => read.status === 'STALE')) return { cacheStatus: 'STALE', maxAgeSeconds: 0 };
  const freshFor = Math.floor((Math.min(...reads.map((read) => read.piece?.freshUntil ?? now)) - now) / 1000);
  const cap = incomplete ? INCOMPLETE_ANSWER_MAX_AGE_SECONDS : Infinity;
  return {
    cacheStatus: !partFailed && reads.every((read) => read.status === 'HIT') ? 'HIT' : 'MISS',
    maxAgeSeconds: Math.max(0, Math.min(freshFor, cap)),
  };
}
