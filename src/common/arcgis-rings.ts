/**
 * ArcGIS polygon rings as a MapServer or FeatureServer returns them with outSR 4326: lists of [lon, lat], outer rings
 * clockwise and holes counter-clockwise, not grouped into parts. Pure geometry, shared by the flood zones and the
 * buildings measured against them.
 */
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type CheapRuler from 'cheap-ruler';
import type { GeoPoint } from './geo-point';

/** A [lon, lat] vertex. */
export type RingVertex = [number, number];

/** The ring's usable vertices, ending where they start (ArcGIS closes rings, but not every writer does). */
export function closeRing(ring: number[][]): RingVertex[] {
  const vertices = ring.filter(
    (vertex): vertex is RingVertex => Array.isArray(vertex) && vertex.length >= 2 && Number.isFinite(vertex[0]) && Number.isFinite(vertex[1]),
  );
  if (vertices.length === 0) return vertices;
  const [first] = vertices;
  const last = vertices[vertices.length - 1];
  return first[0] === last[0] && first[1] === last[1] ? vertices : [...vertices, first];
}

/**
 * Metres from the point to the polygon: 0 inside, otherwise to its nearest edge (outer or hole).
 * ArcGIS rings are not grouped into parts, so inside is decided by the even-odd rule over all rings:
 * a point in a hole lies inside two rings, which is outside the polygon.
 */
export function metresToRings(ruler: CheapRuler, point: GeoPoint, rings: number[][][]): number {
  const origin: RingVertex = [point.lon, point.lat];
  const closedRings = rings.map(closeRing).filter((ring) => ring.length >= 2);
  const containing = closedRings.filter((ring) => ring.length >= 4 && booleanPointInPolygon(origin, { type: 'Polygon', coordinates: [ring] })).length;
  if (containing % 2 === 1) return 0;
  return Math.min(...closedRings.map((ring) => ruler.pointOnLine(ring, origin).dist));
}
