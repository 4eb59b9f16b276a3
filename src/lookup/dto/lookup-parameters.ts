import { maxLength, validateSync } from 'class-validator';
import { ApiError } from '../../common/api-error';
import { refuseBracketedParameters } from '../../common/query-string';
import {
  ADDRESS_MAX_LENGTH,
  BUILD_ID,
  FloodZoneQueryDto,
  LAT_MAX_DEGREES,
  LON_MAX_DEGREES,
  NO_CONTROL_CHARACTERS,
  PLAIN_DECIMAL,
  RADIUS_DEFAULT_M,
  RADIUS_MAX_M,
  RADIUS_MIN_M,
  RANGE_CONSTRAINTS,
  WHOLE_NUMBER,
  compareMagnitude,
  includeItems,
  isIncludeItem,
} from './flood-zone-query.dto';
import type { LocationQuery, LookupLocation, LookupOptions } from '../location-query';
import type { IncludeItem } from '../../parts/answer-parts';

type RawQuery = Record<string, unknown>;
type Parameter = keyof FloodZoneQueryDto;

const invalid = (message: string) => new ApiError(400, 'INVALID_PARAMETERS', message);

/** The parameters readLookupLocation reads. */
export const LOCATION_PARAMETERS: readonly Parameter[] = ['address', 'lat', 'lon'];
/** The parameters readLookupOptions reads. */
export const OPTION_PARAMETERS: readonly Parameter[] = ['include', 'radius'];
/** The parameter readBuildId reads: the building chosen, for an endpoint answering for one location. */
export const BUILDING_PARAMETERS: readonly Parameter[] = ['buildId'];

/**
 * The message of a rejected parameter, from the DTO's class-validator rules (which also describe the
 * parameters in /openapi.json). Only a rejected query pays for class-validator: the checks below
 * decide on their own whether a query is valid.
 */
function problemWith(raw: RawQuery, parameter: Parameter, kind: 'format' | 'range'): string {
  const dto = Object.assign(new FloodZoneQueryDto(), { [parameter]: raw[parameter], include: raw.include });
  const error = validateSync(dto).find((e) => e.property === parameter);
  // class-validator lists a property's constraints bottom decorator first: the last is the first rule.
  const constraints = Object.entries(error?.constraints ?? {}).reverse();
  const found = constraints.find(([name]) => RANGE_CONSTRAINTS.has(name) === (kind === 'range'));
  return found?.[1] ?? `${parameter} is not valid`;
}

/** The length is counted in characters, as the DTO's MaxLength counts it (an emoji is one, not two UTF-16 units). */
const isAddress = (value: unknown): value is string =>
  typeof value === 'string' && /\S/.test(value) && maxLength(value, ADDRESS_MAX_LENGTH) && NO_CONTROL_CHARACTERS.test(value);
const isDecimal = (value: unknown): value is string => typeof value === 'string' && PLAIN_DECIMAL.test(value);

/**
 * Where a lookup is asked for, the location rules in their documented order (docs/api.md; the first rule
 * broken decides: 400 for a missing, conflicting or malformed location, 422 for an in-format coordinate out
 * of range). Throws ApiError.
 */
export function readLookupLocation(raw: RawQuery): LookupLocation {
  const { address, lat, lon } = raw;
  if (address === undefined && lat === undefined && lon === undefined) throw invalid('Give an address, or both lat and lon.');
  if (address !== undefined && (lat !== undefined || lon !== undefined)) throw invalid('Give either address, or lat and lon, not both.');
  if (address !== undefined) {
    if (!isAddress(address)) throw invalid(problemWith(raw, 'address', 'format'));
    return { kind: 'address', address };
  }
  if (lat === undefined || lon === undefined) throw invalid('lat and lon must be given together.');
  if (!isDecimal(lat)) throw invalid(problemWith(raw, 'lat', 'format'));
  if (!isDecimal(lon)) throw invalid(problemWith(raw, 'lon', 'format'));
  if (compareMagnitude(lat, LAT_MAX_DEGREES) > 0) throw new ApiError(422, 'COORDINATES_OUT_OF_RANGE', problemWith(raw, 'lat', 'range'));
  if (compareMagnitude(lon, LON_MAX_DEGREES) > 0) throw new ApiError(422, 'COORDINATES_OUT_OF_RANGE', problemWith(raw, 'lon', 'range'));
  return { kind: 'point', lat: Number(lat), lon: Number(lon) };
}

/** What beyond the point is asked for (include, radius), checked after the location (docs/api.md). Throws ApiError. */
export function readLookupOptions(raw: RawQuery): LookupOptions {
  const include = new Set<IncludeItem>();
  if (raw.include !== undefined) {
    if (typeof raw.include !== 'string') throw invalid(problemWith(raw, 'include', 'format'));
    for (const item of includeItems(raw.include)) {
      if (!isIncludeItem(item)) throw invalid(problemWith(raw, 'include', 'format'));
      include.add(item);
    }
  }
  if (raw.radius === undefined) return { include, radiusM: RADIUS_DEFAULT_M };
  const radius = raw.radius;
  if (!include.has('nearby') || typeof radius !== 'string' || !WHOLE_NUMBER.test(radius)) {
    throw invalid(problemWith(raw, 'radius', 'format'));
  }
  if (compareMagnitude(radius, RADIUS_MIN_M) < 0 || compareMagnitude(radius, RADIUS_MAX_M) > 0) {
    throw new ApiError(422, 'RADIUS_OUT_OF_RANGE', problemWith(raw, 'radius', 'range'));
  }
  return { include, radiusM: Number(radius) };
}

/** The building the caller chose (`buildId`, checked after the options): a BUILD_ID, or none. Throws ApiError. */
export function readBuildId(raw: RawQuery): { buildId?: string } {
  const { buildId } = raw;
  if (buildId === undefined) return {};
  if (typeof buildId !== 'string' || !BUILD_ID.test(buildId)) throw invalid(problemWith(raw, 'buildId', 'format'));
  return { buildId };
}

/**
 * GET /flood-zone's query (and the cached path's): a name with brackets refused first (other unknown names are let
 * go), then the location, the options and the building chosen by their rules, in their order. Throws ApiError.
 */
export function readLookupQuery(raw: RawQuery): LocationQuery {
  refuseBracketedParameters(raw, [...LOCATION_PARAMETERS, ...OPTION_PARAMETERS, ...BUILDING_PARAMETERS]);
  return { ...readLookupLocation(raw), ...readLookupOptions(raw), ...readBuildId(raw) };
}

/** The query of an endpoint that takes the options alone (the batch): a name with brackets refused first, then the options. Throws ApiError. */
export function readOptionsQuery(raw: RawQuery): LookupOptions {
  refuseBracketedParameters(raw, OPTION_PARAMETERS);
  return readLookupOptions(raw);
}
