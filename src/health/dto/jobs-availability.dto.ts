import { ApiProperty } from '@nestjs/swagger';
import type { JobsAvailability, JobsState } from '../../jobs/jobs-redis';

/** /health `jobs`: whether the portfolio job endpoints can be served, from what the process knows (never a call to Redis). */
export class JobsAvailabilityDto implements JobsAvailability {
  @ApiProperty({
    enum: ['ready', 'unavailable', 'disabled'],
    description:
      '`ready`: the jobs Redis answers and keeps every key. `unavailable`: it is not answering, or it may evict keys (its maxmemory-policy ' +
      'is not noeviction), and the job endpoints answer 503 JOBS_UNAVAILABLE until that changes. `disabled`: no Redis is configured for jobs ' +
      '(JOBS_REDIS_URL, else REDIS_URL): the job endpoints answer 503 JOBS_UNAVAILABLE.',
    example: 'ready',
  })
  state: JobsState;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Why jobs cannot be served, in the words of the 503 JOBS_UNAVAILABLE the job endpoints answer; null when ready.',
  })
  reason: string | null;
}
