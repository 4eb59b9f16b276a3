import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { jobsUnavailable } from '../jobs/job-errors';
import { assertServable, isRedisOutage, servedBy, JOBS_NOT_CONFIGURED, JobsAvailability, JobsRedis, undoAfter } from '../jobs/jobs-redis';
import { ApiError } from '../common/api-error';
import { newWebhookSecret } from './webhook/webhook-signature';
import { WatchWorkOrder, workOrderId } from './watch-queues';
import { WatchEvent, WatchRecord, WatchStatusView, newWatchRecord, watchStatusView } from './watch-record';
import { WatchStore } from './watch-store';

/** Locations per chunk: the unit a worker baselines and re-checks, and the unit of the store. */
export const WATCH_CHUNK_LOCATIONS = 1000;

const WATCH_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EVENT_ID = /^\d{1,20}-\d{1,20}$/;

export const invalidWatch = (message: string) => new ApiError(400, 'INVALID_WATCH', message);
export const watchNotFound = (id: string) =>
  new ApiError(404, 'WATCH_NOT_FOUND', `No watch ${id.length > 64 ? `${id.slice(0, 64)}…` : id}: it never existed, or it was stopped and deleted.`);
const locationNotFound = (id: string, locationId: string) =>
  new ApiError(404, 'LOCATION_NOT_FOUND', `Watch ${id} has no location ${JSON.stringify(locationId.slice(0, 128))}.`);

/** One location to watch as read from the body: its id and its row as the batch reads it. */
export interface WatchInputRow {
  id: string;
  row: unknown;
}

export interface NewWatch {
  name: string | null;
  include: string[];
  webhookUrl: string | null;
  rows: WatchInputRow[];
}

export interface CreatedWatch {
  id: string;
  status: 'baselining';
  total: number;
  webhook: { url: string; secret: string } | null;
}

export interface EventPage {
  watchId: string;
  events: WatchEvent[];
  /** The `after` of the next page: the last event's id, or the one asked after when none came. */
  next: string | null;
}

/** The watches as the endpoints use them; while the jobs Redis cannot serve, every use is a 503 JOBS_UNAVAILABLE. */
export abstract class Watches {
  abstract availability(): JobsAvailability;
  assertAvailable(): void {
    assertServable(this.availability());
  }
  abstract create(watch: NewWatch): Promise<CreatedWatch>;
  abstract status(id: string): Promise<WatchStatusView>;
  abstract stop(id: string): Promise<void>;
  abstract addLocations(id: string, rows: WatchInputRow[]): Promise<WatchStatusView>;
  abstract removeLocation(id: string, locationId: string): Promise<void>;
  abstract events(id: string, after: string | null, limit: number): Promise<EventPage>;
}

/** No Redis is configured for jobs: every use is a 503. */
export class UnavailableWatches extends Watches {
  availability(): JobsAvailability {
    return { state: 'disabled', reason: JOBS_NOT_CONFIGURED };
  }
  create(): Promise<CreatedWatch> {
    throw jobsUnavailable(JOBS_NOT_CONFIGURED);
  }
  status(): Promise<WatchStatusView> {
    throw jobsUnavailable(JOBS_NOT_CONFIGURED);
  }
  stop(): Promise<void> {
    throw jobsUnavailable(JOBS_NOT_CONFIGURED);
  }
  addLocations(): Promise<WatchStatusView> {
    throw jobsUnavailable(JOBS_NOT_CONFIGURED);
  }
  removeLocation(): Promise<void> {
    throw jobsUnavailable(JOBS_NOT_CONFIGURED);
  }
  events(): Promise<EventPage> {
    throw jobsUnavailable(JOBS_NOT_CONFIGURED);
  }
}

/** Watches kept in the jobs Redis (see WatchStore), baselined and swept by every replica's workers. */
export class StoredWatches extends Watches {
  private readonly logger = new Logger('Watches');

  constructor(
    private readonly store: WatchStore,
    private readonly work: Queue<WatchWorkOrder>,
    private readonly redis: JobsRedis,
    private readonly sweepIntervalMs: number,
  ) {
    super();
    work.on('error', (error) => {
      if (!isRedisOutage(error)) this.logger.warn({ err: error }, 'watch queue: Redis error');
    });
  }

  availability(): JobsAvailability {
    return this.redis.availability();
  }

