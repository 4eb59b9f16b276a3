/**
 * The demo map served by the upstream emulators: NFHL features per layer (ArcGIS polygon rings in lon/lat,
 * WGS84) and Census data (counties, 2020 ZCTAs, states, addresses), all in memory.
 *
 * Attribute sets follow the real NFHL layers field-for-field (names, order, null encodings) as recorded from
 * the live service (real layer-28 feature properties, the layer metadata copied into fixtures/). Values are realistic but made up
 * for the demo (except those known from the real service: Toa Baja panel 72000C0330J, Renton panel 53033C0977G,
 * the AE 583 / VE 586 / AO / X attribute sets copied from real features). County and ZCTA polygons are
 * rectangles around the demo areas, not their real outlines.
 *
 * Every coverage case lives in its own small area: zone polygons are squares ~300 m wide on a 600 m grid,
 * so a point between squares (inside NFHL Availability) is a genuine "no zone polygon" gap.
 * `DEMO_PLACES` lists one point per case, with what the service should answer for it (`expect`).
 *
 * The places of the answer parts (LOMAs, BFE estimates, nearby hazards, coming map changes, CBRS) sit kilometres from every
 * other area, with their features at whole-metre distances by construction; `DEMO_PRELIMINARY`,
 * `DEMO_PENDING` and `DEMO_CBRS` hold the other MapServers' data for them. Every place also stands on ground of its
 * own (`DEMO_ELEVATIONS`, for the USGS elevation emulator); the Norfolk places show how it stands against the BFE.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  BBox,
  Position,
  Ring,
  areaAndLength,
  bboxOfRings,
  bboxOfShape,
  metersToDegrees,
  polygonIntersectsPoint,
  rectHole,
  rectRing,
  signedArea,
  squareAround,
} from './geometry';
import type { ArcGisFeature, ArcGisField, ArcGisLayerData, ArcGisServiceData } from './map-data';
import { EPQS_NO_DATA_VALUE, type EpqsPoint } from './epqs-emulator';

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

export type AttributeValue = string | number | null;
export type Attributes = Record<string, AttributeValue>;

export type NfhlLayerKey = 'availability' | 'lomrs' | 'firmPanels' | 'politicalJurisdictions' | 'floodHazardZones' | 'bfeLines' | 'lomas';

/** The real layer names (what a client must resolve ids by). */
export const NFHL_LAYER_NAMES: Readonly<Record<NfhlLayerKey, string>> = {
  availability: 'NFHL Availability',
  lomrs: 'LOMRs',
  firmPanels: 'FIRM Panels',
  politicalJurisdictions: 'Political Jurisdictions',
  floodHazardZones: 'Flood Hazard Zones',
  bfeLines: 'Base Flood Elevations',
  lomas: 'LOMAs',
};

/** The layer ids in the live service today (fixtures/nfhl-mapserver-root.metadata.json). */
export const NFHL_DEFAULT_LAYER_IDS: Readonly<Record<NfhlLayerKey, number>> = {
  availability: 0,
  lomrs: 1,
  firmPanels: 3,
  politicalJurisdictions: 22,
  floodHazardZones: 28,
  bfeLines: 16,
  lomas: 34,
};

/** Non-geometry attribute names per layer, in the real field order (from the layer metadata). */
export const NFHL_ATTRIBUTE_FIELDS: Readonly<Record<NfhlLayerKey, readonly string[]>> = {
  availability: ['OBJECTID', 'STUDY_ID', 'GlobalID', 'SHAPE_Length', 'SHAPE_Area'],
  lomrs: [
    'OBJECTID',
    'DFIRM_ID',
    'VERSION_ID',
    'LOMR_ID',
    'EFF_DATE',
    'CASE_NO',
    'SCALE',
    'STATUS',
    'SOURCE_CIT',
    'SHAPE.STArea()',
    'SHAPE.STLength()',
    'GFID',
    'GlobalID',
  ],
  firmPanels: [
    'OBJECTID',
    'DFIRM_ID',
    'VERSION_ID',
    'FIRM_ID',
    'ST_FIPS',
    'PCOMM',
    'PANEL',
    'SUFFIX',
    'FIRM_PAN',
    'PANEL_TYP',
    'PRE_DATE',
    'EFF_DATE',
    'SCALE',
    'PNP_REASON',
    'BASE_TYP',
    'SOURCE_CIT',
    'GFID',
    'SHAPE.STArea()',
    'SHAPE.STLength()',
    'GlobalID',
  ],
  politicalJurisdictions: [
    'OBJECTID',
    'DFIRM_ID',
    'VERSION_ID',
    'POL_AR_ID',
    'POL_NAME1',
    'POL_NAME2',
    'POL_NAME3',
    'CO_FIPS',
    'ST_FIPS',
    'COMM_NO',
    'CID',
    'ANI_TF',
    'ANI_FIRM',
    'COM_NFO_ID',
    'SOURCE_CIT',
    'SHAPE.STArea()',
    'SHAPE.STLength()',
    'GFID',
    'GlobalID',
  ],
  floodHazardZones: [
    'OBJECTID',
    'DFIRM_ID',
    'FLD_AR_ID',
    'STUDY_TYP',
    'FLD_ZONE',
    'ZONE_SUBTY',
    'SFHA_TF',
    'STATIC_BFE',
    'V_DATUM',
    'DEPTH',
    'LEN_UNIT',
    'VELOCITY',
    'VEL_UNIT',
    'AR_REVERT',
    'AR_SUBTRV',
    'BFE_REVERT',
    'DEP_REVERT',
    'DUAL_ZONE',
    'SOURCE_CIT',
    'SHAPE.STArea()',
    'SHAPE.STLength()',
    'GFID',
    'GlobalID',
  ],
  // the properties of real f=geojson answers of layer 16 (fixtures/nfhl-layer-16-base-flood-elevations.metadata.json)
  bfeLines: ['OBJECTID', 'DFIRM_ID', 'VERSION_ID', 'BFE_LN_ID', 'ELEV', 'LEN_UNIT', 'V_DATUM', 'SOURCE_CIT', 'SHAPE.STLength()', 'GFID', 'GlobalID'],
  lomas: [
    'OBJECTID',
    'CASENUMBER',
    'STATUS',
    'PROJECTNAME',
    'PROJECTCATEGORY',
    'DATEENDED',
    'DATEENDEDSTR',
    'CID',
    'COMMUNITYNAME',
    'DETERMINATIONTYPE',
    'LAT',
    'LON',
    'PDFHYPERLINKID',
    'REVAL_STAT',
    'LOTTYPE',
    'OUTCOME',
    'GlobalID',
  ],
};

/**
 * One NFHL feature. Polygons carry `rings` ([lon, lat]; outer rings clockwise, holes counter-clockwise),
 * BFE lines `paths`, LOMAs a `point`.
 */
export type MapFeature = ArcGisFeature;

/** The geometry of a feature, exactly one of the three kinds. */
type Shape = { rings: Ring[] } | { paths: Position[][] } | { point: Position };

export interface CensusArea {
  attributes: Record<string, string | number>;
  rings: Ring[];
  bbox: BBox;
}

export interface AddressComponents {
  fromAddress: string;
  toAddress: string;
  preQualifier: string;
  preDirection: string;
  preType: string;
  streetName: string;
  suffixType: string;
  suffixDirection: string;
  suffixQualifier: string;
  state: string;
  zip: string;
  city: string;
}

export interface CensusAddressMatch {
  lat: number;
  lon: number;
  matchedAddress: string;
  tigerLine: { tigerLineId: string; side: 'L' | 'R' };
  addressComponents: AddressComponents;
}

export interface CensusAddressEntry {
  /** Accepted input spellings; compared case-, whitespace- and punctuation-insensitively. */
  spellings: string[];
  /** Several = a "tie" (the real geocoder returns them all). */
  matches: CensusAddressMatch[];
}

export interface DemoMap {
  nfhl: Record<NfhlLayerKey, MapFeature[]>;
  census: {
    counties: CensusArea[];
    zctas: CensusArea[];
    /** State records keyed by 2-digit FIPS; a point's state is its county's STATE. */
    states: Record<string, Record<string, string | number>>;
    addresses: CensusAddressEntry[];
  };
}

/** What the service should answer for a place (the `result` of docs/api.md), as worked out by the emulator's author. */
export interface DemoExpectation {
  coverage: 'mapped' | 'mapped_no_zone' | 'unmapped';
  floodZone: string | null;
  zoneSubtype: string | null;
  isFloodway: boolean | null;
  inSpecialFloodHazardArea: boolean | null;
  riskLevel: 'very_high' | 'high' | 'moderate' | 'minimal' | 'undetermined' | 'unknown';
  staticBaseFloodElevationFt: number | null;
  verticalDatum: string | null;
  depthFt: number | null;
  zonesAtPoint: Array<{
    floodZone: string;
    zoneSubtype: string | null;
    inSpecialFloodHazardArea: boolean | null;
    staticBaseFloodElevationFt: number | null;
  }>;
  firmPanel: {
    panel: string;
    panelNumber: string | null;
    suffix: string | null;
    effectiveDate: string | null;
    panelType: string | null;
  } | null;
  /** The community at the point: null where none is mapped, or several are (then listed in `communitiesAtPoint`). */
  community: { name: string | null; communityId: string | null } | null;
  /** Every community mapped at the point, each once, in the layer's order. */
  communitiesAtPoint: Array<{ name: string | null; communityId: string | null }>;
  /** Effective LOMRs at the point, newest first. */
  lomrs: Array<{ caseNumber: string; effectiveDate: string | null }>;
  /** LOMAs within 100 m, nearest first. */
  lomas: LomaExpectation[];
  /** The BFE estimated from the BFE lines around the point (`note` left out: any sentence). */
  estimatedBaseFloodElevation: EstimatedBfeExpectation | null;
  /** include=nearby with the default radius (500 m); undefined where the demo does not pin it down. */
  nearby?: NearbyExpectation;
  /** include=nearby with other radii (`radiusM` says which). */
  nearbyAtOtherRadii?: NearbyExpectation[];
  /** include=preliminary: the pending or preliminary map at the point (`note` left out). */
  mapChange: MapChangeExpectation;
  /** include=cbrs: the Coastal Barrier Resources System at the point (`note` left out). */
  coastalBarrier: CoastalBarrierExpectation;
  /** include=elevation: the ground at the point from the EPQS emulator, against the BFE (`note` left out). */
  groundElevation: GroundElevationExpectation;
  /** From the Census coordinates lookup. */
  county: string | null;
  countyFips: string | null;
  /** 2020 ZCTA at the point (coordinates lookup); not a postal ZIP. */
  zcta: string | null;
}

export interface LomaExpectation {
  caseNumber: string;
  effectiveDate: string | null;
  status: 'valid' | 'denied' | 'incorporated' | 'superseded' | 'contact_community' | 'reevaluation_needed';
  outcome: string | null;
  category: string | null;
  distanceM: number;
}

export interface EstimatedBfeExpectation {
  elevationFt: number;
  verticalDatum: string | null;
  method: 'interpolated' | 'nearest_line';
  lines: Array<{ elevationFt: number; distanceM: number }>;
}

export interface NearbyHazardExpectation {
  distanceM: number;
  floodZone: string;
  zoneSubtype: string | null;
  staticBaseFloodElevationFt: number | null;
}

export interface NearbyExpectation {
  radiusM: number;
  sfha: NearbyHazardExpectation | null;
  floodway: NearbyHazardExpectation | null;
  moderate: NearbyHazardExpectation | null;
}

export interface MapChangeExpectation {
  status: 'pending' | 'preliminary' | 'none';
  issuedDate: string | null;
  floodZone: string | null;
  zoneSubtype: string | null;
  inSpecialFloodHazardArea: boolean | null;
  staticBaseFloodElevationFt: number | null;
  sfhaChange: 'into_sfha' | 'out_of_sfha' | 'unchanged' | 'unknown';
}

export interface CoastalBarrierExpectation {
  status: 'inside' | 'buffer' | 'outside';
  unit: string | null;
  type: 'System Unit' | 'Otherwise Protected Area' | null;
  floodInsuranceProhibitionDate: string | null;
}

export interface GroundElevationExpectation {
  elevationFt: number | null;
  verticalDatum: 'NAVD88' | null;
  resolutionM: number | null;
  acquisitionDate: string | null;
  uncertaintyFt: number | null;
  comparedWith: { bfe: 'static' | 'estimated'; bfeFt: number; differenceFt: number; position: 'above' | 'below' | 'within_uncertainty' } | null;
}

