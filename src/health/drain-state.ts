import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

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

  /** Express middleware counting requests until their response is finished or abandoned. */
  readonly track = (_req: Request, res: Response, next: NextFunction): void => {
    this.inFlight += 1;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      this.inFlight -= 1;
    };
    res.once('finish', finish);
    res.once('close', finish);
    next();
  };

  /** Marks the service draining and resolves once no request is in flight, or after `withinMs`. */
  async drain(withinMs: number): Promise<void> {
    this.drainingSince ??= Date.now();
    const giveUpAt = this.drainingSince + withinMs;
    while (this.inFlight > 0 && Date.now() < giveUpAt) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
