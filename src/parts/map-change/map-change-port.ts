import type { MapChangeMapData, GeoPoint } from '../../flood-hazard/flood-hazard.types';

/** What FEMA's coming maps say at a point: pending (adopted) and preliminary (still open to appeal). */
export interface MapChangeMaps {
  pending: MapChangeMapData;
  preliminary: MapChangeMapData;
}

/** FEMA's preliminary and pending maps; either failing makes the whole part unknown. */
export abstract class MapChangePort {
  abstract mapsAt(point: GeoPoint, deadline: AbortSignal): Promise<MapChangeMaps>;
}
