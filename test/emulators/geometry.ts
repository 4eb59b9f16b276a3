/**
 * Geometry for the upstream emulators: ArcGIS polygon `rings`, polyline `paths` and points in lon/lat
 * (x = lon, y = lat). Containment and envelope tests are planar (as ArcGIS does them in a geographic SR);
 * buffer distances are great-circle distances on the mean-radius sphere, from turf (the service measures on the
 * ellipsoid; the two differ by well under 0.5 %, and the demo map keeps its distances clear of that).
 *
 * ArcGIS polygons are a flat list of rings: outer rings (clockwise) and holes (counter-clockwise).
 * Containment uses the even-odd rule over all rings, which handles holes and multi-part polygons alike.
 * esriSpatialRelIntersects includes the boundary, so a point exactly on an edge or a vertex is contained;
 * that is what makes a point on the shared edge of two polygons (a "seam") hit both.
 */

import pointToLineDistance from '@turf/point-to-line-distance';
import pointToPolygonDistance from '@turf/point-to-polygon-distance';
import { lineString } from '@turf/helpers';

/** [x, y] = [lon, lat]. */
export type Position = [number, number];
/** A closed ring: first position repeated at the end (as ArcGIS and GeoJSON publish them). */
export type Ring = Position[];

/** The geometry of one ArcGIS feature: a polygon's `rings`, a polyline's `paths` or a `point`. */
export interface Shape {
  rings?: Ring[];
  paths?: Position[][];
  point?: Position;
}

export interface BBox {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

/** Tolerance for "on the edge", in degrees (~1 mm); ArcGIS' own xyTolerance for NFHL is ~9e-9. */
export const EDGE_TOLERANCE = 1e-8;

export function bboxOfRings(rings: Ring[]): BBox {
  let xmin = Infinity;
  let ymin = Infinity;
  let xmax = -Infinity;
  let ymax = -Infinity;
  for (const ring of rings) {
    for (const [x, y] of ring) {
      if (x < xmin) xmin = x;
      if (x > xmax) xmax = x;
      if (y < ymin) ymin = y;
      if (y > ymax) ymax = y;
    }
  }
  return { xmin, ymin, xmax, ymax };
}

export function bboxContains(b: BBox, x: number, y: number, tol = EDGE_TOLERANCE): boolean {
  return x >= b.xmin - tol && x <= b.xmax + tol && y >= b.ymin - tol && y <= b.ymax + tol;
}

/** True when (px, py) lies on segment a-b (within tol). */
export function pointOnSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number, tol = EDGE_TOLERANCE): boolean {
  if (px < Math.min(ax, bx) - tol || px > Math.max(ax, bx) + tol) return false;
  if (py < Math.min(ay, by) - tol || py > Math.max(ay, by) + tol) return false;
  const dx = bx - ax;
  const dy = by - ay;
  const len = Math.hypot(dx, dy);
  if (len === 0) return Math.hypot(px - ax, py - ay) <= tol;
  // distance from the point to the line through a-b
  const cross = dx * (py - ay) - dy * (px - ax);
  return Math.abs(cross) / len <= tol;
}

/** True when the point lies on any edge (or vertex) of any ring. */
export function pointOnBoundary(x: number, y: number, rings: Ring[], tol = EDGE_TOLERANCE): boolean {
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [ax, ay] = ring[j];
      const [bx, by] = ring[i];
      if (pointOnSegment(x, y, ax, ay, bx, by, tol)) return true;
    }
  }
  return false;
}

/** Even-odd crossing test over all rings (strict interior; the boundary is undefined here). */
export function pointInRingsEvenOdd(x: number, y: number, rings: Ring[]): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/**
 * esriSpatialRelIntersects for a point and a polygon: inside (even-odd over outer rings and holes) or on
 * the boundary (an edge or vertex of any ring, including a hole's).
 */
export function polygonIntersectsPoint(rings: Ring[], x: number, y: number, bbox?: BBox): boolean {
  if (bbox && !bboxContains(bbox, x, y)) return false;
  if (pointOnBoundary(x, y, rings)) return true;
  return pointInRingsEvenOdd(x, y, rings);
}

/** Shoelace signed area in square degrees: negative = clockwise (ArcGIS outer ring), positive = counter-clockwise (hole). */
export function signedArea(ring: Ring): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    a += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  }
  return a / 2;
}