export interface DemoPlace {
  id: string;
  description: string;
  lat: number;
  lon: number;
  /** A one-line address the Census emulator resolves to exactly this point (as its first match). */
  address?: string;
  expect: DemoExpectation;
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** UTC midnight epoch milliseconds, as NFHL publishes dates. */
export function utcDate(isoDay: string): number {
  return Date.parse(`${isoDay}T00:00:00Z`);
}

/** NFHL's "no date" placeholder, 9999-09-09. */
export const NFHL_NO_DATE = 253392451200000;

const SPACING_M = 600;
const ZONE_SIDE_M = 300;

interface Cluster {
  lat0: number;
  lon0: number;
  dLat: number; // degrees per grid step
  dLon: number;
}

function cluster(lat0: number, lon0: number): Cluster {
  const { dLat, dLon } = metersToDegrees(lat0, SPACING_M);
  return { lat0, lon0, dLat, dLon };
}

/** 6 decimals (~0.1 m): what a client sends and what the service rounds its cache keys to. */
function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/**
 * Centre of grid cell (col, row); rows go north. Rounded to 6 decimals so that a client that rounds the
 * point (the service does, to 6 decimals) still lands exactly on seam edges drawn through it.
 */
function cell(c: Cluster, col: number, row = 0): { lat: number; lon: number } {
  return { lat: round6(c.lat0 + row * c.dLat), lon: round6(c.lon0 + col * c.dLon) };
}

/** Rectangle [xmin, ymin, xmax, ymax] around the grid cells cols x rows, extended by marginM. */
function clusterBox(c: Cluster, cols: number, rows: number, marginM: number): [number, number, number, number] {
  const m = metersToDegrees(c.lat0, marginM);
  return [c.lon0 - c.dLon / 2 - m.dLon, c.lat0 - c.dLat / 2 - m.dLat, c.lon0 + (cols - 0.5) * c.dLon + m.dLon, c.lat0 + (rows - 0.5) * c.dLat + m.dLat];
}

function boxRing(b: [number, number, number, number]): Ring {
  return rectRing(b[0], b[1], b[2], b[3]);
}

let guidCounter = 0;
function globalId(): string {
  guidCounter += 1;
  const hex = guidCounter.toString(16).toUpperCase().padStart(12, '0');
  return `{D3E0F1A2-5B6C-4D7E-8F90-${hex}}`;
}
function gfid(): string {
  guidCounter += 1;
  return `0f1e2d3c-4b5a-4697-8877-${guidCounter.toString(16).padStart(12, '0')}`;
}

/** A zone polygon's attributes before its zone is said: no zone, no BFE, no depth (the layer's "none" values). */
export const ZONE_DEFAULTS: Attributes = {
  STUDY_TYP: 'NP',
  ZONE_SUBTY: null,
  SFHA_TF: 'F',
  STATIC_BFE: -9999,
  V_DATUM: null,
  DEPTH: -9999,
  LEN_UNIT: null,
  VELOCITY: -9999,
  VEL_UNIT: null,
  AR_REVERT: null,
  AR_SUBTRV: null,
  BFE_REVERT: -9999,
  DEP_REVERT: -9999,
  DUAL_ZONE: null,
};

/** The attribute set of a layer-28-style zone polygon (effective, preliminary or pending map). */
function zoneAttributes(oid: number, dfirm: string, attrs: Attributes): Attributes {
  return { ...ZONE_DEFAULTS, DFIRM_ID: dfirm, FLD_AR_ID: `${dfirm}_${oid % 10000}`, SOURCE_CIT: `${dfirm}_STUDY1`, ...attrs };
}

/** A feature with exactly `fieldNames` as attributes, in that order: given values, else computed ones, else null. */
function featureOf(fieldNames: readonly string[], oid: number, shape: Shape, given: Attributes): MapFeature {
  const computed: Attributes = { OBJECTID: oid, GlobalID: globalId(), GFID: gfid() };
  if ('rings' in shape) {
    const { area, length } = areaAndLength(shape.rings);
    Object.assign(computed, { 'SHAPE.STArea()': area, 'SHAPE.STLength()': length, SHAPE_Area: area, SHAPE_Length: length });
  } else if ('paths' in shape) {
    // a path is an open ring as far as the perimeter goes
    computed['SHAPE.STLength()'] = areaAndLength(shape.paths).length;
  }
  const attributes: Attributes = {};
  for (const name of fieldNames) {
    if (name in given) attributes[name] = given[name];
    else if (name in computed) attributes[name] = computed[name];
    else attributes[name] = null;
  }
  return { attributes, ...shape, bbox: bboxOfShape(shape) };
}

/** MM/DD/YYYY in UTC, the form of LOMA `DATEENDEDSTR`. */
function usDate(ms: number): string {
  const [y, m, d] = new Date(ms).toISOString().slice(0, 10).split('-');
  return `${m}/${d}/${y}`;
}

// ---------------------------------------------------------------------------------------------
// Exact distances: the answer parts' features sit at whole-metre great-circle distances from their place, so the
// expected distances are known by construction (and checked in demo-map.spec.ts with haversine and with
// the WGS84 ellipsoid, which differ by up to 0.3 %: every distance is chosen so both round alike).
// ---------------------------------------------------------------------------------------------

/** Mean earth radius, as `haversineMeters` uses. */
const EARTH_RADIUS_M = 6_371_008.8;

interface LatLon {
  lat: number;
  lon: number;
}

/** The great-circle destination `meters` from `from` on the initial bearing `bearingDeg` (not rounded). */
function destination(from: LatLon, bearingDeg: number, meters: number): LatLon {
  const rad = Math.PI / 180;
  const delta = meters / EARTH_RADIUS_M;
  const theta = bearingDeg * rad;
  const phi1 = from.lat * rad;
  const phi2 = Math.asin(Math.sin(phi1) * Math.cos(delta) + Math.cos(phi1) * Math.sin(delta) * Math.cos(theta));
  const dLambda = Math.atan2(Math.sin(theta) * Math.sin(delta) * Math.cos(phi1), Math.cos(delta) - Math.sin(phi1) * Math.sin(phi2));
  return { lat: phi2 / rad, lon: from.lon + dLambda / rad };
}

/** [lon, lat] rounded to 6 decimals: what a `geometryPrecision=6` answer carries anyway. */
function vertex(p: LatLon): Position {
  return [round6(p.lon), round6(p.lat)];
}

/** A point `meters` from `from` on `bearingDeg`, rounded to 6 decimals. */
function pointAt(from: LatLon, bearingDeg: number, meters: number): LatLon {
  const [lon, lat] = vertex(destination(from, bearingDeg, meters));
  return { lat, lon };
}

/**
 * A straight line `halfM` either side of the point `meters` away on `bearingDeg`, square to that bearing,
 * so that point (its middle) is the line's nearest point to `from`.
 */
function lineAcross(from: LatLon, bearingDeg: number, meters: number, halfM = 40): Position[] {
  const middle = destination(from, bearingDeg, meters);
  return [vertex(destination(middle, bearingDeg - 90, halfM)), vertex(destination(middle, bearingDeg + 90, halfM))];
}

/**
 * A rectangle whose near edge is square to `bearingDeg` at `meters` from `from` (`widthM` wide, centred on
 * the bearing) and which reaches `depthM` further away: its nearest point to `from` is exactly `meters` off.
 */
function rectangleBeyond(from: LatLon, bearingDeg: number, meters: number, widthM = 200, depthM = 200): Ring {
  const near = destination(from, bearingDeg, meters);
  const far = destination(from, bearingDeg, meters + depthM);
  const ring = [
    vertex(destination(near, bearingDeg - 90, widthM / 2)),
    vertex(destination(far, bearingDeg - 90, widthM / 2)),
    vertex(destination(far, bearingDeg + 90, widthM / 2)),
    vertex(destination(near, bearingDeg + 90, widthM / 2)),
  ];
  const closed: Ring = [...ring, ring[0]];
  // ArcGIS outer rings are clockwise (negative signed area)
  return signedArea(closed) < 0 ? closed : closed.slice().reverse();
}

/** Builds NFHL layers feature by feature, each with its layer's real attribute set and its own OBJECTID (the benchmark's loan-book map is built with it too). */
export class MapBuilder {
  readonly nfhl: Record<NfhlLayerKey, MapFeature[]> = {
    availability: [],
    lomrs: [],
    firmPanels: [],
    politicalJurisdictions: [],
    floodHazardZones: [],
    bfeLines: [],
    lomas: [],
  };
  private readonly nextOid: Record<NfhlLayerKey, number> = {
    availability: 3100,
    lomrs: 52000,
    firmPanels: 81000,
    politicalJurisdictions: 24000,
    floodHazardZones: 6430100,
    bfeLines: 1872000,
    lomas: 402100,
  };

  add(layer: NfhlLayerKey, shape: Shape, given: Attributes): MapFeature {
    const feature = featureOf(NFHL_ATTRIBUTE_FIELDS[layer], this.nextOid[layer]++, shape, given);
    this.nfhl[layer].push(feature);
    return feature;
  }

  zone(rings: Ring[], dfirm: string, attrs: Attributes): MapFeature {
    return this.add('floodHazardZones', { rings }, zoneAttributes(this.nextOid.floodHazardZones, dfirm, attrs));
  }

  /** A BFE line (layer 16) in feet, NAVD88 unless told otherwise. */
  bfeLine(path: Position[], l: { dfirm: string; elev: number; unit?: string; datum?: string | null }): MapFeature {
    const oid = this.nextOid.bfeLines;
    return this.add(
      'bfeLines',
      { paths: [path] },
      {
        DFIRM_ID: l.dfirm,
        VERSION_ID: '1.1.1.0',
        BFE_LN_ID: `${l.dfirm}_${oid % 10000}`,
        ELEV: l.elev,
        LEN_UNIT: l.unit ?? 'Feet',
        V_DATUM: l.datum === undefined ? 'NAVD88' : l.datum,
        SOURCE_CIT: `${l.dfirm}_STUDY1`,
      },
    );
  }

  /** A LOMA point (layer 34); its LAT/LON attributes repeat the geometry, as FEMA's geocode does. */
  loma(
    at: { lat: number; lon: number },
    l: { caseNo: string; eff: number; outcome: string | null; category: string; reval: string | null; cid: string; community: string },
  ): MapFeature {
    return this.add(
      'lomas',
      { point: [at.lon, at.lat] },
      {
        CASENUMBER: l.caseNo,
        STATUS: 'Completed',
        PROJECTNAME: `${l.category} ${l.caseNo}`,
        PROJECTCATEGORY: l.category,
        DATEENDED: l.eff,
        DATEENDEDSTR: l.eff === NFHL_NO_DATE ? '09/09/9999' : usDate(l.eff),
        CID: l.cid,
        COMMUNITYNAME: l.community,
        DETERMINATIONTYPE: l.category === 'LOMA' ? 'Structure' : 'Property',
        LAT: at.lat,
        LON: at.lon,
        PDFHYPERLINKID: `P${l.caseNo.replace(/-/g, '')}`,
        REVAL_STAT: l.reval,
        LOTTYPE: 'Single Lot',
        OUTCOME: l.outcome,
      },
    );
  }

  panel(
    rings: Ring[],
    p: {
      dfirm: string;
      stFips: string;
      pcomm: string;
      panel: string;
      suffix: string;
      eff: number;
      pre?: number;
      type?: string;
      pnp?: string | null;
    },
  ): MapFeature {
    const firmPan = `${p.stFips}${p.pcomm}${p.panel}${p.suffix}`;
    return this.add(
      'firmPanels',
      { rings },
      {
        DFIRM_ID: p.dfirm,
        VERSION_ID: '1.1.1.0',
        FIRM_ID: `${p.dfirm}_${p.panel}`,
        ST_FIPS: p.stFips,
        PCOMM: p.pcomm,
        PANEL: p.panel,
        SUFFIX: p.suffix,
        FIRM_PAN: firmPan,
        PANEL_TYP: p.type ?? 'Countywide, Panel Printed',
        PRE_DATE: p.pre ?? NFHL_NO_DATE,
        EFF_DATE: p.eff,
        SCALE: '6000',
        PNP_REASON: p.pnp ?? null,
        BASE_TYP: 'ORTHO',
        SOURCE_CIT: `${p.dfirm}_BASE1`,
      },
    );
  }

  jurisdiction(
    rings: Ring[],
    j: { dfirm: string; name1: string; name2?: string | null; cid: string; stFips: string; coFips: string; ani?: 'T' | 'F' },
  ): MapFeature {
    return this.add(
      'politicalJurisdictions',
      { rings },
      {
        DFIRM_ID: j.dfirm,
        VERSION_ID: '1.1.1.0',
        POL_AR_ID: `${j.dfirm}_${j.cid}`,
        POL_NAME1: j.name1,
        POL_NAME2: j.name2 ?? null,
        POL_NAME3: null,
        CO_FIPS: j.coFips,
        ST_FIPS: j.stFips,
        COMM_NO: j.cid.slice(2),
        CID: j.cid,
        ANI_TF: j.ani ?? 'F',
        ANI_FIRM: null,
        COM_NFO_ID: `${j.dfirm}_${j.cid}`,
        SOURCE_CIT: `${j.dfirm}_FIRM1`,
      },
    );
  }

  availability(rings: Ring[], studyId: string): MapFeature {
    return this.add('availability', { rings }, { STUDY_ID: studyId });
  }

