/**
 * Real FEMA flood-zone, FIRM panel and political jurisdiction polygons, read from the extracts kept beside the project
 * (directory REAL_NFHL_DIR): Hudson County, NJ (DFIRM 34017C, zones, panels and communities; a planar partition with
 * holes and an AREA NOT INCLUDED polygon) and Cambridge, MA (DFIRM 25017C, 1% and 0.2% areas with floodways; lower-case
 * field names). The polygons come as NFHL's MapServer gives them to the service: ArcGIS rings, outer rings clockwise
 * and holes counter-clockwise, each feature keeping its GeoJSON geometry too for checks that must not share the
 * service's path; `nfhlMapOf` serves them from the NFHL emulator.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import CheapRuler from 'cheap-ruler';
import type { FirmPanelAttributes, FloodHazardZoneAttributes, PoliticalJurisdictionAttributes } from '../../src/flood-hazard/flood-hazard.types';
import { footprintBox, polygonsOfFootprint } from '../../src/parts/structure/footprint-geometry';
import type { FootprintLayers, LonLat } from '../../src/parts/structure/structure.types';
import type { DemoMap, MapFeature } from '../emulators/demo-map';
import { type Ring, bboxOfRings } from '../emulators/geometry';

export const REAL_NFHL_DIR = process.env.REAL_NFHL_DIR ?? '/work/shared/real-nfhl';

/** A GeoJSON Polygon or MultiPolygon geometry as the extracts hold it. */
export type PolygonGeometry = { type: 'Polygon'; coordinates: LonLat[][] } | { type: 'MultiPolygon'; coordinates: LonLat[][][] };

/** A real polygon: its attributes, its ArcGIS rings, its GeoJSON geometry and its bounds [west, south, east, north]. */
export interface RealPolygon<A> {
  attributes: A;
  rings: number[][][];
  geometry: PolygonGeometry;
  box: [number, number, number, number];
}

export interface RealLayers {
  name: string;
  zones: Array<RealPolygon<FloodHazardZoneAttributes>>;
  panels: Array<RealPolygon<FirmPanelAttributes>>;
  jurisdictions: Array<RealPolygon<PoliticalJurisdictionAttributes>>;
}

interface GeoJsonFeature {
  properties: Record<string, unknown>;
  geometry: PolygonGeometry;
}

function readFeatures(file: string): GeoJsonFeature[] {
  const full = path.join(REAL_NFHL_DIR, file);
  if (!fs.existsSync(full)) {
    throw new Error(`The real NFHL extract ${full} is missing: set REAL_NFHL_DIR to the directory holding hudson-nj-34017C/ and cambridge-ma-25017C/.`);
  }
  return (JSON.parse(fs.readFileSync(full, 'utf8')) as { features: GeoJsonFeature[] }).features;
}

function signedDoubleArea(ring: LonLat[]): number {
  let sum = 0;
  for (let i = 1; i < ring.length; i++) sum += (ring[i - 1][0] - ring[i][0]) * (ring[i - 1][1] + ring[i][1]);
  return sum;
}

/** ArcGIS rings of a GeoJSON geometry: every outer ring clockwise, every hole counter-clockwise, parts not grouped. */
export function arcgisRings(geometry: PolygonGeometry): number[][][] {
  return polygonsOfFootprint(geometry).flatMap((polygon) =>
    polygon.map((ring, i) => {
      const clockwise = signedDoubleArea(ring) < 0;
      return (i === 0) === clockwise ? ring : ring.slice().reverse();
    }),
  );
}

