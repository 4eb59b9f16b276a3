import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { BodyNotes } from '../batch/csv-locations';
import type { RowAnswer } from '../batch/row-answer';
import type { LookupOptions } from '../lookup/location-query';
import { jobNotFinished, jobNotFound, jobsUnavailable } from './job-errors';
import { JobRecord, JobStatusView, jobStatusView } from './job-record';
import type { JobStore } from './job-store';
import { assertServable, isRedisOutage, servedBy, JOBS_NOT_CONFIGURED, JobsAvailability, JobsRedis, undoAfter } from './jobs-redis';

/** The queue of chunks, one BullMQ job per chunk of a portfolio job. */
export const CHUNK_QUEUE = 'flood-zone-job-chunks';

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What a chunk's BullMQ job carries: which chunk of which portfolio job. */
export interface ChunkOrder {
  jobId: string;
  chunk: number;
}

/** A chunk's BullMQ job id: adding the same chunk twice adds it once (BullMQ ids may not contain ':'). */
export const chunkOrderId = ({ jobId, chunk }: ChunkOrder) => `${jobId}.${chunk}`;

export interface JobResults {
  total: number;
  otherColumns: string[];
  chunks: AsyncIterable<RowAnswer[]>;
}

/** The portfolio jobs as the endpoints use them; while they cannot be served, every use is a 503 JOBS_UNAVAILABLE. */
export abstract class PortfolioJobs {
  /** Whether jobs can be served now (/health's `jobs`). */
  abstract availability(): JobsAvailability;
  /** Throws 503 JOBS_UNAVAILABLE, saying why, unless jobs can be served now. */
  assertAvailable(): void {
    assertServable(this.availability());
  }
  /**
   * Stores the rows chunk by chunk as `rows` gives them, then queues their chunks; the job as first seen, with
   * what the body's reader noted in `notes` as it gave the rows. When `rows` fails midway (a body that breaks),
   * its error is thrown and nothing of the job is left.
   */
  abstract submit(rows: AsyncIterable<unknown>, options: LookupOptions, notes: BodyNotes): Promise<JobStatusView>;
  abstract status(id: string): Promise<JobStatusView>;
  /** A completed job: its total, its body's other columns, and its answers chunk by chunk in input order (409 before it completes). */
  abstract results(id: string): Promise<JobResults>;
  /** Stops the job taking work and deletes its data (404 when there is no such job). */
  abstract cancel(id: string): Promise<void>;
}

/** No Redis is configured for jobs: every use is a 503. */
export class UnavailablePortfolioJobs extends PortfolioJobs {
  availability(): JobsAvailability {
    return { state: 'disabled', reason: JOBS_NOT_CONFIGURED };
  }

  submit(): Promise<JobStatusView> {
    throw jobsUnavailable(JOBS_NOT_CONFIGURED);
  }

  status(): Promise<JobStatusView> {
    throw jobsUnavailable(JOBS_NOT_CONFIGURED);
  }

  results(): Promise<JobResults> {
    throw jobsUnavailable(JOBS_NOT_CONFIGURED);
  }

  cancel(): Promise<void> {
    throw jobsUnavailable(JOBS_NOT_CONFIGURED);
  }
}

/**
 * Jobs kept in Redis and worked through a BullMQ queue by every replica's chunk workers. `store` is over the
 * jobs Redis's prompt client: while Redis is away, every use is a 503 at once, or within one short command
 * timeout when it hangs.
 */
export class QueuedPortfolioJobs extends PortfolioJobs {
  private readonly logger = new Logger('PortfolioJobs');

  constructor(
    private readonly store: JobStore,
    private readonly queue: Queue<ChunkOrder>,
    private readonly redis: JobsRedis,
  ) {
    super();
    // The queue's connection reports each failed reconnection: the outage is logged once, by JobsRedis.
    queue.on('error', (error) => {
      if (!isRedisOutage(error)) this.logger.warn({ err: error }, 'job queue: Redis error');
    });
  }

  availability(): JobsAvailability {
    return this.redis.availability();
  }

  submit(rows: AsyncIterable<unknown>, options: LookupOptions, notes: BodyNotes): Promise<JobStatusView> {
    return servedBy(this.redis, () => this.stored(rows, options, notes));
  }

  status(id: string): Promise<JobStatusView> {
    return servedBy(this.redis, async () => jobStatusView(await this.record(id), Date.now()));
  }

  results(id: string): Promise<JobResults> {
    return servedBy(this.redis, () => this.answers(id));
  }

  cancel(id: string): Promise<void> {
    return servedBy(this.redis, () => this.cancelled(id));
  }

  private async stored(rows: AsyncIterable<unknown>, options: LookupOptions, notes: BodyNotes): Promise<JobStatusView> {
    const id = randomUUID();
    const { total, chunks } = await this.store.storeInput(id, rows);
    try {
      const record: JobRecord = {
        id,
        status: 'queued',
        total,
        done: 0,
        errors: 0,
        degradedRows: 0,
        chunks,
        createdAt: new Date().toISOString(),
        startedAt: null,
        finishedAt: null,
        expiresAt: null,
        include: [...options.include],
        radiusM: options.radiusM,
        otherColumns: notes.otherColumns,
        warnings: notes.warnings,
        upstreamCalls: {},
      };
      await this.store.open(record);
      const orders = Array.from({ length: chunks }, (_, chunk) => ({ jobId: id, chunk }));
      await this.queue.addBulk(orders.map((order) => ({ name: 'chunk', data: order, opts: { jobId: chunkOrderId(order) } })));
      return jobStatusView(record, Date.now());
    } catch (error) {
      await undoAfter(error, async () => {
        await this.store.end(id, 'cancelled', new Date()).catch(() => undefined);
        await this.store.dropInput(id, chunks);
      });
      throw error;
    }
  }

  private async answers(id: string): Promise<JobResults> {
    const record = await this.record(id);
    if (record.status !== 'completed') throw jobNotFinished(id, record.status, record.done, record.total);
    const { store } = this;
    async function* chunks(): AsyncIterable<RowAnswer[]> {
      for (let chunk = 0; chunk < record.chunks; chunk++) yield await store.answers(id, chunk);
    }
    return { total: record.total, otherColumns: record.otherColumns, chunks: chunks() };
  }

  private async cancelled(id: string): Promise<void> {
    const record = await this.record(id);
    await this.store.end(id, 'cancelled', new Date());
    // The chunks no worker has taken yet leave the queue; a worker on one sees the job cancelled and stops.
    const orders = Array.from({ length: record.chunks }, (_, chunk) => chunkOrderId({ jobId: id, chunk }));
    for (const orderId of orders) {
      // A chunk a worker holds cannot be removed (BullMQ refuses): that worker stops on its own.
      await this.queue.remove(orderId).catch(() => 0);
    }
  }

  private async record(id: string): Promise<JobRecord> {
    // Job ids are UUIDs: anything else is no job, answered without asking Redis.
    if (!JOB_ID.test(id)) throw jobNotFound(id.length > 64 ? `${id.slice(0, 64)}…` : id);
    const record = await this.store.record(id);
    if (!record) throw jobNotFound(id);
    return record;
  }
}
