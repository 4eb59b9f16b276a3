import { Module } from '@nestjs/common';
import { upstreamHttpModule } from '../../common/upstream/upstream-providers';
import { CommunityStatusModule } from '../../community-status/community-status.module';
import { FloodHazardModule } from '../../flood-hazard/flood-hazard.module';
import { CoastalBarrierModule } from '../../parts/coastal-barrier/coastal-barrier.module';
import { MapChangeModule } from '../../parts/map-change/map-change.module';
import { FemaMapChangeScout } from './fema-map-change-scout.client';
import { MAP_CHANGE_SCOUT } from './map-change-scout.port';

/**
 * What FEMA published since a sweep's date (MAP_CHANGE_SCOUT), asked of the services the lookup asks, through their
 * own upstreams: one budget, breaker, byte cap and metrics per service, whoever calls it.
 */
@Module({
  imports: [upstreamHttpModule(), FloodHazardModule, MapChangeModule, CoastalBarrierModule, CommunityStatusModule],
  providers: [FemaMapChangeScout, { provide: MAP_CHANGE_SCOUT, useExisting: FemaMapChangeScout }],
  exports: [MAP_CHANGE_SCOUT],
})
export class MapChangesModule {}
