import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../common/upstream/upstream-providers';
import { FloodHazardPort } from './flood-hazard-port';
import { HeldLayers } from './held-layers.client';
import { NFHL_UPSTREAM, NfhlClient } from './nfhl.client';
import { PieceCacheModule } from '../cache/piece-cache.module';

/** FEMA's effective map (NFHL), an upstream with its own resilience policies. */
@Module({
  imports: [upstreamHttpModule(), PieceCacheModule],
  providers: [resilientUpstreamProvider(NFHL_UPSTREAM, 'flood_data'), HeldLayers, NfhlClient, { provide: FloodHazardPort, useExisting: NfhlClient }],
  exports: [FloodHazardPort, NFHL_UPSTREAM],
})
export class FloodHazardModule {}
