import { FloodHazardModule } from '../../flood-hazard/flood-hazard.module';
import { FloodHazardPort } from '../../flood-hazard/flood-hazard-port';
import { pointKey } from '../../common/geo-point';
import { optionalPart } from '../answer-part';
import { NearbyHazardsDto } from './nearby.dto';
import { nearbyHazards, nearbyHazardsAt } from './nearby-hazards';
import { NEARBY_ON_REPORT } from './nearby.words';

/** `include=nearby`: the nearest SFHA, floodway and moderate-risk polygons within the radius, from the effective map's own service. */
export const nearbyPart = optionalPart({
  include: 'nearby',
  field: 'nearby',
  description: 'the nearest SFHA, floodway and moderate-risk (shaded X) polygons within `radius` metres (result.nearby)',
  summary: 'nearest SFHA, floodway and moderate-risk zone within radius',
  upstream: 'flood_data',
  module: FloodHazardModule,
  port: FloodHazardPort,
  cacheKey: ({ point, radiusM }) => `nearby:${pointKey(point)}:${radiusM}`,
  load: async (port, { point, radiusM }, signal) => nearbyHazards(point, radiusM, await port.zonePolygonsNear(point, radiusM, signal)),
  read: (found, { determination }) => nearbyHazardsAt(found, determination.coverage),
  dto: {
    type: NearbyHazardsDto,
    description: 'With include=nearby: the nearest flood hazards around the point (a geocoded point can be tens of metres off). Null when not asked for.',
  },
  csv: { after: 'loma_count', columns: [{ name: 'nearest_sfha_m', cell: (nearby) => nearby?.sfha?.distanceM }] },
  comesFrom: "FEMA's flood hazard zones around the point",
  report: NEARBY_ON_REPORT,
});
