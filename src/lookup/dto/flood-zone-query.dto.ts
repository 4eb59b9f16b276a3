import { ApiPropertyOptional } from '@nestjs/swagger';
import { INCLUDE_ITEMS, INCLUDED_PARTS, IncludeItem } from '../../parts/answer-parts';
import { IsString, Matches, MaxLength, ValidateBy, ValidateIf, ValidationArguments, ValidationOptions } from 'class-validator';

/** A plain finite decimal: optional sign, digits, optional fraction. No hex, exponent, NaN or Infinity. */
export const PLAIN_DECIMAL = /^[+-]?\d+(\.\d+)?$/;
export const WHOLE_NUMBER = /^\d+$/;
/** No C0 or C1 control characters, DEL included. */
// eslint-disable-next-line no-control-regex
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;

export const ADDRESS_MAX_LENGTH = 200;
/** The largest magnitude of a latitude and of a longitude, in decimal degrees (WGS84). */
export const LAT_MAX_DEGREES = 90;
export const LON_MAX_DEGREES = 180;
export const RADIUS_DEFAULT_M = 500;
export const RADIUS_MIN_M = 10;
export const RADIUS_MAX_M = 2000;
/** A USA Structures BUILD_ID: a whole number (the layer's integer field), at most this many digits. */
export const BUILD_ID = /^\d{1,12}$/;

/** Names of the range checks; they decide 422 rather than 400 (an out-of-range value is well formed, only not allowed). */
export const RANGE_CONSTRAINTS = new Set(['magnitudeAtMost', 'wholeWithin']);

/**
 * Compares the magnitude of a decimal written as text with a whole number, digit by digit: the text is
 * the client's value, and rounding it to a double first would let 90.0000000000000000001 pass as 90.
 */
export function compareMagnitude(decimal: string, whole: number): -1 | 0 | 1 {
  const [integer, fraction = ''] = decimal.replace(/^[+-]/, '').split('.');
  const digits = integer.replace(/^0+(?=\d)/, '');
  const bound = String(whole);
  if (digits.length !== bound.length) return digits.length < bound.length ? -1 : 1;
  if (digits !== bound) return digits < bound ? -1 : 1;
  return /^0*$/.test(fraction) ? 0 : 1;
}

/** The items of an `include` list as given (empty items kept, so that they can be refused). */
export const includeItems = (include: string): string[] => include.split(',');

/** Whether `item` names an opt-in part. */
export const isIncludeItem = (item: string): item is IncludeItem => (INCLUDE_ITEMS as readonly string[]).includes(item);

/** Format message, or the "repeated" message when the parameter came several times (an array). */
const onceAs =
  (name: string, format: string, how = '') =>
  (args: ValidationArguments) =>
    Array.isArray(args.value) ? `${name} is repeated; give it once${how}` : format;

function MagnitudeAtMost(limit: number, options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'magnitudeAtMost',
      // Only a well-formed decimal has a range; the format checks report the rest.
      validator: { validate: (value: unknown) => typeof value !== 'string' || !PLAIN_DECIMAL.test(value) || compareMagnitude(value, limit) <= 0 },
    },
    options,
  );
}

function WholeWithin(min: number, max: number, options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'wholeWithin',
      validator: {
        validate: (value: unknown) =>
          typeof value !== 'string' || !WHOLE_NUMBER.test(value) || (compareMagnitude(value, min) >= 0 && compareMagnitude(value, max) <= 0),
      },
    },
    options,
  );
}

function RequiresNearby(options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'requiresNearby',
      validator: {
        validate: (_value: unknown, args?: ValidationArguments) => {
          const include = (args?.object as FloodZoneQueryDto | undefined)?.include;
          return typeof include === 'string' && includeItems(include).includes('nearby');
        },
      },
    },
    options,
  );
}

function IncludeList(options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'includeList', validator: { validate: (value: unknown) => typeof value !== 'string' || includeItems(value).every(isIncludeItem) } },
    options,
  );
}

const ALLOWED_PARTS = INCLUDE_ITEMS.join(', ');

/**
 * `include` and `radius` as /openapi.json describes them, for GET /flood-zone and the batch alike. `include` is an
 * array of the allowed parts in form style without explode (`include=nearby,cbrs`), so a generated client sends
 * exactly what the service reads. `radius` has no `default`: a client generator would send it on every lookup,
 * and radius without include=nearby is a 400.
 */
export const INCLUDE_PARAMETER = {
  description:
    `Opt-in parts of the answer, comma-separated, lower case, given once: ` +
    INCLUDED_PARTS.map((part) => `\`${part.include}\`: ${part.description}`).join('; ') +
    '.',
  type: 'array' as const,
  items: { type: 'string' as const, enum: [...INCLUDE_ITEMS] },
  style: 'form' as const,
  explode: false,
  example: ['nearby', 'cbrs'],
};

/**
 * A number a client may also give as text. A validating gateway answers every request its schema refuses with its
 * own 422, while the service answers text that is not a plain decimal (`lat=abc`, `radius=1.5`) 400 and an
 * out-of-range number 422: the text branch lets the gateway forward both, so the client gets the service's answer,
 * and the number branch keeps a generated client's parameter a number with its range.
 */
const numberOrText = (number: { type: 'number' | 'integer'; minimum: number; maximum: number }) => ({ anyOf: [number, { type: 'string' as const }] });

