import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../common/upstream/upstream-providers';
import { FloodHazardSource } from './flood-hazard-source';
import { NFHL_UPSTREAM, NfhlClient } from './nfhl.client';

/** FEMA's effective map (NFHL), an upstream with its own resilience policies. */
@Module({
  imports: [upstreamHttpModule()],
  providers: [resilientUpstreamProvider(NFHL_UPSTREAM, 'flood_data'), NfhlClient, { provide: FloodHazardSource, useExisting: NfhlClient }],
  exports: [FloodHazardSource, NFHL_UPSTREAM],
})
export class FloodHazardModule {}
