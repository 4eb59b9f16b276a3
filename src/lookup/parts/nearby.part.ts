import { FloodHazardSource } from '../../flood-hazard/flood-hazard-source';
import { nearbyHazards, nearbyHazardsAt } from '../../flood-hazard/nearby-hazards';
import { pointKey } from '../../common/geo-point';
import { optionalPart } from './answer-part';

/** `include=nearby`: the nearest SFHA, floodway and moderate-risk polygons within the radius. */
export const nearbyPart = optionalPart({
  include: 'nearby',
  field: 'nearby',
  description: 'the nearest SFHA, floodway and moderate-risk (shaded X) polygons within `radius` metres (result.nearby)',
  upstream: 'flood_data',
  source: FloodHazardSource,
  cacheKey: (point, radiusM) => `nearby:${pointKey(point)}:${radiusM}`,
  load: async (source, point, radiusM, signal) => nearbyHazards(point, radiusM, await source.zonePolygonsNear(point, radiusM, signal)),
  read: (found, { determination }) => nearbyHazardsAt(found, determination.coverage),
});
