import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { otherJsonTypes } from '../../common/other-json-types';
import { FOOTPRINT_MAX_AREA_SQ_M, FOOTPRINT_MAX_DISTANCE_M, FOOTPRINT_MAX_VERTICES } from '../../parts/structure/footprint-check';
import { ADDRESS_MAX_LENGTH, INCLUDE_PARAMETER, RADIUS_DEFAULT_M, RADIUS_MAX_M, RADIUS_MIN_M } from './flood-zone-query.dto';

/**
 * The body of POST /flood-zone as /openapi.json describes it: the GET /flood-zone parameters as JSON fields, plus the
 * footprint, a GeoJSON Polygon, MultiPolygon or Feature of one. As for the batch body, each field also admits every
 * other JSON type after its own, so that a validating gateway forwards a wrong value and the client gets the
 * service's 400 naming the field, or the footprint's rule, rather than the gateway's own 422.
 */

/** A [longitude, latitude] position in WGS84 degrees; an altitude may follow, and is not read. */
const POSITION = { type: 'array' as const, items: { type: 'number' as const }, minItems: 2, maxItems: 3 };
/** A closed ring: at least 4 positions, the last the first again. */
const RING = { type: 'array' as const, items: POSITION, minItems: 4 };

/** The White House footprint, about 52 by 26 m, around the point of the GET /flood-zone examples (38.898754, -77.03535). */
const WHITE_HOUSE_RING = [
  [-77.03565, 38.898637],
  [-77.03565, 38.898871],
  [-77.03505, 38.898871],
  [-77.03505, 38.898637],
  [-77.03565, 38.898637],
];

export class GeoJsonPolygonDto {
  @ApiProperty({ enum: ['Polygon'], example: 'Polygon' })
  type: 'Polygon';

  @ApiProperty({
    type: 'array',
    items: RING,
    minItems: 1,
    description: 'The outer ring, then any holes; each ring closed (its last position the first again), positions [longitude, latitude] in WGS84 degrees.',
    example: [WHITE_HOUSE_RING],
  })
  coordinates: number[][][];
}

export class GeoJsonMultiPolygonDto {
  @ApiProperty({ enum: ['MultiPolygon'], example: 'MultiPolygon' })
  type: 'MultiPolygon';

  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: RING, minItems: 1 },
    minItems: 1,
    description: "Polygons (a building and its annexes), each as a Polygon's coordinates.",
    example: [[WHITE_HOUSE_RING]],
  })
  coordinates: number[][][][];
}

export class GeoJsonFootprintFeatureDto {
  @ApiProperty({ enum: ['Feature'], example: 'Feature' })
  type: 'Feature';

  @ApiProperty({ anyOf: [{ $ref: getSchemaPath(GeoJsonPolygonDto) }, { $ref: getSchemaPath(GeoJsonMultiPolygonDto) }], description: 'The footprint.' })
  geometry: GeoJsonPolygonDto | GeoJsonMultiPolygonDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true, description: 'Not read.' })
  properties?: Record<string, unknown> | null;
}

/** The GeoJSON a footprint may be, as OpenAPI schemas. */
export const FOOTPRINT_SCHEMAS = [
  { $ref: getSchemaPath(GeoJsonPolygonDto) },
  { $ref: getSchemaPath(GeoJsonMultiPolygonDto) },
  { $ref: getSchemaPath(GeoJsonFootprintFeatureDto) },
];

/** What a footprint must be, in words (POST /flood-zone, and a batch or job row). */
export const FOOTPRINT_RULES =
  "the building's (or parcel's) outline, a GeoJSON Polygon, MultiPolygon or a Feature of one, in WGS84 longitude/latitude " +
  `(not projected), every ring closed, no ring crossing itself or another, at most ${FOOTPRINT_MAX_VERTICES} vertices and ` +
  `${FOOTPRINT_MAX_AREA_SQ_M / 1_000_000} km², within ${FOOTPRINT_MAX_DISTANCE_M} m of the location. Otherwise a 400 INVALID_FOOTPRINT saying which rule failed.`;

export class FootprintLookupDto {
  @ApiPropertyOptional({
    anyOf: [{ type: 'string' }, ...otherJsonTypes('string')],
    description: `US street address, as GET \`address\` (at most ${ADDRESS_MAX_LENGTH} characters). Not together with lat/lon.`,
    example: '1600 Pennsylvania Ave NW, Washington, DC 20500',
  })
  address?: string;

  @ApiPropertyOptional({
    anyOf: [{ type: 'number' }, { type: 'string' }, ...otherJsonTypes('number', 'string')],
    description: 'Latitude, -90 to 90: a number, or text by the GET `lat` rules. Requires lon.',
    example: 38.898754,
  })
  lat?: number | string;

  @ApiPropertyOptional({
    anyOf: [{ type: 'number' }, { type: 'string' }, ...otherJsonTypes('number', 'string')],
    description: 'Longitude, -180 to 180: a number, or text by the GET `lon` rules. Requires lat.',
    example: -77.03535,
  })
  lon?: number | string;

  @ApiPropertyOptional({
    anyOf: [{ type: 'array', items: INCLUDE_PARAMETER.items }, ...otherJsonTypes('array')],
    description: 'Opt-in parts of the answer, as GET `include` but a JSON list (`["nearby", "cbrs"]`); the building part is asked for by the footprint itself.',
    example: ['nearby'],
  })
  include?: string[];

  @ApiPropertyOptional({
    anyOf: [{ type: 'number' }, { type: 'string' }, ...otherJsonTypes('number', 'string')],
    description: `Search radius in metres for include nearby, a whole number from ${RADIUS_MIN_M} to ${RADIUS_MAX_M}; ${RADIUS_DEFAULT_M} when not given. As GET \`radius\`.`,
    example: 300,
  })
  radius?: number | string;

  // Not declared required, nor only a footprint: a missing or malformed one is the service's 400 INVALID_FOOTPRINT naming the rule.
  @ApiPropertyOptional({
    anyOf: [...FOOTPRINT_SCHEMAS, ...otherJsonTypes()],
    description: `Needed: ${FOOTPRINT_RULES}`,
    example: { type: 'Polygon', coordinates: [WHITE_HOUSE_RING] },
  })
  footprint?: GeoJsonPolygonDto | GeoJsonMultiPolygonDto | GeoJsonFootprintFeatureDto;
}

/** The media types of the POST /flood-zone body. */
export const FOOTPRINT_LOOKUP_BODY_CONTENT = {
  'application/json': {
    schema: { anyOf: [{ $ref: getSchemaPath(FootprintLookupDto) }, ...otherJsonTypes('object')] },
    example: { lat: 38.898754, lon: -77.03535, footprint: { type: 'Polygon', coordinates: [WHITE_HOUSE_RING] }, include: ['nearby'] },
  },
  // Any other type, so that a validating gateway forwards it and the client gets the service's 415. Last: a typed client sends the first.
  '*/*': { schema: {} },
};
