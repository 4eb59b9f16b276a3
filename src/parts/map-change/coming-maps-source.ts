import type { ComingMapData, GeoPoint } from '../../flood-hazard/flood-hazard.types';

/** What FEMA's coming maps say at a point: pending (adopted) and preliminary (still open to appeal). */
export interface ComingMaps {
  pending: ComingMapData;
  preliminary: ComingMapData;
}

/** FEMA's preliminary and pending maps; either failing makes the whole part unknown. */
export abstract class ComingMapsSource {
  abstract comingMapsAt(point: GeoPoint, deadline: AbortSignal): Promise<ComingMaps>;
}
