/**
 * Plane geometry for the upstream emulators: ArcGIS polygon `rings` in lon/lat (x = lon, y = lat).
 *
 * ArcGIS polygons are a flat list of rings: outer rings (clockwise) and holes (counter-clockwise).
 * Containment uses the even-odd rule over all rings, which handles holes and multi-part polygons alike.
 * esriSpatialRelIntersects includes the boundary, so a point exactly on an edge or a vertex is contained;
 * that is what makes a point on the shared edge of two polygons (a "seam") hit both.
 */

/** [x, y] = [lon, lat]. */
export type Position = [number, number];
/** A closed ring: first position repeated at the end (as ArcGIS and GeoJSON publish them). */
export type Ring = Position[];

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
export function pointOnSegment(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  tol = EDGE_TOLERANCE,
): boolean {
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
