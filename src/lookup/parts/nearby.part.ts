import type { FloodHazardSource } from '../../flood-hazard/flood-hazard-source';
import type { NearbyHazards } from '../../flood-hazard/flood-hazard.types';
import { nearbyHazards } from '../../flood-hazard/nearby-hazards';
import { OptionalAnswerPart, pointKey } from './answer-part';

/** `include=nearby`: the nearest SFHA, floodway and moderate-risk polygons within the radius. */
export function nearbyPart(source: FloodHazardSource): OptionalAnswerPart<'nearby', NearbyHazards> {
  return {
    field: 'nearby',
    askedBy: 'nearby',
    upstream: 'flood_data',
    cacheKey: (point, radiusM) => `nearby:${pointKey(point)}:${radiusM}`,
    load: async (point, radiusM, signal) => nearbyHazards(point, radiusM, await source.zonePolygonsNear(point, radiusM, signal)),
    read: (nearby) => nearby,
  };
}