/** Area (square degrees, outer minus holes) and perimeter (degrees), like NFHL's SHAPE.STArea() / SHAPE.STLength(). */
export function areaAndLength(rings: Ring[]): { area: number; length: number } {
  let area = 0;
  let length = 0;
  for (const ring of rings) {
    area += -signedArea(ring); // clockwise outer rings count positive, holes negative
    for (let i = 1; i < ring.length; i++) {
      length += Math.hypot(ring[i][0] - ring[i - 1][0], ring[i][1] - ring[i - 1][1]);
    }
  }
  return { area: Math.abs(area), length };
}

/** A clockwise (ArcGIS outer-ring orientation) closed rectangle. */
export function rectRing(xmin: number, ymin: number, xmax: number, ymax: number): Ring {
  return [
    [xmin, ymin],
    [xmin, ymax],
    [xmax, ymax],
    [xmax, ymin],
    [xmin, ymin],
  ];
}

/** A counter-clockwise closed rectangle (a hole, in ArcGIS orientation). */
export function rectHole(xmin: number, ymin: number, xmax: number, ymax: number): Ring {
  return rectRing(xmin, ymin, xmax, ymax).slice().reverse();
}

const M_PER_DEG_LAT = 111_320;

/** Degrees of longitude / latitude spanned by `meters` at latitude `lat`. */
export function metersToDegrees(lat: number, meters: number): { dLon: number; dLat: number } {
  return { dLat: meters / M_PER_DEG_LAT, dLon: meters / (M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180)) };
}

/** A square `sideMeters` wide centred on (lat, lon), as one clockwise ring. */
export function squareAround(lat: number, lon: number, sideMeters: number): Ring {
  const { dLat, dLon } = metersToDegrees(lat, sideMeters / 2);
  return rectRing(lon - dLon, lat - dLat, lon + dLon, lat + dLat);
}

/** Great-circle distance in metres. */
export function haversineMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const R = 6_371_008.8;
  const toRad = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRad;
  const dLon = (lon2 - lon1) * toRad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Web Mercator (EPSG:3857 / 102100) metres to lon/lat degrees. */
export function webMercatorToLonLat(x: number, y: number): Position {
  const R = 6378137;
  const lon = (x / R) * (180 / Math.PI);
  const lat = (2 * Math.atan(Math.exp(y / R)) - Math.PI / 2) * (180 / Math.PI);
  return [lon, lat];
}

/**
 * Groups ArcGIS rings into GeoJSON polygons (RFC 7946: outer counter-clockwise, holes clockwise).
 * Returns a GeoJSON Polygon or MultiPolygon geometry.
 */
export function ringsToGeoJson(rings: Ring[]): { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown } {
  const outers: Ring[][] = [];
  const holes: Ring[] = [];
  for (const ring of rings) {
    if (signedArea(ring) <= 0) outers.push([ring]);
    else holes.push(ring);
  }
  for (const hole of holes) {
    const [hx, hy] = hole[0];
    const owner = outers.find((p) => pointInRingsEvenOdd(hx, hy, [p[0]]) || pointOnBoundary(hx, hy, [p[0]]));
    (owner ?? outers[0] ?? (outers[0] = [])).push(hole);
  }
  const polys = outers.map((parts) => parts.map((r) => r.slice().reverse()));
  if (polys.length === 1) return { type: 'Polygon', coordinates: polys[0] };
  return { type: 'MultiPolygon', coordinates: polys };
}

/** lon/lat degrees to Web Mercator (EPSG:3857 / 102100) metres. */
export function lonLatToWebMercator(lon: number, lat: number): Position {
  const R = 6378137;
  const toRad = Math.PI / 180;
  return [R * lon * toRad, R * Math.log(Math.tan(Math.PI / 4 + (lat * toRad) / 2))];
}

/** The bounding box of whichever geometry the shape holds. */
export function bboxOfShape(shape: Shape): BBox {
  if (shape.rings) return bboxOfRings(shape.rings);
  if (shape.paths) return bboxOfRings(shape.paths);
  if (shape.point) return bboxOfRings([[shape.point]]);
  throw new Error('a shape needs rings, paths or a point');
}

