import { CacheModule } from '@nestjs/cache-manager';
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { createCacheStores } from './cache-stores';
import { PieceCache } from './piece-cache';

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
  providers: [PieceCache],
  // The cache tiers themselves (CACHE_MANAGER) too: the NFIP table is shared through the Redis tier.
  exports: [PieceCache, CacheModule],
})
export class PieceCacheModule {}
