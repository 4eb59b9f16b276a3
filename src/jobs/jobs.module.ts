import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Queue } from 'bullmq';
import { BatchLookupService } from '../batch/batch-lookup.service';
import { PieceCacheModule } from '../cache/piece-cache.module';
import { UpstreamCallBudget } from '../common/upstream/upstream-call-budget';
import type { AppConfig } from '../config/app-config';
import { GeocodingModule } from '../geocoding/geocoding.module';
import { LookupModule } from '../lookup/lookup.module';
import { ServiceMetrics } from '../metrics/service-metrics';
import { StructureModule } from '../parts/structure/structure.module';
import { ChunkWorker } from './chunk-worker';
import { JobStore } from './job-store';
import { JobsController } from './jobs.controller';
import { JobsRedis } from './jobs-redis';
import { CHUNK_QUEUE, ChunkOrder, PortfolioJobs, QueuedPortfolioJobs, UnavailablePortfolioJobs } from './portfolio-jobs';
import { RedisCallBudget } from './redis-call-budget';

/** How often a chunk that failed (not one whose worker died: see CHUNK_LOCK_MS) is tried before its job fails. */
const CHUNK_ATTEMPTS = 5;

/**
 * /flood-zone/jobs: portfolio jobs on BullMQ over the Redis at JOBS_REDIS_URL (or REDIS_URL), worked by
 * every replica. Without either, the endpoints answer 503 JOBS_UNAVAILABLE and nothing connects to Redis.
 */
@Module({})
export class JobsModule {
  static forRoot(config: AppConfig): DynamicModule {
    const url = config.JOBS_REDIS_URL ?? config.REDIS_URL;
    if (!url) {
      return {
        module: JobsModule,
        controllers: [JobsController],
        providers: [{ provide: PortfolioJobs, useClass: UnavailablePortfolioJobs }],
        exports: [PortfolioJobs],
      };
    }
    return {
      module: JobsModule,
      imports: [
        // BullMQ retries its commands itself while Redis is away (a restart loses no chunk). Its own check of the
        // Redis only prints a warning about eviction: JobsRedis checks that, refuses, and says so in the log.
        BullModule.forRoot({ connection: { url, maxRetriesPerRequest: null, skipVersionCheck: true } }),
        BullModule.registerQueue({
          name: CHUNK_QUEUE,
          defaultJobOptions: {
            attempts: CHUNK_ATTEMPTS,
            backoff: { type: 'exponential', delay: 1000 },
            removeOnComplete: true,
            // Kept a while, so that a chunk's final failure can be told from one that will be retried.
            removeOnFail: { age: 3600 },
          },
        }),
        GeocodingModule,
        PieceCacheModule,
        LookupModule,
        StructureModule,
      ],
      controllers: [JobsController],
      providers: [
        BatchLookupService,
        { provide: JobsRedis, useFactory: () => new JobsRedis(url) },
        // The chunk workers' store: its commands wait out a Redis restart.
        { provide: JobStore, inject: [JobsRedis], useFactory: (redis: JobsRedis) => new JobStore(redis.client, config.JOB_TTL_HOURS * 3600) },
        {
          provide: UpstreamCallBudget,
          inject: [JobsRedis, ConfigService, ServiceMetrics],
          useFactory: (redis: JobsRedis, settings: ConfigService<AppConfig, true>, metrics: ServiceMetrics) =>
            new RedisCallBudget(redis.client, settings.get('JOB_UPSTREAM_RATE_PER_SECOND', { infer: true }), (upstream, seconds) =>
              metrics.jobLimiterWaited(upstream, seconds),
            ),
        },
        {
          provide: PortfolioJobs,
          inject: [JobsRedis, getQueueToken(CHUNK_QUEUE), ServiceMetrics],
          useFactory: (redis: JobsRedis, queue: Queue<ChunkOrder>, metrics: ServiceMetrics) => {
            // The endpoints' and the metrics' store: it fails at once while Redis is away, never keeping a client or a scrape waiting.
            const store = new JobStore(redis.endpointClient, config.JOB_TTL_HOURS * 3600);
            metrics.watchJobs(() => store.census(Date.now()));
            return new QueuedPortfolioJobs(store, queue, redis);
          },
        },
        ChunkWorker,
      ],
      // The watches live in the same Redis, under the same budget, and read completed jobs.
      exports: [PortfolioJobs, JobsRedis, UpstreamCallBudget, BatchLookupService],
    };
  }
}
