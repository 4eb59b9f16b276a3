import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { BodyNotes } from '../batch/csv-locations';
import type { RowAnswer } from '../batch/row-answer';
import type { LookupOptions } from '../lookup/location-query';
import { jobNotFinished, jobNotFound, jobsUnavailable } from './job-errors';
import { JobRecord, JobStatusView, jobStatusView } from './job-record';
import type { JobStore } from './job-store';

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

/** The portfolio jobs as the endpoints use them; without a Redis, every use is a 503 JOBS_UNAVAILABLE. */
export abstract class PortfolioJobs {
  abstract readonly available: boolean;
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

export class UnavailablePortfolioJobs extends PortfolioJobs {
  readonly available = false;

  submit(): Promise<JobStatusView> {
    throw jobsUnavailable();
  }

  status(): Promise<JobStatusView> {
    throw jobsUnavailable();
  }

  results(): Promise<JobResults> {
    throw jobsUnavailable();
  }

  cancel(): Promise<void> {
    throw jobsUnavailable();
  }
}

/** Jobs kept in Redis and worked through a BullMQ queue by every replica's chunk workers. */
export class QueuedPortfolioJobs extends PortfolioJobs {
  readonly available = true;

  constructor(
    private readonly store: JobStore,
    private readonly queue: Queue<ChunkOrder>,
  ) {
    super();
  }

  async submit(rows: AsyncIterable<unknown>, options: LookupOptions, notes: BodyNotes): Promise<JobStatusView> {
    const id = randomUUID();
    const { total, chunks } = await this.store.storeInput(id, rows);
    try {
      const record: JobRecord = {
        id,
        status: 'queued',
        total,
        done: 0,
        errors: 0,
        chunks,
        createdAt: new Date().toISOString(),
        startedAt: null,
        finishedAt: null,
        expiresAt: null,
        include: [...options.include],
        radiusM: options.radiusM,
        otherColumns: notes.otherColumns,
        warnings: notes.warnings,
      };
      await this.store.open(record);
      const orders = Array.from({ length: chunks }, (_, chunk) => ({ jobId: id, chunk }));
      await this.queue.addBulk(orders.map((order) => ({ name: 'chunk', data: order, opts: { jobId: chunkOrderId(order) } })));
      return jobStatusView(record, Date.now());
    } catch (error) {
      await this.store.end(id, 'cancelled', new Date()).catch(() => undefined);
      await this.store.dropInput(id, chunks).catch(() => undefined);
      throw error;
    }
  }

  async status(id: string): Promise<JobStatusView> {
    return jobStatusView(await this.record(id), Date.now());
  }

  async results(id: string): Promise<JobResults> {
    const record = await this.record(id);
    if (record.status !== 'completed') throw jobNotFinished(id, record.status, record.done, record.total);
    const { store } = this;
    async function* chunks(): AsyncIterable<RowAnswer[]> {
      for (let chunk = 0; chunk < record.chunks; chunk++) yield await store.answers(id, chunk);
    }
    return { total: record.total, otherColumns: record.otherColumns, chunks: chunks() };
  }

  async cancel(id: string): Promise<void> {
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
