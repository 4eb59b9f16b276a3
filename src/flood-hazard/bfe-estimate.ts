/**
 * Estimated base flood elevation: where an AE or AH zone prints no static BFE,
 * interpolate between the layer-16 BFE lines that bracket the point, as FEMA's map guide describes.
 * Pure functions: no I/O, no clock, no locale.
 */
import CheapRuler from 'cheap-ruler';
import { lengthInFeet, nfhlText, roundToTenth } from './nfhl-values';
import { BfeLineFeature, EstimatedBaseFloodElevation, GeoPoint } from './flood-hazard.types';

/** Lines further away than this describe another reach of the stream, not this point. */
export const BFE_LINE_REACH_M = 300;

/** Floating-point noise on a bearing; an angle of 90 degrees up to it is not "more than 90". */
const ANGLE_TOLERANCE_DEG = 1e-9;

export const ESTIMATED_BFE_NOTE = "Estimated from FEMA's whole-foot BFE lines; not an official base flood elevation.";

/** AE (floodway or not) and AH zones carry a BFE; when the polygon prints none, the lines give one. */
export function needsBfeEstimate(zone: { floodZone: string | null; staticBaseFloodElevationFt: number | null }): boolean {
  return (zone.floodZone === 'AE' || zone.floodZone === 'AH') && zone.staticBaseFloodElevationFt === null;
}

/** A usable BFE line, measured from the point. */
interface MeasuredLine {
  elev: number;
  /**
   * LEN_UNIT and V_DATUM with v1's null rules (trimmed, case-folded): what "the same" is compared on.
   * As for a zone's static BFE, an elevation is read in feet unless its unit is metric.
   */
  unitKey: string | null;
  datumKey: string | null;
  verticalDatum: string | null;
  distanceM: number;
  /** Bearing from the point to the line's nearest point, in degrees. */
  bearing: number;
  order: number;
}

/**
 * The estimated BFE at the point from the BFE lines around it, or null when no usable line lies
 * within BFE_LINE_REACH_M. Usable: ELEV > 0 (FEMA's -1 and 0 are placeholders), a known LEN_UNIT, and the
 * governing polygon's DFIRM_ID (another study's lines may use other data or datums).
 */
export function estimateBaseFloodElevation(point: GeoPoint, governingDfirmId: string | null, lines: BfeLineFeature[]): EstimatedBaseFloodElevation | null {
  const dfirmId = dfirmKey(governingDfirmId);
  if (dfirmId === null) return null;
  const ruler = new CheapRuler(point.lat, 'meters');
  const measured = lines
    .filter((line) => dfirmKey(line.attributes.DFIRM_ID) === dfirmId)
    .map((line, order) => measureLine(ruler, point, line, order))
    .filter((line): line is MeasuredLine => line !== null && line.distanceM <= BFE_LINE_REACH_M)
    .sort(nearestFirst);
  const first = measured[0];
  if (!first) return null;
  // On the line itself there is nothing to bracket: the line's elevation is the answer.
  const second = first.distanceM === 0 ? undefined : measured.find((line) => bracketsWith(first, line));
  if (!second) {
    return {
      elevationFt: elevationInFeet(first.elev, first.unitKey),
      verticalDatum: first.verticalDatum,
      method: 'nearest_line',
      lines: [lineEntry(first)],
      note: ESTIMATED_BFE_NOTE,
    };
  }
  // Interpolated in the lines' own unit and converted once, so the answer is rounded only once.
  const elev = first.elev + ((second.elev - first.elev) * first.distanceM) / (first.distanceM + second.distanceM);
  return {
    elevationFt: elevationInFeet(elev, first.unitKey),
    verticalDatum: first.verticalDatum,
    method: 'interpolated',
    lines: [lineEntry(first), lineEntry(second)],
    note: ESTIMATED_BFE_NOTE,
  };
}

function dfirmKey(value: string | null | undefined): string | null {
  return nfhlText(value)?.toUpperCase() ?? null;
}

function measureLine(ruler: CheapRuler, point: GeoPoint, line: BfeLineFeature, order: number): MeasuredLine | null {
  const { ELEV, LEN_UNIT, V_DATUM } = line.attributes;
  if (typeof ELEV !== 'number' || !Number.isFinite(ELEV) || ELEV <= 0) return null;
  const unitKey = nfhlText(LEN_UNIT)?.toLowerCase() ?? null;
  const nearest = nearestPointOnPaths(ruler, [point.lon, point.lat], line.paths);
  if (nearest === null) return null;
  const verticalDatum = nfhlText(V_DATUM);
  return {
    elev: ELEV,
    unitKey,
    datumKey: verticalDatum?.toUpperCase() ?? null,
    verticalDatum,
    distanceM: nearest.distance,
    bearing: ruler.bearing([point.lon, point.lat], nearest.point),
    order,
  };
}

/** The nearest point of a polyline (any of its paths) and its distance in metres. */
function nearestPointOnPaths(ruler: CheapRuler, origin: [number, number], paths: number[][][]): { point: [number, number]; distance: number } | null {
  let best: { point: [number, number]; distance: number } | null = null;
  for (const path of paths) {
    const vertices = path.filter(isPosition);
    if (vertices.length === 0) continue;
    // pointOnLine needs a segment; a lone vertex is its own segment.
    const line = vertices.length === 1 ? [vertices[0], vertices[0]] : vertices;
    const { point, dist } = ruler.pointOnLine(line, origin);
    if (best === null || dist < best.distance) best = { point, distance: dist };
  }
  return best;
}

function isPosition(value: number[]): value is [number, number] {
  return Array.isArray(value) && value.length >= 2 && Number.isFinite(value[0]) && Number.isFinite(value[1]);
}

/** Nearest first; equally near lines by the higher elevation (the cautious reading), then NFHL's order. */
function nearestFirst(a: MeasuredLine, b: MeasuredLine): number {
  return a.distanceM - b.distanceM || b.elev - a.elev || a.order - b.order;
}

/**
 * Whether `other` can bracket the point with `first`: another elevation with the same LEN_UNIT and
 * V_DATUM as published (datums are never mixed: NGVD29 and NAVD88 differ by place), on the other side
 * of the point.
 */
function bracketsWith(first: MeasuredLine, other: MeasuredLine): boolean {
  return (
    other !== first &&
    other.elev !== first.elev &&
    other.unitKey === first.unitKey &&
    other.datumKey === first.datumKey &&
    other.distanceM > 0 &&
    angleBetween(first.bearing, other.bearing) > 90 + ANGLE_TOLERANCE_DEG
  );
}

function angleBetween(bearingA: number, bearingB: number): number {
  const difference = Math.abs(bearingA - bearingB) % 360;
  return difference > 180 ? 360 - difference : difference;
}

function elevationInFeet(elev: number, unit: string | null): number {
  // lengthInFeet converts metres (to a tenth) and leaves feet as they are; it is null only for
  // NFHL's -9999 sentinel, which usable elevations (> 0) never are.
  return roundToTenth(lengthInFeet(elev, unit) ?? Number.NaN);
}

function lineEntry(line: MeasuredLine): { elevationFt: number; distanceM: number } {
  return { elevationFt: elevationInFeet(line.elev, line.unitKey), distanceM: Math.round(line.distanceM) };
}
