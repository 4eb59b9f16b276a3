import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { FloodHazardModule } from '../flood-hazard/flood-hazard.module';
import { GeocodingModule } from '../geocoding/geocoding.module';
import { OPTIONAL_PART_MODULES } from '../parts/answer-parts';
import { DrainState } from '../common/drain-state';
import { HealthController } from './health.controller';
import { UpstreamReachability } from './upstream-reachability';

/** Every upstream's module is imported, so that /health reports each one's circuit from start-up. */
@Global()
@Module({
  imports: [TerminusModule, FloodHazardModule, ...OPTIONAL_PART_MODULES, GeocodingModule],
  controllers: [HealthController],
  providers: [DrainState, UpstreamReachability],
  exports: [DrainState, UpstreamReachability],
})
export class HealthModule {}
