import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { LookupCacheModule } from '../cache/lookup-cache.module';
import { FloodHazardModule } from '../flood-hazard/flood-hazard.module';
import { GeocodingModule } from '../geocoding/geocoding.module';
import { LookupController } from './lookup.controller';
import { LookupService } from './lookup.service';

@Module({
  imports: [GeocodingModule, FloodHazardModule, LookupCacheModule],
  controllers: [LookupController],
  providers: [LookupService],
})
export class LookupModule implements NestModule {
  /**
   * Every lookup response carries X-Cache (CONTRACT section 6): MISS unless an answer is served, so
   * that rejected queries and failures say it too. Middleware, not an interceptor: it costs nothing per request.
   */
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply((_req: Request, res: Response, next: NextFunction) => {
        res.setHeader('X-Cache', 'MISS');
        next();
      })
      .forRoutes(LookupController);
  }
}
