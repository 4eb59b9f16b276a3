import type { GeoPoint, NfhlPointData } from './flood-hazard.types';

/** Everything the flood map says about one point. The use case sees this, never HTTP. */
export abstract class FloodHazardSource {
  /** The flood data service actually queried (`source.floodService`). */
  abstract readonly serviceUrl: string;

  /** Zones, FIRM panels, LOMRs, community and (when no zone is found) availability at a point. */
  abstract pointData(point: GeoPoint, deadline: AbortSignal): Promise<NfhlPointData>;
}