  lomr(rings: Ring[], l: { dfirm: string; caseNo: string; eff: number; status: string }): MapFeature {
    return this.add(
      'lomrs',
      { rings },
      {
        DFIRM_ID: l.dfirm,
        VERSION_ID: '1.1.1.0',
        LOMR_ID: `${l.dfirm}_${l.caseNo}`,
        EFF_DATE: l.eff,
        CASE_NO: l.caseNo,
        SCALE: '6000',
        STATUS: l.status,
        SOURCE_CIT: `${l.dfirm}_LOMR1`,
      },
    );
  }
}

// Zone attribute presets (values as in real layer-28 features)
export const AE = (bfe: number, datum: string | null = 'NAVD88', unit: string | null = 'Feet'): Attributes => ({
  FLD_ZONE: 'AE',
  STUDY_TYP: 'SFHA with BFE and floodway',
  SFHA_TF: 'T',
  STATIC_BFE: bfe,
  V_DATUM: datum,
  LEN_UNIT: unit,
});
const AE_FLOODWAY: Attributes = { FLD_ZONE: 'AE', ZONE_SUBTY: 'FLOODWAY', STUDY_TYP: 'SFHA with BFE and floodway', SFHA_TF: 'T' };
const X = (subtype: string | null): Attributes => ({ FLD_ZONE: 'X', ZONE_SUBTY: subtype });
export const X_SHADED = X('0.2 PCT ANNUAL CHANCE FLOOD HAZARD');
export const X_MINIMAL = X('AREA OF MINIMAL FLOOD HAZARD');
const X_LEVEE = X('AREA WITH REDUCED FLOOD RISK DUE TO LEVEE');

// ---------------------------------------------------------------------------------------------
// Census records
// ---------------------------------------------------------------------------------------------

function fmtCoord(v: number, lon: boolean): string {
  const sign = v < 0 ? '-' : '+';
  const abs = Math.abs(v).toFixed(7);
  return sign + (lon ? abs.padStart(11, '0') : abs.padStart(10, '0'));
}

/** A Census Counties record whose outline is `box` ([west, south, east, north]). */
export function countyRecord(
  c: { name: string; basename: string; state: string; county: string; countyns: string; lsadc?: string; oid: number },
  box: [number, number, number, number],
): CensusArea {
  const clat = (box[1] + box[3]) / 2;
  const clon = (box[0] + box[2]) / 2;
  const rings = [boxRing(box)];
  return {
    rings,
    bbox: bboxOfRings(rings),
    attributes: {
      OID: 27590000000000 + c.oid,
      STATE: c.state,
      FUNCSTAT: 'A',
      AREAWATER: 41240020,
      NAME: c.name,
      LSADC: c.lsadc ?? '06',
      CENTLON: fmtCoord(clon, true),
      BASENAME: c.basename,
      INTPTLAT: fmtCoord(clat, false),
      COUNTYCC: 'H1',
      MTFCC: 'G4020',
      COUNTY: c.county,
      GEOID: `${c.state}${c.county}`,
      CENTLAT: fmtCoord(clat, false),
      INTPTLON: fmtCoord(clon, true),
      AREALAND: 2305974186,
      COUNTYNS: c.countyns,
      OBJECTID: c.oid,
    },
  };
}

function zctaRecord(zcta: string, oid: number, box: [number, number, number, number]): CensusArea {
  const clat = (box[1] + box[3]) / 2;
  const clon = (box[0] + box[2]) / 2;
  const rings = [boxRing(box)];
  return {
    rings,
    bbox: bboxOfRings(rings),
    attributes: {
      GEOID: zcta,
      CENTLAT: fmtCoord(clat, false),
      AREAWATER: 47839,
      BASENAME: zcta,
      OID: String(221704257700000 + oid),
      ZCTA5: zcta,
      LSADC: 'Z5',
      FUNCSTAT: 'S',
      INTPTLAT: fmtCoord(clat, false),
      NAME: `ZCTA5 ${zcta}`,
      OBJECTID: oid,
      CENTLON: fmtCoord(clon, true),
      AREALAND: 19595655,
      INTPTLON: fmtCoord(clon, true),
      MTFCC: 'G6350',
      ZCTA5CC: 'B5',
    },
  };
}

const STATES: Array<[string, string, string, string, string, string]> = [
  // STATE, NAME, STUSAB, STATENS, REGION, DIVISION
  ['06', 'California', 'CA', '01779778', '4', '9'],
  ['11', 'District of Columbia', 'DC', '01702382', '3', '5'],
  ['12', 'Florida', 'FL', '00294478', '3', '5'],
  ['20', 'Kansas', 'KS', '00481813', '2', '4'],
  ['26', 'Michigan', 'MI', '01779789', '2', '3'],
  ['45', 'South Carolina', 'SC', '01779799', '3', '5'],
  ['47', 'Tennessee', 'TN', '01325873', '3', '6'],
  ['48', 'Texas', 'TX', '01779801', '3', '7'],
  ['51', 'Virginia', 'VA', '01779803', '3', '5'],
  ['53', 'Washington', 'WA', '01779804', '4', '9'],
  ['72', 'Puerto Rico', 'PR', '01779808', '9', '0'],
];

function stateRecords(): Record<string, Record<string, string | number>> {
  const out: Record<string, Record<string, string | number>> = {};
  STATES.forEach(([state, name, stusab, statens, region, division], i) => {
    out[state] = {
      OID: 27490331294000 + i,
      STATE: state,
      FUNCSTAT: 'A',
      NAME: name,
      AREAWATER: 18884970,
      LSADC: '00',
      STUSAB: stusab,
      BASENAME: name,
      DIVISION: division,
      MTFCC: 'G4000',
      STATENS: statens,
      GEOID: state,
      REGION: region,
      AREALAND: 158114680,
      OBJECTID: 40 + i,
    };
  });
  return out;
}

function matchOf(
  lat: number,
  lon: number,
  a: {
    number: string;
    preDirection?: string;
    streetName: string;
    suffixType: string;
    suffixDirection?: string;
    city: string;
    state: string;
    zip: string;
    tigerLineId: string;
    side?: 'L' | 'R';
    toAddress?: string;
  },
): CensusAddressMatch {
  const street = [a.preDirection, a.streetName, a.suffixType, a.suffixDirection].filter(Boolean).join(' ');
  const n = Number(a.number);
  return {
    lat,
    lon,
    matchedAddress: `${a.number} ${street}, ${a.city}, ${a.state}, ${a.zip}`.toUpperCase(),
    tigerLine: { tigerLineId: a.tigerLineId, side: a.side ?? 'L' },
    addressComponents: {
      fromAddress: String(n - (n % 100)),
      toAddress: a.toAddress ?? String(n - (n % 100) + 98 + (n % 2)),
      preQualifier: '',
      preDirection: (a.preDirection ?? '').toUpperCase(),
      preType: '',
      streetName: a.streetName.toUpperCase(),
      suffixType: a.suffixType.toUpperCase(),
      suffixDirection: (a.suffixDirection ?? '').toUpperCase(),
      suffixQualifier: '',
      state: a.state.toUpperCase(),
      zip: a.zip,
      city: a.city.toUpperCase(),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The map
// ---------------------------------------------------------------------------------------------

interface PlaceSeed {
  id: string;
  description: string;
  lat: number;
  lon: number;
  address?: string;
  zone: Omit<
    DemoExpectation,
    'firmPanel' | 'community' | 'communitiesAtPoint' | 'lomrs' | 'county' | 'countyFips' | 'zcta' | 'groundElevation' | AnswerPartKey
  >;
  /** The answer parts where they differ from "nothing around" (no LOMA, no estimate, no coming map, outside CBRS). */
  parts?: Partial<Pick<DemoExpectation, AnswerPartKey>>;
}

type AnswerPartKey = 'lomas' | 'estimatedBaseFloodElevation' | 'nearby' | 'nearbyAtOtherRadii' | 'mapChange' | 'coastalBarrier';

/** No preliminary or pending map at the point. */
const NO_MAP_CHANGE: MapChangeExpectation = {
  status: 'none',
  issuedDate: null,
  floodZone: null,
  zoneSubtype: null,
  inSpecialFloodHazardArea: null,
  staticBaseFloodElevationFt: null,
  sfhaChange: 'unchanged',
};

const OUTSIDE_CBRS: CoastalBarrierExpectation = { status: 'outside', unit: null, type: null, floodInsuranceProhibitionDate: null };

function mapped(
  floodZone: string,
  opts: {
    subtype?: string | null;
    sfha: boolean;
    risk: DemoExpectation['riskLevel'];
    bfe?: number | null;
    datum?: string | null;
    depth?: number | null;
    zonesAtPoint?: DemoExpectation['zonesAtPoint'];
  },
): PlaceSeed['zone'] {
  const subtype = opts.subtype ?? null;
  const bfe = opts.bfe ?? null;
  return {
    coverage: 'mapped',
    floodZone,
    zoneSubtype: subtype,
    isFloodway: subtype !== null && subtype.includes('FLOODWAY'),
    inSpecialFloodHazardArea: opts.sfha,
    riskLevel: opts.risk,
    staticBaseFloodElevationFt: bfe,
    verticalDatum: opts.datum ?? null,
    depthFt: opts.depth ?? null,
    zonesAtPoint: opts.zonesAtPoint ?? [{ floodZone, zoneSubtype: subtype, inSpecialFloodHazardArea: opts.sfha, staticBaseFloodElevationFt: bfe }],
  };
}

function noZone(coverage: 'mapped_no_zone' | 'unmapped', zonesAtPoint: DemoExpectation['zonesAtPoint'] = []): PlaceSeed['zone'] {
  return {
    coverage,
    floodZone: null,
    zoneSubtype: null,
    isFloodway: null,
    inSpecialFloodHazardArea: null,
    riskLevel: 'unknown',
    staticBaseFloodElevationFt: null,
    verticalDatum: null,
    depthFt: null,
    zonesAtPoint,
  };
}

/** The addresses that are not a single demo place. */
export const DEMO_ADDRESSES = {
  /** The example of docs/api.md; resolves to place `dc-white-house-ae`. */
  whiteHouse: '1600 Pennsylvania Ave NW, Washington, DC 20500',
  /** Spelled loosely (lower case, no ZIP); same match. */
  whiteHouseLoose: '1600 pennsylvania ave nw, washington dc',
  /** No match: HTTP 200 with addressMatches []. */
  noMatch: '999 Nowhere Blvd, Atlantis, ZZ 00000',
  /** Two matches ~2,700 km apart (Houston, TX and Renton, WA): AMBIGUOUS_ADDRESS. */
  ambiguous: '200 Main St',
  /** Two matches ~40 m apart on opposite sides of the street: counts as one (place `houston-ah`). */
  nearDuplicate: '1800 Shepherd Dr, Houston, TX 77007',
} as const;

/**
 * The addresses of demo buildings (structure-footprints.ts) whose case turns on where the Census geocoder puts them:
 * not on a demo place, but on a street point beside the building.
 */
export const DEMO_BUILDING_ADDRESSES = {
  /** In the AE 12 polygon 43 m east of `houston-nearby-hazards`, 36 m from the house wholly in the X polygon there. */
  houstonXHouse: { address: '5210 W 34th St, Houston, TX 77092', lat: 29.83, lon: -95.44955 },
} as const;

interface BuiltDemo {
  map: DemoMap;
  seeds: PlaceSeed[];
  faultSeeds: PlaceSeed[];
  preliminary: ArcGisServiceData;
  pending: ArcGisServiceData;
  cbrs: ArcGisServiceData;
}

function buildAll(): BuiltDemo {
  guidCounter = 0;
  const b = new MapBuilder();
  const counties: CensusArea[] = [];
  const zctas: CensusArea[] = [];
  const addresses: CensusAddressEntry[] = [];
  const seeds: PlaceSeed[] = [];

  const address = (spellings: string[], matches: CensusAddressMatch[]) => {
    addresses.push({ spellings: [...spellings, ...matches.slice(0, 1).map((m) => m.matchedAddress)], matches });
  };

  // ----- 1. Washington, DC: AE 583 at the White House (fixtures/census/fitnr-onelineaddress.json coordinates)
  {
    const lat = 38.898754;
    const lon = -77.03535;
    const dfirm = '11001C';
    const area = squareAround(lat, lon, 1000);
    b.availability([area], dfirm);
    b.jurisdiction([area], { dfirm, name1: 'District of Columbia', cid: '110001', stFips: '11', coFips: '001' });
    b.panel([area], { dfirm, stFips: '11', pcomm: '001C', panel: '0019', suffix: 'C', eff: utcDate('2010-09-27') });
    b.zone([squareAround(lat, lon, ZONE_SIDE_M)], dfirm, { ...AE(583), FLD_AR_ID: '11001C_393', SOURCE_CIT: '11001C_STUDY2' });
    b.lomr([squareAround(lat, lon, 250)], { dfirm, caseNo: '19-03-0123P', eff: utcDate('2020-02-14'), status: 'Effective' });
    b.lomr([squareAround(lat, lon, 600)], { dfirm, caseNo: '12-03-0456P', eff: utcDate('2012-06-01'), status: 'Effective' });
    b.lomr([squareAround(lat, lon, 400)], { dfirm, caseNo: '08-03-0789P', eff: utcDate('2008-05-15'), status: 'Superseded' });
    const dcCounty: CensusArea = {
      rings: [squareAround(lat, lon, 16000)],
      bbox: bboxOfRings([squareAround(lat, lon, 16000)]),
      // copied from fixtures/census/fitnr-onelineaddress.json (Counties)
      attributes: {
        OID: 27590331264532,
        STATE: '11',
        FUNCSTAT: 'F',
        AREAWATER: 18675956,
        NAME: 'District of Columbia',
        LSADC: '00',
        CENTLON: '-077.0162863',
        BASENAME: 'District of Columbia',
        INTPTLAT: '+38.9041031',
        COUNTYCC: 'H6',
        MTFCC: 'G4020',
        COUNTY: '001',
        GEOID: '11001',
        CENTLAT: '+38.9047577',
        INTPTLON: '-077.0172290',
        AREALAND: 158351639,
        COUNTYNS: '01702382',
        OBJECTID: 632,
      },
    };
    counties.push(dcCounty);
    const zb = squareAround(lat, lon, 3000);
    zctas.push(zctaRecord('20006', 1901, [zb[0][0], zb[0][1], zb[2][0], zb[2][1]]));
    const m = matchOf(lat, lon, {
      number: '1600',
      streetName: 'Pennsylvania',
      suffixType: 'Ave',
      suffixDirection: 'NW',
      city: 'Washington',
      state: 'DC',
      zip: '20500',
      tigerLineId: '76225813',
    });
    address(
      [
        DEMO_ADDRESSES.whiteHouse,
        DEMO_ADDRESSES.whiteHouseLoose,
        '1600 Pennsylvania Avenue NW, Washington, DC, 20500',
        '1600 Pennsylvania Avenue NW, Washington, DC 20500',
        '1600 Pennsylvania Avenue NW, Washington, DC',
        '1600 Pennsylvania Ave NW, Washington, DC',
      ],
      [m],
    );
    seeds.push({
      id: 'dc-white-house-ae',
      description: 'Washington, DC: zone AE, BFE 583 ft NAVD88, panel 11001C0019C, two effective LOMRs and a superseded one',
      lat,
      lon,
      address: DEMO_ADDRESSES.whiteHouse,
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 583, datum: 'NAVD88' }),
    });
  }

  // ----- Houston, TX (Harris County, DFIRM 48201C): riverine zones, seams, duplicates, gaps, water
  {
    const dfirm = '48201C';
    const c = cluster(29.763, -95.39);
    const all = clusterBox(c, 6, 3, 500);
    const ani = cell(c, 0, 2);
    const aniBox = squareAround(ani.lat, ani.lon, 500);
    const [axmin, aymin] = aniBox[0];
    const [axmax, aymax] = aniBox[2];
    b.availability([boxRing(all)], dfirm);
    // City of Houston, with a hole where the area-not-included jurisdiction sits
    b.jurisdiction([boxRing(all), rectHole(axmin, aymin, axmax, aymax)], {
      dfirm,
      name1: 'City of Houston',
      cid: '480296',
      stFips: '48',
      coFips: '201',
    });
    b.jurisdiction([rectRing(axmin, aymin, axmax, aymax)], {
      dfirm,
      name1: 'Harris County',
      name2: 'Unincorporated Areas',
      cid: '480287',
      stFips: '48',
      coFips: '201',
      ani: 'T',
    });
    // two panels with different effective dates: row 0 on 0690L, rows 1-2 on 0695M
    const split = c.lat0 + c.dLat / 2;
    b.panel([rectRing(all[0], all[1], all[2], split)], {
      dfirm,
      stFips: '48',
      pcomm: '201C',
      panel: '0690',
      suffix: 'L',
      eff: utcDate('2007-06-18'),
    });
    b.panel([rectRing(all[0], split, all[2], all[3])], {
      dfirm,
      stFips: '48',
      pcomm: '201C',
      panel: '0695',
      suffix: 'M',
      eff: utcDate('2019-10-16'),
      pre: utcDate('2007-06-18'),
    });
    const sq = (col: number, row: number) => {
      const p = cell(c, col, row);
      return squareAround(p.lat, p.lon, ZONE_SIDE_M);
    };
    const place = (id: string, col: number, row: number, description: string, zone: PlaceSeed['zone'], addr?: string) => {
      const p = cell(c, col, row);
      seeds.push({ id, description, lat: p.lat, lon: p.lon, address: addr, zone });
      return p;
    };

    b.zone([sq(0, 0)], dfirm, AE_FLOODWAY);
    const fw = place(
      'houston-ae-floodway',
      0,
      0,
      'Houston, TX: AE FLOODWAY, BFE -9999 (none), no datum or unit',
      mapped('AE', { subtype: 'FLOODWAY', sfha: true, risk: 'high' }),
      '2100 Memorial Dr, Houston, TX 77007',
    );
    address(
      ['2100 Memorial Dr, Houston, TX 77007', '2100 Memorial Drive, Houston, TX 77007'],
      [
        matchOf(fw.lat, fw.lon, {
          number: '2100',
          streetName: 'Memorial',
          suffixType: 'Dr',
          city: 'Houston',
          state: 'TX',
          zip: '77007',
          tigerLineId: '20155021',
        }),
      ],
    );

    b.zone([sq(1, 0)], dfirm, { FLD_ZONE: 'AH', STUDY_TYP: 'SFHA with BFE no floodway', SFHA_TF: 'T', STATIC_BFE: 42, V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' });
    const ah = place(
      'houston-ah',
      1,
      0,
      'Houston, TX: AH (ponding), BFE 42 ft NAVD88; its address has two matches 40 m apart',
      mapped('AH', { sfha: true, risk: 'high', bfe: 42, datum: 'NAVD88' }),
      DEMO_ADDRESSES.nearDuplicate,
    );
    const ahTwin = metersToDegrees(ah.lat, 40);
    address(
      [DEMO_ADDRESSES.nearDuplicate, '1800 Shepherd Drive, Houston, TX 77007'],
      [
        matchOf(ah.lat, ah.lon, {
          number: '1800',
          streetName: 'Shepherd',
          suffixType: 'Dr',
          city: 'Houston',
          state: 'TX',
          zip: '77007',
          tigerLineId: '20155877',
          side: 'L',
        }),
        matchOf(ah.lat, ah.lon + ahTwin.dLon, {
          number: '1800',
          streetName: 'Shepherd',
          suffixType: 'Dr',
          city: 'Houston',
          state: 'TX',
          zip: '77007',
          tigerLineId: '20155878',
          side: 'R',
        }),
      ],
    );

    b.zone([sq(2, 0)], dfirm, { FLD_ZONE: 'AO', SFHA_TF: 'T', DEPTH: 1, LEN_UNIT: 'Feet' });
    place('houston-ao', 2, 0, 'Houston, TX: AO (sheet flow), depth 1 ft', mapped('AO', { sfha: true, risk: 'high', depth: 1 }));

    b.zone([sq(3, 0)], dfirm, { FLD_ZONE: 'A', STUDY_TYP: 'SFHA without BFE', SFHA_TF: 'T' });
    place('houston-a', 3, 0, 'Houston, TX: A, no BFE (-9999)', mapped('A', { sfha: true, risk: 'high' }));

    b.zone([sq(4, 0)], dfirm, X_SHADED);
    place(
      'houston-x-shaded',
      4,
      0,
      'Houston, TX: X shaded (0.2 PCT ANNUAL CHANCE FLOOD HAZARD)',
      mapped('X', { subtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', sfha: false, risk: 'moderate' }),
    );

    b.zone([sq(5, 0)], dfirm, X_MINIMAL);
    const xu = place(
      'houston-x-unshaded',
      5,
      0,
      'Houston, TX: X unshaded (AREA OF MINIMAL FLOOD HAZARD)',
      mapped('X', { subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, risk: 'minimal' }),
      '4400 Washington Ave, Houston, TX 77007',
    );
    address(
      ['4400 Washington Ave, Houston, TX 77007', '4400 Washington Avenue, Houston, TX 77007'],
      [
        matchOf(xu.lat, xu.lon, {
          number: '4400',
          streetName: 'Washington',
          suffixType: 'Ave',
          city: 'Houston',
          state: 'TX',
          zip: '77007',
          tigerLineId: '20156310',
        }),
      ],
    );

    b.zone([sq(0, 1)], dfirm, X('<Null>'));
    place('houston-x-null-subtype', 0, 1, 'Houston, TX: X with ZONE_SUBTY "<Null>" (unshaded)', mapped('X', { subtype: null, sfha: false, risk: 'minimal' }));

    b.zone([sq(1, 1)], dfirm, X(' '));
    place('houston-x-blank-subtype', 1, 1, 'Houston, TX: X with ZONE_SUBTY " " (unshaded)', mapped('X', { subtype: null, sfha: false, risk: 'minimal' }));

    // seam: AE FLOODWAY (west half) and AE (east half) share the edge x = centre; the point is on it
    {
      const p = cell(c, 2, 1);
      const { dLat, dLon } = metersToDegrees(p.lat, ZONE_SIDE_M / 2);
      b.zone([rectRing(p.lon - dLon, p.lat - dLat, p.lon, p.lat + dLat)], dfirm, AE_FLOODWAY);
      b.zone([rectRing(p.lon, p.lat - dLat, p.lon + dLon, p.lat + dLat)], dfirm, AE(46));
      place(
        'houston-seam',
        2,
        1,
        'Houston, TX: on the shared edge of an AE FLOODWAY and an AE (BFE 46) polygon: floodway governs',
        mapped('AE', {
          subtype: 'FLOODWAY',
          sfha: true,
          risk: 'high',
          zonesAtPoint: [
            { floodZone: 'AE', zoneSubtype: 'FLOODWAY', inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: null },
            { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 46 },
          ],
        }),
      );
    }

    b.zone([sq(3, 1)], dfirm, AE(45));
    b.zone([sq(3, 1)], dfirm, AE(45));
    place(
      'houston-duplicate-ae',
      3,
      1,
      'Houston, TX: two identical AE (BFE 45) polygons: one entry in zonesAtPoint',
      mapped('AE', { sfha: true, risk: 'high', bfe: 45, datum: 'NAVD88' }),
    );

    const gap = place(
      'houston-gap',
      4,
      1,
      'Houston, TX: inside NFHL Availability but no Flood Hazard Zones polygon (a gap)',
      noZone('mapped_no_zone'),
      '2900 Sawyer St, Houston, TX 77007',
    );
    address(
      ['2900 Sawyer St, Houston, TX 77007', '2900 Sawyer Street, Houston, TX 77007'],
      [
        matchOf(gap.lat, gap.lon, {
          number: '2900',
          streetName: 'Sawyer',
          suffixType: 'St',
          city: 'Houston',
          state: 'TX',
          zip: '77007',
          tigerLineId: '20157402',
        }),
      ],
    );

    b.zone([sq(5, 1)], dfirm, { FLD_ZONE: 'OPEN WATER', DUAL_ZONE: 'F', SOURCE_CIT: `${dfirm}_FIRM1` });
    place(
      'houston-open-water',
      5,
      1,
      'Houston, TX: only an OPEN WATER polygon',
      noZone('mapped_no_zone', [{ floodZone: 'OPEN WATER', zoneSubtype: null, inSpecialFloodHazardArea: null, staticBaseFloodElevationFt: null }]),
    );

    b.zone([sq(0, 2)], dfirm, { FLD_ZONE: 'AREA NOT INCLUDED' });
    place(
      'houston-area-not-included',
      0,
      2,
      'Harris County, TX: only an AREA NOT INCLUDED polygon, in a jurisdiction with ANI_TF "T"',
      noZone('mapped_no_zone', [{ floodZone: 'AREA NOT INCLUDED', zoneSubtype: null, inSpecialFloodHazardArea: null, staticBaseFloodElevationFt: null }]),
    );

    counties.push(
      countyRecord({ name: 'Harris County', basename: 'Harris', state: '48', county: '201', countyns: '01383886', oid: 2981 }, clusterBox(c, 6, 3, 15000)),
    );
    zctas.push(zctaRecord('77007', 2101, clusterBox(c, 6, 3, 2000)));

    // the ambiguous address: one of its two matches is here (south of the grid, inside availability)
    const south = cell(c, 2, -0.5);
    const renton = { lat: 47.4829, lon: -122.2171 };
    address(
      [DEMO_ADDRESSES.ambiguous, '200 Main Street'],
      [
        matchOf(south.lat, south.lon, {
          number: '200',
          streetName: 'Main',
          suffixType: 'St',
          city: 'Houston',
          state: 'TX',
          zip: '77002',
          tigerLineId: '20150001',
        }),
        matchOf(renton.lat, renton.lon, {
          number: '200',
          streetName: 'Main',
          suffixType: 'Ave',
          preDirection: 'S',
          city: 'Renton',
          state: 'WA',
          zip: '98057',
          tigerLineId: '644160201',
        }),
      ],
    );
  }

  // ----- Sacramento, CA (Natomas, DFIRM 06067C): AR, A99, X levee, D
  {
    const dfirm = '06067C';
    const c = cluster(38.64, -121.52);
    const all = clusterBox(c, 4, 1, 500);
    b.availability([boxRing(all)], dfirm);
    b.jurisdiction([boxRing(all)], { dfirm, name1: 'City of Sacramento', cid: '060266', stFips: '06', coFips: '067' });
    b.panel([boxRing(all)], { dfirm, stFips: '06', pcomm: '067C', panel: '0065', suffix: 'J', eff: utcDate('2015-06-16') });
    const sq = (col: number) => {
      const p = cell(c, col);
      return squareAround(p.lat, p.lon, ZONE_SIDE_M);
    };
    const at = (col: number) => cell(c, col);
    b.zone([sq(0)], dfirm, { FLD_ZONE: 'AR', SFHA_TF: 'T', AR_REVERT: 'A', AR_SUBTRV: null });
    seeds.push({ id: 'sacramento-ar', description: 'Sacramento, CA: AR (levee being restored)', ...at(0), zone: mapped('AR', { sfha: true, risk: 'high' }) });
    b.zone([sq(1)], dfirm, { FLD_ZONE: 'A99', SFHA_TF: 'T' });
    const a99 = at(1);
    seeds.push({
      id: 'sacramento-a99',
      description: 'Sacramento, CA: A99 (federal levee under construction)',
      ...a99,
      address: '2000 Natomas Park Dr, Sacramento, CA 95833',
      zone: mapped('A99', { sfha: true, risk: 'high' }),
    });
    address(
      ['2000 Natomas Park Dr, Sacramento, CA 95833', '2000 Natomas Park Drive, Sacramento, CA 95833'],
      [
        matchOf(a99.lat, a99.lon, {
          number: '2000',
          streetName: 'Natomas Park',
          suffixType: 'Dr',
          city: 'Sacramento',
          state: 'CA',
          zip: '95833',
          tigerLineId: '123456789',
        }),
      ],
    );
    b.zone([sq(2)], dfirm, X_LEVEE);
    seeds.push({
      id: 'sacramento-x-levee',
      description: 'Sacramento, CA: X shaded (AREA WITH REDUCED FLOOD RISK DUE TO LEVEE)',
      ...at(2),
      zone: mapped('X', { subtype: 'AREA WITH REDUCED FLOOD RISK DUE TO LEVEE', sfha: false, risk: 'moderate' }),
    });
    b.zone([sq(3)], dfirm, { FLD_ZONE: 'D' });
    seeds.push({
      id: 'sacramento-d',
      description: 'Sacramento, CA: D (possible but undetermined hazard)',
      ...at(3),
      zone: mapped('D', { sfha: false, risk: 'undetermined' }),
    });
    counties.push(
      countyRecord(
        { name: 'Sacramento County', basename: 'Sacramento', state: '06', county: '067', countyns: '00277298', oid: 612 },
        clusterBox(c, 4, 1, 15000),
      ),
    );
    zctas.push(zctaRecord('95834', 3101, clusterBox(c, 4, 1, 2000)));
  }

  // ----- Menominee, MI (DFIRM 26109C, Green Bay shore): VE 586, V, overlaps, placeholder panel date
  {
    const dfirm = '26109C';
    const c = cluster(45.1, -87.6);
    const all = clusterBox(c, 4, 1, 500);
    b.availability([boxRing(all)], dfirm);
    b.jurisdiction([boxRing(all)], { dfirm, name1: 'City of Menominee', cid: '260151', stFips: '26', coFips: '109' });
    const split = c.lon0 + 2.5 * c.dLon; // cols 0-2 on panel 0263D, col 3 on the placeholder-date panel
    b.panel([rectRing(all[0], all[1], split, all[3])], { dfirm, stFips: '26', pcomm: '109C', panel: '0263', suffix: 'D', eff: utcDate('2011-09-02') });
    b.panel([rectRing(split, all[1], all[2], all[3])], {
      dfirm,
      stFips: '26',
      pcomm: '109C',
      panel: '0264',
      suffix: 'D',
      eff: NFHL_NO_DATE,
      type: 'Countywide, Not Printed',
      pnp: 'No Special Flood Hazard Areas',
    });
    const at = (col: number) => cell(c, col);
    const sq = (col: number, side = ZONE_SIDE_M) => {
      const p = cell(c, col);
      return squareAround(p.lat, p.lon, side);
    };
    const VE: Attributes = {
      FLD_ZONE: 'VE',
      ZONE_SUBTY: 'COASTAL FLOODPLAIN',
      STUDY_TYP: 'SFHA with BFE no floodway',
      SFHA_TF: 'T',
      STATIC_BFE: 586,
      V_DATUM: 'NAVD88',
      LEN_UNIT: 'Feet',
      FLD_AR_ID: '26109C_180',
      SOURCE_CIT: '26109C_STUDY3',
    };
    b.zone([sq(0)], dfirm, VE);
    const ve = at(0);
    seeds.push({
      id: 'menominee-ve',
      description: 'Menominee, MI: VE (COASTAL FLOODPLAIN), BFE 586 ft NAVD88',
      ...ve,
      address: '100 1st St, Menominee, MI 49858',
      zone: mapped('VE', { subtype: 'COASTAL FLOODPLAIN', sfha: true, risk: 'very_high', bfe: 586, datum: 'NAVD88' }),
    });
    address(
      ['100 1st St, Menominee, MI 49858', '100 First Street, Menominee, MI 49858'],
      [matchOf(ve.lat, ve.lon, { number: '100', streetName: '1st', suffixType: 'St', city: 'Menominee', state: 'MI', zip: '49858', tigerLineId: '112233445' })],
    );
    b.zone([sq(1)], dfirm, { FLD_ZONE: 'V', SFHA_TF: 'T', STUDY_TYP: 'SFHA without BFE' });
    seeds.push({ id: 'menominee-v', description: 'Menominee, MI: V, no BFE', ...at(1), zone: mapped('V', { sfha: true, risk: 'very_high' }) });
    // overlap: X shaded (500 m), AE 584 (400 m) and VE 586 (300 m) all contain the centre
    b.zone([sq(2, 500)], dfirm, X_SHADED);
    b.zone([sq(2, 400)], dfirm, AE(584));
    b.zone([sq(2, 300)], dfirm, VE);
    seeds.push({
      id: 'menominee-overlap',
      description: 'Menominee, MI: X shaded, AE 584 and VE 586 overlap: VE governs',
      ...at(2),
      zone: mapped('VE', {
        subtype: 'COASTAL FLOODPLAIN',
        sfha: true,
        risk: 'very_high',
        bfe: 586,
        datum: 'NAVD88',
        zonesAtPoint: [
          { floodZone: 'VE', zoneSubtype: 'COASTAL FLOODPLAIN', inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 586 },
          { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 584 },
          { floodZone: 'X', zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', inSpecialFloodHazardArea: false, staticBaseFloodElevationFt: null },
        ],
      }),
    });
    b.zone([sq(3)], dfirm, X_MINIMAL);
    seeds.push({
      id: 'menominee-placeholder-panel-date',
      description: 'Menominee, MI: X unshaded on panel 26109C0264D whose EFF_DATE is the 9999-09-09 placeholder (effectiveDate null)',
      ...at(3),
      zone: mapped('X', { subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, risk: 'minimal' }),
    });
    counties.push(
      countyRecord(
        { name: 'Menominee County', basename: 'Menominee', state: '26', county: '109', countyns: '01622997', oid: 1221 },
        clusterBox(c, 4, 1, 15000),
      ),
    );
    zctas.push(zctaRecord('49858', 4101, clusterBox(c, 4, 1, 2000)));
  }

  // ----- Toa Baja, PR (DFIRM 72000C): real AE place on panel 72000C0330J, plus metric and odd-datum AEs
  {
    const dfirm = '72000C';
    const c = cluster(18.3985, -66.1);
    const all = clusterBox(c, 4, 1, 500);
    b.availability([boxRing(all)], dfirm);
    b.jurisdiction([boxRing(all)], { dfirm, name1: 'Commonwealth of Puerto Rico', cid: '720000', stFips: '72', coFips: '137' });
    b.panel([boxRing(all)], { dfirm, stFips: '72', pcomm: '000C', panel: '0330', suffix: 'J', eff: utcDate('2009-11-18'), pre: NFHL_NO_DATE });
    const at = (col: number) => cell(c, col);
    const sq = (col: number) => {
      const p = cell(c, col);
      return squareAround(p.lat, p.lon, ZONE_SIDE_M);
    };
    b.zone([sq(0)], dfirm, { FLD_ZONE: 'AE', STUDY_TYP: 'SFHA with BFE and floodway', SFHA_TF: 'T' });
    const tb = at(0);
    seeds.push({
      id: 'toa-baja-ae',
      description: 'Toa Baja, PR (18.3985, -66.1): AE on panel 72000C0330J effective 2009-11-18',
      ...tb,
      address: '100 Calle Principal, Toa Baja, PR 00949',
      zone: mapped('AE', { sfha: true, risk: 'high' }),
    });
    address(
      ['100 Calle Principal, Toa Baja, PR 00949'],
      [
        matchOf(tb.lat, tb.lon, {
          number: '100',
          streetName: 'Calle Principal',
          suffixType: '',
          city: 'Toa Baja',
          state: 'PR',
          zip: '00949',
          tigerLineId: '260093118',
        }),
      ],
    );
    b.zone([sq(1)], dfirm, AE(10, 'PRVD02', 'Meters'));
    seeds.push({
      id: 'pr-ae-meters',
      description: 'Toa Baja, PR: AE, STATIC_BFE 10 Meters PRVD02 (32.8 ft)',
      ...at(1),
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 32.8, datum: 'PRVD02' }),
    });
    b.zone([sq(2)], dfirm, AE(350, 'PRVD02', 'Centimeters'));
    seeds.push({
      id: 'pr-ae-centimeters',
      description: 'Toa Baja, PR: AE, STATIC_BFE 350 Centimeters PRVD02 (11.5 ft)',
      ...at(2),
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 11.5, datum: 'PRVD02' }),
    });
    b.zone([sq(3)], dfirm, AE(12, '-9999', 'Feet'));
    seeds.push({
      id: 'pr-ae-datum-9999',
      description: 'Toa Baja, PR: AE, BFE 12 ft with V_DATUM "-9999" (verticalDatum null)',
      ...at(3),
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 12, datum: null }),
    });
    counties.push(
      countyRecord(
        { name: 'Toa Baja Municipio', basename: 'Toa Baja', state: '72', county: '137', countyns: '01804548', lsadc: '13', oid: 3217 },
        clusterBox(c, 4, 1, 6000),
      ),
    );
    zctas.push(zctaRecord('00949', 5101, clusterBox(c, 4, 1, 2000)));
  }

  // ----- Renton, WA (King County, DFIRM 53033C): X, AE floodway and 0.2% zones on panel 53033C0977G
  {
    const dfirm = '53033C';
    const c = cluster(47.4829, -122.2171);
    const all = clusterBox(c, 4, 1, 500);
    b.availability([boxRing(all)], dfirm);
    b.jurisdiction([boxRing(all)], { dfirm, name1: 'City of Renton', cid: '530088', stFips: '53', coFips: '033' });
    b.panel([boxRing(all)], { dfirm, stFips: '53', pcomm: '033C', panel: '0977', suffix: 'G', eff: utcDate('2020-08-19'), pre: utcDate('1995-05-16') });
    const entries: Array<[string, Attributes, string, PlaceSeed['zone'], string, string, string, string]> = [
      [
        'renton-ae-floodway',
        AE_FLOODWAY,
        'Renton, WA: AE FLOODWAY (Cedar River)',
        mapped('AE', { subtype: 'FLOODWAY', sfha: true, risk: 'high' }),
        '1000 Houser Way N, Renton, WA 98057',
        '1000',
        'Houser',
        'Way N',
      ],
      [
        'renton-x-shaded',
        X_SHADED,
        'Renton, WA: X shaded (0.2 PCT ANNUAL CHANCE FLOOD HAZARD)',
        mapped('X', { subtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', sfha: false, risk: 'moderate' }),
        '200 Mill Ave S, Renton, WA 98057',
        '200',
        'Mill',
        'Ave S',
      ],
      [
        'renton-x-unshaded',
        X_MINIMAL,
        'Renton, WA: X unshaded (AREA OF MINIMAL FLOOD HAZARD)',
        mapped('X', { subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, risk: 'minimal' }),
        '1055 S Grady Way, Renton, WA 98057',
        '1055',
        'Grady',
        'Way',
      ],
    ];
    entries.forEach(([id, attrs, description, zone, addr, number, streetName, suffix], col) => {
      const p = cell(c, col + 1); // col 0 is where the ambiguous "200 Main St" match sits
      b.zone([squareAround(p.lat, p.lon, ZONE_SIDE_M)], dfirm, attrs);
      seeds.push({ id, description, lat: p.lat, lon: p.lon, address: addr, zone });
      const [suffixType, suffixDirection] = suffix.split(' ');
      address(
        [addr],
        [
          matchOf(p.lat, p.lon, {
            number,
            streetName,
            suffixType,
            suffixDirection,
            preDirection: id === 'renton-x-unshaded' ? 'S' : undefined,
            city: 'Renton',
            state: 'WA',
            zip: '98057',
            tigerLineId: `64416${col}177`,
          }),
        ],
      );
    });
    counties.push(
      countyRecord({ name: 'King County', basename: 'King', state: '53', county: '033', countyns: '01531933', oid: 3301 }, clusterBox(c, 4, 1, 15000)),
    );
    zctas.push(zctaRecord('98057', 6101, clusterBox(c, 4, 1, 2000)));
  }

  // ----- Lampasas, TX: paper-only (a FIRM panel, no NFHL Availability or zones)
  {
    const lat = 31.064;
    const lon = -98.182;
    b.panel([squareAround(lat, lon, 4000)], {
      dfirm: '480426',
      stFips: '48',
      pcomm: '0426',
      panel: '0005',
      suffix: 'B',
      eff: utcDate('1991-07-02'),
      type: 'Community Based, Panel Printed',
    });
    seeds.push({
      id: 'lampasas-paper-only',
      description: 'Lampasas, TX: paper FIRM panel 4804260005B only, no digital NFHL (unmapped, with the panel)',
      lat,
      lon,
      address: '400 S Live Oak St, Lampasas, TX 76550',
      zone: noZone('unmapped'),
    });
    address(
      ['400 S Live Oak St, Lampasas, TX 76550', '400 South Live Oak Street, Lampasas, TX 76550'],
      [
        matchOf(lat, lon, {
          number: '400',
          preDirection: 'S',
          streetName: 'Live Oak',
          suffixType: 'St',
          city: 'Lampasas',
          state: 'TX',
          zip: '76550',
          tigerLineId: '30114920',
        }),
      ],
    );
    const cb = squareAround(lat, lon, 30000);
    counties.push(
      countyRecord({ name: 'Lampasas County', basename: 'Lampasas', state: '48', county: '281', countyns: '01383926', oid: 3001 }, [
        cb[0][0],
        cb[0][1],
        cb[2][0],
        cb[2][1],
      ]),
    );
    const zb = squareAround(lat, lon, 6000);
    zctas.push(zctaRecord('76550', 2201, [zb[0][0], zb[0][1], zb[2][0], zb[2][1]]));
  }

  // ----- Mount Vernon, WA: no NFHL coverage at all
  {
    const lat = 48.42;
    const lon = -122.33;
    seeds.push({
      id: 'mount-vernon-unmapped',
      description: 'Mount Vernon, WA (48.42, -122.33): nothing in any NFHL layer (unmapped, no panel)',
      lat,
      lon,
      address: '910 Cleveland Ave, Mount Vernon, WA 98273',
      zone: noZone('unmapped'),
    });
    address(
      ['910 Cleveland Ave, Mount Vernon, WA 98273', '910 Cleveland Avenue, Mount Vernon, WA 98273'],
      [
        matchOf(lat, lon, {
          number: '910',
          streetName: 'Cleveland',
          suffixType: 'Ave',
          city: 'Mount Vernon',
          state: 'WA',
          zip: '98273',
          tigerLineId: '650370188',
        }),
      ],
    );
    const cb = squareAround(lat, lon, 30000);
    counties.push(
      countyRecord({ name: 'Skagit County', basename: 'Skagit', state: '53', county: '057', countyns: '01529223', oid: 3302 }, [
        cb[0][0],
        cb[0][1],
        cb[2][0],
        cb[2][1],
      ]),
    );
    const zb = squareAround(lat, lon, 6000);
    zctas.push(zctaRecord('98273', 6201, [zb[0][0], zb[0][1], zb[2][0], zb[2][1]]));
  }

  // ----- Outside the US: the North Atlantic; every NFHL layer and every Census layer is empty
  seeds.push({
    id: 'outside-us-atlantic',
    description: 'North Atlantic Ocean (35, -50): outside the US; no NFHL data, Census returns empty layers',
    lat: 35,
    lon: -50,
    zone: noZone('unmapped'),
  });

  const coming = buildAnswerPartPlaces(b, seeds, counties, zctas, address);
  const faultSeeds = FAULT_DEMO_TWINS.map((twin) => faultDemoSeed(twin, seeds, address));

  return {
    map: { nfhl: b.nfhl, census: { counties, zctas, states: stateRecords(), addresses } },
    seeds,
    faultSeeds,
    ...coming,
  };
}

// ---------------------------------------------------------------------------------------------
// The fault walkthroughs' places
// ---------------------------------------------------------------------------------------------

/** How far a fault demo place sits from its twin: well inside the twin's 300 m zone square, beyond a 100 m `near` fault. */
const FAULT_TWIN_OFFSET_M = 120;

interface FaultDemoTwin {
  id: string;
  /** The demo place it answers like. */
  twinOf: string;
  /** Which walkthrough step uses it. */
  usedBy: string;
  bearingDeg: number;
  /** An address of its own, resolving to it (so that the geocoder's cache holds no answer for it either). */
  address?: Parameters<typeof matchOf>[2];
}

/**
 * One place per fault walkthrough step (docs/offline.md and test/emulators/README.md): a lookup answered earlier is
 * served from the cache without calling the upstream, so a fault demo on a place an earlier step (or the demo
 * list offline mode prints, or a batch example) already looked up would never show its fault. Each is a twin of
 * a demo place, 120 m away inside the same polygons, so it answers exactly as its twin does; none is in
 * `DEMO_PLACES`.
 */
const FAULT_DEMO_TWINS: FaultDemoTwin[] = [
  { id: 'dc-fault-fema-503', twinOf: 'dc-white-house-ae', usedBy: 'docs/offline.md: FEMA answers 503, the lookup is a 502', bearingDeg: 0 },
  { id: 'fernandina-fault-cbrs-reset', twinOf: 'fernandina-cbrs-opa', usedBy: 'docs/offline.md: CBRS resets, the part is unavailable', bearingDeg: 0 },
  { id: 'dc-fault-fema-recovers', twinOf: 'dc-white-house-ae', usedBy: 'test/emulators/README.md: FEMA fails and recovers', bearingDeg: 180 },
  { id: 'dc-fault-breaker', twinOf: 'dc-white-house-ae', usedBy: 'test/emulators/README.md: the breaker opens and recovers', bearingDeg: 90 },
  { id: 'toa-baja-fault-one-place', twinOf: 'toa-baja-ae', usedBy: 'test/emulators/README.md: a fault at one place only', bearingDeg: 0 },
  {
    id: 'renton-fault-slow-geocoder',
    twinOf: 'renton-x-shaded',
    usedBy: 'test/emulators/README.md: a slow geocoder',
    bearingDeg: 0,
    address: {
      number: '300',
      streetName: 'Mill',
      suffixType: 'Ave',
      suffixDirection: 'S',
      city: 'Renton',
      state: 'WA',
      zip: '98057',
      tigerLineId: '644163177',
    },
  },
  {
    id: 'renton-fault-geocoder-reset',
    twinOf: 'renton-ae-floodway',
    usedBy: 'test/emulators/README.md: a geocoder connection reset once',
    bearingDeg: 0,
    address: {
      number: '1100',
      streetName: 'Houser',
      suffixType: 'Way',
      suffixDirection: 'N',
      city: 'Renton',
      state: 'WA',
      zip: '98057',
      tigerLineId: '644164177',
    },
  },
];

/** Each fault demo place's twin: the demo place it answers exactly like. */
export const FAULT_DEMO_TWIN_OF: Readonly<Record<string, string>> = Object.fromEntries(FAULT_DEMO_TWINS.map((t) => [t.id, t.twinOf]));

function faultDemoSeed(twin: FaultDemoTwin, seeds: PlaceSeed[], address: (spellings: string[], matches: CensusAddressMatch[]) => void): PlaceSeed {
  const of = seeds.find((seed) => seed.id === twin.twinOf) as PlaceSeed;
  const at = pointAt(of, twin.bearingDeg, FAULT_TWIN_OFFSET_M);
  const seed: PlaceSeed = { ...of, id: twin.id, description: `${twin.usedBy} (answers as ${of.id})`, ...at, address: undefined };
  if (twin.address) {
    const match = matchOf(at.lat, at.lon, twin.address);
    const { number, streetName, suffixType, suffixDirection, city, state, zip } = twin.address;
    seed.address = `${number} ${streetName} ${suffixType}${suffixDirection ? ` ${suffixDirection}` : ''}, ${city}, ${state} ${zip}`;
    address([seed.address], [match]);
  }
  return seed;
}

// ---------------------------------------------------------------------------------------------
// The other MapServers (preliminary, pending, CBRS) and the places of the answer parts
// ---------------------------------------------------------------------------------------------

const arcgisField = (name: string, type: string, length?: number): ArcGisField => ({
  name,
  type: `esriFieldType${type}`,
  alias: name,
  ...(length === undefined ? {} : { length }),
});

/** Layer 28's real field list (geometry field included), shared by the preliminary and pending zone layers. */
const ZONE_FIELDS: ArcGisField[] = (
  JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'nfhl-layer-28-flood-hazard-zones.metadata.excerpt.json'), 'utf8')) as {
    fields: ArcGisField[];
  }
).fields.map(({ name, type, alias, length }) => ({ name, type, alias, ...(length === undefined ? {} : { length }) }));

