import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../../common/upstream/upstream-providers';
import { CBRS_UPSTREAM, CbrsClient } from './cbrs.client';
import { CoastalBarrierPort } from './coastal-barrier-port';

/** The Coastal Barrier Resources System: a third upstream (`coastal_barrier`) with its own resilience policies. */
@Module({
  imports: [upstreamHttpModule()],
  providers: [resilientUpstreamProvider(CBRS_UPSTREAM, 'coastal_barrier'), CbrsClient, { provide: CoastalBarrierPort, useExisting: CbrsClient }],
  exports: [CoastalBarrierPort, CBRS_UPSTREAM],
})
export class CoastalBarrierModule {}
