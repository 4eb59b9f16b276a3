/**
 * A footprint's plain geometry, the same for the zones over it, the check of a caller's footprint, the lender's form
 * and the map picture: its polygons, its bounding box and how far a point lies from it. Pure functions: no I/O.
 */
import { createHash } from 'node:crypto';
import type CheapRuler from 'cheap-ruler';
import { metresToRings } from '../../common/arcgis-rings';
import type { GeoPoint } from '../../common/geo-point';
import type { Footprint, LonLat } from './structure.types';

/** A polygon as GeoJSON nests it: its outer ring, then its holes. */
export type PolygonRings = LonLat[][];

/** [west, south, east, north] in degrees. */
export type Box = [number, number, number, number];

/** The footprint's polygons, one for a Polygon. */
export function polygonsOfFootprint(footprint: Footprint): PolygonRings[] {
  return footprint.type === 'Polygon' ? [footprint.coordinates] : footprint.coordinates;
}

/** The box around the polygons' outer rings (holes lie within them). */
export function boxOf(polygons: PolygonRings[]): Box {
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [outer] of polygons) {
    for (const [lon, lat] of outer) {
      box[0] = Math.min(box[0], lon);
      box[1] = Math.min(box[1], lat);
      box[2] = Math.max(box[2], lon);
      box[3] = Math.max(box[3], lat);
    }
  }
  return box;
}

/** The footprint's bounding box. */
export function footprintBox(footprint: Footprint): Box {
  return boxOf(polygonsOfFootprint(footprint));
}

/** Metres from the point to the footprint: 0 inside it, else to its nearest edge, measured with `ruler` (metres). */
export function metresToFootprint(ruler: CheapRuler, point: GeoPoint, footprint: Footprint): number {
  return Math.min(...polygonsOfFootprint(footprint).map((rings) => metresToRings(ruler, point, rings)));
}

/** A short key naming the footprint exactly (its positions as given), for what is cached about it. */
export function footprintKey(footprint: Footprint): string {
  return createHash('sha256').update(JSON.stringify(footprint)).digest('base64url');
}
