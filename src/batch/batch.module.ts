import { Module } from '@nestjs/common';
import { PieceCacheModule } from '../cache/piece-cache.module';
import { GeocodingModule } from '../geocoding/geocoding.module';
import { LookupModule } from '../lookup/lookup.module';
import { StructureModule } from '../parts/structure/structure.module';
import { BatchController } from './batch.controller';
import { BatchLookupService } from './batch-lookup.service';
import { BatchSlots } from './batch-slots';

/**
 * POST /flood-zone/batch: many lookups in one request, answered as GET /flood-zone answers each. Its use case and its
 * slots are every batch's, whatever its route (MCP's flood_zone_batch too).
 */
@Module({
  imports: [GeocodingModule, PieceCacheModule, LookupModule, StructureModule],
  controllers: [BatchController],
  providers: [BatchLookupService, BatchSlots],
  exports: [BatchLookupService, BatchSlots],
})
export class BatchModule {}
