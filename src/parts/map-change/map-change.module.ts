import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../../common/upstream/upstream-providers';
import { ComingMapsClient, PENDING_UPSTREAM, PRELIMINARY_UPSTREAM } from './coming-maps.client';
import { ComingMapsSource } from './coming-maps-source';

/** FEMA's coming maps (preliminary, pending): two services, each an upstream with its own resilience policies. */
@Module({
  imports: [upstreamHttpModule()],
  providers: [
    resilientUpstreamProvider(PRELIMINARY_UPSTREAM, 'flood_data_preliminary'),
    resilientUpstreamProvider(PENDING_UPSTREAM, 'flood_data_pending'),
    ComingMapsClient,
    { provide: ComingMapsSource, useExisting: ComingMapsClient },
  ],
  exports: [ComingMapsSource, PRELIMINARY_UPSTREAM, PENDING_UPSTREAM],
})
export class MapChangeModule {}
