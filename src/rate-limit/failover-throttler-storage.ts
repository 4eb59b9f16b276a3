import { Logger, OnModuleDestroy } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import Redis from 'ioredis';

type ThrottlerRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Counts in Redis so replicas share one limit; while Redis is away, counts in memory instead. A
 * Redis outage must never turn into refused or failed requests.
 */
export class FailoverThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly redis: Redis;
  private readonly shared: ThrottlerStorageRedisService;
  private readonly local = new ThrottlerStorageService();

  /** Waits briefly for the first connection: while disconnected, counting falls back to memory. */
  static async connect(redisUrl: string, waitMs = 1000): Promise<FailoverThrottlerStorage> {
    const storage = new FailoverThrottlerStorage(redisUrl);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      storage.redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return storage;
  }

  private constructor(redisUrl: string) {
    this.redis = new Redis(redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    });
    this.redis.on('error', () => undefined);
    this.shared = new ThrottlerStorageRedisService(this.redis);
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerRecord> {
    try {
      return await this.shared.increment(key, ttl, limit, blockDuration, throttlerName);
    } catch (error) {
      this.logger.debug(`Redis unavailable for rate limits, counting locally: ${String(error)}`);
      return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
    this.local.onApplicationShutdown();
  }
}
