import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { AppConfig } from '../config/app-config';
import { PieceCacheModule } from '../cache/piece-cache.module';
import { CommunityStatusModule } from '../community-status/community-status.module';
import { GeocodingModule } from '../geocoding/geocoding.module';
import { JobsRedis } from '../jobs/jobs-redis';
import { LookupModule } from '../lookup/lookup.module';
import { StructureModule } from '../parts/structure/structure.module';
import { MapChangesModule } from './map-changes/map-changes.module';
import { ServiceMetrics } from '../metrics/service-metrics';
import { WatchChunkWorker } from './watch-chunk-worker';
import { WatchDeliverer } from './watch-deliverer';
import { WatchMetrics } from './watch-metrics';
import { WATCH_DELIVERY_QUEUE, WATCH_SWEEP_QUEUE, WATCH_WORK_QUEUE, WatchWorkOrder } from './watch-queues';
import { WatchStore } from './watch-store';
import { WatchSweeper } from './watch-sweeper';
import { StoredWatches, UnavailableWatches, Watches } from './watches';
import { WatchesController } from './watches.controller';
import { DeliveryClock } from './webhook/delivery-clock';
import { WebhookSender } from './webhook/webhook-sender';

/** A chunk that failed (not one whose worker died) is tried this often before the sweep counts it done. */
const WORK_ATTEMPTS = 5;
/** A delivery is bounded: the receiver has this long to answer, and this much of its answer is read. */
const DELIVERY_TIMEOUT_MS = 10_000;
const DELIVERY_MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * /flood-zone/watches: life-of-loan watches in the jobs Redis, baselined and swept by every replica's workers on
 * BullMQ, their events delivered to signed webhooks. `jobs` is the application's JobsModule (its Redis, budget,
 * batch lookups and completed jobs); without a jobs Redis the endpoints answer 503 JOBS_UNAVAILABLE.
 */
@Module({})
export class WatchesModule {
  static forRoot(config: AppConfig, jobs: DynamicModule): DynamicModule {
    const url = config.JOBS_REDIS_URL ?? config.REDIS_URL;
    if (!url) {
      return {
        module: WatchesModule,
        imports: [jobs, StructureModule],
        controllers: [WatchesController],
        providers: [{ provide: Watches, useClass: UnavailableWatches }],
      };
    }
    const sweepIntervalMs = config.WATCH_SWEEP_INTERVAL_SECONDS * 1000;
    return {
      module: WatchesModule,
      imports: [
        jobs,
        MapChangesModule,
        GeocodingModule,
        PieceCacheModule,
        LookupModule,
        StructureModule,
        CommunityStatusModule,
        BullModule.registerQueue(
          {
            name: WATCH_WORK_QUEUE,
            defaultJobOptions: { attempts: WORK_ATTEMPTS, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: { age: 3600 } },
          },
          { name: WATCH_SWEEP_QUEUE, defaultJobOptions: { removeOnComplete: true, removeOnFail: { age: 86400 } } },
          {
            name: WATCH_DELIVERY_QUEUE,
            defaultJobOptions: { attempts: 3, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: { age: 3600 } },
          },
        ),
      ],
      controllers: [WatchesController],
      providers: [
        { provide: WatchStore, inject: [JobsRedis], useFactory: (redis: JobsRedis) => new WatchStore(redis.client) },
        {
          provide: WatchMetrics,
          inject: [ServiceMetrics, JobsRedis],
          useFactory: (metrics: ServiceMetrics, redis: JobsRedis) => {
            const watchMetrics = new WatchMetrics(metrics);
            const store = new WatchStore(redis.endpointClient);
            watchMetrics.countWatched(() => store.watchedLocations());
            return watchMetrics;
          },
        },
        {
          provide: Watches,
          inject: [JobsRedis, getQueueToken(WATCH_WORK_QUEUE)],
          // The endpoints' store: it fails at once while Redis is away, never keeping a client waiting.
          useFactory: (redis: JobsRedis, work: Queue<WatchWorkOrder>) => new StoredWatches(new WatchStore(redis.endpointClient), work, redis, sweepIntervalMs),
        },
        {
          provide: WebhookSender,
          useFactory: () =>
            new WebhookSender({
              policy: { allowPrivate: config.WATCH_WEBHOOK_ALLOW_PRIVATE, allowHttp: config.WATCH_WEBHOOK_ALLOW_HTTP },
              timeoutMs: DELIVERY_TIMEOUT_MS,
              maxResponseBytes: DELIVERY_MAX_RESPONSE_BYTES,
            }),
        },
        DeliveryClock,
        WatchChunkWorker,
        WatchSweeper,
        WatchDeliverer,
      ],
    };
  }
}
