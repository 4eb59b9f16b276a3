/**
 * A map that is not the demo map: other places (Louisiana, Alaska, Hawaii, Alabama, North Carolina, West
 * Virginia), other DFIRM ids, other layer ids in the preliminary, pending and CBRS services, and the field
 * oddities FEMA really publishes (ELEV -1 and 0, LEN_UNIT "NP" and "U.S. Survey Feet", V_DATUM "NAVD29",
 * "LOCAL TIDAL DATUM" and null, OUTCOME and REVAL_STAT with odd case and spaces, DATEENDED 9999-09-09,
 * FI_Date as epoch ms or text, a polygon with a hole around the point, a polygon of two outer rings, one of
 * thousands of vertices, hundreds of polygons for paging). Geometry is laid out with Vincenty's direct
 * formula (vincenty.ts) and rounded to 6 decimals, what a `geometryPrecision=6` answer carries anyway; the
 * spec measures expected distances on the rounded geometry with the inverse formula.
 *
 * Only the plumbing of the emulators is shared with the demo map (feature and service shapes); every place,
 * feature and value here is this file's own.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  NFHL_NO_DATE,
  bboxOfShape,
  signedArea,
  type ArcGisField,
  type ArcGisLayerData,
  type ArcGisServiceData,
  type Attributes,
  type DemoMap,
  type MapFeature,
  type NfhlLayerKey,
} from '../../emulators';
import { LonLat, geodesicDestination } from './vincenty';

export { NFHL_NO_DATE };

/** UTC epoch milliseconds of an ISO date-time ("2025-05-15T11:00Z"), as ArcGIS publishes dates. */
export const epochMs = (iso: string): number => Date.parse(iso);

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
const rounded = ([lon, lat]: LonLat): LonLat => [round6(lon), round6(lat)];

/** A point `metres` from `from` on `bearingDeg`, rounded to 6 decimals. */
export const pointAt = (from: LonLat, bearingDeg: number, metres: number): LonLat => rounded(geodesicDestination(from, bearingDeg, metres));

/** Closes a ring and turns it clockwise (an ArcGIS outer ring), or counter-clockwise for a hole. */
function ring(vertices: LonLat[], hole = false): LonLat[] {
  const closed = [...vertices, vertices[0]];
  const clockwise = signedArea(closed) < 0;
  return clockwise !== hole ? closed : closed.slice().reverse();
}

/** A rectangle around `centre`: `southM`/`northM` and `westM`/`eastM` from it along the meridian and parallel. */
export function boxRing(centre: LonLat, southM: number, northM: number, westM: number, eastM: number, hole = false): LonLat[] {
  const south = pointAt(centre, 180, southM)[1];
  const north = pointAt(centre, 0, northM)[1];
  const west = pointAt(centre, 270, westM)[0];
  const east = pointAt(centre, 90, eastM)[0];
  return ring(
    [
      [west, south],
      [west, north],
      [east, north],
      [east, south],
    ],
    hole,
  );
}

export const squareRing = (centre: LonLat, halfM: number) => boxRing(centre, halfM, halfM, halfM, halfM);

/**
 * A rectangle whose near edge is square to `bearingDeg`, `metres` from `from`, `widthM` wide and `depthM`
 * deep: its nearest point to `from` is the middle of that edge.
 */
export function rectangleBeyond(from: LonLat, bearingDeg: number, metres: number, widthM = 120, depthM = 120): LonLat[] {
  const near = geodesicDestination(from, bearingDeg, metres);
  const far = geodesicDestination(from, bearingDeg, metres + depthM);
  return ring([
    rounded(geodesicDestination(near, bearingDeg - 90, widthM / 2)),
    rounded(geodesicDestination(far, bearingDeg - 90, widthM / 2)),
    rounded(geodesicDestination(far, bearingDeg + 90, widthM / 2)),
    rounded(geodesicDestination(near, bearingDeg + 90, widthM / 2)),
  ]);
}

/** A straight line `halfM` either side of the point `metres` away on `bearingDeg`, square to that bearing. */
export function lineAcross(from: LonLat, bearingDeg: number, metres: number, halfM = 30): LonLat[] {
  const middle = geodesicDestination(from, bearingDeg, metres);
  return [rounded(geodesicDestination(middle, bearingDeg - 90, halfM)), rounded(geodesicDestination(middle, bearingDeg + 90, halfM))];
}