  create(watch: NewWatch): Promise<CreatedWatch> {
    return servedBy(this.redis, async () => {
      const id = randomUUID();
      const chunks = await this.storeRows(id, 0, watch.rows);
      const secret = watch.webhookUrl ? newWebhookSecret() : null;
      const record = newWatchRecord({
        id,
        name: watch.name,
        include: watch.include,
        webhookUrl: watch.webhookUrl,
        webhookSecret: secret,
        createdAt: new Date().toISOString(),
        total: watch.rows.length,
        chunks,
      });
      try {
        await this.store.open(record);
        await this.queueBaselines(id, 0, chunks);
      } catch (error) {
        await undoAfter(error, () => this.store.stop(id, new Date()));
        throw error;
      }
      return { id, status: 'baselining', total: record.total, webhook: watch.webhookUrl && secret ? { url: watch.webhookUrl, secret } : null };
    });
  }

  status(id: string): Promise<WatchStatusView> {
    return servedBy(this.redis, async () => this.view(await this.record(id)));
  }

  stop(id: string): Promise<void> {
    return servedBy(this.redis, async () => {
      const record = await this.record(id);
      if (record.status === 'stopped') throw watchNotFound(id);
      await this.store.stop(id, new Date());
    });
  }

  addLocations(id: string, rows: WatchInputRow[]): Promise<WatchStatusView> {
    return servedBy(this.redis, async () => {
      const record = await this.record(id);
      if (record.status === 'stopped') throw watchNotFound(id);
      const chunks = Math.ceil(rows.length / WATCH_CHUNK_LOCATIONS);
      const first = await this.store.reserveChunks(id, chunks);
      await this.storeRows(id, first, rows);
      await this.store.queueChunks(id, chunks, rows.length);
      await this.queueBaselines(id, first, chunks);
      return this.view(await this.record(id));
    });
  }

  removeLocation(id: string, locationId: string): Promise<void> {
    return servedBy(this.redis, async () => {
      const record = await this.record(id);
      if (record.status === 'stopped') throw watchNotFound(id);
      for (let attempt = 0; attempt < 5; attempt++) {
        const outcome = await this.store.removeLocation(id, locationId);
        if (outcome === 'removed') return;
        if (outcome === 'not_found') throw locationNotFound(id, locationId);
      }
      throw new ApiError(503, 'JOBS_UNAVAILABLE', 'The watch is being written to: retry shortly.', {}, { 'Retry-After': '1' });
    });
  }

  events(id: string, after: string | null, limit: number): Promise<EventPage> {
    return servedBy(this.redis, async () => {
      if (after !== null && !EVENT_ID.test(after))
        throw new ApiError(400, 'INVALID_PARAMETERS', 'after must be the id of an event of this watch (as 1764355200000-0).');
      const record = await this.record(id);
      if (record.status === 'stopped') throw watchNotFound(id);
      const events = await this.store.events(id, after, limit);
      return { watchId: id, events, next: events.at(-1)?.id ?? after };
    });
  }

  /** Stores rows and their ids chunk by chunk from chunk `first`: their number of chunks. An id already watched is a 400, and nothing is left of the rows. */
  private async storeRows(id: string, first: number, rows: WatchInputRow[]): Promise<number> {
    const chunks: number[] = [];
    const ids: string[] = [];
    try {
      for (let start = 0; start < rows.length; start += WATCH_CHUNK_LOCATIONS) {
        const chunk = first + start / WATCH_CHUNK_LOCATIONS;
        const part = rows.slice(start, start + WATCH_CHUNK_LOCATIONS);
        const taken = await this.store.addIds(
          id,
          chunk,
          part.map((row) => row.id),
        );
        if (taken !== null) throw invalidWatch(`locations: the id ${JSON.stringify(taken)} is already watched by this watch.`);
        ids.push(...part.map((row) => row.id));
        chunks.push(chunk);
        await this.store.storeInput(
          id,
          chunk,
          part.map((row) => row.row),
        );
      }
      return chunks.length;
    } catch (error) {
      await undoAfter(error, () => this.store.dropAdded(id, ids, chunks));
      throw error;
    }
  }

  private async queueBaselines(id: string, first: number, chunks: number): Promise<void> {
    const orders: WatchWorkOrder[] = Array.from({ length: chunks }, (_, n) => ({ kind: 'baseline', watchId: id, chunk: first + n }));
    for (let start = 0; start < orders.length; start += 500) {
      await this.work.addBulk(orders.slice(start, start + 500).map((data) => ({ name: 'baseline', data, opts: { jobId: workOrderId(data) } })));
    }
  }

  private async view(record: WatchRecord): Promise<WatchStatusView> {
    const events = record.status === 'stopped' ? 0 : await this.store.eventCount(record.id);
    const { at } = await this.store.lastSweep();
    return watchStatusView(record, { events, undelivered: Math.max(0, events - record.delivered - record.abandoned) }, this.sweepIntervalMs, at);
  }

  private async record(id: string): Promise<WatchRecord> {
    if (!WATCH_ID.test(id)) throw watchNotFound(id);
    const record = await this.store.record(id);
    if (!record) throw watchNotFound(id);
    return record;
  }
}
