import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ResilientUpstream } from '../common/upstream/resilient-upstream';
import type { AppConfig } from '../config/app-config';
import { ArcGisMapServer, MapExtent, MapPixels } from '../common/upstream/arcgis-map-server';
import { BasemapPort } from './basemap-port';

export const BASEMAP_UPSTREAM = Symbol('BASEMAP_UPSTREAM');

/**
 * The USGS National Map basemap (keyless; by default its USGSTopo MapServer): the MapServer's `export`
 * of the picture's extent as a PNG, every layer it shows by default.
 */
@Injectable()
export class BasemapClient extends BasemapPort {
  private readonly map: ArcGisMapServer<never>;

  constructor(
    http: HttpService,
    @Inject(BASEMAP_UPSTREAM) private readonly upstream: ResilientUpstream,
    config: ConfigService<AppConfig, true>,
  ) {
    super();
    this.map = new ArcGisMapServer<never>(http, upstream, config.get('BASEMAP_BASE_URL', { infer: true }), {});
  }

  exportBasemap(extent: MapExtent, deadline: AbortSignal): Promise<MapPixels> {
    return this.upstream.operation(() => this.map.exportImage(extent, { format: 'png' }, deadline));
  }
}
