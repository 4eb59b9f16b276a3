import { Module } from '@nestjs/common';
import { PieceCacheModule } from '../cache/piece-cache.module';
import { GeocodingModule } from '../geocoding/geocoding.module';
import { LookupModule } from '../lookup/lookup.module';
import { BatchController } from './batch.controller';
import { BatchLookupService } from './batch-lookup.service';
import { BatchSlots } from './batch-slots';

/** POST /flood-zone/batch: many lookups in one request, answered as GET /flood-zone answers each. */
@Module({
  imports: [GeocodingModule, PieceCacheModule, LookupModule],
  controllers: [BatchController],
  providers: [BatchLookupService, BatchSlots],
})
export class BatchModule {}
