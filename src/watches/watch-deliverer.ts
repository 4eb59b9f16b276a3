import { randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Job, Queue } from 'bullmq';
import { DrainState } from '../common/drain-state';
import { isRedisOutage, JobsRedis } from '../jobs/jobs-redis';
import { WatchMetrics } from './watch-metrics';
import { DELIVERY_PATROL, DeliveryOrder, WATCH_DELIVERY_QUEUE } from './watch-queues';
import type { WatchRecord } from './watch-record';
import { WatchStore } from './watch-store';
import { DeliveryClock } from './webhook/delivery-clock';
import { nextDeliveryDelayMs } from './webhook/webhook-retry';
import { WebhookSender } from './webhook/webhook-sender';

/** Deliveries under way at once in one replica, each for its own watch: a receiver that hangs holds one of them for its timeout only. */
const DELIVERY_CONCURRENCY = 8;
/** How long a watch's delivery lock lasts unless renewed (at each event): one deliverer per watch, so its events go in order. */
const DELIVERY_LOCK_MS = 60_000;
/** How often the patrol looks for watches with events left undelivered (a deliverer that died, a notice lost with a Redis restart). */
export const DELIVERY_PATROL_MS = 30_000;

/**
 * The webhook deliveries: each watch's events POSTed in order, one at a time (a lock per watch), signed, at least once
 * (the cursor moves only after a 2xx, so an event whose deliverer died is sent again with the same id). A failure
 * delays only its own watch: the next attempt is a delayed job after nextDeliveryDelayMs, and the other watches'
 * deliveries go on meanwhile; once the retries of 3 days are used up, the event is given up (counted) and the next
 * one is sent.
 */
@Processor(WATCH_DELIVERY_QUEUE, { autorun: false, concurrency: DELIVERY_CONCURRENCY, lockDuration: DELIVERY_LOCK_MS / 2 })
export class WatchDeliverer extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WatchDeliverer.name);
  private reachedRedis = false;

  constructor(
    private readonly store: WatchStore,
    private readonly sender: WebhookSender,
    private readonly drain: DrainState,
    private readonly metrics: WatchMetrics,
    private readonly redis: JobsRedis,
    private readonly clock: DeliveryClock,
    @InjectQueue(WATCH_DELIVERY_QUEUE) private readonly queue: Queue<DeliveryOrder>,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.once('ready', () => (this.reachedRedis = true));
    this.worker.on('error', (error) => !isRedisOutage(error) && this.logger.warn({ err: error }, 'watch deliverer: Redis error'));
    this.drain.stopping.addEventListener('abort', () => void this.worker.close(), { once: true });
    void this.redis.accepted.then(async () => {
      if (this.drain.stopping.aborted) return;
      await this.queue.upsertJobScheduler(DELIVERY_PATROL, { every: DELIVERY_PATROL_MS }, { name: 'patrol', data: {} }).catch((error: unknown) => {
        this.logger.error({ err: error }, 'the delivery patrol could not be scheduled');
      });
      this.worker.run().catch((error: unknown) => this.logger.error({ err: error }, 'watch deliverer stopped'));
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.reachedRedis) await this.worker.close();
    else void this.worker.close(true).catch(() => undefined);
  }

  async process(order: Job<DeliveryOrder>): Promise<void> {
    if (order.data.watchId === undefined) return this.patrol();
    const watchId = order.data.watchId;
    const lock = randomUUID();
    // Another deliverer holds the watch: it looks for new events once it lets go, so nothing is left behind.
    if (!(await this.store.takeLock(this.store.deliveryLock(watchId), lock, DELIVERY_LOCK_MS))) return;
    try {
      await this.deliverAll(watchId, lock);
    } finally {
      await this.store.releaseLock(this.store.deliveryLock(watchId), lock);
    }
    if (await this.leftBehind(watchId)) await this.queue.add('deliver', { watchId });
  }

  /** Sends the watch's events in order until none is left, one fails (its retry is then scheduled) or the service stops. */
  private async deliverAll(watchId: string, lock: string): Promise<void> {
    while (!this.drain.stopping.aborted) {
      const record = await this.store.record(watchId);
      if (!record || record.status === 'stopped' || !record.webhookUrl || !record.webhookSecret) return;
      if (this.retryWaiting(record)) return;
      const [event] = await this.store.events(watchId, record.deliveredUpTo === '0-0' ? null : record.deliveredUpTo, 1);
      if (!event) return;
      if (!(await this.store.renewLock(this.store.deliveryLock(watchId), lock, DELIVERY_LOCK_MS))) return;
      const sentAt = this.clock.now();
      const outcome = await this.sender.deliver({
        url: record.webhookUrl,
        secret: record.webhookSecret,
        eventId: event.id,
        body: JSON.stringify(event),
        sentAt,
      });
      if (outcome.kind === 'delivered') {
        const clear = { webhookFailures: '0', webhookNextRetryAt: '', webhookFailingSince: '', webhookLastError: '' };
        if (await this.store.moveCursor(watchId, record.deliveredUpTo, event.id, { ...clear, webhookLastSuccessAt: sentAt.toISOString() })) {
          await this.store.increment(watchId, 'delivered');
        }
        this.metrics.delivery('delivered');
        continue;
      }
      this.metrics.delivery(outcome.kind);
      if (!(await this.failed(watchId, record, event.id, outcome.reason))) return;
    }
  }

  /**
   * After a failed attempt: the next one scheduled (false: the watch waits for it), or, the retries used up, the
   * event given up (true: the next one is sent).
   */
  private async failed(watchId: string, record: WatchRecord, eventId: string, reason: string): Promise<boolean> {
    const failures = record.webhookFailures + 1;
    await this.store.increment(watchId, 'deliveryAttemptsFailed');
    const delay = nextDeliveryDelayMs(failures);
    if (delay === null) {
      this.logger.warn({ watch: watchId, event: eventId, reason }, 'webhook delivery given up after 3 days of retries');
      const given = { webhookFailures: '0', webhookNextRetryAt: '', webhookFailingSince: '', webhookLastError: reason };
      if (await this.store.moveCursor(watchId, record.deliveredUpTo, eventId, given)) await this.store.increment(watchId, 'abandoned');
      this.metrics.delivery('abandoned');
      return true;
    }
    const now = this.clock.now();
    await this.store.update(watchId, {
      webhookFailures: failures,
      webhookNextRetryAt: new Date(now.getTime() + delay).toISOString(),
      webhookFailingSince: record.webhookFailingSince ?? now.toISOString(),
      webhookLastError: reason,
    });
    await this.queue.add('deliver', { watchId }, { delay, jobId: `retry.${watchId}.${eventId}.${failures}` });
    return false;
  }

  /** Whether the watch has events not delivered and no retry waiting. */
  private async leftBehind(watchId: string): Promise<boolean> {
    const record = await this.store.record(watchId);
    if (!record || record.status === 'stopped' || !record.webhookUrl || this.retryWaiting(record)) return false;
    const last = await this.store.lastEventId(watchId);
    return last !== null && last !== record.deliveredUpTo;
  }

  /** Whether the watch's next attempt is not due yet: a notice of new events, or a retry woken early, leaves it to its time. */
  private retryWaiting(record: WatchRecord): boolean {
    return record.webhookNextRetryAt !== null && Date.parse(record.webhookNextRetryAt) > this.clock.now().getTime();
  }

  /** Queues a delivery for every watch with events left behind. */
  private async patrol(): Promise<void> {
    for (const watchId of await this.store.watchIds()) {
      if (await this.leftBehind(watchId)) await this.queue.add('deliver', { watchId });
    }
  }
}
