/**
 * Spatial reuse as the service does it, for the proofs on FEMA's real polygons: what the service asks of each NFHL
 * layer it may hold, the grid it holds them on, a square held from the NFHL emulator's own envelope answer, and the
 * points the proofs ask at. The fields and the grid are the service's own (src/flood-hazard/nfhl.client.ts); the
 * end-to-end proof checks every query the service sends against them.
 */
import { type GeoPoint, type LonLatBox, roundPoint } from '../../src/common/geo-point';
import { ArcGisFeature, positionListsOf } from '../../src/common/upstream/arcgis-layer';
import { HeldPolygons, heldPolygons } from '../../src/flood-hazard/held-layer';
import { HELD_GRID, POINT_FIELDS, ZONE_FIELDS } from '../../src/flood-hazard/nfhl.client';
import { DEFAULT_MAX_RECORD_COUNT } from '../emulators/arcgis-emulator';
import { QueryableLayer, queryLayer } from '../emulators/arcgis-query';
import type { NfhlLayerKey } from '../emulators/demo-map';
import { metersToDegrees } from '../emulators/geometry';
import type { RealLayers } from './real-nfhl-layers';

/** The polygon layers of the Hudson extract, by the service's name for them. */
export type ReusableLayer = 'zones' | 'panels' | 'jurisdictions';

/** The NFHL emulator's key of each layer. */
export const EMULATOR_LAYER: Readonly<Record<ReusableLayer, NfhlLayerKey>> = {
  zones: 'floodHazardZones',
  panels: 'firmPanels',
  jurisdictions: 'politicalJurisdictions',
};

/** The outFields of the service's point query of each layer (and of its envelope query of a held square). */
export const POINT_QUERY_FIELDS: Readonly<Record<ReusableLayer, readonly string[]>> = {
  zones: ZONE_FIELDS,
  panels: POINT_FIELDS.panels,
  jurisdictions: POINT_FIELDS.jurisdictions,
};

export interface HeldGrid {
  sizeDeg: number;
  marginDeg: number;
}

/** The grid the service holds FIRM panels and communities on (the same for both; zones have a finer one, HELD_GRID.zones). */
export const SERVICE_GRID: HeldGrid = HELD_GRID.panels;

/** The parameters of the service's point query at `point` (returnGeometry false). */
export function pointQueryParams(layer: ReusableLayer, point: GeoPoint): Record<string, string> {
  return {
    geometry: `${point.lon},${point.lat}`,
    geometryType: 'esriGeometryPoint',
    inSR: '4326',
    spatialRel: 'esriSpatialRelIntersects',
    outFields: POINT_QUERY_FIELDS[layer].join(','),
    returnGeometry: 'false',
    f: 'json',
  };
}

/** The parameters of the service's query of a held square: every feature intersecting it, with every vertex as FEMA keeps it. */
export function envelopeQueryParams(layer: ReusableLayer, envelope: LonLatBox): Record<string, string> {
  return {
    geometry: envelope.join(','),
    geometryType: 'esriGeometryEnvelope',
    inSR: '4326',
    spatialRel: 'esriSpatialRelIntersects',
    outFields: POINT_QUERY_FIELDS[layer].join(','),
    returnGeometry: 'true',
    outSR: '4326',
    f: 'json',
  };
}

interface QueryAnswer {
  features: Array<ArcGisFeature<Record<string, unknown>>>;
  exceededTransferLimit?: boolean;
}

/** The emulator's answer to a query of `served`, in one page (the proofs' squares hold far fewer than a page). */
export function emulatorAnswer(served: QueryableLayer, params: Record<string, string>): QueryAnswer {
  const answer = queryLayer(served, params, 'json', { maxRecordCount: DEFAULT_MAX_RECORD_COUNT, ignoreWhere: false }) as QueryAnswer;
  if (!Array.isArray(answer.features)) throw new Error(`the emulator refused the query: ${JSON.stringify(answer)}`);
  if (answer.exceededTransferLimit) throw new Error(`more than ${DEFAULT_MAX_RECORD_COUNT} features in ${params.geometry}`);
  return answer;
}

/** The square over `envelope` as the service holds it (the envelope query's features, their rings as FEMA gave them), with its bytes. */
export function heldSquare(layer: ReusableLayer, served: QueryableLayer, envelope: LonLatBox): { held: HeldPolygons<Record<string, unknown>>; bytes: number } {
  const { features } = emulatorAnswer(served, envelopeQueryParams(layer, envelope));
  return heldPolygons(
    envelope,
    features.map((feature) => ({ attributes: feature.attributes, rings: positionListsOf(feature, 'rings', 'flood_data') })),
  );
}

/** The county's extent: the bounds of its communities, [west, south, east, north]. */
export function countyExtent(layers: RealLayers): [number, number, number, number] {
  return layers.jurisdictions.reduce<[number, number, number, number]>(
    ([west, south, east, north], { box }) => [Math.min(west, box[0]), Math.min(south, box[1]), Math.max(east, box[2]), Math.max(north, box[3])],
    [Infinity, Infinity, -Infinity, -Infinity],
  );
}

/** Every point `stepM` apart over the extent, column after column, rounded to 6 decimals as the service rounds what it is asked. */
export function gridOver([west, south, east, north]: readonly number[], stepM: number): GeoPoint[] {
  const { dLon, dLat } = metersToDegrees((south + north) / 2, stepM);
  const points: GeoPoint[] = [];
  for (let lon = west; lon <= east; lon += dLon) {
    for (let lat = south; lat <= north; lat += dLat) points.push(roundPoint({ lat, lon }));
  }
  return points;
}