/** A polygon of `vertices` vertices on a circle of `radiusM` around `centre` (a large, finely drawn polygon). */
export function circleRing(centre: LonLat, radiusM: number, vertices: number): LonLat[] {
  const points: LonLat[] = [];
  for (let i = 0; i < vertices; i++) points.push(pointAt(centre, (360 * i) / vertices, radiusM));
  return ring(points);
}

const FIXTURES = path.join(__dirname, '..', '..', 'emulators', 'fixtures');
const fieldsOf = (file: string): ArcGisField[] =>
  (JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as { fields: ArcGisField[] }).fields.map(({ name, type, alias, length }) => ({
    name,
    type,
    alias,
    ...(length === undefined ? {} : { length }),
  }));
const field = (name: string, type: string, length?: number): ArcGisField => ({
  name,
  type: `esriFieldType${type}`,
  alias: name,
  ...(length === undefined ? {} : { length }),
});

const ZONE_FIELDS = fieldsOf('nfhl-layer-28-flood-hazard-zones.metadata.excerpt.json');
const AVAILABILITY_FIELDS = [
  field('OBJECTID', 'OID'),
  field('DFIRM_ID', 'String', 6),
  field('PRELM_CODE', 'String', 16),
  field('PRELM_ISSUE_DATE', 'Date', 8),
  field('CREATE_DATE', 'Date', 8),
  field('SHAPE', 'Geometry'),
];
const CBRS_PROHIBITION_FIELDS = [
  field('OBJECTID', 'OID'),
  field('Unit', 'String', 10),
  field('CBRS_Type', 'String', 50),
  field('FI_Date', 'Date', 8),
  field('SU_Date', 'String', 20),
  field('Shape', 'Geometry'),
];
const CBRS_UNIT_FIELDS = [field('OBJECTID', 'OID'), field('Unit', 'String', 10), field('Name', 'String', 100), field('Shape', 'Geometry')];
const CBRS_BUFFER_FIELDS = [field('OBJECTID', 'OID'), field('Unit', 'String', 10), field('Shape', 'Geometry')];

type Geometry = { rings: LonLat[][] } | { paths: LonLat[][] } | { point: LonLat };

/** Features in the order a query answers them, each with a fresh OBJECTID. */
class FeatureList {
  readonly features: MapFeature[] = [];
  add(geometry: Geometry, attributes: Attributes): MapFeature {
    const feature: MapFeature = { attributes: { OBJECTID: this.features.length + 1, ...attributes }, ...geometry, bbox: bboxOfShape(geometry) };
    this.features.push(feature);
    return feature;
  }
}

/** A zone polygon's attributes: layer 28's defaults ("none" written NFHL's ways) and what is given. */
export const zone = (dfirm: string, given: Attributes): Attributes => ({
  DFIRM_ID: dfirm,
  FLD_AR_ID: `${dfirm}_${String(given.FLD_ZONE)}`,
  STUDY_TYP: 'SFHA WITH BFE OR DEPTH',
  ZONE_SUBTY: null,
  SFHA_TF: 'F',
  STATIC_BFE: -9999,
  V_DATUM: null,
  DEPTH: -9999,
  LEN_UNIT: null,
  ...given,
});

/** Everything an independent checker could serve: NFHL layers and the three other MapServers. */
export class IndependentMap {
  private readonly nfhlLayers = Object.fromEntries(
    (['availability', 'lomrs', 'firmPanels', 'politicalJurisdictions', 'floodHazardZones', 'bfeLines', 'lomas'] as NfhlLayerKey[]).map((k) => [
      k,
      new FeatureList(),
    ]),
  ) as Record<NfhlLayerKey, FeatureList>;
  private readonly preliminaryLayers = { availability: new FeatureList(), zones: new FeatureList() };
  private readonly pendingLayers = { availability: new FeatureList(), zones: new FeatureList() };
  private readonly cbrsLayers = { units: new FeatureList(), prohibitions: new FeatureList(), buffer: new FeatureList() };

  /** NFHL availability, one FIRM panel and one jurisdiction over a square of `halfM` around `centre`. */
  area(centre: LonLat, halfM: number, a: { dfirm: string; panel: string; effective: string; community: string; cid: string }): void {
    const rings = [squareRing(centre, halfM)];
    this.nfhlLayers.availability.add({ rings }, { STUDY_ID: `${a.dfirm}_STUDY` });
    this.nfhlLayers.firmPanels.add(
      { rings },
      {
        DFIRM_ID: a.dfirm,
        FIRM_PAN: a.panel,
        PANEL: a.panel.slice(6, 10),
        SUFFIX: a.panel.slice(10),
        PANEL_TYP: 'Countywide, Panel Printed',
        EFF_DATE: epochMs(`${a.effective}T00:00:00Z`),
      },
    );
    this.nfhlLayers.politicalJurisdictions.add({ rings }, { DFIRM_ID: a.dfirm, POL_NAME1: a.community, CID: a.cid });
  }

