import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../../common/upstream/upstream-providers';
import { STRUCTURES_UPSTREAM, StructuresClient } from './structures.client';
import { StructuresPort } from './structures-port';

/** FEMA/ORNL USA Structures: its own upstream (`structures`) with its own resilience policies. */
@Module({
  imports: [upstreamHttpModule()],
  providers: [resilientUpstreamProvider(STRUCTURES_UPSTREAM, 'structures'), StructuresClient, { provide: StructuresPort, useExisting: StructuresClient }],
  exports: [StructuresPort, STRUCTURES_UPSTREAM],
})
export class StructureModule {}
