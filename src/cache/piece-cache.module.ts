import { CacheModule } from '@nestjs/cache-manager';
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { REDIS_CONNECT_TIMEOUT_MS } from '../common/redis-connection';
import type { AppConfig } from '../config/app-config';
import { createCacheStores, sharedRedisStore } from './cache-stores';
import { PieceCache } from './piece-cache';
import { PieceLoadLocks, RedisPieceLoadLocks } from './piece-load-locks';

/**
 * How long a command of the locks (and their look at the shared cache) may take: a busy process's event loop
 * easily outlasts the cache's own 200 ms, and each command given up on may be an upstream call made twice. A
 * dead Redis still fails at once (see redis-connection).
 */
const PIECE_LOCK_COMMAND_TIMEOUT_MS = 5000;

@Module({
  imports: [
    CacheModule.registerAsync({
      inject: [ConfigService],
      useFactory: async (config: ConfigService<AppConfig, true>) => ({
        stores: await createCacheStores({
          CACHE_MAX_ENTRIES: config.get('CACHE_MAX_ENTRIES', { infer: true }),
          REDIS_URL: config.get('REDIS_URL', { infer: true }),
        }),
      }),
    }),
  ],
  providers: [
    PieceCache,
    {
      // Beside the shared cache, in its Redis; none without one.
      provide: PieceLoadLocks,
      inject: [ConfigService],
      useFactory: async (config: ConfigService<AppConfig, true>) => {
        const url = config.get('REDIS_URL', { infer: true });
        if (!url) return null;
        const store = sharedRedisStore(url, PIECE_LOCK_COMMAND_TIMEOUT_MS);
        // Until it is connected every lock is skipped (each replica loads alone): give it a moment first.
        await Promise.race([store.getClient().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, REDIS_CONNECT_TIMEOUT_MS).unref())]);
        return new RedisPieceLoadLocks(store);
      },
    },
  ],
  // The cache tiers themselves (CACHE_MANAGER) too: the NFIP table is shared through the Redis tier.
  exports: [PieceCache, CacheModule],
})
export class PieceCacheModule {}