export const RADIUS_PARAMETER = {
  description:
    `Search radius in metres for include=nearby, a whole number from ${RADIUS_MIN_M} to ${RADIUS_MAX_M}; ${RADIUS_DEFAULT_M} when not given. ` +
    'Only with include=nearby. Text other than digits is answered 400 INVALID_PARAMETERS by the service.',
  ...numberOrText({ type: 'integer', minimum: RADIUS_MIN_M, maximum: RADIUS_MAX_M }),
};

const BUILD_ID_MESSAGE = 'buildId must be a USA Structures BUILD_ID: a whole number of at most 12 digits, given once';

/** `buildId`: the building chosen among those near the location, as GET /flood-zone, its report and its picture read it. */
export const BUILD_ID_PARAMETER = {
  description:
    'The building to answer for: a USA Structures BUILD_ID (as `result.structure.buildId` or `candidates` name it) of a building within reach of the location ' +
    '(STRUCTURE_SEARCH_M, 40 m by default, for coordinates too). The answer is then for that building (`result.structure.match` `chosen`; include=structure ' +
    'is implied); a building not within reach is answered 422 BUILDING_NOT_FOUND. Digits only, given once.',
  type: String,
  example: '17235205',
};

/**
 * GET /flood-zone parameters, as the query string gives them: text, or an array when repeated. Give
 * `address`, or both `lat` and `lon`. Unknown extra parameters are ignored (clients add cache busters).
 */
export class FloodZoneQueryDto {
  @ApiPropertyOptional({
    // The length limit is said, not declared: the service answers a longer address 400, a gateway checking maxLength 422.
    description: `US street address, geocoded with the keyless U.S. Census geocoder, at most ${ADDRESS_MAX_LENGTH} characters. Not together with lat/lon.`,
    type: String,
  })
  @ValidateIf((query: FloodZoneQueryDto) => query.address !== undefined)
  @IsString({ message: onceAs('address', 'address must be text') })
  @Matches(/\S/, { message: 'address must not be empty' })
  @MaxLength(ADDRESS_MAX_LENGTH, { message: `address must be at most ${ADDRESS_MAX_LENGTH} characters` })
  @ValidateBy(
    { name: 'noControlCharacters', validator: { validate: (value: unknown) => typeof value !== 'string' || NO_CONTROL_CHARACTERS.test(value) } },
    { message: 'address must not contain control characters' },
  )
  address?: unknown;

  @ApiPropertyOptional({
    description: `Latitude in decimal degrees (WGS84), -${LAT_MAX_DEGREES} to ${LAT_MAX_DEGREES}, written as a plain decimal (digits, an optional sign and fraction). Requires lon. Other text is answered 400 INVALID_PARAMETERS by the service.`,
    ...numberOrText({ type: 'number', minimum: -LAT_MAX_DEGREES, maximum: LAT_MAX_DEGREES }),
  })
  @ValidateIf((query: FloodZoneQueryDto) => query.lat !== undefined)
  @IsString({ message: onceAs('lat', 'lat must be a plain decimal number such as 38.8987') })
  @Matches(PLAIN_DECIMAL, { message: 'lat must be a plain decimal number such as 38.8987, given once' })
  @MagnitudeAtMost(LAT_MAX_DEGREES, { message: `lat must be between -${LAT_MAX_DEGREES} and ${LAT_MAX_DEGREES}` })
  lat?: unknown;

  @ApiPropertyOptional({
    description: `Longitude in decimal degrees (WGS84), -${LON_MAX_DEGREES} to ${LON_MAX_DEGREES}, written as a plain decimal (digits, an optional sign and fraction). Requires lat. Other text is answered 400 INVALID_PARAMETERS by the service.`,
    ...numberOrText({ type: 'number', minimum: -LON_MAX_DEGREES, maximum: LON_MAX_DEGREES }),
  })
  @ValidateIf((query: FloodZoneQueryDto) => query.lon !== undefined)
  @IsString({ message: onceAs('lon', 'lon must be a plain decimal number such as -77.0352') })
  @Matches(PLAIN_DECIMAL, { message: 'lon must be a plain decimal number such as -77.0352, given once' })
  @MagnitudeAtMost(LON_MAX_DEGREES, { message: `lon must be between -${LON_MAX_DEGREES} and ${LON_MAX_DEGREES}` })
  lon?: unknown;

  @ApiPropertyOptional(INCLUDE_PARAMETER)
  @ValidateIf((query: FloodZoneQueryDto) => query.include !== undefined)
  @IsString({ message: onceAs('include', `include must list some of ${ALLOWED_PARTS}`, `, as a comma-separated list of ${ALLOWED_PARTS}`) })
  @IncludeList({ message: `include must be a comma-separated list of ${ALLOWED_PARTS} (lower case, no empty item)` })
  include?: unknown;

  @ApiPropertyOptional(RADIUS_PARAMETER)
  @ValidateIf((query: FloodZoneQueryDto) => query.radius !== undefined)
  @RequiresNearby({ message: 'radius applies only with include=nearby' })
  @IsString({ message: onceAs('radius', 'radius must be a whole number of metres') })
  @Matches(WHOLE_NUMBER, { message: 'radius must be a whole number of metres (digits only)' })
  @WholeWithin(RADIUS_MIN_M, RADIUS_MAX_M, { message: `radius must be between ${RADIUS_MIN_M} and ${RADIUS_MAX_M} metres` })
  radius?: unknown;

  @ApiPropertyOptional(BUILD_ID_PARAMETER)
  @ValidateIf((query: FloodZoneQueryDto) => query.buildId !== undefined)
  @IsString({ message: onceAs('buildId', BUILD_ID_MESSAGE) })
  @Matches(BUILD_ID, { message: BUILD_ID_MESSAGE })
  buildId?: unknown;
}
