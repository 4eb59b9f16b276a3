import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { LonLatBox } from '../../common/geo-point';
import type { ResilientUpstream } from '../../common/upstream/resilient-upstream';
import type { AppConfig } from '../../config/app-config';
import { positionListsOf } from '../../common/upstream/arcgis-layer';
import { ArcGisMapServer, layerNamed } from '../../common/upstream/arcgis-map-server';
import type { CbrsProhibitionAttributes, GeoPoint } from '../../flood-hazard/flood-hazard.types';
import { CoastalBarrierData, CoastalBarrierPolygons, CoastalBarrierPort } from './coastal-barrier-port';

export const CBRS_UPSTREAM = Symbol('CBRS_UPSTREAM');

/** The service has moved hosts and layouts more than once: layers are found by name only. */
const LAYERS = {
  prohibitions: layerNamed('CBRS Prohibitions'),
  buffer: layerNamed('CBRS Buffer Zone'),
};

const PROHIBITION_FIELDS = ['Unit', 'CBRS_Type', 'FI_Date'];
/** Only whether a buffer polygon is there matters; its fields are not relied on. */
const BUFFER_FIELDS = ['*'];

/** The USFWS Coastal Barrier Resources System MapServer (keyless ArcGIS). */
@Injectable()
export class CbrsClient extends CoastalBarrierPort {
  private readonly map: ArcGisMapServer<keyof typeof LAYERS>;

  constructor(http: HttpService, @Inject(CBRS_UPSTREAM) upstream: ResilientUpstream, config: ConfigService<AppConfig, true>) {
    super();
    this.map = new ArcGisMapServer(http, upstream, config.get('CBRS_BASE_URL', { infer: true }), LAYERS);
  }

  coastalBarrierAt(point: GeoPoint, deadline: AbortSignal): Promise<CoastalBarrierData> {
    return this.map.upstream.operation(async () => {
      const [prohibitions, buffer] = await Promise.all([
        this.map.queryPoint<CbrsProhibitionAttributes>('prohibitions', PROHIBITION_FIELDS, point, deadline),
        this.map.queryPoint('buffer', BUFFER_FIELDS, point, deadline),
      ]);
      return { prohibitions, inBufferZone: buffer.length > 0 };
    });
  }

  /** Every vertex as the service keeps it: a building is metres across, and a unit's edge may cross it. */
  coastalBarrierOver(bbox: LonLatBox, deadline: AbortSignal): Promise<CoastalBarrierPolygons> {
    const { upstream } = this.map;
    return upstream.operation(async () => {
      const [prohibitions, buffers] = await Promise.all([
        this.map.queryEnvelope<CbrsProhibitionAttributes>('prohibitions', PROHIBITION_FIELDS, bbox, {}, deadline),
        this.map.queryEnvelope('buffer', BUFFER_FIELDS, bbox, {}, deadline),
      ]);
      return {
        prohibitions: prohibitions.map((feature) => ({ attributes: feature.attributes, rings: positionListsOf(feature, 'rings', upstream.name) })),
        buffers: buffers.map((feature) => ({ rings: positionListsOf(feature, 'rings', upstream.name) })),
      };
    });
  }
}
