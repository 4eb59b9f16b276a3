import type { ComingMaps, ComingMapsSource } from '../../flood-hazard/flood-hazard-source';
import { mapChange } from '../../flood-hazard/map-change';
import { OptionalAnswerPart, pointKey } from './answer-part';

/**
 * `include=preliminary`: what FEMA's coming maps will change at the point. Their raw
 * answer is cached; the change is read against the effective map's answer at the time of the lookup.
 */
export function mapChangePart(source: ComingMapsSource): OptionalAnswerPart<'mapChange', ComingMaps> {
  return {
    field: 'mapChange',
    askedBy: 'preliminary',
    // Asked of the preliminary and the pending maps at once; the preliminary one stands for both.
    upstream: 'flood_data_preliminary',
    cacheKey: (point) => `coming-maps:${pointKey(point)}`,
    load: (point, _radiusM, signal) => source.comingMapsAt(point, signal),
    read: (maps, effective) => mapChange(maps.pending, maps.preliminary, effective.inSpecialFloodHazardArea),
  };
}
