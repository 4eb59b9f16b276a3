import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ArcGisLayer, positionListsOf } from '../../common/upstream/arcgis-layer';
import type { ResilientUpstream } from '../../common/upstream/resilient-upstream';
import type { AppConfig } from '../../config/app-config';
import type { GeoPoint } from '../../flood-hazard/flood-hazard.types';
import type { StructureAttributes, StructureFeature } from './structure.types';
import { StructuresPort } from './structures-port';

export const STRUCTURES_UPSTREAM = Symbol('STRUCTURES_UPSTREAM');

/**
 * What a building is chosen, described and measured by; OUTBLDG keeps a shed from being taken for the house, CENSUSCODE
 * (its tract) tells a building across a tract boundary from the address's side, FIPS is its county.
 */
const STRUCTURE_FIELDS: ReadonlyArray<keyof StructureAttributes> = [
  'BUILD_ID',
  'OCC_CLS',
  'PRIM_OCC',
  'PROP_ADDR',
  'PROP_CITY',
  'PROP_ZIP',
  'SQMETERS',
  'HEIGHT',
  'IMAGE_DATE',
  'SOURCE',
  'OUTBLDG',
  'CENSUSCODE',
  'FIPS',
];

/**
 * FEMA/ORNL USA Structures, a keyless ArcGIS Online FeatureServer: its one layer (the configured URL) asked for
 * the buildings within a distance of a point, footprints in WGS84.
 */
@Injectable()
export class StructuresClient extends StructuresPort {
  private readonly layer: ArcGisLayer;

  constructor(http: HttpService, @Inject(STRUCTURES_UPSTREAM) upstream: ResilientUpstream, config: ConfigService<AppConfig, true>) {
    super();
    this.layer = new ArcGisLayer(http, upstream, config.get('STRUCTURES_BASE_URL', { infer: true }), 'buildings');
  }

  buildingsNear(point: GeoPoint, distanceM: number, deadline: AbortSignal): Promise<StructureFeature[]> {
    const { upstream } = this.layer;
    return upstream.operation(async () => {
      const features = await this.layer.queryAllPages(
        {
          // ArcGIS axis order is x,y = lon,lat; the layer's own reference is Web Mercator, so inSR and outSR are said.
          geometry: `${point.lon},${point.lat}`,
          geometryType: 'esriGeometryPoint',
          inSR: '4326',
          distance: String(distanceM),
          units: 'esriSRUnit_Meter',
          spatialRel: 'esriSpatialRelIntersects',
          outFields: STRUCTURE_FIELDS.join(','),
          returnGeometry: 'true',
          outSR: '4326',
          f: 'json',
        },
        deadline,
      );
      return features.map((feature) => ({ attributes: feature.attributes as StructureAttributes, rings: positionListsOf(feature, 'rings', upstream.name) }));
    });
  }
}
