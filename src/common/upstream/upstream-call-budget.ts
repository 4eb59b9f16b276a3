import { inOwnLoopTurn } from '../event-loop-turns';
import type { UpstreamName } from './upstream-registry';

/**
 * A lookup's deadline: `signal` aborts (with a TimeoutError) once its time is up, unless `end` came first. A
 * lookup ends it as soon as it has its answer, so that its timer and signal do not outlive it by the whole
 * deadline: at a portfolio job's pace, thousands of them would be held at once.
 */
export interface LookupDeadline extends TimeLeft {
  readonly signal: AbortSignal;
  end(): void;
}

/** The time a lookup has left, in ms (0 or less once it is up). */
export interface TimeLeft {
  msLeft(): number;
}

/** Why a deadline aborts: the DOMException AbortSignal.timeout gives. */
const timeUp = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');

/**
 * A deadline's signal, aborted once its time is up in an event-loop turn of its own (see inOwnLoopTurn): lookups
 * that arrived together reach their deadlines together, and each one's failure (its 502, its abandoned calls) is
 * then one piece of work, not one long stretch of all of them. Never aborted once the lookup has ended it.
 */
class DeadlineSignal {
  private readonly controller = new AbortController();
  private ended = false;
  readonly signal = this.controller.signal;

  expire(): void {
    inOwnLoopTurn(() => this.ended || this.controller.abort(timeUp()));
  }

  end(timer: NodeJS.Timeout): void {
    this.ended = true;
    clearTimeout(timer);
  }
}

/** A deadline `ms` from now (see LookupDeadline). */
export function deadlineIn(ms: number): LookupDeadline {
  const expiry = new DeadlineSignal();
  const endsAt = performance.now() + ms;
  const timer = setTimeout(() => expiry.expire(), ms).unref();
  return { signal: expiry.signal, end: () => expiry.end(timer), msLeft: () => endsAt - performance.now() };
}

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
  deadline(ms: number): LookupDeadline {
    const expiry = new DeadlineSignal();
    const started = performance.now();
    const waitedAtStart = this.waitedMs();
    const msLeft = () => ms - (performance.now() - started - (this.waitedMs() - waitedAtStart));
    const check = () => {
      const left = msLeft();
      if (left <= 0) expiry.expire();
      else timer = setTimeout(check, left).unref();
    };
    let timer = setTimeout(check, ms).unref();
    return { signal: expiry.signal, end: () => expiry.end(timer), msLeft };
  }

  /** The time this process has spent with calls waiting for their turn, in all (ms). */
  private waitedMs(): number {
    return this.waitedBeforeMs + (this.waiting > 0 ? performance.now() - this.waitingSince : 0);
  }
}
