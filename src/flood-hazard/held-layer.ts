/**
 * Answering a layer's point query from features held for a whole envelope (spatial reuse): one envelope query of
 * FEMA's layer, with exact geometry and every page, serves every point inside it. The answer must be the point
 * query's own, feature for feature and in the same order, or none at all: where the held geometry cannot tell
 * (the point too near the envelope's edge or a polygon's boundary, where FEMA's own tolerance decides), the caller
 * asks FEMA instead.
 */
import type { LonLatBox } from '../common/geo-point';

/**
 * How near (degrees, about a centimetre) to a held polygon's boundary a point is too near to be placed from the
 * held rings: FEMA's server intersects within its own tolerance (about a millimetre); every vertex is as FEMA keeps it.
 */
export const POLYGON_EDGE_MARGIN_DEG = 1e-7;
/**
 * How near (degrees, about 20 cm) to the edge of a query's square a held point is too near to be placed: points come
 * rounded to 6 decimals (as the point query's own answer gives them), up to 5e-7° from where FEMA tests them.
 */
export const POINT_EDGE_MARGIN_DEG = 2e-6;

/** A polygon as held: its attributes, its rings as flat [x0, y0, x1, y1, ...] coordinate lists, and its bounds. */
export interface HeldPolygon<A> {
  attributes: A;
  rings: Float64Array[];
  box: LonLatBox;
}

/** A point feature as held: what the point query gives for it, and where it is. */
export interface HeldPoint<F> {
  feature: F;
  lon: number;
  lat: number;
}

/** Every feature of a layer that intersects `envelope`, in the order FEMA gave them. */
export interface HeldFeatures<T> {
  envelope: LonLatBox;
  features: T[];
}

export type HeldPolygons<A> = HeldFeatures<HeldPolygon<A>>;
export type HeldPoints<F> = HeldFeatures<HeldPoint<F>>;

/** A polygon held from ArcGIS rings ([[x, y], ...] per ring). */
export function heldPolygon<A>(attributes: A, rings: number[][][]): HeldPolygon<A> {
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  const flat = rings.map((ring) => {
    const coordinates = new Float64Array(ring.length * 2);
    ring.forEach(([x, y], i) => {
      coordinates[2 * i] = x;
      coordinates[2 * i + 1] = y;
      west = Math.min(west, x);
      east = Math.max(east, x);
      south = Math.min(south, y);
      north = Math.max(north, y);
    });
    return coordinates;
  });
  return { attributes, rings: flat, box: [west, south, east, north] };
}

/** The bytes a held polygon takes, roughly: its coordinates, its rings and its attributes. */
export function heldPolygonBytes(polygon: HeldPolygon<unknown>): number {
  return polygon.rings.reduce((sum, ring) => sum + ring.byteLength + 96, 400);
}

/** A square's polygons as held, from its features as FEMA gave them (ArcGIS rings), with the bytes they take. */
export function heldPolygons<A>(
  envelope: LonLatBox,
  features: ReadonlyArray<{ attributes: A; rings: number[][][] }>,
): { held: HeldPolygons<A>; bytes: number } {
  const polygons = features.map(({ attributes, rings }) => heldPolygon(attributes, rings));
  return { held: { envelope, features: polygons }, bytes: polygons.reduce((sum, polygon) => sum + heldPolygonBytes(polygon), 0) };
}

/** Whether (x, y) lies inside the box by more than `margin` on every side. */
function insideBy(box: LonLatBox, x: number, y: number, margin: number): boolean {
  return x > box[0] + margin && x < box[2] - margin && y > box[1] + margin && y < box[3] - margin;
}

