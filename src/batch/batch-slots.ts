import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiError } from '../common/api-error';
import type { AppConfig } from '../config/app-config';

/** What a client is told to wait before asking again when every batch slot is taken (a 429 costs nothing: ask again soon). */
export const BATCH_BUSY_RETRY_AFTER_SECONDS = 5;

/** At most BATCH_MAX_CONCURRENT batches run at once in this process (CONTRACT sections 12 and 14). */
@Injectable()
export class BatchSlots {
  private readonly max: number;
  private taken = 0;

  constructor(config: ConfigService<AppConfig, true>) {
    this.max = config.get('BATCH_MAX_CONCURRENT', { infer: true });
  }

  /** Takes a slot when one is free; call the returned function (once) when the batch is over. */
  tryTake(): (() => void) | undefined {
    if (this.taken >= this.max) return undefined;
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
    return new ApiError(429, 'BATCH_BUSY', `${this.max} batches are already running, the most this service runs at once; retry in a few seconds.`);
  }
}
