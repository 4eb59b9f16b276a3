import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../../common/upstream/upstream-providers';
import { GroundElevationPort } from './ground-elevation-port';
import { ELEVATION_UPSTREAM, EpqsClient } from './epqs.client';

/** The USGS Elevation Point Query Service: its own upstream (`elevation`) with its own resilience policies. */
@Module({
  imports: [upstreamHttpModule()],
  providers: [resilientUpstreamProvider(ELEVATION_UPSTREAM, 'elevation'), EpqsClient, { provide: GroundElevationPort, useExisting: EpqsClient }],
  exports: [GroundElevationPort, ELEVATION_UPSTREAM],
})
export class GroundElevationModule {}