/**
 * Availability fields as the real preliminary and pending services name them; types and lengths chosen here after
 * the NFHL layers (DFIRM_ID 6 characters, dates as esriFieldTypeDate).
 */
const COMING_AVAILABILITY_FIELDS: ArcGisField[] = [
  arcgisField('OBJECTID', 'OID'),
  arcgisField('DFIRM_ID', 'String', 6),
  arcgisField('PRELM_CODE', 'String', 16),
  arcgisField('PRELM_ISSUE_DATE', 'Date', 8),
  arcgisField('CREATE_DATE', 'Date', 8),
  arcgisField('SHAPE', 'Geometry'),
];

/**
 * CBRS layers (the real service's fields `Unit`, `Name`, `Unit_Type`, `CBRS_Type`, `FI_Date`, `SU_Date`). `SU_Date`
 * is text (OPAs carry the literal "Null"); `FI_Date` is a date field, yet one OPA row carries it as the text
 * "11/16/1990", the form some releases of the service publish (the service must read either form).
 */
const CBRS_UNIT_FIELDS: ArcGisField[] = [
  arcgisField('OBJECTID', 'OID'),
  arcgisField('Unit', 'String', 10),
  arcgisField('Name', 'String', 100),
  arcgisField('Unit_Type', 'String', 50),
  arcgisField('Shape', 'Geometry'),
];
const CBRS_PROHIBITION_FIELDS: ArcGisField[] = [
  arcgisField('OBJECTID', 'OID'),
  arcgisField('Unit', 'String', 10),
  arcgisField('CBRS_Type', 'String', 50),
  arcgisField('FI_Date', 'Date', 8),
  arcgisField('SU_Date', 'String', 20),
  arcgisField('Shape', 'Geometry'),
];
const CBRS_BUFFER_FIELDS: ArcGisField[] = [arcgisField('OBJECTID', 'OID'), arcgisField('Unit', 'String', 10), arcgisField('Shape', 'Geometry')];