/** Whether (x, y) lies within `margin` of an edge of any ring (planar, in degrees). */
function nearBoundary(rings: Float64Array[], x: number, y: number, margin: number): boolean {
  for (const ring of rings) {
    for (let i = 2; i < ring.length; i += 2) {
      const [ax, ay, bx, by] = [ring[i - 2], ring[i - 1], ring[i], ring[i + 1]];
      if (x < Math.min(ax, bx) - margin || x > Math.max(ax, bx) + margin || y < Math.min(ay, by) - margin || y > Math.max(ay, by) + margin) continue;
      const dx = bx - ax;
      const dy = by - ay;
      const lengthSquared = dx * dx + dy * dy;
      const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / lengthSquared));
      if (Math.hypot(x - (ax + t * dx), y - (ay + t * dy)) <= margin) return true;
    }
  }
  return false;
}

/** Even-odd crossings over every ring (outer rings and holes alike), as ArcGIS polygons are drawn. */
function insideRings(rings: Float64Array[], x: number, y: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
      const [xi, yi, xj, yj] = [ring[i], ring[i + 1], ring[j], ring[j + 1]];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/**
 * The attributes of the held polygons a point query at (lon, lat) would return, in the held order; undefined when
 * the held features cannot tell: the point is not well inside the envelope, or lies on or near a polygon's boundary.
 */
export function polygonsAt<A>(held: HeldPolygons<A>, lon: number, lat: number): A[] | undefined {
  if (!insideBy(held.envelope, lon, lat, POLYGON_EDGE_MARGIN_DEG)) return undefined;
  const found: A[] = [];
  for (const polygon of held.features) {
    const [west, south, east, north] = polygon.box;
    if (lon < west - POLYGON_EDGE_MARGIN_DEG || lon > east + POLYGON_EDGE_MARGIN_DEG) continue;
    if (lat < south - POLYGON_EDGE_MARGIN_DEG || lat > north + POLYGON_EDGE_MARGIN_DEG) continue;
    if (nearBoundary(polygon.rings, lon, lat, POLYGON_EDGE_MARGIN_DEG)) return undefined;
    if (insideRings(polygon.rings, lon, lat)) found.push(polygon.attributes);
  }
  return found;
}

/**
 * The held point features an envelope query of `box` would return, in the held order; undefined when the held
 * features cannot tell: the box is not well inside the held envelope, or a point lies on or near its edge.
 */
export function pointsWithin<F>(held: HeldPoints<F>, box: LonLatBox): F[] | undefined {
  const [west, south, east, north] = box;
  const margin = POINT_EDGE_MARGIN_DEG;
  if (!insideBy(held.envelope, west, south, margin) || !insideBy(held.envelope, east, north, margin)) return undefined;
  const found: F[] = [];
  for (const { feature, lon, lat } of held.features) {
    const nearSide = (Math.abs(lon - west) <= margin || Math.abs(lon - east) <= margin) && lat >= south - margin && lat <= north + margin;
    const nearEnd = (Math.abs(lat - south) <= margin || Math.abs(lat - north) <= margin) && lon >= west - margin && lon <= east + margin;
    if (nearSide || nearEnd) return undefined;
    if (lon > west && lon < east && lat > south && lat < north) found.push(feature);
  }
  return found;
}

/** A square of a fixed grid of `sizeDeg` degrees, widened by `marginDeg` on every side so neighbours overlap. */
export interface HeldTile {
  /** The same for every point of the square: `<size>/<column>/<row>`. */
  key: string;
  envelope: LonLatBox;
}

/** Nine decimals: far finer than any margin, and envelopes free of binary noise (0.35000000000000003). */
const toNanodegrees = (value: number) => Math.round(value * 1e9) / 1e9;

/** The grid square holding (lon, lat), as the envelope to ask for. */
export function tileAt(lon: number, lat: number, sizeDeg: number, marginDeg: number): HeldTile {
  const column = Math.floor(lon / sizeDeg);
  const row = Math.floor(lat / sizeDeg);
  const envelope: LonLatBox = [
    toNanodegrees(column * sizeDeg - marginDeg),
    toNanodegrees(row * sizeDeg - marginDeg),
    toNanodegrees((column + 1) * sizeDeg + marginDeg),
    toNanodegrees((row + 1) * sizeDeg + marginDeg),
  ];
  return { key: `${sizeDeg}/${column}/${row}`, envelope };
}
