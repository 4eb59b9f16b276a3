import { ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { otherJsonTypes } from '../../common/other-json-types';
import {
  FOOTPRINT_RULES,
  FOOTPRINT_SCHEMAS,
  GeoJsonFootprintFeatureDto,
  GeoJsonMultiPolygonDto,
  GeoJsonPolygonDto,
} from '../../lookup/dto/footprint-lookup.dto';
import { ID_MAX_LENGTH } from '../batch-row';

/** One location of a JSON batch: the GET /flood-zone parameters, checked by the same rules, plus an id. */
export class BatchLocationDto {
  @ApiPropertyOptional({
    // No maxLength: a longer id is that row's 400 inside a 200 answer, which a gateway checking the length would refuse whole.
    anyOf: [{ type: 'string' }, { type: 'number' }, ...otherJsonTypes('string', 'number')],
    description: `Echoed back with the row's answer (a number as its text). Another type, or more than ${ID_MAX_LENGTH} characters, is that row's 400.`,
    example: 'r1',
  })
  id?: string | number;

  @ApiPropertyOptional({
    anyOf: [{ type: 'string' }, ...otherJsonTypes('string')],
    description: "US street address (as GET `address`). Not together with lat/lon. Another type is that row's 400.",
    example: '1600 Pennsylvania Ave NW, Washington, DC 20500',
  })
  address?: string;

  @ApiPropertyOptional({
    anyOf: [{ type: 'number' }, { type: 'string' }, ...otherJsonTypes('number', 'string')],
    description: "Latitude, -90 to 90: a number, or text by the GET `lat` rules; another type is that row's 400. Requires lon.",
    example: 29.9511,
  })
  lat?: number | string;

  @ApiPropertyOptional({
    anyOf: [{ type: 'number' }, { type: 'string' }, ...otherJsonTypes('number', 'string')],
    description: "Longitude, -180 to 180: a number, or text by the GET `lon` rules; another type is that row's 400. Requires lat.",
    example: -90.0715,
  })
  lon?: number | string;

  @ApiPropertyOptional({
    anyOf: [...FOOTPRINT_SCHEMAS, ...otherJsonTypes()],
    description:
      `Optional: ${FOOTPRINT_RULES.replace('Otherwise a 400', "Otherwise that row's 400")} The row is then answered for this building (as POST /flood-zone ` +
      'answers it, include=structure implied); null is not given.',
  })
  footprint?: GeoJsonPolygonDto | GeoJsonMultiPolygonDto | GeoJsonFootprintFeatureDto | null;
}

export class BatchRequestDto {
  // Neither required nor only an array: a body without a `locations` array is the service's 400 INVALID_BATCH, not a gateway's 422.
  @ApiPropertyOptional({
    anyOf: [{ type: 'array', items: { anyOf: [{ $ref: getSchemaPath(BatchLocationDto) }, ...otherJsonTypes('object')] } }, ...otherJsonTypes('array')],
    description:
      'The locations, answered in this order: at least one (none, or no `locations` array, is a 400 INVALID_BATCH) and at most ' +
      "BATCH_MAX_LOCATIONS (a 413). A malformed element is its own row's 400, never the whole request's.",
  })
  locations?: BatchLocationDto[];
}

/** The `text/csv` body as OpenAPI shows it. */
export const CSV_BATCH_EXAMPLE =
  'id,address,lat,lon,footprint\nr1,"1600 Pennsylvania Ave NW, Washington, DC 20500",,,\nr2,,29.9511,-90.0715,\n' +
  'r3,,38.898754,-77.03535,"{""type"":""Polygon"",""coordinates"":[[[-77.03565,38.898637],[-77.03565,38.898871],[-77.03505,38.898871],[-77.03505,38.898637],[-77.03565,38.898637]]]}"\n';
