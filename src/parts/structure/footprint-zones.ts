/**
 * The flood zones over a building's whole footprint: each zone polygon cut by the footprint, areas measured on the
 * WGS84 ellipsoid. A building any part of which lies in the SFHA is in the SFHA, so a house 10 m across needs exact
 * shares, not the zone at one point. Pure functions: no I/O, no clock, no locale.
 */
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import CheapRuler from 'cheap-ruler';
import { difference, intersection } from 'polyclip-ts';
import { closeRing } from '../../common/arcgis-rings';
import { ZoneClassification, classifyZone, moreSevereFirst, toFirmPanel } from '../../flood-hazard/classification';
import type { FirmPanelAttributes, ZonePolygonFeature } from '../../flood-hazard/flood-hazard.types';
import { roundToTenth } from '../../flood-hazard/nfhl-values';
import { Box, PolygonRings, boxOf, polygonsOfFootprint } from './footprint-geometry';
import { type PolygonLimits, polygonProblem } from './polygon-rules';
import type { FirmPanelPolygonFeature, Footprint, FootprintFloodZones, FootprintLayers, LonLat, StructureZone } from './structure.types';

export const SQUARE_FEET_PER_SQUARE_METRE = 10.7639104;

/** Less of the footprint than this is a digitising sliver: it makes no entry and counts for nothing. */
export const SLIVER_SQUARE_METRES = 0.1;

/**
 * Zone and panel polygons are cut to the footprint's box grown by this much (about a metre) before the exact clipping:
 * a county polygon has tens of thousands of vertices, a house a few, and the cut edges then lie outside the footprint.
 */
const BOX_MARGIN_DEGREES = 1e-5;

/**
 * FEMA's zone, panel, jurisdiction, LOMR and CBRS polygons as the polygon rules bound them: real ones reach tens of
 * thousands of vertices and span a county, never a state.
 */
export const MAP_POLYGON_LIMITS: PolygonLimits = { maxVertices: 500_000, maxSpanDegrees: 10 };

/** An upstream's polygon breaking the polygon rules: a fault of that upstream, never measured. */
export class BrokenPolygonError extends Error {}

/** The polygons reaching the box, each checked by the polygon rules (whole, as drawn: a cut would make bridges of its own). */
function checkedPolygonsOver(rings: number[][][], box: Box): PolygonRings[] {
  const reaching = polygonsOfRings(rings).filter((polygon) => boxesMeet(boxOf([polygon]), box));
  const broken = polygonProblem(reaching, MAP_POLYGON_LIMITS);
  if (broken) throw new BrokenPolygonError(`a polygon over the footprint breaks a rule: ${broken.rule}`);
  return reaching;
}

/** Whether two boxes share any place (edges included). */
function boxesMeet(a: Box, b: Box): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/** Twice the ring's signed area in square degrees: positive counter-clockwise (lon east, lat north). */
function signedDoubleArea(ring: LonLat[]): number {
  let sum = 0;
  for (let i = 1; i < ring.length; i++) sum += (ring[i - 1][0] - ring[i][0]) * (ring[i - 1][1] + ring[i][1]);
  return sum;
}

function ringContains(outer: LonLat[], vertex: LonLat): boolean {
  return booleanPointInPolygon(vertex, { type: 'Polygon', coordinates: [outer] });
}

/** Whether box `inner` lies within box `outer` (edges included). */
function boxWithin(inner: Box, outer: Box): boolean {
  return inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];
}

/**
 * ArcGIS rings grouped into polygons, wound as GeoJSON winds them (outer counter-clockwise, holes clockwise). Each hole
 * goes under the smallest outer ring containing it (an island in a lake in an island); a counter-clockwise ring that no
 * outer contains was wound the other way by its writer and stands as an outer ring itself. A hole within the bounds of
 * one outer ring only is that ring's: a county's polygon has a hundred holes, not worth a hundred tests of its outline.
 */
