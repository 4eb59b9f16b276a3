import { Injectable, PipeTransform } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import { refuseUnreadParameters } from '../../common/query-string';
import { WHOLE_NUMBER, compareMagnitude } from '../../lookup/dto/flood-zone-query.dto';
import { BUILDING_PARAMETERS, LOCATION_PARAMETERS, readBuildId, readLookupLocation } from '../../lookup/dto/lookup-parameters';
import type { LookupLocation } from '../../lookup/location-query';
import { PictureFrame, WEB_MERCATOR_MAX_LAT } from '../map-area';
import { PICTURE_LIMITS, PictureParameter } from './map-picture-query.dto';

/** What a picture is asked for: where, the building chosen there (if one was), and the frame around it. */
export type MapPictureQuery = LookupLocation & PictureFrame & { buildId?: string };

/** A point Web Mercator can draw: within 85.05° of the equator (every US place is). */
export function assertDrawable(lat: number): void {
  if (Math.abs(lat) > WEB_MERCATOR_MAX_LAT) {
    throw new ApiError(
      422,
      'COORDINATES_OUT_OF_RANGE',
      `The map picture can show latitudes from -${WEB_MERCATOR_MAX_LAT} to ${WEB_MERCATOR_MAX_LAT} (Web Mercator); GET /flood-zone answers for any latitude.`,
    );
  }
}

/** A size parameter of a picture (the report's `span` too), checked as `radius` is: given once (400), digits only (400), then its range (422). */
export function readPictureSize(raw: Record<string, unknown>, name: PictureParameter): number {
  const value = raw[name];
  const { default: fallback, min, max, unit } = PICTURE_LIMITS[name];
  if (value === undefined) return fallback;
  if (Array.isArray(value)) throw new ApiError(400, 'INVALID_PARAMETERS', `${name} is repeated; give it once`);
  if (typeof value !== 'string' || !WHOLE_NUMBER.test(value)) {
    throw new ApiError(400, 'INVALID_PARAMETERS', `${name} must be a whole number of ${unit} (digits only), from ${min} to ${max}`);
  }
  if (compareMagnitude(value, min) < 0 || compareMagnitude(value, max) > 0) {
    throw new ApiError(422, 'IMAGE_SIZE_OUT_OF_RANGE', `${name} must be from ${min} to ${max} ${unit}`);
  }
  return Number(value);
}

/** Every parameter GET /flood-zone/map reads: the location, the building chosen, and the picture's size and span. */
const MAP_PICTURE_PARAMETERS = [...LOCATION_PARAMETERS, ...BUILDING_PARAMETERS, ...(Object.keys(PICTURE_LIMITS) as PictureParameter[])];

/**
 * Checks GET /flood-zone/map parameters: none it does not read (400), the location exactly as GET /flood-zone checks
 * it (400, then 422), a point Web Mercator can draw, `buildId` as GET /flood-zone checks it, then `width`, `height`
 * and `span`. The first rule broken decides the answer.
 */
export function readMapPictureQuery(raw: Record<string, unknown>): MapPictureQuery {
  refuseUnreadParameters(raw, MAP_PICTURE_PARAMETERS);
  const location = readLookupLocation(raw);
  if (location.kind === 'point') assertDrawable(location.lat);
  const building = readBuildId(raw);
  return { ...location, ...building, width: readPictureSize(raw, 'width'), height: readPictureSize(raw, 'height'), spanM: readPictureSize(raw, 'span') };
}

/** GET /flood-zone/map parameters, checked by readMapPictureQuery. */
@Injectable()
export class MapPictureQueryPipe implements PipeTransform<Record<string, unknown>, MapPictureQuery> {
  transform(raw: Record<string, unknown>): MapPictureQuery {
    return readMapPictureQuery(raw);
  }
}
