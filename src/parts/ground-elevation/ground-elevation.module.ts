import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../../common/upstream/upstream-providers';
import { ElevationSource } from './elevation-source';
import { ELEVATION_UPSTREAM, EpqsClient } from './epqs.client';

/** The USGS Elevation Point Query Service: its own upstream (`elevation`) with its own resilience policies. */
@Module({
  imports: [upstreamHttpModule()],
  providers: [resilientUpstreamProvider(ELEVATION_UPSTREAM, 'elevation'), EpqsClient, { provide: ElevationSource, useExisting: EpqsClient }],
  exports: [ElevationSource, ELEVATION_UPSTREAM],
})
export class GroundElevationModule {}
