import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../../common/upstream/upstream-providers';
import { MapChangeClient, PENDING_UPSTREAM, PRELIMINARY_UPSTREAM } from './map-change.client';
import { MapChangePort } from './map-change-port';

/** FEMA's coming maps (preliminary, pending): two services, each an upstream with its own resilience policies. */
@Module({
  imports: [upstreamHttpModule()],
  providers: [
    resilientUpstreamProvider(PRELIMINARY_UPSTREAM, 'flood_data_preliminary'),
    resilientUpstreamProvider(PENDING_UPSTREAM, 'flood_data_pending'),
    MapChangeClient,
    { provide: MapChangePort, useExisting: MapChangeClient },
  ],
  exports: [MapChangePort, PRELIMINARY_UPSTREAM, PENDING_UPSTREAM],
})
export class MapChangeModule {}