/** Liang-Barsky: does segment a-b touch the (tolerance-grown) box? */
export function segmentIntersectsBBox(a: Position, b: Position, box: BBox, tol = EDGE_TOLERANCE): boolean {
  const [x0, y0] = a;
  const dx = b[0] - x0;
  const dy = b[1] - y0;
  let t0 = 0;
  let t1 = 1;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
    return true;
  };
  return clip(-dx, x0 - (box.xmin - tol)) && clip(dx, box.xmax + tol - x0) && clip(-dy, y0 - (box.ymin - tol)) && clip(dy, box.ymax + tol - y0);
}

function anySegmentTouches(lines: Position[][], box: BBox): boolean {
  for (const line of lines) {
    if (line.length === 1 && bboxContains(box, line[0][0], line[0][1])) return true;
    for (let i = 1; i < line.length; i++) if (segmentIntersectsBBox(line[i - 1], line[i], box)) return true;
  }
  return false;
}

/**
 * esriSpatialRelIntersects for an envelope: a polygon intersects when an edge touches the envelope or the
 * envelope lies wholly inside it (then its centre is inside); a polyline when any segment touches it; a
 * point when it lies in it (boundary included).
 */
export function shapeIntersectsEnvelope(shape: Shape, box: BBox, shapeBBox?: BBox): boolean {
  const own = shapeBBox ?? bboxOfShape(shape);
  if (own.xmax < box.xmin - EDGE_TOLERANCE || own.xmin > box.xmax + EDGE_TOLERANCE) return false;
  if (own.ymax < box.ymin - EDGE_TOLERANCE || own.ymin > box.ymax + EDGE_TOLERANCE) return false;
  if (shape.rings) {
    return anySegmentTouches(shape.rings, box) || pointInRingsEvenOdd((box.xmin + box.xmax) / 2, (box.ymin + box.ymax) / 2, shape.rings);
  }
  if (shape.paths) return anySegmentTouches(shape.paths, box);
  return shape.point !== undefined && bboxContains(box, shape.point[0], shape.point[1]);
}

/** esriSpatialRelIntersects for a point: inside or on a polygon, on a polyline, or at a point (within tol). */
export function shapeIntersectsPoint(shape: Shape, x: number, y: number, shapeBBox?: BBox): boolean {
  if (shape.rings) return polygonIntersectsPoint(shape.rings, x, y, shapeBBox);
  if (shape.paths) {
    return shape.paths.some((path) =>
      path.length === 1
        ? Math.hypot(path[0][0] - x, path[0][1] - y) <= EDGE_TOLERANCE
        : path.some((b, i) => i > 0 && pointOnSegment(x, y, path[i - 1][0], path[i - 1][1], b[0], b[1])),
    );
  }
  return shape.point !== undefined && Math.hypot(shape.point[0] - x, shape.point[1] - y) <= EDGE_TOLERANCE;
}

/** Great-circle distance in metres from (lon, lat) to the shape: 0 inside a polygon, else to its nearest edge. */
export function shapeDistanceMeters(shape: Shape, lon: number, lat: number): number {
  if (shape.rings) {
    if (polygonIntersectsPoint(shape.rings, lon, lat)) return 0;
    const polygon = ringsToGeoJson(shape.rings) as Parameters<typeof pointToPolygonDistance>[1];
    return Math.max(0, pointToPolygonDistance([lon, lat], polygon, { units: 'meters' }));
  }
  if (shape.paths) {
    return Math.min(
      ...shape.paths.map((path) =>
        path.length === 1 ? haversineMeters(lat, lon, path[0][1], path[0][0]) : pointToLineDistance([lon, lat], lineString(path), { units: 'meters' }),
      ),
    );
  }
  if (shape.point) return haversineMeters(lat, lon, shape.point[1], shape.point[0]);
  throw new Error('a shape needs rings, paths or a point');
}

/** Planar distance from (x, y) to segment a-b, in the coordinates' own units. */
function planarSegmentDistance(x: number, y: number, a: Position, b: Position): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - a[0]) * dx + (y - a[1]) * dy) / len2));
  return Math.hypot(x - (a[0] + t * dx), y - (a[1] + t * dy));
}

/**
 * Planar distance in degrees (what ArcGIS buffers by when a geographic query omits `units`): 0 inside a
 * polygon, else to the nearest vertex or edge.
 */
