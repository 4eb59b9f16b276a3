/**
 * The one rule set every polygon meets before it is measured, whoever drew it: the caller's footprint, a USA
 * Structures footprint, and FEMA's zone, panel, jurisdiction, LOMR and CBRS polygons read over a footprint. A polygon
 * breaking a rule is never measured: a self-crossing ring has no inside, and clipping one costs time that grows with
 * the square of its crossings. Pure functions: no I/O.
 */
import type { Feature, LineString, MultiPolygon } from 'geojson';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import findIntersections from 'sweepline-intersections';
import { type PolygonRings, boxOf } from './footprint-geometry';
import type { LonLat } from './structure.types';

/** How large a polygon may be, by who drew it. */
export interface PolygonLimits {
  /** The most vertices, all rings together (a ring's closing position is not one more). */
  maxVertices: number;
  /** The widest span of its box, in degrees of longitude or of latitude. */
  maxSpanDegrees: number;
}

/** A broken rule, and where (a position the message names), if anywhere. */
export interface PolygonProblem {
  rule: string;
  at?: LonLat;
}

/** How each ring is named in a message: `ring 2`, `polygon 3, ring 1`. */
export type RingNames = (polygon: number, ring: number) => string;

const plainRingNames: RingNames = (polygon, ring) => `polygon ${polygon + 1}, ring ${ring + 1}`;

/** Positions this close (degrees, about 0.1 mm) are one: a crossing found at a vertex is computed, not copied. */
const SAME_VERTEX_DEGREES = 1e-9;

/** The first window of consecutive segments looked at alone; each next level four times as long, the last all of them. */
const FIRST_WINDOW_SEGMENTS = 64;

/**
 * The first rule the polygons break, or undefined: positions are lon/lat numbers, rings closed with at least 4
 * positions, at most `maxVertices` vertices, a box at most `maxSpanDegrees` wide (a polygon across the ±180° meridian
 * spans more than 180°: it is named as such), no ring crossing itself or another (rings of a polygon, or of two, may
 * touch at a vertex they share), every hole inside its outer ring, no hole inside another, and no polygon inside another.
 */
export function polygonProblem(polygons: PolygonRings[], limits: PolygonLimits, names: RingNames = plainRingNames): PolygonProblem | undefined {
  for (const [p, rings] of polygons.entries()) {
    for (const [r, ring] of rings.entries()) {
      const far = ring.findIndex(([lon, lat]) => !(Math.abs(lon) <= 180 && Math.abs(lat) <= 90));
      if (far >= 0) {
        const [lon, lat] = ring[far];
        return {
          rule: `${names(p, r)}, position ${far + 1} [${lon}, ${lat}] is not lon/lat: give WGS84 degrees (longitude -180 to 180, latitude -90 to 90), not projected metres or feet`,
        };
      }
    }
  }
  for (const [p, rings] of polygons.entries()) {
    for (const [r, ring] of rings.entries()) {
      const [first, last] = [ring[0], ring[ring.length - 1]];
      if (first[0] !== last[0] || first[1] !== last[1]) return { rule: `${names(p, r)} is not closed (its first and last positions differ)` };
      if (ring.length < 4) return { rule: `${names(p, r)} has ${ring.length} positions; a ring needs at least 4 (3 corners, then the first again)` };
    }
  }
  const vertices = polygons.reduce((sum, rings) => rings.reduce((count, ring) => count + ring.length - 1, sum), 0);
  if (vertices > limits.maxVertices) {
    return { rule: `it has ${withThousands(vertices)} vertices; at most ${withThousands(limits.maxVertices)} are accepted` };
  }
  const [west, south, east, north] = boxOf(polygons);
  if (east - west > 180) {
    return {
      rule: 'it crosses the ±180° meridian (its longitudes run from both sides of it): give each side as its own polygon, longitudes within -180 to 180',
    };
  }
  if (east - west > limits.maxSpanDegrees || north - south > limits.maxSpanDegrees) {
    return { rule: `it spans ${degreesSpan(Math.max(east - west, north - south))}°; at most ${limits.maxSpanDegrees}° of longitude or latitude is accepted` };
  }
  const crossing = crossingOf(polygons);
  if (crossing) {
    return {
      rule: 'its outline crosses itself: a ring crosses itself, a hole its outer ring, or one polygon another (rings may touch only at a vertex they share)',
      at: crossing,
    };
  }
  for (const [p, [outer, ...holes]] of polygons.entries()) {
    for (const [h, hole] of holes.entries()) {
      if (insideness(hole, outer) === false) return { rule: `${names(p, h + 1)}, a hole, lies outside its outer ring` };
      const around = holes.findIndex((other, o) => o !== h && insideness(hole, other) === true);
      if (around >= 0) return { rule: `${names(p, h + 1)}, a hole, lies inside another hole (${names(p, around + 1)})` };
    }
  }
  for (const [p, rings] of polygons.entries()) {
    const within = polygons.findIndex(
      (other, o) => o !== p && insideness(rings[0], other[0]) === true && !holes(other).some((hole) => insideness(rings[0], hole) !== false),
    );
    if (within >= 0) return { rule: `${names(p, 0)} lies inside ${names(within, 0)}: polygons of a MultiPolygon must not overlap` };
  }
  return undefined;
}

const holes = (rings: PolygonRings): LonLat[][] => rings.slice(1);

