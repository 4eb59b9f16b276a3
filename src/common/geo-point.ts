/** A point in WGS84 degrees. */
export interface GeoPoint {
  lat: number;
  lon: number;
}

/**
 * Whether a point is on the earth: latitude -90 to 90, longitude -180 to 180, the range the API takes from a caller.
 * An upstream's point outside it (NaN included) is a fault of that upstream, never a place to answer for.
 */
export function isOnEarth({ lat, lon }: GeoPoint): boolean {
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

/** An upstream's failure when it gives a point off the earth (see isOnEarth). */
export const OFF_THE_EARTH = 'coordinates off the earth (lat -90 to 90, lon -180 to 180)';

/** An envelope in WGS84: west, south, east, north. */
export type LonLatBox = readonly [number, number, number, number];

/** A point rounded to 6 decimals (about 0.1 m): every query rounding alike shares one answer. */
export function roundPoint(point: GeoPoint): GeoPoint {
  return { lat: Math.round(point.lat * 1e6) / 1e6, lon: Math.round(point.lon * 1e6) / 1e6 };
}

/** The cache key of a point already rounded by `roundPoint`. */
export function pointKey(point: GeoPoint): string {
  return `${point.lat.toFixed(6)},${point.lon.toFixed(6)}`;
}