function polygonsOfRings(rings: number[][][]): PolygonRings[] {
  const measured = rings.map((ring) => closeRing(ring)).map((ring) => ({ ring, doubleArea: ring.length >= 4 ? signedDoubleArea(ring) : 0 }));
  const outers = measured
    .filter(({ doubleArea }) => doubleArea < 0)
    .map(({ ring, doubleArea }) => ({ rings: [ring.reverse()], area: -doubleArea, box: boxOf([[ring]]) }));
  const loose: typeof outers = [];
  for (const { ring: hole, doubleArea } of measured.filter(({ doubleArea }) => doubleArea > 0)) {
    const holeBox = boxOf([[hole]]);
    const around = outers.filter((outer) => boxWithin(holeBox, outer.box));
    const owners = around.length === 1 ? around : around.filter((outer) => ringContains(outer.rings[0], hole[0]));
    const owner = owners.reduce<(typeof outers)[number] | null>(
      (smallest, outer) => (smallest === null || outer.area < smallest.area ? outer : smallest),
      null,
    );
    if (owner) owner.rings.push(hole.reverse());
    else loose.push({ rings: [hole], area: doubleArea, box: holeBox });
  }
  return [...outers, ...loose].map((polygon) => polygon.rings);
}

/** A footprint from its ArcGIS rings (several outer rings make a MultiPolygon). */
export function footprintOfRings(rings: number[][][]): Footprint {
  const polygons = polygonsOfRings(rings);
  return polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0] } : { type: 'MultiPolygon', coordinates: polygons };
}

/**
 * The ruler for the footprint's middle latitude. cheap-ruler's scales are the WGS84 ellipsoid's radii of curvature
 * there, so within a few hundred metres its areas are the ellipsoid's to well under 0.01 %.
 */
function rulerFor(polygons: PolygonRings[]): CheapRuler {
  const [, south, , north] = boxOf(polygons);
  return new CheapRuler(Number.isFinite(south) ? (south + north) / 2 : 0, 'meters');
}

/** Each ring measured on its own: cheap-ruler's area of a polygon with holes assumes they wind as the outer does. */
function squareMetres(ruler: CheapRuler, polygons: PolygonRings[]): number {
  let total = 0;
  for (const [outer, ...holes] of polygons) {
    total += ruler.area([outer]) - holes.reduce((sum, hole) => sum + ruler.area([hole]), 0);
  }
  return total;
}

/** The footprint's ground area on the WGS84 ellipsoid, square metres. */
export function footprintAreaSquareMetres(footprint: Footprint): number {
  const polygons = polygonsOfFootprint(footprint);
  return squareMetres(rulerFor(polygons), polygons);
}

/** Whole square feet of an area in square metres. */
export function wholeSquareFeet(squareMetresArea: number): number {
  return Math.round(squareMetresArea * SQUARE_FEET_PER_SQUARE_METRE);
}

/** The part of a ring inside the box (Sutherland-Hodgman: one pass per side), closed; empty when none is. */
function ringInBox(ring: LonLat[], [west, south, east, north]: Box): LonLat[] {
  const sides: Array<{ inside: (p: LonLat) => boolean; cut: (a: LonLat, b: LonLat) => LonLat }> = [
    { inside: (p) => p[0] >= west, cut: (a, b) => [west, a[1] + ((b[1] - a[1]) * (west - a[0])) / (b[0] - a[0])] },
    { inside: (p) => p[0] <= east, cut: (a, b) => [east, a[1] + ((b[1] - a[1]) * (east - a[0])) / (b[0] - a[0])] },
    { inside: (p) => p[1] >= south, cut: (a, b) => [a[0] + ((b[0] - a[0]) * (south - a[1])) / (b[1] - a[1]), south] },
    { inside: (p) => p[1] <= north, cut: (a, b) => [a[0] + ((b[0] - a[0]) * (north - a[1])) / (b[1] - a[1]), north] },
  ];
  let vertices = ring.slice(0, -1);
  for (const { inside, cut } of sides) {
    const kept: LonLat[] = [];
    vertices.forEach((current, i) => {
      const previous = vertices[(i + vertices.length - 1) % vertices.length];
      if (inside(current)) {
        if (!inside(previous)) kept.push(cut(previous, current));
        kept.push(current);
      } else if (inside(previous)) {
        kept.push(cut(previous, current));
      }
    });
    vertices = kept;
  }
  return vertices.length >= 3 ? [...vertices, vertices[0]] : [];
}

