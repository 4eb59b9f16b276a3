import { ElevationSource } from '../../elevation/elevation-source';
import { groundElevation } from '../../flood-hazard/ground-elevation';
import { pointKey } from '../../common/geo-point';
import { optionalPart } from './answer-part';

/**
 * `include=elevation`: the ground at the point from USGS 3DEP, against the answer's base flood elevation. The
 * service's answer is cached by point; it is read against the BFE, the county and how the point was found
 * at the time of the lookup.
 */
export const groundElevationPart = optionalPart({
  include: 'elevation',
  field: 'groundElevation',
  description:
    'the bare-earth ground elevation at the point from USGS 3DEP, and whether it is above or below the base flood elevation; not an elevation certificate (result.groundElevation)',
  upstream: 'elevation',
  source: ElevationSource,
  cacheKey: (point) => `ground-elevation:${pointKey(point)}`,
  load: (source, point, _radiusM, signal) => source.groundAt(point, signal),
  read: (answer, { determination, estimatedBaseFloodElevation, point, locationSource, countyFips }) =>
    groundElevation(answer, {
      point,
      countyFips,
      fromAddress: locationSource === 'census_geocoder',
      staticBaseFloodElevationFt: determination.staticBaseFloodElevationFt,
      verticalDatum: determination.verticalDatum,
      estimatedBaseFloodElevation,
    }),
});