/** A field by its name in any case (Cambridge's are lower case), null when absent. */
function field(properties: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(properties).find((candidate) => candidate.toUpperCase() === name);
  return key === undefined ? null : (properties[key] ?? null);
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const number = (value: unknown): number | null => (typeof value === 'number' ? value : null);

function zoneAttributes(properties: Record<string, unknown>): FloodHazardZoneAttributes {
  return {
    FLD_ZONE: text(field(properties, 'FLD_ZONE')),
    ZONE_SUBTY: text(field(properties, 'ZONE_SUBTY')),
    SFHA_TF: text(field(properties, 'SFHA_TF')),
    STATIC_BFE: number(field(properties, 'STATIC_BFE')),
    DEPTH: number(field(properties, 'DEPTH')),
    V_DATUM: text(field(properties, 'V_DATUM')),
    LEN_UNIT: text(field(properties, 'LEN_UNIT')),
    DFIRM_ID: text(field(properties, 'DFIRM_ID')),
    FLD_AR_ID: text(field(properties, 'FLD_AR_ID')),
  };
}

/** The extract's EFF_DATE is a date string; the MapServer gives epoch milliseconds. */
function panelAttributes(properties: Record<string, unknown>): FirmPanelAttributes {
  const effective = text(field(properties, 'EFF_DATE'));
  return {
    FIRM_PAN: text(field(properties, 'FIRM_PAN')),
    PANEL: text(field(properties, 'PANEL')),
    SUFFIX: text(field(properties, 'SUFFIX')),
    EFF_DATE: effective === null ? null : Date.parse(`${effective}T00:00:00Z`),
    PANEL_TYP: text(field(properties, 'PANEL_TYP')),
    DFIRM_ID: text(field(properties, 'DFIRM_ID')),
  };
}

function jurisdictionAttributes(properties: Record<string, unknown>): PoliticalJurisdictionAttributes {
  return { POL_NAME1: text(field(properties, 'POL_NAME1')), CID: text(field(properties, 'CID')) };
}

function realPolygons<A>(file: string, attributesOf: (properties: Record<string, unknown>) => A): Array<RealPolygon<A>> {
  return readFeatures(file).map(({ properties, geometry }) => ({
    attributes: attributesOf(properties),
    rings: arcgisRings(geometry),
    geometry,
    box: footprintBox(geometry),
  }));
}

export function hudsonCounty(): RealLayers {
  return {
    name: 'Hudson County, NJ',
    zones: realPolygons('hudson-nj-34017C/S_FLD_HAZ_AR.geojson', zoneAttributes),
    panels: realPolygons('hudson-nj-34017C/S_FIRM_PAN.geojson', panelAttributes),
    jurisdictions: realPolygons('hudson-nj-34017C/S_POL_AR.geojson', jurisdictionAttributes),
  };
}

export function cambridge(): RealLayers {
  return { name: 'Cambridge, MA', zones: realPolygons('cambridge-ma-25017C/FEMA_FloodPlains500Year.geojson', zoneAttributes), panels: [], jurisdictions: [] };
}

/** Features as the NFHL MapServer emulator serves them: attributes by field name, ArcGIS rings and their bounds. */
function servedFeatures<A extends object>(polygons: Array<RealPolygon<A>>): MapFeature[] {
  return polygons.map(({ attributes, rings }) => ({
    attributes: Object.fromEntries(Object.entries(attributes)),
    rings: rings as Ring[],
    bbox: bboxOfRings(rings as Ring[]),
  }));
}

/**
 * A map for the NFHL MapServer emulator serving these zones, panels and communities as FEMA's layers, in the
 * extract's order; every other NFHL layer (availability, LOMRs, LOMAs, BFE lines) is empty, and so is the Census part,
 * which the NFHL emulator does not read.
 */
export function nfhlMapOf(layers: RealLayers): DemoMap {
  return {
    nfhl: {
      availability: [],
      lomrs: [],
      firmPanels: servedFeatures(layers.panels),
      politicalJurisdictions: servedFeatures(layers.jurisdictions),
      floodHazardZones: servedFeatures(layers.zones),
      bfeLines: [],
      lomas: [],
    },
    census: { counties: [], zctas: [], states: {}, addresses: [] },
  };
}

function overlaps(a: readonly number[], b: readonly number[]): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/** Bounds [west, south, east, north] of a ring. */
export function ringBox(ring: number[][]): [number, number, number, number] {
  const lons = ring.map(([lon]) => lon);
  const lats = ring.map(([, lat]) => lat);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

/** The polygons intersecting an envelope, as the NFHL query by envelope returns them. */
export function polygonsAround<A>(polygons: Array<RealPolygon<A>>, box: readonly number[]): Array<RealPolygon<A>> {
  return polygons.filter((polygon) => overlaps(polygon.box, box));
}

/** The zone and panel polygons around a footprint's envelope, as the service receives them. */
export function footprintLayersAround(layers: RealLayers, box: readonly number[]): FootprintLayers {
  return {
    zones: polygonsAround(layers.zones, box).map(({ attributes, rings }) => ({ attributes, rings })),
    panels: polygonsAround(layers.panels, box).map(({ attributes, rings }) => ({ attributes, rings })),
  };
}

/**
 * A footprint's outline as USA Structures gives it: one clockwise ArcGIS ring through `corners` (metres east and north
 * of `centre`, listed clockwise), turned `turnDegrees` clockwise about the centre.
 */
export function footprintRing(centre: LonLat, corners: Array<[number, number]>, turnDegrees = 0): number[][] {
  const ruler = new CheapRuler(centre[1], 'meters');
  const turn = (turnDegrees * Math.PI) / 180;
  const vertices = corners.map(([east, north]) =>
    ruler.offset(centre, east * Math.cos(turn) + north * Math.sin(turn), -east * Math.sin(turn) + north * Math.cos(turn)),
  );
  return [...vertices, vertices[0]];
}

/** The corners of a `widthM` by `depthM` rectangle about the centre, clockwise. */
export function rectangleCorners(widthM: number, depthM: number): Array<[number, number]> {
  return [
    [-widthM / 2, -depthM / 2],
    [-widthM / 2, depthM / 2],
    [widthM / 2, depthM / 2],
    [widthM / 2, -depthM / 2],
  ];
}

/** The corners of an L: a `widthM` by `depthM` rectangle about the centre less its north-east `notchM` square, clockwise. */
export function lShapeCorners(widthM: number, depthM: number, notchM: number): Array<[number, number]> {
  const [west, south, east, north] = [-widthM / 2, -depthM / 2, widthM / 2, depthM / 2];
  return [
    [west, south],
    [west, north],
    [east - notchM, north],
    [east - notchM, north - notchM],
    [east, north - notchM],
    [east, south],
  ];
}
