/**
 * The URLs a report page carries, all relative to this service: the same answer as JSON (the equivalent
 * GET /flood-zone) and the report of a match of an ambiguous address; and the map picture the page embeds. Pure.
 */
import { RADIUS_DEFAULT_M } from '../lookup/dto/flood-zone-query.dto';
import { LOOKUP_PATH } from '../lookup/answer-cache';
import type { LocationQuery, LookupLocation } from '../lookup/location-query';
import { INCLUDE_ITEMS } from '../parts/answer-parts';
import type { GeoPoint } from '../flood-hazard/flood-hazard.types';
import type { MapPictureQuery } from '../map-picture/dto/map-picture-query.pipe';
import { WEB_MERCATOR_MAX_LAT } from '../map-picture/map-area';

export const REPORT_PATH = `${LOOKUP_PATH}/report`;

/** The picture's size in pixels: drawn a little larger than it shows on the page, so its words stay sharp in print. */
export const PICTURE_SIZE = { width: 560, height: 360 } as const;

/**
 * A coordinate as a plain decimal, the form the service reads back: JavaScript writes very small numbers with an
 * exponent (1e-7), which the location rules refuse.
 */
export function plainDecimal(value: number): string {
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}

/** The location parameters: the address as asked, or the point. */
function locationParameters(query: LocationQuery): string[] {
  return query.kind === 'address' ? [`address=${encodeURIComponent(query.address)}`] : [`lat=${plainDecimal(query.lat)}`, `lon=${plainDecimal(query.lon)}`];
}

/** The GET /flood-zone URL whose answer the report shows: the same location, the parts asked for, the radius when not the default. */
export function jsonAnswerUrl(query: LocationQuery): string {
  const include = INCLUDE_ITEMS.filter((item) => query.include.has(item));
  const parameters = [
    ...locationParameters(query),
    ...(include.length > 0 ? [`include=${include.join(',')}`] : []),
    ...(query.include.has('nearby') && query.radiusM !== RADIUS_DEFAULT_M ? [`radius=${query.radiusM}`] : []),
    ...(query.buildId === undefined ? [] : [`buildId=${query.buildId}`]),
  ];
  return `${LOOKUP_PATH}?${parameters.join('&')}`;
}

/**
 * The map picture of the report's location, as GET /flood-zone/map would be asked for it (so both share one
 * picture); null beyond the latitudes a Web Mercator map shows (no US place is).
 */
export function pictureQueryOf(query: LookupLocation & { spanM: number; buildId?: string }): MapPictureQuery | null {
  const location: LookupLocation = query.kind === 'point' ? { kind: 'point', lat: query.lat, lon: query.lon } : { kind: 'address', address: query.address };
  if (location.kind === 'point' && Math.abs(location.lat) > WEB_MERCATOR_MAX_LAT) return null;
  return { ...location, ...(query.buildId === undefined ? {} : { buildId: query.buildId }), ...PICTURE_SIZE, spanM: query.spanM };
}

/** The report of one match of an ambiguous address: the request's own parameters with the match's point instead of the address. */
export function candidateReportUrl(requestQuery: string, point: GeoPoint): string {
  const parameters = new URLSearchParams(requestQuery);
  parameters.delete('address');
  parameters.set('lat', plainDecimal(point.lat));
  parameters.set('lon', plainDecimal(point.lon));
  return `${REPORT_PATH}?${parameters.toString()}`;
}