  zone(rings: LonLat[][], dfirm: string, given: Attributes): MapFeature {
    return this.nfhlLayers.floodHazardZones.add({ rings }, zone(dfirm, given));
  }

  bfeLine(pathLine: LonLat[], given: Attributes): MapFeature {
    return this.nfhlLayers.bfeLines.add({ paths: [pathLine] }, { VERSION_ID: '1.1.1.0', BFE_LN_ID: `${String(given.DFIRM_ID)}_L`, ...given });
  }

  /** A LOMA at `point`; LAT/LON carry the same location, as FEMA publishes them. */
  loma(point: LonLat, given: Attributes): MapFeature {
    return this.nfhlLayers.lomas.add({ point }, { STATUS: 'Completed', LAT: point[1], LON: point[0], ...given });
  }

  comingMap(which: 'preliminary' | 'pending', rings: LonLat[][], dfirm: string, issued: number): void {
    const layers = which === 'preliminary' ? this.preliminaryLayers : this.pendingLayers;
    layers.availability.add({ rings }, { DFIRM_ID: dfirm, PRELM_CODE: `${dfirm}_P`, PRELM_ISSUE_DATE: issued, CREATE_DATE: issued });
  }

  comingZone(which: 'preliminary' | 'pending', rings: LonLat[][], dfirm: string, given: Attributes): void {
    (which === 'preliminary' ? this.preliminaryLayers : this.pendingLayers).zones.add({ rings }, zone(dfirm, given));
  }

  cbrsProhibition(rings: LonLat[][], given: Attributes): void {
    this.cbrsLayers.units.add({ rings }, { Unit: given.Unit, Name: `Unit ${String(given.Unit)}` });
    this.cbrsLayers.prohibitions.add({ rings }, given);
  }

  cbrsBuffer(rings: LonLat[][], unit: string): void {
    this.cbrsLayers.buffer.add({ rings }, { Unit: unit });
  }

  /** The NFHL emulator's map (and the Census emulator's, which knows no county here: county stays null). */
  get nfhl(): DemoMap {
    const nfhl = Object.fromEntries(Object.entries(this.nfhlLayers).map(([k, list]) => [k, list.features])) as Record<NfhlLayerKey, MapFeature[]>;
    return { nfhl, census: { counties: [], zctas: [], states: {}, addresses: [] } };
  }

  /** Layer ids and orders unlike the demo's and NFHL's: only the names may be relied on. */
  get preliminary(): ArcGisServiceData {
    return {
      serviceName: 'PrelimPending/Prelim_NFHL',
      layers: [
        polygonLayer(24, 'Preliminary Flood Hazard Zones', ZONE_FIELDS, this.preliminaryLayers.zones),
        polygonLayer(7, 'Preliminary Data Availability', AVAILABILITY_FIELDS, this.preliminaryLayers.availability),
      ],
    };
  }

  get pending(): ArcGisServiceData {
    return {
      serviceName: 'PrelimPending/Pending_NFHL',
      layers: [
        polygonLayer(3, 'Pending Data Availability', AVAILABILITY_FIELDS, this.pendingLayers.availability),
        polygonLayer(31, 'Pending Flood Hazard Zones', ZONE_FIELDS, this.pendingLayers.zones),
      ],
    };
  }

  get cbrs(): ArcGisServiceData {
    return {
      serviceName: 'CoastalBarrierResourcesSystem',
      layers: [
        polygonLayer(5, 'CBRS Buffer Zone', CBRS_BUFFER_FIELDS, this.cbrsLayers.buffer),
        polygonLayer(2, 'CBRS Units', CBRS_UNIT_FIELDS, this.cbrsLayers.units),
        polygonLayer(9, 'CBRS Prohibitions', CBRS_PROHIBITION_FIELDS, this.cbrsLayers.prohibitions),
      ],
    };
  }
}

function polygonLayer(id: number, name: string, fields: ArcGisField[], list: FeatureList): ArcGisLayerData {
  return { id, name, geometryType: 'esriGeometryPolygon', fields, displayField: 'OBJECTID', features: list.features };
}
