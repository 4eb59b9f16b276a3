import { HttpService } from '@nestjs/axios';
import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Global, Module } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { PieceCacheModule } from '../cache/piece-cache.module';
import { ConfigService } from '@nestjs/config';
import type { ResilientUpstream } from '../common/upstream/resilient-upstream';
import { resilientUpstreamProvider, upstreamHttpModule } from '../common/upstream/upstream-providers';
import type { AppConfig } from '../config/app-config';
import { NfipStatusPort } from '../parts/nfip-status/nfip-status-port';
import { CommunityStatusBook } from './community-status-book';
import { OPENFEMA_UPSTREAM, OpenFemaClient } from './openfema.client';

const HOUR_MS = 60 * 60 * 1000;

/**
 * FEMA's NFIP Community Status Book from OpenFEMA: an upstream of its own (`openfema`), and the table held in
 * memory and shared through the Redis tier of the cache. Global, so the lookup finds `NfipStatusPort` without importing this feature.
 */
@Global()
@Module({
  imports: [upstreamHttpModule(), PieceCacheModule],
  providers: [
    resilientUpstreamProvider(OPENFEMA_UPSTREAM, 'openfema'),
    {
      provide: OpenFemaClient,
      inject: [HttpService, OPENFEMA_UPSTREAM, ConfigService],
      useFactory: (http: HttpService, upstream: ResilientUpstream, config: ConfigService<AppConfig, true>) =>
        new OpenFemaClient(http, upstream, config.get('OPENFEMA_BASE_URL', { infer: true })),
    },
    {
      provide: CommunityStatusBook,
      inject: [OpenFemaClient, ConfigService, CACHE_MANAGER],
      useFactory: (client: OpenFemaClient, config: ConfigService<AppConfig, true>, cache: Cache) =>
        // The shared tier is the last one, present only with REDIS_URL.
        new CommunityStatusBook(
          client,
          config.get('COMMUNITY_STATUS_REFRESH_HOURS', { infer: true }) * HOUR_MS,
          cache.stores.length > 1 ? cache.stores.at(-1) : undefined,
        ),
    },
    { provide: NfipStatusPort, useExisting: CommunityStatusBook },
  ],
  exports: [NfipStatusPort, OPENFEMA_UPSTREAM],
})
export class CommunityStatusModule {}
