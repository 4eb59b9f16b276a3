import { Module } from '@nestjs/common';
import { PieceCacheModule } from '../cache/piece-cache.module';
import { CoastalBarrierModule } from '../coastal-barrier/coastal-barrier.module';
import { ElevationModule } from '../elevation/elevation.module';
import { FloodHazardModule } from '../flood-hazard/flood-hazard.module';
import { GeocodingModule } from '../geocoding/geocoding.module';
import { AnswerCache } from './answer-cache';
import { LookupController } from './lookup.controller';
import { LookupService } from './lookup.service';

@Module({
  imports: [GeocodingModule, FloodHazardModule, CoastalBarrierModule, ElevationModule, PieceCacheModule],
  controllers: [LookupController],
  providers: [LookupService, AnswerCache],
  exports: [LookupService, AnswerCache],
})
export class LookupModule {}
