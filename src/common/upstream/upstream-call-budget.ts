import type { UpstreamName } from '../api-error';

/**
 * A rate of calls per upstream service shared by some kind of work, however many processes do it: each
 * attempt at an upstream first waits here for its turn. The portfolio jobs provide one kept in Redis, so
 * that all replicas together stay within one budget.
 */
export abstract class UpstreamCallBudget {
  /** Calls of this process waiting for their turn now, since when some have been, and the time waited before that (ms). */
  private waiting = 0;
  private waitingSince = 0;
  private waitedBeforeMs = 0;

  /** Resolves when one more call to `upstream` fits the budget; rejects with the signal's reason once it aborts. */
  abstract admit(upstream: UpstreamName, signal: AbortSignal): Promise<void>;

  /** Waits for a turn (see admit), keeping the time this process spends with calls waiting for theirs (see deadline). */
  async turn(upstream: UpstreamName, signal: AbortSignal): Promise<void> {
    if (this.waiting++ === 0) this.waitingSince = performance.now();
    try {
      await this.admit(upstream, signal);
    } finally {
      if (--this.waiting === 0) this.waitedBeforeMs += performance.now() - this.waitingSince;
    }
  }

  /**
   * A lookup's deadline for work within this budget: it aborts once `ms` have passed without calls of this
   * process waiting for their turn. However long the budget holds the work back (many workers, many replicas,
   * a low rate), the time is counted only while turns are granted as fast as they are asked for, so a lookup
   * runs out of time for its upstreams' sake, never for its place in the queue.
   */
  deadline(ms: number): AbortSignal {
    const ended = new AbortController();
    const started = performance.now();
    const waitedAtStart = this.waitedMs();
    const check = () => {
      const counted = performance.now() - started - (this.waitedMs() - waitedAtStart);
      if (counted >= ms) ended.abort(new DOMException('The lookup ran out of time.', 'TimeoutError'));
      else setTimeout(check, ms - counted).unref();
    };
    setTimeout(check, ms).unref();
    return ended.signal;
  }

  /** The time this process has spent with calls waiting for their turn, in all (ms). */
  private waitedMs(): number {
    return this.waitedBeforeMs + (this.waiting > 0 ? performance.now() - this.waitingSince : 0);
  }
}
