import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../../common/upstream/upstream-providers';
import { CBRS_UPSTREAM, CbrsClient } from './cbrs.client';
import { CoastalBarrierSource } from './coastal-barrier-source';

/** The Coastal Barrier Resources System: a third upstream (`coastal_barrier`) with its own resilience policies. */
@Module({
  imports: [upstreamHttpModule()],
  providers: [resilientUpstreamProvider(CBRS_UPSTREAM, 'coastal_barrier'), CbrsClient, { provide: CoastalBarrierSource, useExisting: CbrsClient }],
  exports: [CoastalBarrierSource, CBRS_UPSTREAM],
})
export class CoastalBarrierModule {}
