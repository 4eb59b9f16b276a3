/** A point in WGS84 degrees. */
export interface GeoPoint {
  lat: number;
  lon: number;
}

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
