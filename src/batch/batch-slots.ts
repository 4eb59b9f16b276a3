import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiError } from '../common/api-error';
import type { AppConfig } from '../config/app-config';
import { DrainState } from '../common/drain-state';

/** What a client is told to wait before asking again when every batch slot is taken (a 429 costs nothing: ask again soon). */
export const BATCH_BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * At most BATCH_MAX_CONCURRENT batches run at once in this process; none starts once it is shutting down
 * (the client is told to ask again, which a load balancer sends to another instance).
 */
@Injectable()
export class BatchSlots {
  private readonly max: number;
  private taken = 0;

  constructor(
    config: ConfigService<AppConfig, true>,
    private readonly drain: DrainState,
  ) {
    this.max = config.get('BATCH_MAX_CONCURRENT', { infer: true });
  }

  /** No slot to take now. */
  get full(): boolean {
    return this.taken >= this.max || this.drain.draining;
  }

  /** Takes a slot when one is free; call the returned function (as often as convenient) when the batch is over. */
  tryTake(): (() => void) | undefined {
    if (this.full) return undefined;
    this.taken++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.taken--;
    };
  }

  /** The 429 for a batch that found no free slot (the caller adds Retry-After). */
  busy(): ApiError {
    if (this.drain.draining) return new ApiError(429, 'BATCH_BUSY', 'This instance is shutting down and starts no new batch; retry in a few seconds.');
    return new ApiError(429, 'BATCH_BUSY', `${this.max} batches are already running, the most this service runs at once; retry in a few seconds.`);
  }
}
