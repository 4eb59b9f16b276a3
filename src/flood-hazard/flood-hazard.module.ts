import { Module } from '@nestjs/common';
import { CoastalBarrierModule } from '../coastal-barrier/coastal-barrier.module';
import { resilientUpstreamProvider, upstreamHttpModule } from '../common/upstream/upstream-providers';
import { ComingMapsClient, PENDING_UPSTREAM, PRELIMINARY_UPSTREAM } from './coming-maps.client';
import { ComingMapsSource, FloodHazardSource } from './flood-hazard-source';
import { NFHL_UPSTREAM, NfhlClient } from './nfhl.client';

/**
 * FEMA's effective map (NFHL) and its coming maps (preliminary, pending), each service an upstream with
 * its own resilience policies. The coastal barrier map is passed on with them: the lookup and /health
 * need every flood-related map.
 */
@Module({
  imports: [upstreamHttpModule(), CoastalBarrierModule],
  providers: [
    resilientUpstreamProvider(NFHL_UPSTREAM, 'flood_data'),
    resilientUpstreamProvider(PRELIMINARY_UPSTREAM, 'flood_data_preliminary'),
    resilientUpstreamProvider(PENDING_UPSTREAM, 'flood_data_pending'),
    NfhlClient,
    { provide: FloodHazardSource, useExisting: NfhlClient },
    ComingMapsClient,
    { provide: ComingMapsSource, useExisting: ComingMapsClient },
  ],
  exports: [FloodHazardSource, ComingMapsSource, NFHL_UPSTREAM, PRELIMINARY_UPSTREAM, PENDING_UPSTREAM, CoastalBarrierModule],
})
export class FloodHazardModule {}
