import { pointKey } from '../../common/geo-point';
import { optionalPart } from '../answer-part';
import { groundElevation } from './ground-elevation';
import { GroundElevationDto } from './ground-elevation.dto';
import { GroundElevationModule } from './ground-elevation.module';
import { GroundElevationPort } from './ground-elevation-port';

/**
 * `include=elevation`: the ground at the point from USGS 3DEP, against the answer's base flood elevation. The
 * service's reply is cached by point; it is read against the BFE, the county and how the point was found
 * at the time of the lookup.
 */
export const groundElevationPart = optionalPart({
  include: 'elevation',
  field: 'groundElevation',
  description:
    'the bare-earth ground elevation at the point from USGS 3DEP, and whether it is above or below the base flood elevation; not an elevation certificate (result.groundElevation)',
  summary: 'USGS 3DEP ground elevation, compared with the base flood elevation',
  upstream: 'elevation',
  module: GroundElevationModule,
  port: GroundElevationPort,
  cacheKey: ({ point }) => `ground-elevation:${pointKey(point)}`,
  load: (port, { point }, signal) => port.groundAt(point, signal),
  read: (reply, { determination, estimatedBaseFloodElevation, point, locationSource, countyFips }) =>
    groundElevation(reply, {
      point,
      countyFips,
      fromAddress: locationSource === 'census_geocoder',
      staticBaseFloodElevationFt: determination.staticBaseFloodElevationFt,
      verticalDatum: determination.verticalDatum,
      estimatedBaseFloodElevation,
    }),
  dto: {
    type: GroundElevationDto,
    description:
      'With include=elevation: the ground at the point from the USGS Elevation Point Query Service (3DEP bare earth), against the base flood elevation. ' +
      'A terrain model is not an elevation certificate. Null when not asked for.',
  },
  // Filled only when the request asked for include=elevation; the difference only where ground and BFE share a datum.
  csv: {
    after: 'sfha_discount_percent',
    columns: [
      { name: 'ground_elevation_ft', cell: (ground) => ground?.elevationFt },
      { name: 'ground_minus_bfe_ft', cell: (ground) => ground?.comparedWith?.differenceFt },
    ],
  },
  comesFrom: 'the USGS Elevation Point Query Service',
  // Its words are among the effective map's on the report: the key facts and the elevations (ground-elevation.words.ts).
  report: null,
});