/** A polygon layer of another MapServer, filled through `add` with the same attribute rules as the NFHL layers. */
class PolygonLayer {
  readonly data: ArcGisLayerData;
  private nextOid: number;

  constructor(id: number, name: string, fields: ArcGisField[], displayField: string, firstOid: number) {
    this.data = { id, name, geometryType: 'esriGeometryPolygon', fields, displayField, features: [] };
    this.nextOid = firstOid;
  }

  add(rings: Ring[], given: Attributes): MapFeature {
    const names = this.data.fields.filter((f) => f.type !== 'esriFieldTypeGeometry').map((f) => f.name);
    const feature = featureOf(names, this.nextOid++, { rings }, given);
    this.data.features.push(feature);
    return feature;
  }

  zone(rings: Ring[], dfirm: string, attrs: Attributes): MapFeature {
    return this.add(rings, zoneAttributes(this.nextOid, dfirm, attrs));
  }
}

/** The rectangle around `points`, widened by `marginM`. */
function boxAround(points: LatLon[], marginM: number): [number, number, number, number] {
  const m = metersToDegrees(points[0].lat, marginM);
  const lats = points.map((p) => p.lat);
  const lons = points.map((p) => p.lon);
  return [Math.min(...lons) - m.dLon, Math.min(...lats) - m.dLat, Math.max(...lons) + m.dLon, Math.max(...lats) + m.dLat];
}

/** A square `sideM` wide around a point (a zone polygon of the answer parts' places). */
const squareAt = (p: LatLon, sideM: number): Ring => squareAround(p.lat, p.lon, sideM);

/** Every area of the answer parts' places: NFHL availability, one jurisdiction and one FIRM panel over it, and its ZCTA. */
function nfhlArea(
  b: MapBuilder,
  zctas: CensusArea[],
  points: LatLon[],
  a: {
    dfirm: string;
    jurisdiction: { name1: string; cid: string; stFips: string; coFips: string };
    panel: { pcomm: string; panel: string; suffix: string; eff: number };
    zcta: [string, number];
  },
): void {
  const box = boxAround(points, 500);
  b.availability([boxRing(box)], a.dfirm);
  b.jurisdiction([boxRing(box)], { dfirm: a.dfirm, ...a.jurisdiction });
  b.panel([boxRing(box)], { dfirm: a.dfirm, stFips: a.jurisdiction.stFips, ...a.panel });
  zctas.push(zctaRecord(a.zcta[0], a.zcta[1], boxAround(points, 2000)));
}

const SHADED_SUBTYPE = '0.2 PCT ANNUAL CHANCE FLOOD HAZARD';