/** The polygons' parts inside the box: enough to clip against a footprint inside it, at a fraction of the vertices. */
function polygonsInBox(polygons: PolygonRings[], box: Box): PolygonRings[] {
  const kept: PolygonRings[] = [];
  for (const [outer, ...holes] of polygons) {
    const outerInBox = ringInBox(outer, box);
    if (outerInBox.length === 0) continue;
    kept.push([outerInBox, ...holes.map((hole) => ringInBox(hole, box)).filter((hole) => hole.length > 0)]);
  }
  return kept;
}

/** What the footprint is measured against: its polygons, the box its clip partners are cut to, its ruler and its area. */
interface MeasuredFootprint {
  polygons: PolygonRings[];
  box: Box;
  ruler: CheapRuler;
  squareMetres: number;
}

function measure(footprint: Footprint): MeasuredFootprint {
  const polygons = polygonsOfFootprint(footprint);
  const [west, south, east, north] = boxOf(polygons);
  const ruler = rulerFor(polygons);
  return {
    polygons,
    box: [west - BOX_MARGIN_DEGREES, south - BOX_MARGIN_DEGREES, east + BOX_MARGIN_DEGREES, north + BOX_MARGIN_DEGREES],
    ruler,
    squareMetres: squareMetres(ruler, polygons),
  };
}

/** A zone, subtype and BFE over the footprint, its polygons summed. */
interface ZoneOverFootprint {
  zone: ZoneClassification;
  squareMetres: number;
  /** The order in which its first polygon took part of the footprint (most severe first). */
  order: number;
}

/**
 * The area each zone, subtype and BFE takes of the footprint. Where zone polygons overlap, each part of the footprint
 * belongs to the most severe zone covering it, as the zone at a point does: polygons are taken most severe first, each
 * getting only what the more severe ones left.
 */
function zonesOverFootprint(footprint: MeasuredFootprint, zones: ZonePolygonFeature[]): ZoneOverFootprint[] {
  const classified = zones
    .map((polygon) => ({ zone: classifyZone(polygon.attributes), rings: polygon.rings }))
    .filter((polygon): polygon is { zone: ZoneClassification; rings: number[][][] } => polygon.zone !== null)
    .sort((a, b) => moreSevereFirst(a.zone, b.zone));
  const byZone = new Map<string, ZoneOverFootprint>();
  let left: PolygonRings[] = footprint.polygons;
  for (const { zone, rings } of classified) {
    if (left.length === 0) break;
    const polygon = polygonsInBox(checkedPolygonsOver(rings, footprint.box), footprint.box);
    if (polygon.length === 0) continue;
    const taken = intersection(left, polygon);
    if (taken.length === 0) continue;
    left = difference(left, polygon);
    const key = JSON.stringify([zone.floodZone, zone.zoneSubtype, zone.staticBaseFloodElevationFt]);
    const entry = byZone.get(key) ?? { zone, squareMetres: 0, order: byZone.size };
    entry.squareMetres += squareMetres(footprint.ruler, taken);
    byZone.set(key, entry);
  }
  return [...byZone.values()];
}

/** A FIRM panel over the footprint, its polygons summed. */
interface PanelOverFootprint {
  id: string;
  attributes: FirmPanelAttributes;
  squareMetres: number;
}

/** Square metres of the footprint a polygon (ArcGIS rings) covers. */
function coveredBy(footprint: MeasuredFootprint, rings: number[][][]): number {
  const polygon = polygonsInBox(checkedPolygonsOver(rings, footprint.box), footprint.box);
  return polygon.length === 0 ? 0 : squareMetres(footprint.ruler, intersection(footprint.polygons, polygon));
}

