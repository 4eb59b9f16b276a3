import { Module } from '@nestjs/common';
import { PieceCacheModule } from '../cache/piece-cache.module';
import { FloodHazardModule } from '../flood-hazard/flood-hazard.module';
import { GeocodingModule } from '../geocoding/geocoding.module';
import { OPTIONAL_PART_MODULES } from '../parts/answer-parts';
import { AnswerCache } from './answer-cache';
import { boundPartsProvider } from './bound-parts';
import { LookupController } from './lookup.controller';
import { LookupService } from './lookup.service';

@Module({
  imports: [GeocodingModule, FloodHazardModule, ...OPTIONAL_PART_MODULES, PieceCacheModule],
  controllers: [LookupController],
  providers: [LookupService, AnswerCache, boundPartsProvider],
  exports: [LookupService, AnswerCache],
})
export class LookupModule {}
