import { Module } from '@nestjs/common';
import { PieceCacheModule } from '../cache/piece-cache.module';
import { resilientUpstreamProvider, upstreamHttpModule } from '../common/upstream/upstream-providers';
import { FloodHazardModule } from '../flood-hazard/flood-hazard.module';
import { GeocodingModule } from '../geocoding/geocoding.module';
import { LookupModule } from '../lookup/lookup.module';
import { BasemapPort } from './basemap-port';
import { BASEMAP_UPSTREAM, BasemapClient } from './basemap.client';
import { MapPictureController } from './map-picture.controller';
import { MapPictureService } from './map-picture.service';

/** GET /flood-zone/map, and the USGS National Map basemap under it: its own upstream (`basemap`) with its own resilience policies. */
@Module({
  imports: [upstreamHttpModule(), LookupModule, FloodHazardModule, GeocodingModule, PieceCacheModule],
  controllers: [MapPictureController],
  providers: [resilientUpstreamProvider(BASEMAP_UPSTREAM, 'basemap'), BasemapClient, { provide: BasemapPort, useExisting: BasemapClient }, MapPictureService],
  // The report page carries the same picture inside it.
  exports: [MapPictureService],
})
export class MapPictureModule {}
