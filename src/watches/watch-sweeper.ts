import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { BeforeApplicationShutdown, Inject, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { DelayedError, Job, Queue } from 'bullmq';
import { DrainState } from '../common/drain-state';
import type { AppConfig } from '../config/app-config';
import { isRedisOutage, JobsRedis } from '../jobs/jobs-redis';
import { MAP_CHANGE_SCOUT, type MapChangeScout, type StatusBookCopy } from './map-changes/map-change-scout.port';
import { gridCellsOf } from './watch-grid';
import { WatchMetrics } from './watch-metrics';
import { SWEEP_SCHEDULER, SweepOrder, WATCH_SWEEP_QUEUE, WATCH_WORK_QUEUE, WatchWorkOrder, workOrderId } from './watch-queues';
import { SweepState, WatchStore } from './watch-store';

/** How long the sweep's lock lasts unless renewed (every third of it while its replica lives). */
const SWEEP_LOCK_MS = 30_000;
/** How often a sweep looks whether its re-checks are done. */
const SWEEP_POLL_MS = 500;
const DAY_MS = 86_400_000;
/** The scout asks FEMA's services many queries at once, on one signal. */
const SCOUT_LISTENERS = 100;

/**
 * The sweeps: every WATCH_SWEEP_INTERVAL_SECONDS (a BullMQ job scheduler every replica upserts, so one job per
 * interval), one replica at a time (a lock in Redis) asks FEMA what changed since the last sweep minus
 * WATCH_LOOKBACK_DAYS, plans which chunks of which watch to answer again (those of the changed areas' grid cells and
 * the changed communities; every chunk of a watch whose full re-check is due), queues them for every replica's
 * workers and waits for them. The plan is kept in Redis until the sweep ends: a sweep whose replica died, or that met
 * a Redis restart, is resumed by the next replica to take its job, and chunks already re-checked are not asked again.
 */
@Processor(WATCH_SWEEP_QUEUE, { autorun: false, concurrency: 1, lockDuration: SWEEP_LOCK_MS, stalledInterval: SWEEP_LOCK_MS, maxStalledCount: 100 })
export class WatchSweeper extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WatchSweeper.name);
  private readonly intervalMs: number;
  private readonly lookbackMs: number;
  private readonly fullRecheckMs: number;
  private reachedRedis = false;

  constructor(
    private readonly store: WatchStore,
    private readonly drain: DrainState,
    private readonly metrics: WatchMetrics,
    private readonly redis: JobsRedis,
    @InjectQueue(WATCH_SWEEP_QUEUE) private readonly sweeps: Queue<SweepOrder>,
    @InjectQueue(WATCH_WORK_QUEUE) private readonly work: Queue<WatchWorkOrder>,
    config: ConfigService<AppConfig, true>,
    @Inject(MAP_CHANGE_SCOUT) private readonly scout: MapChangeScout,
  ) {
    super();
    this.intervalMs = config.get('WATCH_SWEEP_INTERVAL_SECONDS', { infer: true }) * 1000;
    this.lookbackMs = config.get('WATCH_LOOKBACK_DAYS', { infer: true }) * DAY_MS;
    this.fullRecheckMs = config.get('WATCH_FULL_RECHECK_DAYS', { infer: true }) * DAY_MS;
  }

  onApplicationBootstrap(): void {
    this.worker.once('ready', () => (this.reachedRedis = true));
    this.worker.on('error', (error) => !isRedisOutage(error) && this.logger.warn({ err: error }, 'watch sweeper: Redis error'));
    this.worker.on('failed', (order, error) => {
      this.metrics.swept('failed');
      this.logger.warn({ err: error, attempt: order?.attemptsMade }, 'watch sweep failed; it is tried again');
    });
    this.drain.stopping.addEventListener('abort', () => void this.worker.close(), { once: true });
    void this.redis.accepted.then(async () => {
      if (this.drain.stopping.aborted) return;
      try {
        await this.sweeps.upsertJobScheduler(
          SWEEP_SCHEDULER,
          { every: this.intervalMs },
          { name: 'sweep', data: {}, opts: { attempts: 10, backoff: { type: 'exponential', delay: 5000 } } },
        );
      } catch (error) {
        this.logger.error({ err: error }, 'the sweep schedule could not be set; it is set again at the next start');
      }
      this.worker.run().catch((error: unknown) => this.logger.error({ err: error }, 'watch sweeper stopped'));
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.reachedRedis) await this.worker.close();
    else void this.worker.close(true).catch(() => undefined);
  }

  async process(order: Job<SweepOrder>, token?: string): Promise<void> {
    const lock = randomUUID();
    if (!(await this.store.takeLock(this.store.sweepLock, lock, SWEEP_LOCK_MS))) {
      // Another replica sweeps: this sweep is looked at again once that one's lock would have lapsed (its replica died).
      await order.moveToDelayed(Date.now() + SWEEP_LOCK_MS, token);
      throw new DelayedError();
    }
    const renew = setInterval(() => void this.store.renewLock(this.store.sweepLock, lock, SWEEP_LOCK_MS).catch(() => false), SWEEP_LOCK_MS / 3);
    try {
      let state = await this.store.sweepInProgress();
      if (!state) {
        // No watch, no question to FEMA.
        if ((await this.store.watchIds()).length === 0) return;
        const last = await this.store.lastSweep();
        // A sweep that began after this one was asked for already answered it.
        if (!order.data.full && last.at !== null && Date.parse(last.at) >= order.timestamp) return;
        state = await this.plan(order.data.full === true, last);
      }
      await this.queueRechecks(state);
      if (!(await this.rechecked(state))) {
        // Shutting down: the sweep goes back to the queue at once, for another replica to resume.
        await order.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      await this.finish(state);
    } finally {
      clearInterval(renew);
      await this.store.releaseLock(this.store.sweepLock, lock).catch(() => undefined);
    }
  }

  /** What the sweep answers again, from what FEMA published since the last sweep (less the lookback). */
  private async plan(forcedFull: boolean, last: { at: string | null; statusBook: unknown }): Promise<SweepState> {
    const now = Date.now();
    const since = new Date((last.at ? Date.parse(last.at) : now) - this.lookbackMs);
    // The scout's questions stop when the service stops; each of its many queries listens to this one signal.
    const signal = this.drain.stopping;
    setMaxListeners(SCOUT_LISTENERS, signal);
    const report = await this.scout.changesSince(since, last.statusBook as StatusBookCopy | null, signal);
    const areas = report.areas.map((area) => ({ envelope: area.envelope, effectiveDate: area.effectiveDate }));
    const communities = report.communities.map((community) => community.communityId);
    const cells = new Set<string>();
    let everywhere = false;
    for (const area of areas) {
      const touched = gridCellsOf(area.envelope);
      if (touched === null) everywhere = true;
      else for (const cell of touched) cells.add(cell);
    }
    const plan: SweepState['plan'] = [];
    for (const watchId of await this.store.watchIds()) {
      const record = await this.store.record(watchId);
      if (!record || record.status === 'stopped') continue;
      const full = forcedFull || everywhere || record.lastFullCheckAt === null || Date.parse(record.lastFullCheckAt) + this.fullRecheckMs <= now;
      const chunks = full ? Array.from({ length: record.chunks }, (_, chunk) => chunk) : await this.store.chunksOf(watchId, [...cells], communities);
      plan.push({ watchId, chunks, full });
    }
    const state: SweepState = {
      id: randomUUID(),
      startedAt: new Date(now).toISOString(),
      full: forcedFull,
      areas,
      communities,
      plan,
      upstreamCalls: report.upstreamCalls,
    };
    await this.store.beginSweep(state, report.statusBook);
    this.logger.log(
      { sweep: state.id, areas: areas.length, communities: communities.length, chunks: plan.reduce((sum, entry) => sum + entry.chunks.length, 0) },
      'watch sweep planned',
    );
    return state;
  }

  /** The sweep's re-checks, each once (an order added again is added once; a chunk done is not added again). */
  private async queueRechecks(state: SweepState): Promise<void> {
    const orders: WatchWorkOrder[] = [];
    for (const { watchId, chunks } of state.plan) {
      for (const chunk of chunks) if (!(await this.store.isSwept(watchId, chunk))) orders.push({ kind: 'recheck', watchId, chunk, sweepId: state.id });
    }
    for (let start = 0; start < orders.length; start += 500) {
      await this.work.addBulk(orders.slice(start, start + 500).map((data) => ({ name: 'recheck', data, opts: { jobId: workOrderId(data) } })));
    }
  }

  /** Waits until every chunk of the plan is re-checked; false when the service stops first. */
  private async rechecked(state: SweepState): Promise<boolean> {
    const planned = state.plan.reduce((sum, entry) => sum + entry.chunks.length, 0);
    while (!this.drain.stopping.aborted) {
      if ((await this.store.sweptCount()) >= planned) return true;
      await new Promise((resolve) => setTimeout(resolve, SWEEP_POLL_MS));
    }
    return false;
  }

  private async finish(state: SweepState): Promise<void> {
    for (const { watchId, full } of state.plan) {
      await this.store.update(watchId, full ? { lastSweepAt: state.startedAt, lastFullCheckAt: state.startedAt } : { lastSweepAt: state.startedAt });
    }
    await this.store.endSweep(state);
    this.metrics.swept('completed');
    this.logger.log({ sweep: state.id, upstreamCalls: state.upstreamCalls }, 'watch sweep done');
  }
}
