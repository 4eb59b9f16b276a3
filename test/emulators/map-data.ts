/**
 * The shape of what an ArcGIS MapServer emulator serves: layers with their published names, real field lists
 * and features with real geometry (lon/lat, WGS84). Shared by the demo map (the data) and the emulators (the
 * protocol), so either can grow without the other.
 */
import type { BBox, Position, Ring } from './geometry';

export type ArcGisGeometryType = 'esriGeometryPolygon' | 'esriGeometryPolyline' | 'esriGeometryPoint';

export interface ArcGisField {
  name: string;
  type: string;
  alias: string;
  length?: number;
  domain?: unknown;
}

/** One feature: polygons carry `rings`, polylines `paths`, points `point`; `bbox` covers whichever is set. */
export interface ArcGisFeature {
  attributes: Record<string, string | number | null>;
  rings?: Ring[];
  paths?: Position[][];
  point?: Position;
  bbox: BBox;
}

export interface ArcGisLayerData {
  id: number;
  name: string;
  geometryType: ArcGisGeometryType;
  /** Real field list of the layer, in the published order (geometry field included, as ArcGIS lists it). */
  fields: ArcGisField[];
  displayField: string;
  features: ArcGisFeature[];
}

/** A whole MapServer: what `MapServer?f=json` lists and what each layer's query answers from. */
export interface ArcGisServiceData {
  /** e.g. "PrelimPending/Prelim_NFHL" (the service directory name). */
  serviceName: string;
  layers: ArcGisLayerData[];
}
