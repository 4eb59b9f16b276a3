import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNumber, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';

/** A plain finite decimal: optional sign, digits, optional fraction. No hex, exponent, NaN or Infinity. */
const PLAIN_DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/** Query strings arrive as text; a coordinate becomes a number only when written as a plain decimal. */
const toCoordinate = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && PLAIN_DECIMAL.test(value) ? Number(value) : value;

export const ADDRESS_MAX_LENGTH = 200;

/** Messages of range checks; they decide 422 rather than 400 (CONTRACT section 2, step 6). */
export const RANGE_CONSTRAINTS = new Set(['min', 'max']);

/**
 * GET /flood-zone parameters. Give `address`, or both `lat` and `lon`. Unknown extra parameters are
 * ignored (clients add cache busters).
 */
export class FloodZoneQueryDto {
  @ApiPropertyOptional({
    description: 'US street address, geocoded with the keyless U.S. Census geocoder. Not together with lat/lon.',
    maxLength: ADDRESS_MAX_LENGTH,
    type: String,
  })
  @ValidateIf((query: FloodZoneQueryDto) => query.address !== undefined)
  @IsString({ message: 'address must be given once, as text' })
  @Matches(/\S/, { message: 'address must not be empty' })
  @MaxLength(ADDRESS_MAX_LENGTH, { message: `address must be at most ${ADDRESS_MAX_LENGTH} characters` })
  // eslint-disable-next-line no-control-regex
  @Matches(/^[^\u0000-\u001f\u007f-\u009f]*$/, { message: 'address must not contain control characters' })
  address?: string;

  @ApiPropertyOptional({
    description: 'Latitude in decimal degrees (WGS84), -90 to 90, written as a plain decimal. Requires lon.',
    minimum: -90,
    maximum: 90,
    type: Number,
  })
  @ValidateIf((query: FloodZoneQueryDto) => query.lat !== undefined)
  @Transform(toCoordinate)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lat must be a plain decimal number such as 38.8987, given once' })
  @Min(-90, { message: 'lat must be between -90 and 90' })
  @Max(90, { message: 'lat must be between -90 and 90' })
  lat?: number;

  @ApiPropertyOptional({
    description: 'Longitude in decimal degrees (WGS84), -180 to 180, written as a plain decimal. Requires lat.',
    minimum: -180,
    maximum: 180,
    type: Number,
  })
  @ValidateIf((query: FloodZoneQueryDto) => query.lon !== undefined)
  @Transform(toCoordinate)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lon must be a plain decimal number such as -77.0352, given once' })
  @Min(-180, { message: 'lon must be between -180 and 180' })
  @Max(180, { message: 'lon must be between -180 and 180' })
  lon?: number;
}