/**
 * Whether ring `inner` lies inside ring `outer`, judged by its first vertex off `outer`'s boundary (the rings do not
 * cross, so one such vertex tells for all). When every vertex lies on that boundary (the same ring twice, or one
 * drawn on the other's corners), a point just inside `inner` tells; undefined when `inner` has no inside at all.
 */
function insideness(inner: LonLat[], outer: LonLat[]): boolean | undefined {
  const polygon = { type: 'Polygon' as const, coordinates: [outer] };
  const [west, south, east, north] = boxOf([[outer]]);
  for (const vertex of inner) {
    if (vertex[0] < west || vertex[0] > east || vertex[1] < south || vertex[1] > north) return false;
    if (!booleanPointInPolygon(vertex, polygon, { ignoreBoundary: true })) {
      if (!onBoundary(vertex, polygon)) return false;
      continue;
    }
    return true;
  }
  const within = pointWithin(inner);
  return within && booleanPointInPolygon(within, polygon, { ignoreBoundary: true });
}

const onBoundary = (vertex: LonLat, polygon: { type: 'Polygon'; coordinates: LonLat[][] }) => booleanPointInPolygon(vertex, polygon);

/** How far inside a ring, as a share of an edge's length, pointWithin looks: far above rounding, far below any real width. */
const INWARD_SHARE = 1e-6;

/**
 * A point strictly inside a ring that does not cross itself: an edge's midpoint moved a hair towards the inside (the
 * side its winding puts the inside on), the first such point found inside; undefined for a ring enclosing nothing.
 */
function pointWithin(ring: LonLat[]): LonLat | undefined {
  const polygon = { type: 'Polygon' as const, coordinates: [ring] };
  let doubleArea = 0;
  for (let i = 1; i < ring.length; i++) doubleArea += (ring[i - 1][0] - ring[i][0]) * (ring[i - 1][1] + ring[i][1]);
  const inward = Math.sign(doubleArea);
  for (let i = 1; i < ring.length; i++) {
    const [[x0, y0], [x1, y1]] = [ring[i - 1], ring[i]];
    const point: LonLat = [(x0 + x1) / 2 - inward * INWARD_SHARE * (y1 - y0), (y0 + y1) / 2 + inward * INWARD_SHARE * (x1 - x0)];
    if (booleanPointInPolygon(point, polygon, { ignoreBoundary: true })) return point;
  }
  return undefined;
}

/**
 * Where a ring crosses itself or another, if anywhere: a sweep line (sweepline-intersections) over the segments. That
 * library has no early exit, and a star of n vertices crosses itself about n²/2 times, each crossing a result kept; so
 * windows of consecutive segments are swept first, shortest first, and the first crossing found in one is the answer.
 * Every pair of segments is swept together at the last level, so nothing is missed.
 */
function crossingOf(polygons: PolygonRings[]): LonLat | undefined {
  const cleaned = polygons.map((rings) => rings.map(withoutRepeats));
  const touching = sharedVertices(cleaned);
  const isCrossing = (point: number[]) => !touching(point as LonLat);
  const segments = cleaned.reduce((sum, rings) => rings.reduce((count, ring) => count + ring.length - 1, sum), 0);
  for (let window = FIRST_WINDOW_SEGMENTS; window < segments; window *= 4) {
    for (const rings of cleaned) {
      for (const ring of rings) {
        for (let start = 0; start + 1 < ring.length; start += window) {
          const piece = ring.slice(start, start + window + 1);
          if (piece.length < 4) continue;
          const found = findIntersections(feature({ type: 'LineString', coordinates: piece }), false).find(isCrossing);
          if (found) return found as LonLat;
        }
      }
    }
  }
  return findIntersections(feature({ type: 'MultiPolygon', coordinates: cleaned }), false).find(isCrossing) as LonLat | undefined;
}

const feature = (geometry: LineString | MultiPolygon): Feature<LineString | MultiPolygon> => ({ type: 'Feature', properties: {}, geometry });

/** A ring without a position repeated in a row: that only makes a segment of no length, no crossing. */
const withoutRepeats = (ring: LonLat[]): LonLat[] =>
  ring.filter((position, index) => index === 0 || position[0] !== ring[index - 1][0] || position[1] !== ring[index - 1][1]);

/**
 * Whether a point the sweep found is a vertex two rings share (two rings touching there, which is allowed), to
 * SAME_VERTEX_DEGREES. A ring's own segments meeting at its vertices are never reported by the sweep.
 */
function sharedVertices(polygons: PolygonRings[]): (point: LonLat) => boolean {
  const cell = (value: number) => Math.round(value / SAME_VERTEX_DEGREES);
  const ringsAt = new Map<string, Set<number>>();
  let ringId = 0;
  for (const rings of polygons) {
    for (const ring of rings) {
      for (const [lon, lat] of ring) {
        const key = `${cell(lon)},${cell(lat)}`;
        const seen = ringsAt.get(key) ?? new Set<number>();
        seen.add(ringId);
        ringsAt.set(key, seen);
      }
      ringId += 1;
    }
  }
  return ([lon, lat]) => {
    const rings = new Set<number>();
    for (const dx of [-1, 0, 1]) {
      for (const dy of [-1, 0, 1]) for (const id of ringsAt.get(`${cell(lon) + dx},${cell(lat) + dy}`) ?? []) rings.add(id);
    }
    return rings.size >= 2;
  };
}

/** A whole number with thousands separators, the same whatever the machine's locale. */
export const withThousands = (value: number) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const degreesSpan = (value: number) => String(Number(value.toPrecision(4)));
