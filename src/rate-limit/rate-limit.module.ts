import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { getStorageToken, ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import type { AppConfig } from '../config/app-config';
import { admitClient, ClientRateLimit, ClientRateLimitGuard, RATE_LIMIT_WINDOW_MS } from './client-rate-limit.guard';
import { ClientRateStorage } from './client-rate-storage';

/**
 * Rate limiting is off unless RATE_LIMIT_PER_MINUTE > 0; probes and metrics are never limited. ClientRateLimit is
 * provided to every module either way.
 */
@Module({})
export class RateLimitModule {
  static forRoot(config: Pick<AppConfig, 'RATE_LIMIT_PER_MINUTE' | 'REDIS_URL'>): DynamicModule {
    const exported = { module: RateLimitModule, global: true, exports: [ClientRateLimit] };
    if (config.RATE_LIMIT_PER_MINUTE <= 0) return { ...exported, providers: [{ provide: ClientRateLimit, useValue: new ClientRateLimit() }] };
    const limit = config.RATE_LIMIT_PER_MINUTE;
    return {
      ...exported,
      imports: [
        ThrottlerModule.forRootAsync({
          useFactory: async () => ({
            throttlers: [{ ttl: RATE_LIMIT_WINDOW_MS, limit }],
            storage: await ClientRateStorage.create(limit, RATE_LIMIT_WINDOW_MS, config.REDIS_URL),
          }),
        }),
      ],
      providers: [
        { provide: APP_GUARD, useClass: ClientRateLimitGuard },
        {
          provide: ClientRateLimit,
          useFactory: (storage: ThrottlerStorage) => new ClientRateLimit((req, res) => admitClient(storage, limit, req, res)),
          inject: [getStorageToken()],
        },
      ],
    };
  }
}
