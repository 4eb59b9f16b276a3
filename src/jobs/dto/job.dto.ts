import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { UPSTREAM_REGISTRY } from '../../common/upstream/upstream-registry';
import { JOB_STATUSES, JobStatus, UpstreamCalls } from '../job-record';

const ID = { description: "The job's id (a UUID), as in its Location.", example: '3f2b9c1e-7a4d-4e8b-9c61-0d5e2a7b4f18' };
const TOTAL = { description: 'Rows in the job.', example: 250000 };
const WARNINGS: ApiPropertyOptions = {
  type: [String],
  description: 'Present when the CSV body had columns not read as a location (id, address, lat or latitude, lon or longitude, lng, long): they name them.',
  example: ['"Loan ID", "Balance" are not read as a location (id, address, lat or latitude, lon or longitude, lng, long).'],
};
const DONE = {
  description:
    'Rows answered so far (each exactly as GET /flood-zone answers it, whatever its status), counted as they are answered: while a job runs ' +
    'it grows at least every few seconds, never goes back and never passes total.',
  example: 0,
};

/** The 202 answer to a submitted job. */
export class JobAcceptedDto {
  @ApiProperty(ID)
  id: string;

  @ApiProperty({ enum: ['queued'], description: 'A new job waits for the workers of every replica.' })
  status: 'queued';

  @ApiProperty(TOTAL)
  total: number;

  @ApiProperty(DONE)
  done: number;

  @ApiPropertyOptional(WARNINGS)
  warnings?: string[];
}

/** GET /flood-zone/jobs/{id}: where a job stands. */
export class JobStatusDto {
  @ApiProperty(ID)
  id: string;

  @ApiProperty({
    enum: JOB_STATUSES,
    description:
      'queued (no row answered yet), running, completed (every row answered: the results can be read), failed (a chunk of rows failed for good; no results), cancelled (by DELETE; no results).',
    example: 'running',
  })
  status: JobStatus;

  @ApiProperty(TOTAL)
  total: number;

  @ApiProperty({ ...DONE, example: 4000 })
  done: number;

  @ApiProperty({
    description:
      "Rows answered with a 5xx status (an upstream that failed for that row, or a footprint the polygon pool had no room for, on its first try and on the second one asked after the chunk's other rows).",
    example: 0,
  })
  errors: number;

  @ApiProperty({
    description:
      'Rows answered 200 with a part unavailable (named in `result.unavailable`: an upstream that failed for that part, such as USA Structures ' +
      'for `structure`) even after their second try: a job asks every such row once more after the other rows of its chunk of 1,000, and ' +
      "the second answer takes the first one's place in the results. Counted as each chunk is written. Such an answer is degraded: its " +
      'missing parts are unknown, and it is never cached longer than 60 seconds; look it up again later.',
    example: 0,
  })
  degradedRows: number;

  @ApiProperty({ format: 'date-time', description: 'When the job was submitted.', example: '2025-04-01T12:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When a worker first took a chunk of it; null while queued.' })
  startedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it completed, failed or was cancelled; null before.' })
  finishedAt: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the job and its results are deleted (JOB_TTL_HOURS after it finished); null while it runs.',
  })
  expiresAt: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'Seconds left at the pace kept since it started, given once 1% of the rows are done (the pace of fewer rows swings too much); 0 once completed; ' +
      'null before that 1%, while queued, or once it failed or was cancelled.',
    example: 310,
  })
  etaSeconds: number | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0 },
    description:
      'Upstream calls per row done so far, per upstream (' +
      UPSTREAM_REGISTRY.map(({ name }) => `\`${name}\``).join(', ') +
      '), to 2 decimals: the calls made for the rows done divided by `done`. Every upstream the rows ask is listed, 0 when not ' +
      'called (always `flood_data` and `geocoder`; with `include`, the upstreams of the parts asked for), and any other called. ' +
      'A call is one request sent to the upstream, each retry counted again, by the workers of every replica; it counts once the row ' +
      'it was made for is done (a load shared by several rows counts with the row that started it), so the figure never counts ' +
      'the calls of rows still under way; the calls of work cut short and done again count too (a replica stopped, a cancelled ' +
      'job; a replica killed outright loses those made since its last note, taken every second). A row answered from the cache or from a repeated location ' +
      'makes none. 0 while no row is done.',
    example: { flood_data: 1.21, geocoder: 0.33 },
  })
  upstreamCallsPerRow: UpstreamCalls;

  @ApiPropertyOptional(WARNINGS)
  warnings?: string[];
}

/** The 202 answer to DELETE. */
export class JobCancelledDto {
  @ApiProperty(ID)
  id: string;

  @ApiProperty({ enum: ['cancelled'], description: 'The job takes no more work and its rows and results are deleted.' })
  status: 'cancelled';
}
