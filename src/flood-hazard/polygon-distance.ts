/**
 * How far a point lies from a polygon, on the ground: for the flood hazards near a point and for a building's
 * footprint alike. Pure functions: no I/O.
 */
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type CheapRuler from 'cheap-ruler';
import type { GeoPoint } from './flood-hazard.types';

/**
 * Metres from the point to the polygon: 0 inside, otherwise to its nearest edge (outer or hole), measured with
 * `ruler` (a CheapRuler in metres at about the point's latitude). The rings need not be grouped into parts (ArcGIS
 * rings are not), so inside is decided by the even-odd rule over all rings: a point in a hole lies inside two rings,
 * which is outside the polygon.
 */
export function distanceToPolygon(ruler: CheapRuler, point: GeoPoint, rings: number[][][]): number {
  const origin: [number, number] = [point.lon, point.lat];
  const closedRings = rings.map(closeRing).filter((ring) => ring.length >= 2);
  const containing = closedRings.filter((ring) => ring.length >= 4 && booleanPointInPolygon(origin, { type: 'Polygon', coordinates: [ring] })).length;
  if (containing % 2 === 1) return 0;
  return Math.min(...closedRings.map((ring) => ruler.pointOnLine(ring, origin).dist));
}

/** The ring's usable vertices, ending where they start (ArcGIS closes rings, but not every writer does). */
function closeRing(ring: number[][]): [number, number][] {
  const vertices = ring.filter(
    (vertex): vertex is [number, number] => Array.isArray(vertex) && vertex.length >= 2 && Number.isFinite(vertex[0]) && Number.isFinite(vertex[1]),
  );
  if (vertices.length === 0) return vertices;
  const [first] = vertices;
  const last = vertices[vertices.length - 1];
  return first[0] === last[0] && first[1] === last[1] ? vertices : [...vertices, first];
}
