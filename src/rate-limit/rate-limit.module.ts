import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import type { AppConfig } from '../config/app-config';
import { ClientRateLimitGuard, RATE_LIMIT_WINDOW_MS } from './client-rate-limit.guard';
import { ClientRateStorage } from './client-rate-storage';

/** Rate limiting is off unless RATE_LIMIT_PER_MINUTE > 0; probes and metrics are never limited. */
@Module({})
export class RateLimitModule {
  static forRoot(config: Pick<AppConfig, 'RATE_LIMIT_PER_MINUTE' | 'REDIS_URL'>): DynamicModule {
    if (config.RATE_LIMIT_PER_MINUTE <= 0) return { module: RateLimitModule };
    return {
      module: RateLimitModule,
      imports: [
        ThrottlerModule.forRootAsync({
          useFactory: async () => ({
            throttlers: [{ ttl: RATE_LIMIT_WINDOW_MS, limit: config.RATE_LIMIT_PER_MINUTE }],
            storage: await ClientRateStorage.create(config.RATE_LIMIT_PER_MINUTE, RATE_LIMIT_WINDOW_MS, config.REDIS_URL),
          }),
        }),
      ],
      providers: [{ provide: APP_GUARD, useClass: ClientRateLimitGuard }],
    };
  }
}
