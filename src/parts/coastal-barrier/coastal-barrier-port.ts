import type { CbrsProhibitionAttributes, GeoPoint } from '../../flood-hazard/flood-hazard.types';

/** What the Coastal Barrier Resources System says at a point. */
export interface CoastalBarrierData {
  /** "CBRS Prohibitions" polygons containing the point. */
  prohibitions: CbrsProhibitionAttributes[];
  /** Whether a "CBRS Buffer Zone" polygon contains it. */
  inBufferZone: boolean;
}

/** The U.S. Fish and Wildlife Service's CBRS map. The use case sees this, never HTTP. */
export abstract class CoastalBarrierPort {
  abstract coastalBarrierAt(point: GeoPoint, deadline: AbortSignal): Promise<CoastalBarrierData>;
}
