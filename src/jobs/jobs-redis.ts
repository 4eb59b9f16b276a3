import type { OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';

/**
 * How long one command to the jobs' Redis may take before it fails. Unlike the cache, job data cannot fall
 * back to anything: commands wait while Redis restarts (up to this long), then the chunk is retried.
 */
const JOB_COMMAND_TIMEOUT_MS = 15_000;

/** The client of the job data (hashes, input and answer chunks, the upstream budget), closed last at shutdown. */
export class JobsRedis implements OnApplicationShutdown {
  readonly client: Redis;

  constructor(url: string) {
    this.client = new Redis(url, { maxRetriesPerRequest: null, commandTimeout: JOB_COMMAND_TIMEOUT_MS });
    // Its failures reach the commands that meet them; the process must not die of an unheard 'error' event.
    this.client.on('error', () => undefined);
  }

  onApplicationShutdown(): void {
    this.client.disconnect();
  }
}