/**
 * Square metres of the footprint each polygon covers, in the order given: where a building stands on a map of large
 * polygons (communities, coastal barrier units, letters of map revision), each cut by the footprint itself.
 */
export function footprintAreasCovered(footprint: Footprint, polygons: ReadonlyArray<{ rings: number[][][] }>): number[] {
  const measured = measure(footprint);
  return polygons.map(({ rings }) => coveredBy(measured, rings));
}

/** The FIRM panels covering the footprint (at least a sliver's area), ordered by FIRM_PAN. */
function panelsOverFootprint(footprint: MeasuredFootprint, panels: FirmPanelPolygonFeature[]): PanelOverFootprint[] {
  const byId = new Map<string, PanelOverFootprint>();
  for (const { attributes, rings } of panels) {
    const id = toFirmPanel(attributes)?.panel;
    if (id === undefined) continue;
    const covered = coveredBy(footprint, rings);
    const entry = byId.get(id) ?? { id, attributes, squareMetres: 0 };
    entry.squareMetres += covered;
    byId.set(id, entry);
  }
  return [...byId.values()].filter((panel) => panel.squareMetres >= SLIVER_SQUARE_METRES).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** SFHA entries first, then the largest share; equal shares the more severe first, then as they were found. */
function entryOrder(a: ZoneOverFootprint, b: ZoneOverFootprint): number {
  return (
    Number(b.zone.inSpecialFloodHazardArea) - Number(a.zone.inSpecialFloodHazardArea) ||
    b.squareMetres - a.squareMetres ||
    moreSevereFirst(a.zone, b.zone) ||
    a.order - b.order
  );
}

/**
 * What the zone and panel polygons around a footprint say of the building. Shares are of the footprint's own area,
 * each from the unrounded areas; polygons with no flood zone (AREA NOT INCLUDED, OPEN WATER) make no entry, so what
 * they cover, like what no polygon covers, is unmapped.
 */
export function footprintFloodZones(footprint: Footprint, layers: FootprintLayers): FootprintFloodZones {
  const measured = measure(footprint);
  const entries = zonesOverFootprint(measured, layers.zones)
    .filter((entry) => entry.squareMetres >= SLIVER_SQUARE_METRES)
    .sort(entryOrder);
  const shareOf = (area: number): number => (100 * area) / measured.squareMetres;
  const zones = entries.map(({ zone, squareMetres: area }): StructureZone => ({
    floodZone: zone.floodZone,
    zoneSubtype: zone.zoneSubtype,
    inSpecialFloodHazardArea: zone.inSpecialFloodHazardArea,
    staticBaseFloodElevationFt: zone.staticBaseFloodElevationFt,
    areaSqFt: wholeSquareFeet(area),
    sharePercent: roundToTenth(shareOf(area)),
  }));
  const unmappedSharePercent = roundToTenth(Math.max(0, 100 - entries.reduce((sum, entry) => sum + shareOf(entry.squareMetres), 0)));
  const sfhaBfes = entries.filter(({ zone }) => zone.inSpecialFloodHazardArea).map(({ zone }) => zone.staticBaseFloodElevationFt);
  const knownBfes = sfhaBfes.filter((bfe): bfe is number => bfe !== null);
  const panels = panelsOverFootprint(measured, layers.panels);
  const governing = panels.reduce<PanelOverFootprint | null>((most, panel) => (most === null || panel.squareMetres > most.squareMetres ? panel : most), null);
  return {
    zones,
    unmappedSharePercent,
    buildingInSfha: sfhaBfes.length > 0 ? true : entries.length > 0 && unmappedSharePercent < 0.1 ? false : null,
    highestBfeFt: knownBfes.length > 0 ? Math.max(...knownBfes) : null,
    firmPanels: panels.map((panel) => panel.id),
    governingPanel: governing?.attributes ?? null,
  };
}