function buildAnswerPartPlaces(
  b: MapBuilder,
  seeds: PlaceSeed[],
  counties: CensusArea[],
  zctas: CensusArea[],
  address: (spellings: string[], matches: CensusAddressMatch[]) => void,
): Pick<BuiltDemo, 'preliminary' | 'pending' | 'cbrs'> {
  // ----- Houston, TX (inside the Harris County record above; each area kilometres from the v1 grid and
  // from each other): LOMAs around a point, a one-line BFE, nearby hazards at known distances
  const harris = '48201C';
  const houston = { name1: 'City of Houston', cid: '480296', stFips: '48', coFips: '201' };
  {
    const p = { lat: 29.7, lon: -95.43 };
    nfhlArea(b, zctas, [p], {
      dfirm: harris,
      jurisdiction: houston,
      panel: { pcomm: '201C', panel: '0865', suffix: 'L', eff: utcDate('2007-06-18') },
      zcta: ['77025', 2301],
    });
    b.zone([squareAt(p, 400)], harris, AE(38));
    const community = { cid: '480296', community: 'HOUSTON, CITY OF' };
    // [case, bearing from p, metres, DATEENDED, OUTCOME, PROJECTCATEGORY, REVAL_STAT]
    const lomas: Array<[string, number, number, number, string | null, string, string | null]> = [
      ['15-06-1489A', 90, 23, utcDate('2015-06-02'), 'Structure removed-Property partially inundated', 'LOMA', null],
      ['09-06-0842A', 200, 48, utcDate('2009-03-17'), 'Portion of property removed', 'LOMA', 'Incorporated'],
      // denied wins over any REVAL_STAT (FEMA's renderer tests OUTCOME first)
      ['18-06-2231A', 0, 60, utcDate('2018-11-05'), 'Structure denied', 'LOMA', 'Superseded'],
      ['12-06-1170A', 310, 72, utcDate('2012-04-24'), 'Multiple', 'LOMA', 'Reevaluation Needed'],
      ['05-06-0390A', 270, 85, utcDate('2005-08-01'), 'Property out as shown', 'LOMR-F', 'Superseded'],
      ['99-06-1002A', 160, 95, NFHL_NO_DATE, ' ', 'LOMA', 'Contact Community'],
      // inside the 100 m envelope's corner, but 130 m away: not listed
      ['21-06-0555A', 45, 130, utcDate('2021-02-09'), 'Structure removed-Property partially inundated', 'LOMA', null],
    ];
    for (const [caseNo, bearing, meters, eff, outcome, category, reval] of lomas) {
      b.loma(pointAt(p, bearing, meters), { caseNo, eff, outcome, category, reval, ...community });
    }
    const addr = '7400 Buffalo Speedway, Houston, TX 77025';
    address(
      [addr, '7400 Buffalo Speedway, Houston, TX'],
      [
        matchOf(p.lat, p.lon, {
          number: '7400',
          streetName: 'Buffalo',
          suffixType: 'Speedway',
          city: 'Houston',
          state: 'TX',
          zip: '77025',
          tigerLineId: '20158804',
        }),
      ],
    );
    seeds.push({
      id: 'houston-lomas',
      description:
        'Houston, TX: AE 38 with LOMAs at 23 m (valid), 48 m (incorporated), 60 m (denied), 72 m (reevaluation needed), 85 m (superseded LOMR-F), 95 m (contact community, blank outcome, 9999-09-09 date) and 130 m (not listed)',
      ...p,
      address: addr,
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 38, datum: 'NAVD88' }),
      parts: {
        lomas: [
          {
            caseNumber: '15-06-1489A',
            effectiveDate: '2015-06-02',
            status: 'valid',
            outcome: 'Structure removed-Property partially inundated',
            category: 'LOMA',
            distanceM: 23,
          },
          {
            caseNumber: '09-06-0842A',
            effectiveDate: '2009-03-17',
            status: 'incorporated',
            outcome: 'Portion of property removed',
            category: 'LOMA',
            distanceM: 48,
          },
          { caseNumber: '18-06-2231A', effectiveDate: '2018-11-05', status: 'denied', outcome: 'Structure denied', category: 'LOMA', distanceM: 60 },
          { caseNumber: '12-06-1170A', effectiveDate: '2012-04-24', status: 'reevaluation_needed', outcome: 'Multiple', category: 'LOMA', distanceM: 72 },
          { caseNumber: '05-06-0390A', effectiveDate: '2005-08-01', status: 'superseded', outcome: 'Property out as shown', category: 'LOMR-F', distanceM: 85 },
          { caseNumber: '99-06-1002A', effectiveDate: null, status: 'contact_community', outcome: null, category: 'LOMA', distanceM: 95 },
        ],
      },
    });
  }
  {
    const p = { lat: 29.7, lon: -95.3 };
    nfhlArea(b, zctas, [p], {
      dfirm: harris,
      jurisdiction: houston,
      panel: { pcomm: '201C', panel: '0880', suffix: 'L', eff: utcDate('2007-06-18') },
      zcta: ['77012', 2302],
    });
    b.zone([squareAt(p, 400)], harris, { FLD_ZONE: 'AH', STUDY_TYP: 'SFHA with BFE no floodway', SFHA_TF: 'T' });
    b.bfeLine(lineAcross(p, 30, 120), { dfirm: harris, elev: 47 });
    // the same ELEV on the other side is no second line; a different ELEV beyond 300 m is out of reach
    b.bfeLine(lineAcross(p, 210, 150), { dfirm: harris, elev: 47 });
    b.bfeLine(lineAcross(p, 135, 320), { dfirm: harris, elev: 48 });
    seeds.push({
      id: 'houston-ah-one-bfe-line',
      description: 'Houston, TX: AH without a static BFE; one usable BFE line (47 ft) 120 m away: estimate from the nearest line',
      ...p,
      zone: mapped('AH', { sfha: true, risk: 'high' }),
      parts: {
        estimatedBaseFloodElevation: { elevationFt: 47, verticalDatum: 'NAVD88', method: 'nearest_line', lines: [{ elevationFt: 47, distanceM: 120 }] },
      },
    });
  }
  {
    const p = { lat: 29.83, lon: -95.45 };
    const q = { lat: 29.83, lon: -95.4 };
    nfhlArea(b, zctas, [p, q], {
      dfirm: harris,
      jurisdiction: houston,
      panel: { pcomm: '201C', panel: '0655', suffix: 'L', eff: utcDate('2007-06-18') },
      zcta: ['77092', 2303],
    });
    b.zone([squareAt(p, 50)], harris, X_MINIMAL);
    b.zone([rectangleBeyond(p, 90, 37)], harris, AE(12));
    const street = DEMO_BUILDING_ADDRESSES.houstonXHouse;
    address(
      [street.address, '5210 West 34th Street, Houston, TX 77092'],
      [
        matchOf(street.lat, street.lon, {
          number: '5210',
          preDirection: 'W',
          streetName: '34th',
          suffixType: 'St',
          city: 'Houston',
          state: 'TX',
          zip: '77092',
          tigerLineId: '20160734',
        }),
      ],
    );
    b.zone([rectangleBeyond(p, 270, 120)], harris, AE_FLOODWAY);
    b.zone([rectangleBeyond(p, 45, 250)], harris, X_SHADED);
    const ae12 = { floodZone: 'AE', zoneSubtype: null, staticBaseFloodElevationFt: 12 };
    const floodway = { distanceM: 120, floodZone: 'AE', zoneSubtype: 'FLOODWAY', staticBaseFloodElevationFt: null };
    seeds.push({
      id: 'houston-nearby-hazards',
      description: 'Houston, TX: X minimal; AE 12 at 37 m, AE FLOODWAY at 120 m, X shaded at 250 m, nothing else within 500 m',
      ...p,
      zone: mapped('X', { subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, risk: 'minimal' }),
      parts: {
        nearby: {
          radiusM: 500,
          sfha: { distanceM: 37, ...ae12 },
          floodway,
          moderate: { distanceM: 250, floodZone: 'X', zoneSubtype: SHADED_SUBTYPE, staticBaseFloodElevationFt: null },
        },
        nearbyAtOtherRadii: [
          { radiusM: 100, sfha: { distanceM: 37, ...ae12 }, floodway: null, moderate: null },
          { radiusM: 200, sfha: { distanceM: 37, ...ae12 }, floodway, moderate: null },
        ],
      },
    });
    b.zone([squareAt(q, 200)], harris, AE(20));
    b.zone([rectangleBeyond(q, 45, 150)], harris, X_SHADED);
    const inside = { distanceM: 0, floodZone: 'AE', zoneSubtype: null, staticBaseFloodElevationFt: 20 };
    seeds.push({
      id: 'houston-nearby-inside-ae',
      description: 'Houston, TX: inside AE 20 (nearest SFHA 0 m), X shaded 150 m away, no floodway within 500 m',
      ...q,
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 20, datum: 'NAVD88' }),
      parts: {
        nearby: {
          radiusM: 500,
          sfha: inside,
          floodway: null,
          moderate: { distanceM: 150, floodZone: 'X', zoneSubtype: SHADED_SUBTYPE, staticBaseFloodElevationFt: null },
        },
        nearbyAtOtherRadii: [{ radiusM: 100, sfha: inside, floodway: null, moderate: null }],
      },
    });
  }

  // ----- Franklin, TN (Williamson County, DFIRM 47187C): a bracketed BFE with every kind of distractor
  {
    const dfirm = '47187C';
    const p = { lat: 35.925, lon: -86.869 };
    const staticAe = { lat: 35.925, lon: -86.849 };
    const zoneA = { lat: 35.925, lon: -86.829 };
    nfhlArea(b, zctas, [p, staticAe, zoneA], {
      dfirm,
      jurisdiction: { name1: 'City of Franklin', cid: '470206', stFips: '47', coFips: '187' },
      panel: { pcomm: '187C', panel: '0209', suffix: 'F', eff: utcDate('2006-12-22') },
      zcta: ['37064', 7101],
    });
    b.zone([squareAt(p, 500)], dfirm, { FLD_ZONE: 'AE', STUDY_TYP: 'SFHA with BFE and floodway', SFHA_TF: 'T' });
    b.bfeLine(lineAcross(p, 270, 41), { dfirm, elev: 612 }); // L1
    b.bfeLine(lineAcross(p, 90, 62), { dfirm, elev: 613 }); // L2: opposite side (180 degrees)
    b.bfeLine(lineAcross(p, 0, 20, 15), { dfirm: '47119C', elev: 611 }); // nearer, another DFIRM: ignored
    b.bfeLine(lineAcross(p, 180, 30, 15), { dfirm, elev: 0, datum: null }); // ELEV 0: unusable
    b.bfeLine(lineAcross(p, 200, 35, 15), { dfirm, elev: -1 }); // ELEV -1: unusable
    b.bfeLine(lineAcross(p, 90, 50), { dfirm, elev: 614, datum: 'NGVD29' }); // other side but another datum: never L2
    b.bfeLine(lineAcross(p, 270, 52), { dfirm, elev: 611 }); // different ELEV, same side as L1 (0 degrees): not L2
    seeds.push({
      id: 'franklin-bfe-bracketed',
      description: 'Franklin, TN: AE without a static BFE between BFE lines 612 (41 m W) and 613 (62 m E), with distractors: estimate 612.4 ft NAVD88',
      ...p,
      zone: mapped('AE', { sfha: true, risk: 'high' }),
      parts: {
        // 612 + (613 - 612) * 41 / (41 + 62) = 612.398
        estimatedBaseFloodElevation: {
          elevationFt: 612.4,
          verticalDatum: 'NAVD88',
          method: 'interpolated',
          lines: [
            { elevationFt: 612, distanceM: 41 },
            { elevationFt: 613, distanceM: 62 },
          ],
        },
      },
    });
    b.zone([squareAt(staticAe, 300)], dfirm, AE(640));
    b.bfeLine(lineAcross(staticAe, 0, 30), { dfirm, elev: 641 });
    seeds.push({
      id: 'franklin-ae-static-bfe-near-line',
      description: 'Franklin, TN: AE with a static BFE (640 ft) and a BFE line 30 m away: no estimate',
      ...staticAe,
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 640, datum: 'NAVD88' }),
    });
    b.zone([squareAt(zoneA, 300)], dfirm, { FLD_ZONE: 'A', STUDY_TYP: 'SFHA without BFE', SFHA_TF: 'T' });
    b.bfeLine(lineAcross(zoneA, 0, 30), { dfirm, elev: 655 });
    seeds.push({
      id: 'franklin-a-near-line',
      description: 'Franklin, TN: zone A (no BFE) with a BFE line 30 m away: A does not call for an estimate',
      ...zoneA,
      zone: mapped('A', { sfha: true, risk: 'high' }),
    });
    counties.push(
      countyRecord(
        { name: 'Williamson County', basename: 'Williamson', state: '47', county: '187', countyns: '01639799', oid: 4701 },
        boxAround([p, zoneA], 15000),
      ),
    );
  }

  // ----- Ponce, PR (DFIRM 72000C): BFE lines in metres, interpolated and converted to feet
  {
    const dfirm = '72000C';
    const p = { lat: 18.0115, lon: -66.6141 };
    nfhlArea(b, zctas, [p], {
      dfirm,
      jurisdiction: { name1: 'Commonwealth of Puerto Rico', cid: '720000', stFips: '72', coFips: '113' },
      panel: { pcomm: '000C', panel: '1715', suffix: 'H', eff: utcDate('2009-11-18') },
      zcta: ['00716', 5102],
    });
    b.zone([squareAt(p, 300)], dfirm, { FLD_ZONE: 'AE', STUDY_TYP: 'SFHA with BFE and floodway', SFHA_TF: 'T' });
    b.bfeLine(lineAcross(p, 90, 30), { dfirm, elev: 10, unit: 'Meters', datum: 'PRVD02' }); // L1
    b.bfeLine(lineAcross(p, 270, 70), { dfirm, elev: 11, unit: 'Meters', datum: 'PRVD02' }); // L2
    b.bfeLine(lineAcross(p, 270, 45), { dfirm, elev: 35, unit: 'Feet', datum: 'PRVD02' }); // other unit: never L2
    seeds.push({
      id: 'ponce-bfe-meters',
      description: 'Ponce, PR: AE without a static BFE between BFE lines 10 m (30 m E) and 11 m (70 m W), PRVD02: estimate 33.8 ft',
      ...p,
      zone: mapped('AE', { sfha: true, risk: 'high' }),
      parts: {
        // (10 + 1 * 30 / 100) m = 10.3 m = 33.79 ft; lines 10 m = 32.81 ft, 11 m = 36.09 ft
        estimatedBaseFloodElevation: {
          elevationFt: 33.8,
          verticalDatum: 'PRVD02',
          method: 'interpolated',
          lines: [
            { elevationFt: 32.8, distanceM: 30 },
            { elevationFt: 36.1, distanceM: 70 },
          ],
        },
      },
    });
    counties.push(
      countyRecord(
        { name: 'Ponce Municipio', basename: 'Ponce', state: '72', county: '113', countyns: '01804537', lsadc: '13', oid: 3218 },
        boxAround([p], 8000),
      ),
    );
  }

  // ----- Charleston, SC (DFIRM 45019C): coming map changes. Preliminary map over cols 0-3, pending over col 1.
  const preliminaryAvailability = new PolygonLayer(0, 'Preliminary Data Availability', COMING_AVAILABILITY_FIELDS, 'DFIRM_ID', 210);
  const preliminaryZones = new PolygonLayer(28, 'Preliminary Flood Hazard Zones', ZONE_FIELDS, 'FLD_ZONE', 880100);
  const pendingAvailability = new PolygonLayer(0, 'Pending Data Availability', COMING_AVAILABILITY_FIELDS, 'DFIRM_ID', 90);
  const pendingZones = new PolygonLayer(28, 'Pending Flood Hazard Zones', ZONE_FIELDS, 'FLD_ZONE', 412300);
  {
    const dfirm = '45019C';
    const c = cluster(32.7765, -79.9311);
    const at = (col: number) => cell(c, col);
    const cols = [0, 1, 2, 3, 4].map(at);
    nfhlArea(b, zctas, cols, {
      dfirm,
      jurisdiction: { name1: 'City of Charleston', cid: '455412', stFips: '45', coFips: '019' },
      panel: { pcomm: '019C', panel: '0514', suffix: 'K', eff: utcDate('2021-01-29') },
      zcta: ['29401', 8101],
    });
    const prelimIssued = 1747306800000; // 2025-05-15T11:00Z, a real value (these dates sit at 11:00 UTC)
    const pendingIssued = Date.UTC(2024, 5, 27, 11); // 2024-06-27T11:00Z
    preliminaryAvailability.add([boxRing(boxAround([at(0), at(3)], 300))], {
      DFIRM_ID: dfirm,
      PRELM_CODE: `${dfirm}_P1`,
      PRELM_ISSUE_DATE: prelimIssued,
      CREATE_DATE: utcDate('2025-04-30'),
    });
    pendingAvailability.add([squareAt(at(1), 500)], {
      DFIRM_ID: dfirm,
      PRELM_CODE: `${dfirm}_P0`,
      PRELM_ISSUE_DATE: pendingIssued,
      CREATE_DATE: utcDate('2024-06-01'),
    });
    const sq = (col: number) => squareAt(at(col), ZONE_SIDE_M);

    b.zone([sq(0)], dfirm, X_MINIMAL);
    preliminaryZones.zone([sq(0)], dfirm, AE(9));
    seeds.push({
      id: 'charleston-preliminary-into-sfha',
      description: 'Charleston, SC: effective X; preliminary AE 9 issued 2025-05-15: into the SFHA',
      ...at(0),
      zone: mapped('X', { subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, risk: 'minimal' }),
      parts: {
        mapChange: {
          status: 'preliminary',
          issuedDate: '2025-05-15',
          floodZone: 'AE',
          zoneSubtype: null,
          inSpecialFloodHazardArea: true,
          staticBaseFloodElevationFt: 9,
          sfhaChange: 'into_sfha',
        },
      },
    });

    b.zone([sq(1)], dfirm, AE(11));
    preliminaryZones.zone([sq(1)], dfirm, AE(12));
    pendingZones.zone([sq(1)], dfirm, X_SHADED);
    seeds.push({
      id: 'charleston-pending-out-of-sfha',
      description: 'Charleston, SC: effective AE 11; pending X shaded (issued 2024-06-27) wins over the preliminary AE 12: out of the SFHA',
      ...at(1),
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 11, datum: 'NAVD88' }),
      parts: {
        mapChange: {
          status: 'pending',
          issuedDate: '2024-06-27',
          floodZone: 'X',
          zoneSubtype: SHADED_SUBTYPE,
          inSpecialFloodHazardArea: false,
          staticBaseFloodElevationFt: null,
          sfhaChange: 'out_of_sfha',
        },
      },
    });

    b.zone([sq(2)], dfirm, X_MINIMAL);
    seeds.push({
      id: 'charleston-preliminary-no-zone',
      description: "Charleston, SC: effective X; inside the preliminary map's availability but no preliminary zone polygon: change unknown",
      ...at(2),
      zone: mapped('X', { subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, risk: 'minimal' }),
      parts: {
        mapChange: {
          status: 'preliminary',
          issuedDate: '2025-05-15',
          floodZone: null,
          zoneSubtype: null,
          inSpecialFloodHazardArea: null,
          staticBaseFloodElevationFt: null,
          sfhaChange: 'unknown',
        },
      },
    });

    b.zone([sq(3)], dfirm, AE(10));
    preliminaryZones.zone([sq(3)], dfirm, AE(11));
    seeds.push({
      id: 'charleston-preliminary-unchanged',
      description: 'Charleston, SC: effective AE 10; preliminary AE 11: SFHA unchanged',
      ...at(3),
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 10, datum: 'NAVD88' }),
      parts: {
        mapChange: {
          status: 'preliminary',
          issuedDate: '2025-05-15',
          floodZone: 'AE',
          zoneSubtype: null,
          inSpecialFloodHazardArea: true,
          staticBaseFloodElevationFt: 11,
          sfhaChange: 'unchanged',
        },
      },
    });

    b.zone([sq(4)], dfirm, X_SHADED);
    seeds.push({
      id: 'charleston-no-coming-map',
      description: 'Charleston, SC: effective X shaded; no preliminary or pending map here',
      ...at(4),
      zone: mapped('X', { subtype: SHADED_SUBTYPE, sfha: false, risk: 'moderate' }),
    });
    counties.push(
      countyRecord({ name: 'Charleston County', basename: 'Charleston', state: '45', county: '019', countyns: '01252294', oid: 4501 }, boxAround(cols, 15000)),
    );
  }

  // ----- Fernandina Beach, FL (Nassau County, DFIRM 12089C): Coastal Barrier Resources System
  const cbrsUnits = new PolygonLayer(0, 'CBRS Units', CBRS_UNIT_FIELDS, 'Unit', 1);
  const cbrsProhibitions = new PolygonLayer(1, 'CBRS Prohibitions', CBRS_PROHIBITION_FIELDS, 'Unit', 1);
  const cbrsBuffer = new PolygonLayer(2, 'CBRS Buffer Zone', CBRS_BUFFER_FIELDS, 'Unit', 1);
  {
    const dfirm = '12089C';
    const c = cluster(30.6697, -81.4626);
    const at = (col: number) => cell(c, col);
    const cols = [0, 1, 2, 3].map(at);
    nfhlArea(b, zctas, cols, {
      dfirm,
      jurisdiction: { name1: 'City of Fernandina Beach', cid: '120172', stFips: '12', coFips: '089' },
      panel: { pcomm: '089C', panel: '0188', suffix: 'F', eff: utcDate('2017-12-07') },
      zcta: ['32034', 9101],
    });
    const sq = (col: number) => squareAt(at(col), ZONE_SIDE_M);
    const unitArea = (col: number) => squareAt(at(col), 400);

    b.zone([sq(0)], dfirm, { FLD_ZONE: 'VE', STUDY_TYP: 'SFHA with BFE no floodway', SFHA_TF: 'T', STATIC_BFE: 14, V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' });
    cbrsUnits.add([unitArea(0)], { Unit: 'FL-05', Name: 'Amelia Island', Unit_Type: 'System Unit' });
    cbrsProhibitions.add([unitArea(0)], { Unit: 'FL-05', CBRS_Type: 'System Unit', FI_Date: utcDate('1983-10-01'), SU_Date: '10/18/1982' });
    seeds.push({
      id: 'fernandina-cbrs-system-unit',
      description: 'Fernandina Beach, FL: VE 14 inside CBRS System Unit FL-05 (FI_Date as epoch ms, 1983-10-01)',
      ...at(0),
      zone: mapped('VE', { sfha: true, risk: 'very_high', bfe: 14, datum: 'NAVD88' }),
      parts: { coastalBarrier: { status: 'inside', unit: 'FL-05', type: 'System Unit', floodInsuranceProhibitionDate: '1983-10-01' } },
    });

    b.zone([sq(1)], dfirm, AE(9));
    cbrsUnits.add([unitArea(1)], { Unit: 'FL-64P', Name: 'Fort Clinch', Unit_Type: 'Otherwise Protected Area' });
    cbrsProhibitions.add([unitArea(1)], { Unit: 'FL-64P', CBRS_Type: 'Otherwise Protected Area', FI_Date: '11/16/1990', SU_Date: 'Null' });
    seeds.push({
      id: 'fernandina-cbrs-opa',
      description: 'Fernandina Beach, FL: AE 9 inside Otherwise Protected Area FL-64P (FI_Date as the text "11/16/1990", SU_Date "Null")',
      ...at(1),
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 9, datum: 'NAVD88' }),
      parts: { coastalBarrier: { status: 'inside', unit: 'FL-64P', type: 'Otherwise Protected Area', floodInsuranceProhibitionDate: '1990-11-16' } },
    });

    b.zone([sq(2)], dfirm, X_SHADED);
    cbrsBuffer.add([unitArea(2)], { Unit: 'FL-05' });
    seeds.push({
      id: 'fernandina-cbrs-buffer',
      description: 'Fernandina Beach, FL: X shaded in the CBRS buffer zone only',
      ...at(2),
      zone: mapped('X', { subtype: SHADED_SUBTYPE, sfha: false, risk: 'moderate' }),
      parts: { coastalBarrier: { status: 'buffer', unit: null, type: null, floodInsuranceProhibitionDate: null } },
    });

    b.zone([sq(3)], dfirm, X_MINIMAL);
    seeds.push({
      id: 'fernandina-cbrs-outside',
      description: 'Fernandina Beach, FL: X minimal outside every CBRS polygon',
      ...at(3),
      zone: mapped('X', { subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, risk: 'minimal' }),
    });
    counties.push(
      countyRecord({ name: 'Nassau County', basename: 'Nassau', state: '12', county: '089', countyns: '00295755', oid: 1201 }, boxAround(cols, 15000)),
    );
  }

  // ----- Norfolk, VA (DFIRM 510104, tidal AE): the ground against the BFE (include=elevation; grounds in DEMO_GROUND).
  // Above, below and within the uncertainty of a static BFE; above an estimate from one BFE line; a BFE in NGVD29;
  // and the USGS elevation service's no-data answers ("Call failed." and a null value).
  {
    const dfirm = '510104';
    const c = cluster(36.8468, -76.2852);
    const at = (col: number) => cell(c, col);
    const cols = [0, 1, 2, 3, 4, 5, 6].map(at);
    nfhlArea(b, zctas, cols, {
      dfirm,
      jurisdiction: { name1: 'City of Norfolk', cid: '510104', stFips: '51', coFips: '710' },
      panel: { pcomm: '0104', panel: '0035', suffix: 'G', eff: utcDate('2016-02-17') },
      zcta: ['23510', 10101],
    });
    const sq = (col: number) => squareAt(at(col), ZONE_SIDE_M);
    const staticBfe: Array<[string, string]> = [
      ['norfolk-ground-above-bfe', 'ground 13.6 ft, 4.6 ft above the BFE'],
      ['norfolk-ground-below-bfe', 'ground 4.3 ft, 4.7 ft below the BFE'],
      ['norfolk-ground-within-bfe-uncertainty', 'ground 10 ft, 1 ft above the BFE: within the 1.7 ft uncertainty'],
    ];
    staticBfe.forEach(([id, ground], col) => {
      b.zone([sq(col)], dfirm, AE(9));
      seeds.push({
        id,
        description: `Norfolk, VA: AE, BFE 9 ft NAVD88; ${ground}`,
        ...at(col),
        zone: mapped('AE', { sfha: true, risk: 'high', bfe: 9, datum: 'NAVD88' }),
      });
    });

    b.zone([sq(3)], dfirm, { FLD_ZONE: 'AE', STUDY_TYP: 'SFHA with BFE no floodway', SFHA_TF: 'T' });
    b.bfeLine(lineAcross(at(3), 0, 100), { dfirm, elev: 8 });
    seeds.push({
      id: 'norfolk-ground-above-estimated-bfe',
      description: 'Norfolk, VA: AE without a static BFE, one BFE line (8 ft NAVD88) 100 m away; ground 11.4 ft, 3.4 ft above the estimate',
      ...at(3),
      zone: mapped('AE', { sfha: true, risk: 'high' }),
      parts: {
        estimatedBaseFloodElevation: { elevationFt: 8, verticalDatum: 'NAVD88', method: 'nearest_line', lines: [{ elevationFt: 8, distanceM: 100 }] },
      },
    });

    b.zone([sq(4)], dfirm, AE(8, 'NGVD29'));
    seeds.push({
      id: 'norfolk-bfe-ngvd29',
      description: 'Norfolk, VA: AE, BFE 8 ft NGVD29; ground 6.5 ft NAVD88, not compared (datums are never converted)',
      ...at(4),
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 8, datum: 'NGVD29' }),
    });

    b.zone([sq(5)], dfirm, X_SHADED);
    seeds.push({
      id: 'norfolk-elevation-call-failed',
      description: 'Norfolk, VA: X shaded; the elevation service answers "Call failed." (no data here)',
      ...at(5),
      zone: mapped('X', { subtype: SHADED_SUBTYPE, sfha: false, risk: 'moderate' }),
    });

    b.zone([sq(6)], dfirm, X_MINIMAL);
    seeds.push({
      id: 'norfolk-elevation-null',
      description: 'Norfolk, VA: X minimal; the elevation service answers "value": null (no data here)',
      ...at(6),
      zone: mapped('X', { subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, risk: 'minimal' }),
    });
    counties.push(
      countyRecord(
        { name: 'Norfolk city', basename: 'Norfolk', state: '51', county: '710', countyns: '01498557', lsadc: '25', oid: 5101 },
        boxAround(cols, 15000),
      ),
    );
  }

  // ----- Willow Creek, KS (Wabaunsee County, DFIRM 20197C; a made-up city): a community in the NFIP's emergency
  // program (the demo Community Status Book lists it participating, with no initial FIRM date), a small AE and an X.
  {
    const dfirm = '20197C';
    const c = cluster(39.0167, -96.2889);
    const at = (col: number) => cell(c, col);
    const cols = [0, 1].map(at);
    nfhlArea(b, zctas, cols, {
      dfirm,
      jurisdiction: { name1: 'City of Willow Creek', cid: '200610', stFips: '20', coFips: '197' },
      panel: { pcomm: '197C', panel: '0140', suffix: 'D', eff: utcDate('2011-09-02') },
      zcta: ['66401', 11101],
    });
    b.zone([squareAt(at(0), 150)], dfirm, AE(1012));
    seeds.push({
      id: 'emergency-program-ae',
      description: "Willow Creek, KS: a small AE (BFE 1012 ft) in a community in the NFIP's emergency program",
      ...at(0),
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 1012, datum: 'NAVD88' }),
    });
    b.zone([squareAt(at(1), ZONE_SIDE_M)], dfirm, X_MINIMAL);
    seeds.push({
      id: 'emergency-program-x',
      description: "Willow Creek, KS: X minimal in a community in the NFIP's emergency program",
      ...at(1),
      zone: mapped('X', { subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, risk: 'minimal' }),
    });
    counties.push(
      countyRecord({ name: 'Wabaunsee County', basename: 'Wabaunsee', state: '20', county: '197', countyns: '00485061', oid: 2001 }, boxAround(cols, 15000)),
    );
  }

  // ----- Prairie Hollow, KS (Shawnee County; a made-up town): no digital map and no FIRM panel, only the community's
  // political jurisdiction, which the demo Community Status Book lists with no map of any kind: FEMA has no NFIP map here.
  {
    const p = { lat: 39.0167, lon: -95.8 };
    b.jurisdiction([squareAt(p, 3000)], { dfirm: '20177C', name1: 'Town of Prairie Hollow', cid: '200612', stFips: '20', coFips: '177' });
    seeds.push({
      id: 'prairie-hollow-no-nfip-map',
      description: 'Prairie Hollow, KS: no NFHL data but the community, which the Community Status Book lists with no map at all (no NFIP map)',
      ...p,
      zone: noZone('unmapped'),
    });
    counties.push(
      countyRecord({ name: 'Shawnee County', basename: 'Shawnee', state: '20', county: '177', countyns: '00485052', oid: 2002 }, boxAround([p], 15000)),
    );
    zctas.push(zctaRecord('66402', 11102, boxAround([p], 3000)));
  }

  // ----- Twin Forks, KS (McPherson County; made-up communities): two political jurisdictions FEMA's data overlaps over
  // the whole place, an AE square and a house wholly in it; neither community can be told to be the point's or the house's.
  {
    const dfirm = '20113C';
    const p = { lat: 38.45, lon: -97.65 };
    nfhlArea(b, zctas, [p], {
      dfirm,
      jurisdiction: { name1: 'City of Twin Forks', cid: '200720', stFips: '20', coFips: '113' },
      panel: { pcomm: '113C', panel: '0225', suffix: 'C', eff: utcDate('2010-06-16') },
      zcta: ['67460', 11103],
    });
    b.jurisdiction([boxRing(boxAround([p], 500))], { dfirm, name1: 'McPherson County', cid: '200721', stFips: '20', coFips: '113' });
    b.zone([squareAt(p, 150)], dfirm, AE(1490));
    seeds.push({
      id: 'two-communities-overlap',
      description: "Twin Forks, KS: an AE (BFE 1490 ft) where two communities overlap in FEMA's map: no community at the point, both listed",
      ...p,
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 1490, datum: 'NAVD88' }),
    });
    counties.push(
      countyRecord({ name: 'McPherson County', basename: 'McPherson', state: '20', county: '113', countyns: '00485021', oid: 2003 }, boxAround([p], 15000)),
    );
  }

  return {
    preliminary: { serviceName: 'PrelimPending/Prelim_NFHL', layers: [preliminaryAvailability.data, preliminaryZones.data] },
    pending: { serviceName: 'PrelimPending/Pending_NFHL', layers: [pendingAvailability.data, pendingZones.data] },
    cbrs: { serviceName: 'CoastalBarrierResourcesSystem', layers: [cbrsUnits.data, cbrsProhibitions.data, cbrsBuffer.data] },
  };
}

