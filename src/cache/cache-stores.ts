import { Logger } from '@nestjs/common';
import KeyvRedis from '@keyv/redis';
import { KeyvCacheableMemory } from 'cacheable';
import { Keyv } from 'keyv';
import { nodeRedisOptions, REDIS_CONNECT_TIMEOUT_MS } from '../common/redis-connection';
import type { AppConfig } from '../config/app-config';

const logger = new Logger('Cache');

/**
 * The cache tiers: an in-process LRU bounded by CACHE_MAX_ENTRIES, then (with REDIS_URL) Redis shared
 * by every replica. Redis commands fail at once while it is away and time out while it is hung (see
 * redis-connection), so an outage only costs shared hits, never requests.
 */
export async function createCacheStores(config: Pick<AppConfig, 'CACHE_MAX_ENTRIES' | 'REDIS_URL'>): Promise<Keyv[]> {
  const memory = new Keyv({ store: new KeyvCacheableMemory({ lruSize: config.CACHE_MAX_ENTRIES, useClone: false }), namespace: 'fz' });
  memory.serialize = undefined;
  memory.deserialize = undefined;
  if (!config.REDIS_URL) return [memory];

  const redisStore = sharedRedisStore(config.REDIS_URL);
  const redis = sharedRedisTier(redisStore);
  let reported = false;
  const reportOnce = (error: unknown) => {
    if (reported) return;
    reported = true;
    logger.warn(`Redis unavailable, serving from the in-memory cache only: ${String(error)}`);
    setTimeout(() => (reported = false), 30_000).unref();
  };
  redis.on('error', reportOnce);
  redisStore.on('error', reportOnce);
  // Commands fail fast while disconnected, so give the first connection a moment before serving (it joins later on its own).
  await Promise.race([redisStore.getClient().catch(reportOnce), new Promise((resolve) => setTimeout(resolve, REDIS_CONNECT_TIMEOUT_MS).unref())]);
  return [memory, redis];
}

/**
 * A Redis store of the shared cache at `url`, failing fast while Redis is away (see redis-connection); each
 * command waits at most `commandTimeoutMs` for its answer (the connection's own short timeout by default).
 */
export function sharedRedisStore(url: string, commandTimeoutMs?: number): KeyvRedis<unknown> {
  const options = nodeRedisOptions(url);
  return new KeyvRedis(commandTimeoutMs === undefined ? options : { ...options, commandOptions: { timeout: commandTimeoutMs } }, {
    throwOnConnectError: false,
    throwOnErrors: false,
    connectionTimeout: REDIS_CONNECT_TIMEOUT_MS,
  });
}

/** The shared cache's Redis tier over `store`: every reader of it sees its keys and values alike. */
export const sharedRedisTier = (store: KeyvRedis<unknown>) => new Keyv({ store, namespace: 'flood-zone' });
