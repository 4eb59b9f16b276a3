import type { GeoPoint } from '../../flood-hazard/flood-hazard.types';
import type { StructureFeature } from './structure.types';

/** FEMA/ORNL USA Structures, the building footprints. The use case sees this, never HTTP. */
export abstract class StructuresPort {
  /** Every building whose footprint lies within `distanceM` of the point (0 for one containing it), with its polygon. */
  abstract buildingsNear(point: GeoPoint, distanceM: number, signal: AbortSignal): Promise<StructureFeature[]>;
}
