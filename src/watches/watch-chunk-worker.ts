import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { DelayedError, Job, Queue } from 'bullmq';
import { BatchLookupService } from '../batch/batch-lookup.service';
import { BatchMemo } from '../batch/batch-memo';
import { CsvRecord, readBatchRow, rowLookup } from '../batch/batch-row';
import { PieceCache, type PieceReader } from '../cache/piece-cache';
import { errorAnswerOf } from '../common/filters/api-exception.filter';
import { roundPoint } from '../common/geo-point';
import { placeKey } from '../geocoding/geocode-cache';
import { Geocoder, type PlaceArea } from '../geocoding/geocoder';
import { LOOKUP_PATH } from '../lookup/answer-cache';
import { LookupService } from '../lookup/lookup.service';
import { isLookup, type RowAnswer } from '../batch/row-answer';
import { DrainState } from '../common/drain-state';
import { asAnsweredSince, asBatchWork, asJobWork } from '../common/upstream/resilient-upstream';
import { UpstreamCallBudget } from '../common/upstream/upstream-call-budget';
import { CountedCallBudget } from '../jobs/counted-call-budget';
import { isRedisOutage, JobsRedis } from '../jobs/jobs-redis';
import type { LookupOptions } from '../lookup/location-query';
import { ServiceMetrics } from '../metrics/service-metrics';
import { withImpliedParts, type IncludeItem } from '../parts/answer-parts';
import { NfipStatusPort } from '../parts/nfip-status/nfip-status-port';
import { PolygonWork } from '../parts/structure/polygon-work.client';
import { fingerprintChange, fingerprintOf, mergedFingerprint, type WatchedAnswer, type WatchFingerprint } from './watch-fingerprint';
import { gridCellOf, inEnvelope } from './watch-grid';
import { WatchMetrics } from './watch-metrics';
import { DeliveryOrder, WATCH_DELIVERY_QUEUE, WATCH_WORK_QUEUE, WatchWorkOrder } from './watch-queues';
import type { WatchEvent } from './watch-record';
import { ChunkWrite, fingerprintKey, SweepState, WatchedLocation, WatchStore } from './watch-store';

/** See CHUNK_LOCK_MS of the jobs: a chunk whose worker died is taken again by another within about twice this. */
const WORK_LOCK_MS = 5000;
/** Chunks answered at once by one replica. */
const WORK_CONCURRENCY = 2;
/** Locations of a chunk answered again at once (each waits on FEMA most of its time; the budget paces the calls). */
const RECHECK_CONCURRENCY = 8;
/** A chunk written by someone else meanwhile (a location removed, the same chunk taken twice) is read and answered again this often at most. */
const WRITE_TRIES = 5;

/** The parts every watch asks for: those the fingerprint reads (the lender's form brings the building and the coastal barriers). */
export const WATCHED_PARTS: readonly IncludeItem[] = ['preliminary', 'cbrs', 'determination'];

/**
 * Answers chunks of a watch's locations (at most 1,000 each) on the workers of every replica, within the jobs'
 * upstream budget: the first time (the baseline, which keeps each location's point, communities and fingerprint), and
 * again in a sweep (only the locations inside the sweep's changed areas or communities, or all of them on a full
 * re-check), writing one event per location whose fingerprint changed. A re-check asks no geocoder for a location
 * placed once: it is answered at its point.
 */
