/**
 * A footprint the caller gives (a building's or a parcel's outline, POST /flood-zone), checked before anything is
 * asked of FEMA. The first rule broken is the answer, in words that say what to fix. Pure functions: no I/O.
 */
import CheapRuler from 'cheap-ruler';
import type { GeoPoint } from '../../flood-hazard/flood-hazard.types';
import { metresToFootprint } from './footprint-geometry';
import { footprintAreaSquareMetres } from './footprint-zones';
import { type PolygonLimits, polygonProblem, withThousands } from './polygon-rules';
import type { Footprint, LonLat } from './structure.types';

/** The most vertices a footprint may have, all rings together (a ring's closing position is not one more). */
export const FOOTPRINT_MAX_VERTICES = 2000;
/** The largest footprint: 1 km², far beyond any building, room for a large parcel. */
export const FOOTPRINT_MAX_AREA_SQ_M = 1_000_000;
/** The smallest footprint: less is no outline (positions on one line, or one place repeated), and nothing could be shared out over it. */
export const FOOTPRINT_MIN_AREA_SQ_M = 0.1;
/** How far from the location (the point, or the address's match) a footprint may lie. */
export const FOOTPRINT_MAX_DISTANCE_M = 1000;
/** The widest footprint box, degrees: a 1 km² parcel as a strip 100 m by 10 km still fits; one across ±180° never does. */
export const FOOTPRINT_MAX_SPAN_DEGREES = 0.2;

/** A caller's footprint as the polygon rules bound it. */
export const GIVEN_FOOTPRINT_LIMITS: PolygonLimits = { maxVertices: FOOTPRINT_MAX_VERTICES, maxSpanDegrees: FOOTPRINT_MAX_SPAN_DEGREES };

/** Beyond this a message says only "more than": a CheapRuler measures well across a town, not across a continent. */
const FAR_M = 10_000;

/** The footprint as the lookup uses it, or the first rule it breaks, as the message a client gets. */
export type FootprintCheck = { footprint: Footprint } | { problem: string };

/** A polygon of the footprint as read: its rings, outer first, and what a message calls each. */
interface ReadPolygon {
  rings: LonLat[][];
  names: string[];
}

/** The footprint as far as it could be read, or why it could not. */
type ReadFootprint = { type: Footprint['type']; polygons: ReadPolygon[] } | { problem: string };

/** A broken rule as the client reads it: the field, then the rule. */
const refusal = (rule: string) => `footprint: ${rule}`;
const problem = (rule: string) => ({ problem: refusal(rule) });

/** A 7-decimal degree (about 1 cm), as a message shows a position. */
const degrees = (value: number) => String(Number(value.toFixed(7)));

/**
 * Checks a footprint as the caller sent it (a parsed JSON value), rule by rule: a GeoJSON Polygon, MultiPolygon or
 * a Feature of one; positions of numbers; lon/lat, not projected; every ring closed, with at least 4 positions; at
 * most FOOTPRINT_MAX_VERTICES vertices; no ring crossing itself or another; at most FOOTPRINT_MAX_AREA_SQ_M, and some
 * area at all. Where it lies is checkFootprintReach's, once the location is known. An altitude (a third number) is dropped.
 */
export function checkFootprint(value: unknown): FootprintCheck {
  const read = readFootprint(value);
  if ('problem' in read) return read;
  const polygons = read.polygons.map((polygon) => polygon.rings);
  const broken = polygonProblem(polygons, GIVEN_FOOTPRINT_LIMITS, (p, r) => read.polygons[p].names[r]);
  if (broken) {
    return problem(broken.at ? broken.rule.replace('crosses itself', `crosses itself near [${degrees(broken.at[0])}, ${degrees(broken.at[1])}]`) : broken.rule);
  }
  const areaSqM = footprintAreaSquareMetres({ type: 'MultiPolygon', coordinates: polygons });
  if (areaSqM > FOOTPRINT_MAX_AREA_SQ_M) {
    return problem(`its area is ${withThousands(Math.round(areaSqM))} m²; at most ${withThousands(FOOTPRINT_MAX_AREA_SQ_M)} m² (1 km²) is accepted`);
  }
  if (areaSqM < FOOTPRINT_MIN_AREA_SQ_M) {
    return problem(`it encloses no area (less than ${FOOTPRINT_MIN_AREA_SQ_M} m²): its positions lie on one line, or in one place`);
  }
  const footprint: Footprint = read.type === 'Polygon' ? { type: 'Polygon', coordinates: polygons[0] } : { type: 'MultiPolygon', coordinates: polygons };
  return { footprint };
}