export function shapeDistanceDegrees(shape: Shape, x: number, y: number): number {
  if (shape.rings && polygonIntersectsPoint(shape.rings, x, y)) return 0;
  const lines = shape.rings ?? shape.paths;
  if (lines) {
    let best = Infinity;
    for (const line of lines) {
      for (let i = 0; i < line.length; i++) best = Math.min(best, planarSegmentDistance(x, y, line[Math.max(0, i - 1)], line[i]));
    }
    return best;
  }
  if (shape.point) return Math.hypot(shape.point[0] - x, shape.point[1] - y);
  throw new Error('a shape needs rings, paths or a point');
}

/**
 * `maxAllowableOffset` the simple way: drops each vertex closer than `offset` to the last one kept, always
 * keeping both ends; a line that would fall below `minVertices` (4 for a ring, 2 for a path) is kept whole,
 * so no part collapses.
 */
export function thinVertices(line: Position[], offset: number, minVertices: number): Position[] {
  if (!(offset > 0) || line.length <= minVertices) return line;
  const kept: Position[] = [line[0]];
  for (let i = 1; i < line.length - 1; i++) {
    const last = kept[kept.length - 1];
    if (Math.hypot(line[i][0] - last[0], line[i][1] - last[1]) >= offset) kept.push(line[i]);
  }
  kept.push(line[line.length - 1]);
  return kept.length >= minVertices ? kept : line;
}

/** Polyline paths as a GeoJSON LineString (one path) or MultiLineString. */
export function pathsToGeoJson(paths: Position[][]): { type: 'LineString' | 'MultiLineString'; coordinates: unknown } {
  return paths.length === 1 ? { type: 'LineString', coordinates: paths[0] } : { type: 'MultiLineString', coordinates: paths };
}

/**
 * The U.S. National Grid reference of a WGS84 point to the metre ("16S GC 43729 40061"), as USA Structures' USNG field
 * writes it: the UTM zone and latitude band, the 100 km square's two letters, then easting and northing within it.
 * UTM by the usual series (Snyder, Map Projections, eq. 8-9 to 8-12), good to a millimetre within a zone.
 */
export function usngOf(lon: number, lat: number): string {
  const a = 6378137;
  const f = 1 / 298.257223563;
  const e2 = f * (2 - f);
  const ep2 = e2 / (1 - e2);
  const k0 = 0.9996;
  const zone = Math.floor((lon + 180) / 6) + 1;
  const phi = (lat * Math.PI) / 180;
  const lambda0 = (((zone - 1) * 6 - 180 + 3) * Math.PI) / 180;
  const n = a / Math.sqrt(1 - e2 * Math.sin(phi) ** 2);
  const t = Math.tan(phi) ** 2;
  const c = ep2 * Math.cos(phi) ** 2;
  const A = Math.cos(phi) * ((lon * Math.PI) / 180 - lambda0);
  const m =
    a *
    ((1 - e2 / 4 - (3 * e2 ** 2) / 64 - (5 * e2 ** 3) / 256) * phi -
      ((3 * e2) / 8 + (3 * e2 ** 2) / 32 + (45 * e2 ** 3) / 1024) * Math.sin(2 * phi) +
      ((15 * e2 ** 2) / 256 + (45 * e2 ** 3) / 1024) * Math.sin(4 * phi) -
      ((35 * e2 ** 3) / 3072) * Math.sin(6 * phi));
  const easting = k0 * n * (A + ((1 - t + c) * A ** 3) / 6 + ((5 - 18 * t + t ** 2 + 72 * c - 58 * ep2) * A ** 5) / 120) + 500000;
  const northing =
    k0 * (m + n * Math.tan(phi) * (A ** 2 / 2 + ((5 - t + 9 * c + 4 * c ** 2) * A ** 4) / 24 + ((61 - 58 * t + t ** 2 + 600 * c - 330 * ep2) * A ** 6) / 720)) +
    (lat < 0 ? 10000000 : 0);
  const band = 'CDEFGHJKLMNPQRSTUVWXX'[Math.floor((lat + 80) / 8)];
  const columns = ['ABCDEFGH', 'JKLMNPQR', 'STUVWXYZ'][(zone - 1) % 3];
  const rows = 'ABCDEFGHJKLMNPQRSTUV';
  const column = columns[Math.floor(easting / 100000) - 1];
  const row = rows[(Math.floor(northing / 100000) + (zone % 2 === 0 ? 5 : 0)) % 20];
  const within = (metres: number) => String(Math.floor(metres % 100000)).padStart(5, '0');
  return `${zone}${band} ${column}${row} ${within(easting)} ${within(northing)}`;
}
