import type { LonLatBox } from '../../common/geo-point';
import type { CbrsProhibitionAttributes, GeoPoint, PolygonFeature } from '../../flood-hazard/flood-hazard.types';

/** What the Coastal Barrier Resources System says at a point. */
export interface CoastalBarrierData {
  /** "CBRS Prohibitions" polygons containing the point. */
  prohibitions: CbrsProhibitionAttributes[];
  /** Whether a "CBRS Buffer Zone" polygon contains it. */
  inBufferZone: boolean;
}

/** The CBRS polygons over an envelope (a building's footprint's), with their exact geometry. */
export interface CoastalBarrierPolygons {
  /** "CBRS Prohibitions" polygons (System Units and Otherwise Protected Areas) intersecting it. */
  prohibitions: Array<PolygonFeature<CbrsProhibitionAttributes>>;
  /** "CBRS Buffer Zone" polygons intersecting it; only where they lie matters. */
  buffers: Array<{ rings: number[][][] }>;
}

/** The U.S. Fish and Wildlife Service's CBRS map. The use case sees this, never HTTP. */
export abstract class CoastalBarrierPort {
  abstract coastalBarrierAt(point: GeoPoint, deadline: AbortSignal): Promise<CoastalBarrierData>;

  /** Every prohibition and buffer-zone polygon intersecting the envelope ([west, south, east, north]), with its exact geometry. */
  abstract coastalBarrierOver(bbox: LonLatBox, deadline: AbortSignal): Promise<CoastalBarrierPolygons>;
}
