import { Logger } from '@nestjs/common';
import KeyvRedis from '@keyv/redis';
import { KeyvCacheableMemory } from 'cacheable';
import { Keyv } from 'keyv';
import type { AppConfig } from '../config/app-config';

const logger = new Logger('Cache');

/** How long start-up waits for Redis before serving without it (it joins later on its own). */
const REDIS_CONNECT_WAIT_MS = 1000;

/**
 * The cache tiers: an in-process LRU bounded by CACHE_MAX_ENTRIES, then (with REDIS_URL) Redis shared
 * by every replica. Redis is tuned to fail fast rather than queue commands while it is away, so an
 * outage only costs shared hits, never requests.
 */
export async function createCacheStores(config: Pick<AppConfig, 'CACHE_MAX_ENTRIES' | 'REDIS_URL'>): Promise<Keyv[]> {
  const memory = new Keyv({ store: new KeyvCacheableMemory({ lruSize: config.CACHE_MAX_ENTRIES, useClone: false }), namespace: 'fz' });
  memory.serialize = undefined;
  memory.deserialize = undefined;
  if (!config.REDIS_URL) return [memory];

  const redisStore = new KeyvRedis(
    {
      url: config.REDIS_URL,
      disableOfflineQueue: true,
      socket: { connectTimeout: 1000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
    },
    { throwOnConnectError: false, throwOnErrors: false, connectionTimeout: 1000 },
  );
  const redis = new Keyv({ store: redisStore, namespace: 'flood-zone' });
  let reported = false;
  const reportOnce = (error: unknown) => {
    if (reported) return;
    reported = true;
    logger.warn(`Redis unavailable, serving from the in-memory cache only: ${String(error)}`);
    setTimeout(() => (reported = false), 30_000).unref();
  };
  redis.on('error', reportOnce);
  redisStore.on('error', reportOnce);
  // Commands fail fast while disconnected, so give the first connection a moment before serving.
  await Promise.race([redisStore.getClient().catch(reportOnce), new Promise((resolve) => setTimeout(resolve, REDIS_CONNECT_WAIT_MS).unref())]);
  return [memory, redis];
}
