import { Injectable } from '@nestjs/common';

const POLL_MS = 25;

/**
 * Draining after SIGTERM: readiness turns 503 at once, the listener stays open so in-flight and
 * late-routed requests are still served, and shutdown proceeds as soon as nothing is in flight (no request,
 * no chunk of a portfolio job). Long work (batches, chunks) watches two signals: `stopping` to take on no
 * new work, `overdue` to end at once.
 */
@Injectable()
export class DrainState {
  private drainingSince?: number;
  private inFlight = 0;
  private readonly stopper = new AbortController();
  private readonly deadline = new AbortController();

  /** Aborted when draining begins. */
  get stopping(): AbortSignal {
    return this.stopper.signal;
  }

  /** Aborted when the drain is over (nothing left, or its time is up): whatever still answers must end now. */
  get overdue(): AbortSignal {
    return this.deadline.signal;
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** Counts work in flight (a request, a job's chunk); the caller calls `left` once, when it is over (a response sent or abandoned). */
  entered(): void {
    this.inFlight += 1;
  }

  left(): void {
    this.inFlight -= 1;
  }

  /** Marks the service draining and resolves once no request is in flight, or after `withinMs`. */
  async drain(withinMs: number): Promise<void> {
    this.drainingSince ??= Date.now();
    this.stopper.abort();
    const giveUpAt = this.drainingSince + withinMs;
    while (this.inFlight > 0 && Date.now() < giveUpAt) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    this.deadline.abort();
  }
}