@Processor(WATCH_WORK_QUEUE, { autorun: false, concurrency: WORK_CONCURRENCY, lockDuration: WORK_LOCK_MS, stalledInterval: WORK_LOCK_MS, maxStalledCount: 20 })
export class WatchChunkWorker extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WatchChunkWorker.name);
  private reachedRedis = false;

  constructor(
    private readonly store: WatchStore,
    private readonly batches: BatchLookupService,
    private readonly lookups: LookupService,
    private readonly geocoder: Geocoder,
    private readonly cache: PieceCache,
    private readonly nfip: NfipStatusPort,
    private readonly budget: UpstreamCallBudget,
    private readonly drain: DrainState,
    private readonly metrics: ServiceMetrics,
    private readonly watchMetrics: WatchMetrics,
    private readonly redis: JobsRedis,
    private readonly polygons: PolygonWork,
    @InjectQueue(WATCH_DELIVERY_QUEUE) private readonly deliveries: Queue<DeliveryOrder>,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.once('ready', () => (this.reachedRedis = true));
    this.worker.on('error', (error) => !isRedisOutage(error) && this.logger.warn({ err: error }, 'watch worker: Redis error'));
    this.worker.on('failed', (order, error) => void this.failed(order, error));
    this.drain.stopping.addEventListener('abort', () => void this.worker.close(), { once: true });
    void this.redis.accepted.then(() => {
      if (this.drain.stopping.aborted) return;
      this.worker.run().catch((error: unknown) => this.logger.error({ err: error }, 'watch worker stopped'));
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.reachedRedis) await this.worker.close();
    else void this.worker.close(true).catch(() => undefined);
  }

  async process(order: Job<WatchWorkOrder>, token?: string): Promise<void> {
    this.drain.entered();
    try {
      const finished = await this.work(order.data);
      if (!finished && this.drain.stopping.aborted) {
        // Shutting down: the chunk goes back to the queue at once, for a worker of another replica.
        await order.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
    } finally {
      this.drain.left();
    }
  }

  /** Whether the chunk was done (or had nothing left to do). */
  private async work(order: WatchWorkOrder): Promise<boolean> {
    const record = await this.store.record(order.watchId);
    if (!record || record.status === 'stopped') return true;
    const options: LookupOptions = { include: withImpliedParts([...WATCHED_PARTS, ...(record.include as IncludeItem[])]), radiusM: 500 };
    if (order.kind === 'baseline') return this.baseline(order.watchId, order.chunk, options);
    const sweep = await this.store.sweepInProgress();
    // A re-check of a sweep that ended (its job taken again late) has nothing left to do.
    if (!sweep || sweep.id !== order.sweepId || (await this.store.isSwept(order.watchId, order.chunk))) return true;
    const done = await this.recheck(order.watchId, order.chunk, options, sweep, record.webhookUrl !== null);
    if (done) await this.store.sweptChunk(order.watchId, order.chunk);
    return done;
  }

  private async baseline(watchId: string, chunk: number, options: LookupOptions): Promise<boolean> {
    const rows = await this.store.inputRows(watchId, chunk);
    // Written already (the worker died after writing it): its input is gone.
    if (!rows) return true;
    const footprints = rows.map(footprintOfRow);
    const answers = await this.answer(watchId, rows, options);
    if (answers === undefined) return false;
    const write = emptyWrite(true);
    const locations = answers.map((answer): WatchedLocation => {
      const located = placeOf(answer);
      const location: WatchedLocation = {
        id: String(answer.id),
        ...located,
        communities: null,
        fingerprint: null,
        footprint: footprints[answer.index],
        problem: 0,
      };
      if (isLookup(answer)) {
        const print = fingerprintOf(answer.body as WatchedAnswer);
        location.place = placeText(answer.body.location);
        location.fingerprint = keep(write, print);
        location.communities = communitiesOf(answer.body as WatchedAnswer);
        write.counts.answered = (write.counts.answered ?? 0) + 1;
      } else {
        location.problem = answer.status;
        // A location that can never be answered (no such address, a point off the map) is not re-checked.
        if (answer.status < 500) write.counts.unanswerable = (write.counts.unanswerable ?? 0) + 1;
      }
      index(write, location);
      return location;
    });
    // Whatever the outcome, the baseline is done: written now, written first by another worker, or its watch stopped.
    await this.store.writeChunk(watchId, chunk, '', locations, write, new Date());
    return true;
  }

  /** Answers again the chunk's locations the sweep asks for, writing an event for each whose fingerprint changed. */
  private async recheck(watchId: string, chunk: number, options: LookupOptions, sweep: SweepState, hasWebhook: boolean): Promise<boolean> {
    const full = sweep.plan.find((entry) => entry.watchId === watchId)?.full ?? sweep.full;
    // Communities changed in FEMA's table since this replica's copy: the copy is renewed first, or their answers would not change.
    if (sweep.communities.length > 0) await this.nfip.heldSince(Date.parse(sweep.startedAt));
    for (let attempt = 0; attempt < WRITE_TRIES; attempt++) {
      const { content, locations } = await this.store.locations(watchId, chunk);
      const due = locations.filter((location) => isDue(location, sweep, full));
      if (due.length === 0) return true;
      const answers = await this.answerAgain(watchId, due, options, Date.parse(sweep.startedAt));
      if (answers === undefined) return false;
      this.watchMetrics.rechecked(answers.length);
      const before = await this.store.fingerprints(
        watchId,
        due.flatMap((location) => (location.fingerprint ? [location.fingerprint] : [])),
      );
      const write = emptyWrite(false);
      const now = new Date();
      const changed = new Map<string, WatchedLocation>();
      for (const answer of answers) {
        if (!isLookup(answer)) continue;
        const location = due[answer.index];
        const print = fingerprintOf(answer.body as WatchedAnswer);
        const old = location.fingerprint ? before.get(location.fingerprint) : undefined;
        const kept = old ? mergedFingerprint(old, print) : print;
        const updated: WatchedLocation = {
          ...location,
          lat: answer.body.location.lat,
          lon: answer.body.location.lon,
          place: location.place ?? placeText(answer.body.location),
          address: undefined,
          problem: 0,
        };
        updated.fingerprint = keep(write, kept);
        updated.communities = communitiesOf(answer.body as WatchedAnswer) ?? location.communities;
        if (!old) write.counts.answered = (write.counts.answered ?? 0) + 1;
        const change = old ? fingerprintChange(old, print) : null;
        if (change) write.events.push(eventOf(watchId, location, change, now, sweep));
        if (
          updated.fingerprint !== location.fingerprint ||
          updated.communities !== location.communities ||
          updated.place !== location.place ||
          location.problem ||
          location.address
        ) {
          index(write, updated);
          changed.set(location.id, updated);
        }
      }
      if (changed.size === 0) return true;
      const next = locations.map((location) => changed.get(location.id) ?? location);
      const outcome = await this.store.writeChunk(watchId, chunk, content, next, write, now);
      if (outcome.outcome === 'conflict') continue;
      if (outcome.outcome === 'written') {
        for (const event of write.events) this.watchMetrics.eventWritten(event.kind);
        if (hasWebhook && outcome.events > 0) await this.deliveries.add('deliver', { watchId });
      }
      return true;
    }
    throw new Error(`chunk ${chunk} of watch ${watchId} kept changing while it was re-checked`);
  }

  /** Every row's answer in order, within the jobs' budget; undefined when the service stops before all are answered. */
  private async answer(watchId: string, rows: unknown[], options: LookupOptions): Promise<RowAnswer[] | undefined> {
    const budget = new CountedCallBudget(this.budget, (upstream) => this.metrics.jobUpstreamCalled(upstream));
    const answers: RowAnswer[] = [];
    const cancelled = new AbortController();
    const stop = () => cancelled.abort();
    this.drain.overdue.addEventListener('abort', stop, { once: true });
    const total = rows.length;
    try {
      await asJobWork(budget, () =>
        this.batches.run(
          rows,
          options,
          `watch-${watchId}`,
          cancelled.signal,
          (answer) => {
            answers.push(answer);
            return Promise.resolve();
          },
          this.drain.stopping,
        ),
      );
    } finally {
      this.drain.overdue.removeEventListener('abort', stop);
    }
    return answers.length === total ? answers : undefined;
  }

  /**
   * The locations' answers again, each as GET answers it at the location's point, within the jobs' budget, from what
   * was fetched since `since` (the sweep's start: the cache is read, and refreshed, but nothing older is taken). The place of each point (county, ZIP) is the one its first answer
   * gave: no geocoder is asked, but for a location never placed (its address is geocoded then). Undefined when the
   * service stops before all are answered.
   */
  private async answerAgain(watchId: string, locations: WatchedLocation[], options: LookupOptions, since: number): Promise<RowAnswer[] | undefined> {
    const known = new Map<string, PlaceArea>();
    for (const location of locations) {
      if (location.lat !== null && location.lon !== null && location.place)
        known.set(placeKey(roundPoint({ lat: location.lat, lon: location.lon })), placeOfText(location.place));
    }
    const memo = new BatchMemo(this.cache);
    const pieces: PieceReader = {
      getOrLoad: (name, key, policy, load, wait) => {
        const place = name === 'place' ? known.get(key) : undefined;
        if (place === undefined) return memo.getOrLoad(name, key, policy, load, wait);
        const now = Date.now();
        return Promise.resolve({ piece: { value: place as never, storedAt: now, freshUntil: now }, status: 'HIT' });
      },
    };
    const rows = locations.map(rowOfLocation);
    const cancelled = new AbortController();
    const stop = () => cancelled.abort();
    this.drain.overdue.addEventListener('abort', stop, { once: true });
    const budget = new CountedCallBudget(this.budget, (upstream) => this.metrics.jobUpstreamCalled(upstream));
    const answers: RowAnswer[] = [];
    let next = 0;
    const answerRows = async () => {
      while (next < rows.length && !this.drain.stopping.aborted) {
        const index = next++;
        const row = readBatchRow(rows[index], options);
        const { id, asked } = row;
        try {
          const query = await rowLookup(row, this.polygons, cancelled.signal);
          const { body } = await this.lookups.lookup(query, {
            geocode: (address, signal) => this.geocoder.geocodeAddress(address, signal),
            pieces,
            cancelled: cancelled.signal,
          });
          answers.push({ index, id, asked, status: 200, body });
        } catch (failure) {
          const { status, body } = errorAnswerOf(failure, { id: `watch-${watchId}`, method: 'GET', path: LOOKUP_PATH });
          answers.push({ index, id, asked, status, body });
        }
      }
    };
    try {
      // Nothing fetched before the sweep began is read: a cached piece or held square may be what FEMA changed.
      await asAnsweredSince(since, () => asBatchWork(() => asJobWork(budget, () => Promise.all(Array.from({ length: RECHECK_CONCURRENCY }, answerRows)))));
    } finally {
      this.drain.overdue.removeEventListener('abort', stop);
    }
    return answers.length === rows.length ? answers.sort((a, b) => a.index - b.index) : undefined;
  }

  /** A chunk that failed for good leaves the sweep's count all the same (the next sweep tries it again). */
  private async failed(order: Job<WatchWorkOrder> | undefined, error: Error): Promise<void> {
    if (!order) return;
    this.logger.warn({ err: error, watch: order.data.watchId, chunk: order.data.chunk }, 'watch chunk failed');
    try {
      if (order.data.kind === 'recheck' && (await order.getState()) === 'failed') await this.store.sweptChunk(order.data.watchId, order.data.chunk);
    } catch (failure) {
      this.logger.error({ err: failure, watch: order.data.watchId }, 'watch chunk failure not recorded');
    }
  }
}

const emptyWrite = (baseline: boolean): ChunkWrite => ({ fingerprints: {}, cells: [], communities: [], events: [], counts: {}, baseline });

/** The fingerprint kept by its key, stored with the write if new. */
function keep(write: ChunkWrite, print: WatchFingerprint): string {
  const key = fingerprintKey(print);
  write.fingerprints[key] = JSON.stringify(print);
  return key;
}

/** The location's cell and communities in the indexes. */
function index(write: ChunkWrite, location: WatchedLocation): void {
  if (location.lat !== null && location.lon !== null) write.cells.push(gridCellOf(location.lat, location.lon));
  if (location.communities) write.communities.push(...location.communities.split(','));
}

/** The point of an answer (geocoded for an address), else the row's own point, else its address to try again later. */
function placeOf(answer: RowAnswer): Pick<WatchedLocation, 'lat' | 'lon' | 'address'> {
  if (isLookup(answer)) return { lat: answer.body.location.lat, lon: answer.body.location.lon };
  const lat = answer.asked.lat === undefined ? NaN : Number(answer.asked.lat);
  const lon = answer.asked.lon === undefined ? NaN : Number(answer.asked.lon);
  if (Number.isFinite(lat) && Number.isFinite(lon)) return { lat, lon };
  return { lat: null, lon: null, address: answer.status >= 500 ? answer.asked.address : undefined };
}

/** A point's place as kept: "countyFips|zip|county" (a county name has no '|'). */
const placeText = (place: Omit<PlaceArea, 'tract'>) => `${place.countyFips ?? ''}|${place.zip ?? ''}|${place.county ?? ''}`;

function placeOfText(text: string): PlaceArea {
  const [countyFips, zip, ...county] = text.split('|');
  // The tract is not kept: no watched field reads the area's flood record.
  return { countyFips: countyFips || null, zip: zip || null, county: county.join('|') || null, tract: null };
}

/** The NFIP communities at the answer's place (comma-separated CIDs), for the community index. */
function communitiesOf(answer: WatchedAnswer): string | null {
  const result = answer.result as WatchedAnswer['result'] & { communitiesAtPoint?: Array<{ communityId?: string | null }> | null };
  const ids = new Set<string>();
  if (result.community?.communityId) ids.add(result.community.communityId);
  for (const community of result.communitiesAtPoint ?? []) if (community.communityId) ids.add(community.communityId);
  return ids.size > 0 ? [...ids].sort().join(',') : null;
}

/** The footprint a row was given (a JSON row's object, a CSV cell's GeoJSON), kept for its re-checks. */
function footprintOfRow(row: unknown): unknown {
  if (row instanceof CsvRecord) {
    const cell = row.fields.footprint;
    if (cell === undefined) return undefined;
    try {
      return JSON.parse(cell) as unknown;
    } catch {
      return undefined;
    }
  }
  return typeof row === 'object' && row !== null ? ((row as { footprint?: unknown }).footprint ?? undefined) : undefined;
}

/** How a location is asked again: at its point (no geocoder), with its footprint; an address never placed, by its address. */
function rowOfLocation(location: WatchedLocation): Record<string, unknown> {
  const where = location.lat !== null && location.lon !== null ? { lat: String(location.lat), lon: String(location.lon) } : { address: location.address };
  return location.footprint ? { id: location.id, ...where, footprint: location.footprint } : { id: location.id, ...where };
}

/** Whether the sweep answers the location again: never one that cannot be answered; else on a full re-check, or inside a change. */
function isDue(location: WatchedLocation, sweep: SweepState, full: boolean): boolean {
  if (location.problem > 0 && location.problem < 500) return false;
  if (location.lat === null || location.lon === null) return location.address !== undefined;
  if (full || location.problem >= 500) return true;
  const { lat, lon } = location;
  if (sweep.areas.some((area) => inEnvelope(lat, lon, area.envelope))) return true;
  const communities = location.communities?.split(',') ?? [];
  return communities.some((community) => sweep.communities.includes(community));
}

/** The event of a change; its date FEMA's where the fingerprint tells it, else the latest of the changed areas around the location. */
function eventOf(
  watchId: string,
  location: WatchedLocation,
  change: NonNullable<ReturnType<typeof fingerprintChange>>,
  now: Date,
  sweep: SweepState,
): Omit<WatchEvent, 'id'> {
  const { lat, lon } = location;
  const areaDates =
    lat === null || lon === null
      ? []
      : sweep.areas.flatMap((area) => (area.effectiveDate && inEnvelope(lat, lon, area.envelope) ? [area.effectiveDate] : [])).sort();
  return {
    watchId,
    locationId: location.id,
    kind: change.kind,
    before: change.before,
    after: change.after,
    detectedAt: now.toISOString(),
    effectiveDate: change.effectiveDate ?? areaDates.at(-1) ?? null,
    note: change.note,
  };
}