// ---------------------------------------------------------------------------------------------
// The ground at every place (include=elevation): what the USGS elevation (EPQS) emulator answers there, and the
// `result.groundElevation` that follows, worked out by hand: elevationFt is the value to one decimal; 1 m lidar
// (resolution <= 3 m) is uncertain by 1.7 ft, coarser models by 5.1 ft; the datum is NAVD88 only in the 48 states
// and DC; differenceFt = elevationFt - BFE, within the uncertainty when no larger than it. Only a NAVD88 BFE
// (static, else estimated) is compared.
// ---------------------------------------------------------------------------------------------

/** What the EPQS emulator answers at a place (at the place's own point) and what the service makes of it. */
interface DemoGround {
  epqs: Omit<EpqsPoint, 'at'>;
  expect: GroundElevationExpectation;
}

type GroundComparison = NonNullable<GroundElevationExpectation['comparedWith']>;

const vs = (bfe: GroundComparison['bfe'], bfeFt: number, differenceFt: number, position: GroundComparison['position']): GroundComparison => ({
  bfe,
  bfeFt,
  differenceFt,
  position,
});

/** 1 m lidar flown on 3/1/2020, inside the conterminous US. */
function lidar(valueFt: number, elevationFt: number, comparedWith: GroundComparison | null = null): DemoGround {
  return {
    epqs: { valueFt, resolution: 1, acquisitionDate: '3/1/2020' },
    expect: { elevationFt, verticalDatum: 'NAVD88', resolutionM: 1, acquisitionDate: '2020-03-01', uncertaintyFt: 1.7, comparedWith },
  };
}

