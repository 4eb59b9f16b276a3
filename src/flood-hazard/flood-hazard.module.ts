import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../common/upstream/upstream-providers';
import { ComingMapsClient, PENDING_UPSTREAM, PRELIMINARY_UPSTREAM } from './coming-maps.client';
import { ComingMapsSource, FloodHazardSource } from './flood-hazard-source';
import { NFHL_UPSTREAM, NfhlClient } from './nfhl.client';

/**
 * FEMA's effective map (NFHL) and its coming maps (preliminary, pending), each service an upstream with
 * its own resilience policies.
 */
@Module({
  imports: [upstreamHttpModule()],
  providers: [
    resilientUpstreamProvider(NFHL_UPSTREAM, 'flood_data'),
    resilientUpstreamProvider(PRELIMINARY_UPSTREAM, 'flood_data_preliminary'),
    resilientUpstreamProvider(PENDING_UPSTREAM, 'flood_data_pending'),
    NfhlClient,
    { provide: FloodHazardSource, useExisting: NfhlClient },
    ComingMapsClient,
    { provide: ComingMapsSource, useExisting: ComingMapsClient },
  ],
  exports: [FloodHazardSource, ComingMapsSource, NFHL_UPSTREAM, PRELIMINARY_UPSTREAM, PENDING_UPSTREAM],
})
export class FloodHazardModule {}