/**
 * Why a checked footprint is refused where it lies: more than FOOTPRINT_MAX_DISTANCE_M from the location (0 when the
 * location is inside it). Undefined when it is near enough. Latitude and longitude swapped put a US footprint
 * thousands of kilometres away, so this is also what catches them.
 */
export function checkFootprintReach(footprint: Footprint, location: GeoPoint): string | undefined {
  const ruler = new CheapRuler(location.lat, 'meters');
  const distanceM = metresToFootprint(ruler, location, footprint);
  if (distanceM <= FOOTPRINT_MAX_DISTANCE_M) return undefined;
  // The ruler is exact near the location only; farther, the distance itself says nothing more.
  const away = distanceM < FAR_M ? `${withThousands(Math.round(distanceM))} m` : `more than ${withThousands(FAR_M / 1000)} km`;
  return refusal(
    `it lies ${away} from the location (lat ${degrees(location.lat)}, lon ${degrees(location.lon)}); it must lie within ` +
      `${withThousands(FOOTPRINT_MAX_DISTANCE_M)} m of it (GeoJSON positions are [longitude, latitude], longitude first)`,
  );
}

/** The geometry of a Polygon, a MultiPolygon or a Feature of one, its positions read as numbers. */
function readFootprint(value: unknown): ReadFootprint {
  const kind = typeOf(value);
  const geometry = kind === 'Feature' ? (value as { geometry?: unknown }).geometry : value;
  const geometryKind = typeOf(geometry);
  if (geometryKind !== 'Polygon' && geometryKind !== 'MultiPolygon') {
    const got = kind === 'Feature' ? `a Feature whose geometry is ${described(geometry)}` : described(value);
    return problem(`must be a GeoJSON Polygon, MultiPolygon, or a Feature of one; got ${got}`);
  }
  const coordinates = (geometry as { coordinates?: unknown }).coordinates;
  if (geometryKind === 'Polygon') {
    const polygon = readPolygon(coordinates, undefined);
    return 'problem' in polygon ? polygon : { type: 'Polygon', polygons: [polygon] };
  }
  if (!Array.isArray(coordinates) || coordinates.length === 0) {
    return problem("a MultiPolygon's coordinates must be a list of polygons, each a list of rings (the outer ring, then any holes)");
  }
  const polygons: ReadPolygon[] = [];
  for (const [index, rings] of coordinates.entries()) {
    const polygon = readPolygon(rings, `polygon ${index + 1}`);
    if ('problem' in polygon) return polygon;
    polygons.push(polygon);
  }
  return { type: 'MultiPolygon', polygons };
}

/** One polygon's rings, each position [lon, lat] (an altitude dropped); `polygonName` says which of a MultiPolygon's. */
function readPolygon(value: unknown, polygonName: string | undefined): ReadPolygon | { problem: string } {
  if (!Array.isArray(value) || value.length === 0) return problem(`${polygonName ?? 'coordinates'} must be a list of rings (the outer ring, then any holes)`);
  const rings: LonLat[][] = [];
  const names: string[] = [];
  for (const [index, ring] of value.entries()) {
    const name = polygonName === undefined ? `ring ${index + 1}` : `${polygonName}, ring ${index + 1}`;
    if (!Array.isArray(ring) || ring.length === 0) return problem(`${name} must be a list of [lon, lat] positions`);
    const positions: LonLat[] = [];
    for (const [at, position] of ring.entries()) {
      // A ring of numbers is one position where a ring was due: coordinates nested one level short.
      if (!Array.isArray(position)) return problem(`${name} must be a list of [lon, lat] positions`);
      if (!isPosition(position)) return problem(`${name}, position ${at + 1} is not [lon, lat]: two numbers (an altitude may follow)`);
      positions.push([position[0], position[1]]);
    }
    rings.push(positions);
    names.push(name);
  }
  return { rings, names };
}

const isPosition = (value: unknown[]): value is number[] =>
  (value.length === 2 || value.length === 3) && value.every((coordinate) => typeof coordinate === 'number' && Number.isFinite(coordinate));

/** The GeoJSON `type` of a value, if it is an object naming one. */
function typeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}

/** What a value that is no footprint is, in a few words (a type name quoted, at most 40 characters of it). */
function described(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value !== 'object') return typeof value === 'string' ? 'text' : `a ${typeof value}`;
  const type = typeOf(value);
  return type === undefined ? 'an object without a GeoJSON type' : `a ${JSON.stringify(type.slice(0, 40))}`;
}
