import { pointKey } from '../../common/geo-point';
import { optionalPart } from '../answer-part';
import { MapChangePort } from './map-change-port';
import { mapChange } from './map-change';
import { MapChangeDto } from './map-change.dto';
import { MapChangeModule } from './map-change.module';
import { MAP_CHANGE_ON_REPORT } from './map-change.words';

/**
 * `include=preliminary`: what FEMA's coming maps will change at the point. Their raw reply is cached;
 * the change is read against the effective map's determination at the time of the lookup.
 */
export const mapChangePart = optionalPart({
  include: 'preliminary',
  field: 'mapChange',
  description: "what FEMA's pending or preliminary map says at the point, and whether it moves it into or out of the SFHA (result.mapChange)",
  summary: "FEMA's pending or preliminary map at the point",
  // Asked of the preliminary and the pending maps at once; the preliminary one stands for both.
  upstream: 'flood_data_preliminary',
  alsoAsks: ['flood_data_pending'],
  module: MapChangeModule,
  port: MapChangePort,
  cacheKey: ({ point }) => `map-change:${pointKey(point)}`,
  load: (port, { point }, signal) => port.mapsAt(point, signal),
  read: (maps, { determination }) => mapChange(maps.pending, maps.preliminary, determination),
  dto: {
    type: MapChangeDto,
    description:
      "With include=preliminary: FEMA's pending or preliminary map at the point. A preliminary map is not the effective map and does not yet set flood insurance requirements. Null when not asked for.",
  },
  csv: {
    after: 'nearest_sfha_m',
    columns: [
      { name: 'map_change_status', cell: (change) => change?.status },
      { name: 'map_change_zone', cell: (change) => change?.floodZone },
    ],
  },
  comesFrom: "FEMA's preliminary and pending maps",
  report: MAP_CHANGE_ON_REPORT,
});
