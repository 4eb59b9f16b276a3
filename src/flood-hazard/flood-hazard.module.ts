import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../common/upstream/upstream-providers';
import { FloodHazardPort } from './flood-hazard-port';
import { NFHL_UPSTREAM, NfhlClient } from './nfhl.client';

/** FEMA's effective map (NFHL), an upstream with its own resilience policies. */
@Module({
  imports: [upstreamHttpModule()],
  providers: [resilientUpstreamProvider(NFHL_UPSTREAM, 'flood_data'), NfhlClient, { provide: FloodHazardPort, useExisting: NfhlClient }],
  exports: [FloodHazardPort, NFHL_UPSTREAM],
})
export class FloodHazardModule {}
