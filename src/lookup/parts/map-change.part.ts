import { ComingMapsSource } from '../../flood-hazard/flood-hazard-source';
import { mapChange } from '../../flood-hazard/map-change';
import { pointKey } from '../../common/geo-point';
import { optionalPart } from './answer-part';

/**
 * `include=preliminary`: what FEMA's coming maps will change at the point. Their raw answer is cached;
 * the change is read against the effective map's answer at the time of the lookup.
 */
export const mapChangePart = optionalPart({
  include: 'preliminary',
  field: 'mapChange',
  description: "what FEMA's pending or preliminary map says at the point, and whether it moves it into or out of the SFHA (result.mapChange)",
  // Asked of the preliminary and the pending maps at once; the preliminary one stands for both.
  upstream: 'flood_data_preliminary',
  source: ComingMapsSource,
  cacheKey: (point) => `coming-maps:${pointKey(point)}`,
  load: (source, point, _radiusM, signal) => source.comingMapsAt(point, signal),
  read: (maps, { determination }) => mapChange(maps.pending, maps.preliminary, determination),
});
