import { Module } from '@nestjs/common';
import { resilientUpstreamProvider, upstreamHttpModule } from '../../common/upstream/upstream-providers';
import { FloodHazardModule } from '../../flood-hazard/flood-hazard.module';
import { GeocodingModule } from '../../geocoding/geocoding.module';
import { BuildingSurvey } from './building-survey.client';
import { PolygonWork } from './polygon-work.client';
import { STRUCTURES_UPSTREAM, StructuresClient } from './structures.client';
import { StructuresPort } from './structures-port';

/**
 * FEMA/ORNL USA Structures: its own upstream (`structures`) with its own resilience policies; and the survey of a building,
 * which places buildings near an address in their census block (the Census geocoder) and measures FEMA's flood zones over
 * its footprint.
 */
@Module({
  imports: [upstreamHttpModule(), FloodHazardModule, GeocodingModule],
  providers: [
    resilientUpstreamProvider(STRUCTURES_UPSTREAM, 'structures'),
    StructuresClient,
    { provide: StructuresPort, useExisting: StructuresClient },
    BuildingSurvey,
    PolygonWork,
  ],
  exports: [StructuresPort, STRUCTURES_UPSTREAM, BuildingSurvey, PolygonWork],
})
export class StructureModule {}