/** 1 m lidar outside the conterminous US (Puerto Rico): 3DEP's datum varies there, so no datum and no comparison. */
function lidarOutsideConus(valueFt: number, elevationFt: number): DemoGround {
  return {
    epqs: { valueFt, resolution: 1, acquisitionDate: '3/1/2020' },
    expect: { elevationFt, verticalDatum: null, resolutionM: 1, acquisitionDate: '2020-03-01', uncertaintyFt: 1.7, comparedWith: null },
  };
}

/** The service has no elevation here: every field null (the note says so). */
function noGround(epqs: DemoGround['epqs']): DemoGround {
  return { epqs, expect: { elevationFt: null, verticalDatum: null, resolutionM: null, acquisitionDate: null, uncertaintyFt: null, comparedWith: null } };
}

/** Every demo place's ground, by place id (a fault walkthrough's place stands on its twin's ground). */
const DEMO_GROUND: Readonly<Record<string, DemoGround>> = {
  'dc-white-house-ae': lidar(579.96, 580, vs('static', 583, -3, 'below')),
  'houston-ae-floodway': lidar(38.41, 38.4),
  'houston-ah': lidar(43.92, 43.9, vs('static', 42, 1.9, 'above')),
  'houston-ao': lidar(40.17, 40.2),
  'houston-a': lidar(41.04, 41),
  'houston-x-shaded': lidar(44.73, 44.7),
  'houston-x-unshaded': lidar(47.28, 47.3),
  'houston-x-null-subtype': lidar(46.61, 46.6),
  'houston-x-blank-subtype': lidar(45.88, 45.9),
  // the floodway governs and has no BFE
  'houston-seam': lidar(39.52, 39.5),
  // 43.3 - 45 = -1.7: on the edge of the 1.7 ft uncertainty, still within it
  'houston-duplicate-ae': lidar(43.31, 43.3, vs('static', 45, -1.7, 'within_uncertainty')),
  'houston-gap': lidar(42.66, 42.7),
  'houston-open-water': lidar(30.14, 30.1),
  'houston-area-not-included': lidar(44.02, 44),
  'sacramento-ar': lidar(16.83, 16.8),
  'sacramento-a99': lidar(17.49, 17.5),
  'sacramento-x-levee': lidar(19.22, 19.2),
  'sacramento-d': lidar(21.66, 21.7),
  'menominee-ve': lidar(583.14, 583.1, vs('static', 586, -2.9, 'below')),
  'menominee-v': lidar(581.92, 581.9),
  'menominee-overlap': lidar(587.37, 587.4, vs('static', 586, 1.4, 'within_uncertainty')),
  'menominee-placeholder-panel-date': lidar(596.08, 596.1),
  'toa-baja-ae': lidarOutsideConus(12.57, 12.6),
  'pr-ae-meters': lidarOutsideConus(30.22, 30.2),
  'pr-ae-centimeters': lidarOutsideConus(9.84, 9.8),
  'pr-ae-datum-9999': lidarOutsideConus(13.06, 13.1),
  'renton-ae-floodway': lidar(36.47, 36.5),
  'renton-x-shaded': lidar(39.81, 39.8),
  'renton-x-unshaded': lidar(52.39, 52.4),
  // only the 1/3 arc-second (10 m) model, with no acquisition date: 5.1 ft
  'lampasas-paper-only': {
    epqs: { valueFt: 1031.42, resolution: 10, acquisitionDate: null },
    expect: { elevationFt: 1031.4, verticalDatum: 'NAVD88', resolutionM: 10, acquisitionDate: null, uncertaintyFt: 5.1, comparedWith: null },
  },
  // a 3 m model is still fine: 1.7 ft
  'mount-vernon-unmapped': {
    epqs: { valueFt: 24.96, resolution: 3, acquisitionDate: '6/20/2017' },
    expect: { elevationFt: 25, verticalDatum: 'NAVD88', resolutionM: 3, acquisitionDate: '2017-06-20', uncertaintyFt: 1.7, comparedWith: null },
  },
  // the open ocean: the service's own no-data number
  'outside-us-atlantic': noGround({ valueFt: EPQS_NO_DATA_VALUE }),
  'houston-lomas': lidar(38.58, 38.6, vs('static', 38, 0.6, 'within_uncertainty')),
  'houston-ah-one-bfe-line': lidar(48.23, 48.2, vs('estimated', 47, 1.2, 'within_uncertainty')),
  'houston-nearby-hazards': lidar(52.11, 52.1),
  'houston-nearby-inside-ae': lidar(24.36, 24.4, vs('static', 20, 4.4, 'above')),
  'franklin-bfe-bracketed': lidar(608.14, 608.1, vs('estimated', 612.4, -4.3, 'below')),
  'franklin-ae-static-bfe-near-line': lidar(646.72, 646.7, vs('static', 640, 6.7, 'above')),
  'franklin-a-near-line': lidar(657.03, 657),
  'ponce-bfe-meters': lidarOutsideConus(35.19, 35.2),
  'charleston-preliminary-into-sfha': lidar(8.62, 8.6),
  'charleston-pending-out-of-sfha': lidar(13.07, 13.1, vs('static', 11, 2.1, 'above')),
  'charleston-preliminary-no-zone': lidar(12.44, 12.4),
  'charleston-preliminary-unchanged': lidar(6.81, 6.8, vs('static', 10, -3.2, 'below')),
  'charleston-no-coming-map': lidar(11.93, 11.9),
  // 9.5 - 14 = -4.5: below the BFE, yet within the 5.1 ft of the coarse model
  'fernandina-cbrs-system-unit': {
    epqs: { valueFt: 9.46, resolution: 10, acquisitionDate: '1/15/2013' },
    expect: {
      elevationFt: 9.5,
      verticalDatum: 'NAVD88',
      resolutionM: 10,
      acquisitionDate: '2013-01-15',
      uncertaintyFt: 5.1,
      comparedWith: vs('static', 14, -4.5, 'within_uncertainty'),
    },
  },
  'fernandina-cbrs-opa': lidar(10.38, 10.4, vs('static', 9, 1.4, 'within_uncertainty')),
  'fernandina-cbrs-buffer': lidar(11.62, 11.6),
  'fernandina-cbrs-outside': lidar(15.29, 15.3),
  'norfolk-ground-above-bfe': lidar(13.62, 13.6, vs('static', 9, 4.6, 'above')),
  'norfolk-ground-below-bfe': lidar(4.27, 4.3, vs('static', 9, -4.7, 'below')),
  'norfolk-ground-within-bfe-uncertainty': lidar(9.96, 10, vs('static', 9, 1, 'within_uncertainty')),
  'norfolk-ground-above-estimated-bfe': lidar(11.42, 11.4, vs('estimated', 8, 3.4, 'above')),
  // NAVD88 ground, NGVD29 BFE: never compared
  'norfolk-bfe-ngvd29': lidar(6.51, 6.5),
  'norfolk-elevation-call-failed': noGround({ valueFt: 7.2, callFailed: true }),
  'norfolk-elevation-null': noGround({ valueFt: null }),
  'emergency-program-ae': lidar(1009.42, 1009.4, vs('static', 1012, -2.6, 'below')),
  'two-communities-overlap': lidar(1487.31, 1487.3, vs('static', 1490, -2.7, 'below')),
  'emergency-program-x': lidar(1021.37, 1021.4),
  'prairie-hollow-no-nfip-map': lidar(947.06, 947.1),
};

function groundOf(seed: PlaceSeed): DemoGround {
  const ground = DEMO_GROUND[FAULT_DEMO_TWIN_OF[seed.id] ?? seed.id];
  if (!ground) throw new Error(`demo place ${seed.id} has no ground elevation`);
  return ground;
}

// ---------------------------------------------------------------------------------------------
// Queries over the map (shared by both emulators and by the expectations below)
// ---------------------------------------------------------------------------------------------

/** The polygon features containing the point (boundary included); lines and points never contain one. */
export function featuresAt<T extends { rings?: Ring[]; bbox: BBox }>(features: readonly T[], lon: number, lat: number): T[] {
  return features.filter((f) => f.rings !== undefined && polygonIntersectsPoint(f.rings, lon, lat, f.bbox));
}

function isoDay(ms: AttributeValue): string | null {
  if (typeof ms !== 'number' || ms === NFHL_NO_DATE) return null;
  return new Date(ms).toISOString().slice(0, 10);
}

function expectationFor(map: DemoMap, seed: PlaceSeed): DemoExpectation {
  const { lat, lon } = seed;
  const panels = featuresAt(map.nfhl.firmPanels, lon, lat);
  const panel = panels[0]?.attributes;
  const communitiesAtPoint = [
    ...new Map(
      featuresAt(map.nfhl.politicalJurisdictions, lon, lat).map(({ attributes }) => [
        attributes.CID,
        { name: attributes.POL_NAME1 as string, communityId: attributes.CID as string },
      ]),
    ).values(),
  ];
  const lomrs = featuresAt(map.nfhl.lomrs, lon, lat)
    .map((f) => f.attributes)
    .filter((a) => a.STATUS === 'Effective')
    .sort((a, b) => Number(b.EFF_DATE) - Number(a.EFF_DATE))
    .map((a) => ({ caseNumber: String(a.CASE_NO), effectiveDate: isoDay(a.EFF_DATE) }));
  const county = featuresAt(map.census.counties, lon, lat)[0]?.attributes;
  const zcta = featuresAt(map.census.zctas, lon, lat)[0]?.attributes;
  return {
    ...seed.zone,
    lomas: [],
    estimatedBaseFloodElevation: null,
    // Without a digital effective map, no coming map means a change is unknown, not "unchanged".
    mapChange: seed.zone.coverage === 'unmapped' ? { ...NO_MAP_CHANGE, sfhaChange: 'unknown' } : NO_MAP_CHANGE,
    coastalBarrier: OUTSIDE_CBRS,
    ...seed.parts,
    groundElevation: groundOf(seed).expect,
    firmPanel: panel
      ? {
          panel: String(panel.FIRM_PAN),
          panelNumber: panel.PANEL as string,
          suffix: panel.SUFFIX as string,
          effectiveDate: isoDay(panel.EFF_DATE),
          panelType: panel.PANEL_TYP as string,
        }
      : null,
    community: communitiesAtPoint.length === 1 ? communitiesAtPoint[0] : null,
    communitiesAtPoint,
    lomrs,
    county: county ? String(county.NAME) : null,
    countyFips: county ? String(county.GEOID) : null,
    zcta: zcta ? String(zcta.ZCTA5) : null,
  };
}

const BUILT = buildAll();

/** The shared, read-only demo map (emulators never mutate it). */
export const DEMO_MAP: DemoMap = BUILT.map;

/** FEMA's preliminary maps (`PrelimPending/Prelim_NFHL/MapServer`): availability (0) and zones (28). */
export const DEMO_PRELIMINARY: ArcGisServiceData = BUILT.preliminary;

/** FEMA's pending maps (`PrelimPending/Pending_NFHL/MapServer`): availability (0) and zones (28). */
export const DEMO_PENDING: ArcGisServiceData = BUILT.pending;

/** The USFWS Coastal Barrier Resources System MapServer: units, prohibitions, buffer zone. */
export const DEMO_CBRS: ArcGisServiceData = BUILT.cbrs;

/** A fresh copy of the demo map (for tests that want to modify their own). */
export function buildDemoMap(): DemoMap {
  return buildAll().map;
}

/**
 * One point per coverage case. `expect` is what GET /flood-zone?lat=..&lon=.. should answer (see docs/api.md),
 * and `address` (when present) geocodes to exactly this point through the Census emulator.
 */
export const DEMO_PLACES: readonly DemoPlace[] = BUILT.seeds.map(demoPlaceOf);

/**
 * The places of the fault walkthroughs (docs/offline.md, test/emulators/README.md), one per step, each answering as
 * the demo place its description names; listed nowhere else, so no earlier step has cached them.
 */
export const FAULT_DEMO_PLACES: readonly DemoPlace[] = BUILT.faultSeeds.map(demoPlaceOf);

/** The ground the USGS elevation (EPQS) emulator answers, one point per demo place and fault walkthrough place. */
export const DEMO_ELEVATIONS: readonly EpqsPoint[] = [...BUILT.seeds, ...BUILT.faultSeeds].map((seed) => ({
  at: [seed.lon, seed.lat],
  ...groundOf(seed).epqs,
}));

function demoPlaceOf(seed: PlaceSeed): DemoPlace {
  return {
    id: seed.id,
    description: seed.description,
    lat: seed.lat,
    lon: seed.lon,
    ...(seed.address ? { address: seed.address } : {}),
    expect: expectationFor(BUILT.map, seed),
  };
}

export function demoPlace(id: string): DemoPlace {
  const place = DEMO_PLACES.find((p) => p.id === id) ?? FAULT_DEMO_PLACES.find((p) => p.id === id);
  if (!place) throw new Error(`unknown demo place ${id}`);
  return place;
}
