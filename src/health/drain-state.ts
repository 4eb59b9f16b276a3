import { Injectable } from '@nestjs/common';

const POLL_MS = 25;

/**
 * Draining after SIGTERM: readiness turns 503 at once, the listener stays open so in-flight and
 * late-routed requests are still served, and shutdown proceeds as soon as nothing is in flight.
 */
@Injectable()
export class DrainState {
  private drainingSince?: number;
  private inFlight = 0;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** Counts a request in flight; the caller calls `left` once, when its response is closed (sent or abandoned). */
  entered(): void {
    this.inFlight += 1;
  }

  left(): void {
    this.inFlight -= 1;
  }

  /** Marks the service draining and resolves once no request is in flight, or after `withinMs`. */
  async drain(withinMs: number): Promise<void> {
    this.drainingSince ??= Date.now();
    const giveUpAt = this.drainingSince + withinMs;
    while (this.inFlight > 0 && Date.now() < giveUpAt) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
