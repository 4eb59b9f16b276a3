import { Logger, OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { CircuitBreakerPolicy } from 'cockatiel';
import type Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { connectIoRedis, REDIS_CONNECT_TIMEOUT_MS, redisCircuit } from '../common/redis-connection';

type ThrottlerRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Fixed-window request counts per client: one counter and one expiry per client and window, so a request
 * costs the same however many came before it (the throttler's own memory storage keeps every hit).
 * With REDIS_URL replicas share the counts; while Redis is away, hung or slow, each replica counts in
 * memory instead, so an outage never refuses, fails or delays requests.
 */
export class ClientRateStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly local: RateLimiterMemory;
  private readonly shared?: { client: Redis; circuit: CircuitBreakerPolicy; limiter: RateLimiterRedis };

  /** `limit` requests per `windowMs` for every key; with `redisUrl`, counted in Redis while it answers. */
  static async create(limit: number, windowMs: number, redisUrl?: string): Promise<ClientRateStorage> {
    if (!redisUrl) return new ClientRateStorage(limit, windowMs);
    // Every request counts in Redis: the commands of one tick go out in one write.
    const client = connectIoRedis(redisUrl, { enableAutoPipelining: true });
    // Counting is local until Redis is ready, so give the first connection a moment (it joins later on its own).
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, REDIS_CONNECT_TIMEOUT_MS);
      client.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return new ClientRateStorage(limit, windowMs, client);
  }

  private constructor(
    private readonly limit: number,
    windowMs: number,
    client?: Redis,
  ) {
    const window = { points: limit, duration: windowMs / 1000 };
    this.local = new RateLimiterMemory(window);
    if (!client) return;
    // A client over its limit is refused from memory until its window ends: no Redis command per refusal.
    const limiter = new RateLimiterRedis({ ...window, storeClient: client, keyPrefix: 'flood-zone', inMemoryBlockOnConsumed: limit + 1 });
    this.shared = { client, circuit: redisCircuit(), limiter };
  }

  /** Counts one request of `key` (in the window and against the limit this storage was made for). */
  async increment(key: string): Promise<ThrottlerRecord> {
    const shared = this.shared;
    if (!shared) return this.record(await consume(this.local, key));
    try {
      return this.record(await shared.circuit.execute(() => consume(shared.limiter, key)));
    } catch (error) {
      this.logger.debug(`Redis unavailable for rate limits, counting locally: ${String(error)}`);
      return this.record(await consume(this.local, key));
    }
  }

  private record({ res, refused }: { res: RateLimiterRes; refused: boolean }): ThrottlerRecord {
    const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return {
      totalHits: refused ? this.limit + 1 : res.consumedPoints,
      timeToExpire: seconds,
      isBlocked: refused,
      timeToBlockExpire: refused ? seconds : 0,
    };
  }

  onModuleDestroy(): void {
    this.shared?.client.disconnect();
  }
}

/** One request of `key`: a refusal is a result, not an error; a store's failure is an error. */
function consume(limiter: RateLimiterAbstract, key: string): Promise<{ res: RateLimiterRes; refused: boolean }> {
  return limiter.consume(key).then(
    (res) => ({ res, refused: false }),
    (rejection: unknown) => {
      if (rejection instanceof RateLimiterRes) return { res: rejection, refused: true };
      throw rejection;
    },
  );
}
