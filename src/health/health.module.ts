import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { CoastalBarrierModule } from '../coastal-barrier/coastal-barrier.module';
import { ElevationModule } from '../elevation/elevation.module';
import { FloodHazardModule } from '../flood-hazard/flood-hazard.module';
import { GeocodingModule } from '../geocoding/geocoding.module';
import { DrainState } from '../common/drain-state';
import { HealthController } from './health.controller';
import { UpstreamReachability } from './upstream-reachability';

@Global()
@Module({
  imports: [TerminusModule, FloodHazardModule, CoastalBarrierModule, ElevationModule, GeocodingModule],
  controllers: [HealthController],
  providers: [DrainState, UpstreamReachability],
  exports: [DrainState, UpstreamReachability],
})
export class HealthModule {}
