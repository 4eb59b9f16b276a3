/**
 * The demo map served by the upstream emulators: NFHL features per layer (ArcGIS polygon rings in lon/lat,
 * WGS84) and Census data (counties, 2020 ZCTAs, states, addresses), all in memory.
 *
 * Attribute sets follow the real NFHL layers field-for-field (names, order, null encodings) as recorded in
 * /work/shared/fixtures (layer-28 real feature properties, layer metadata). Values are realistic but made up
 * for the demo (except those UPSTREAMS.md names as real: Toa Baja panel 72000C0330J, Renton panel 53033C0977G,
 * the AE 583 / VE 586 / AO / X attribute sets copied from real features). County and ZCTA polygons are
 * rectangles around the demo areas, not their real outlines.
 *
 * Every coverage case lives in its own small area: zone polygons are squares ~300 m wide on a 600 m grid,
 * so a point between squares (inside NFHL Availability) is a genuine "no zone polygon" gap.
 * `DEMO_PLACES` lists one point per case, with what the service should answer for it (`expect`).
 */
import {
  BBox,
  Ring,
  areaAndLength,
  bboxOfRings,
  metersToDegrees,
  polygonIntersectsPoint,
  rectHole,
  rectRing,
  squareAround,
} from './geometry';

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

export type AttributeValue = string | number | null;
export type Attributes = Record<string, AttributeValue>;

export type NfhlLayerKey = 'availability' | 'lomrs' | 'firmPanels' | 'politicalJurisdictions' | 'floodHazardZones';

/** The real layer names (what a client must resolve ids by). */
export const NFHL_LAYER_NAMES: Readonly<Record<NfhlLayerKey, string>> = {
  availability: 'NFHL Availability',
  lomrs: 'LOMRs',
  firmPanels: 'FIRM Panels',
  politicalJurisdictions: 'Political Jurisdictions',
  floodHazardZones: 'Flood Hazard Zones',
};

/** The layer ids in the live service today (fixtures/nfhl/nfhl-mapserver-root.metadata.json). */
export const NFHL_DEFAULT_LAYER_IDS: Readonly<Record<NfhlLayerKey, number>> = {
  availability: 0,
  lomrs: 1,
  firmPanels: 3,
  politicalJurisdictions: 22,
  floodHazardZones: 28,
};

/** Non-geometry attribute names per layer, in the real field order (from the layer metadata). */
export const NFHL_ATTRIBUTE_FIELDS: Readonly<Record<NfhlLayerKey, readonly string[]>> = {
  availability: ['OBJECTID', 'STUDY_ID', 'GlobalID', 'SHAPE_Length', 'SHAPE_Area'],
  lomrs: [
    'OBJECTID', 'DFIRM_ID', 'VERSION_ID', 'LOMR_ID', 'EFF_DATE', 'CASE_NO', 'SCALE', 'STATUS', 'SOURCE_CIT',
    'SHAPE.STArea()', 'SHAPE.STLength()', 'GFID', 'GlobalID',
  ],
  firmPanels: [
    'OBJECTID', 'DFIRM_ID', 'VERSION_ID', 'FIRM_ID', 'ST_FIPS', 'PCOMM', 'PANEL', 'SUFFIX', 'FIRM_PAN', 'PANEL_TYP',
    'PRE_DATE', 'EFF_DATE', 'SCALE', 'PNP_REASON', 'BASE_TYP', 'SOURCE_CIT', 'GFID', 'SHAPE.STArea()',
    'SHAPE.STLength()', 'GlobalID',
  ],
  politicalJurisdictions: [
    'OBJECTID', 'DFIRM_ID', 'VERSION_ID', 'POL_AR_ID', 'POL_NAME1', 'POL_NAME2', 'POL_NAME3', 'CO_FIPS', 'ST_FIPS',
    'COMM_NO', 'CID', 'ANI_TF', 'ANI_FIRM', 'COM_NFO_ID', 'SOURCE_CIT', 'SHAPE.STArea()', 'SHAPE.STLength()', 'GFID',
    'GlobalID',
  ],
  floodHazardZones: [
    'OBJECTID', 'DFIRM_ID', 'FLD_AR_ID', 'STUDY_TYP', 'FLD_ZONE', 'ZONE_SUBTY', 'SFHA_TF', 'STATIC_BFE', 'V_DATUM',
    'DEPTH', 'LEN_UNIT', 'VELOCITY', 'VEL_UNIT', 'AR_REVERT', 'AR_SUBTRV', 'BFE_REVERT', 'DEP_REVERT', 'DUAL_ZONE',
    'SOURCE_CIT', 'SHAPE.STArea()', 'SHAPE.STLength()', 'GFID', 'GlobalID',
  ],
};

export interface MapFeature {
  attributes: Attributes;
  /** ArcGIS rings, [lon, lat]; outer rings clockwise, holes counter-clockwise. */
  rings: Ring[];
  bbox: BBox;
}

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

/** What the service should answer for a place (CONTRACT.md sections 3-4), as read by the emulator's author. */
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
  community: { name: string | null; communityId: string | null } | null;
  /** Effective LOMRs at the point, newest first. */
  lomrs: Array<{ caseNumber: string; effectiveDate: string | null }>;
  /** From the Census coordinates lookup. */
  county: string | null;
  countyFips: string | null;
  /** 2020 ZCTA at the point (coordinates lookup); not a postal ZIP. */
  zcta: string | null;
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
  return [
    c.lon0 - c.dLon / 2 - m.dLon,
    c.lat0 - c.dLat / 2 - m.dLat,
    c.lon0 + (cols - 0.5) * c.dLon + m.dLon,
    c.lat0 + (rows - 0.5) * c.dLat + m.dLat,
  ];
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

const ZONE_DEFAULTS: Attributes = {
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

class MapBuilder {
  readonly nfhl: Record<NfhlLayerKey, MapFeature[]> = {
    availability: [],
    lomrs: [],
    firmPanels: [],
    politicalJurisdictions: [],
    floodHazardZones: [],
  };
  private readonly nextOid: Record<NfhlLayerKey, number> = {
    availability: 3100,
    lomrs: 52000,
    firmPanels: 81000,
    politicalJurisdictions: 24000,
    floodHazardZones: 6430100,
  };

  add(layer: NfhlLayerKey, rings: Ring[], given: Attributes): MapFeature {
    const { area, length } = areaAndLength(rings);
    const computed: Attributes = {
      OBJECTID: this.nextOid[layer]++,
      GlobalID: globalId(),
      GFID: gfid(),
      'SHAPE.STArea()': area,
      'SHAPE.STLength()': length,
      SHAPE_Area: area,
      SHAPE_Length: length,
    };
    const attributes: Attributes = {};
    for (const name of NFHL_ATTRIBUTE_FIELDS[layer]) {
      if (name in given) attributes[name] = given[name];
      else if (name in computed) attributes[name] = computed[name];
      else attributes[name] = null;
    }
    const feature = { attributes, rings, bbox: bboxOfRings(rings) };
    this.nfhl[layer].push(feature);
    return feature;
  }

  zone(rings: Ring[], dfirm: string, attrs: Attributes): MapFeature {
    const oid = this.nextOid.floodHazardZones;
    return this.add('floodHazardZones', rings, {
      ...ZONE_DEFAULTS,
      DFIRM_ID: dfirm,
      FLD_AR_ID: `${dfirm}_${oid % 10000}`,
      SOURCE_CIT: `${dfirm}_STUDY1`,
      ...attrs,
    });
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
    return this.add('firmPanels', rings, {
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
    });
  }

  jurisdiction(
    rings: Ring[],
    j: { dfirm: string; name1: string; name2?: string | null; cid: string; stFips: string; coFips: string; ani?: 'T' | 'F' },
  ): MapFeature {
    return this.add('politicalJurisdictions', rings, {
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
    });
  }

  availability(rings: Ring[], studyId: string): MapFeature {
    return this.add('availability', rings, { STUDY_ID: studyId });
  }

  lomr(rings: Ring[], l: { dfirm: string; caseNo: string; eff: number; status: string }): MapFeature {
    return this.add('lomrs', rings, {
      DFIRM_ID: l.dfirm,
      VERSION_ID: '1.1.1.0',
      LOMR_ID: `${l.dfirm}_${l.caseNo}`,
      EFF_DATE: l.eff,
      CASE_NO: l.caseNo,
      SCALE: '6000',
      STATUS: l.status,
      SOURCE_CIT: `${l.dfirm}_LOMR1`,
    });
  }
}

// Zone attribute presets (values as in fixtures/nfhl/nfhl-layer-28-real-feature-properties.excerpt.json)
const AE = (bfe: number, datum: string | null = 'NAVD88', unit: string | null = 'Feet'): Attributes => ({
  FLD_ZONE: 'AE',
  STUDY_TYP: 'SFHA with BFE and floodway',
  SFHA_TF: 'T',
  STATIC_BFE: bfe,
  V_DATUM: datum,
  LEN_UNIT: unit,
});
const AE_FLOODWAY: Attributes = { FLD_ZONE: 'AE', ZONE_SUBTY: 'FLOODWAY', STUDY_TYP: 'SFHA with BFE and floodway', SFHA_TF: 'T' };
const X = (subtype: string | null): Attributes => ({ FLD_ZONE: 'X', ZONE_SUBTY: subtype });
const X_SHADED = X('0.2 PCT ANNUAL CHANCE FLOOD HAZARD');
const X_MINIMAL = X('AREA OF MINIMAL FLOOD HAZARD');
const X_LEVEE = X('AREA WITH REDUCED FLOOD RISK DUE TO LEVEE');

// ---------------------------------------------------------------------------------------------
// Census records
// ---------------------------------------------------------------------------------------------

function fmtCoord(v: number, lon: boolean): string {
  const sign = v < 0 ? '-' : '+';
  const abs = Math.abs(v).toFixed(7);
  return sign + (lon ? abs.padStart(11, '0') : abs.padStart(10, '0'));
}

function countyRecord(
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
  ['26', 'Michigan', 'MI', '01779789', '2', '3'],
  ['48', 'Texas', 'TX', '01779801', '3', '7'],
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
  zone: Omit<DemoExpectation, 'firmPanel' | 'community' | 'lomrs' | 'county' | 'countyFips' | 'zcta'>;
}

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
    zonesAtPoint: opts.zonesAtPoint ?? [
      { floodZone, zoneSubtype: subtype, inSpecialFloodHazardArea: opts.sfha, staticBaseFloodElevationFt: bfe },
    ],
  };
}

function noZone(
  coverage: 'mapped_no_zone' | 'unmapped',
  zonesAtPoint: DemoExpectation['zonesAtPoint'] = [],
): PlaceSeed['zone'] {
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
  /** The contract's example; resolves to place `dc-white-house-ae`. */
  whiteHouse: '1600 Pennsylvania Ave NW, Washington, DC 20500',
  /** Spelled as in CONTRACT.md's example query; same match. */
  whiteHouseLoose: '1600 pennsylvania ave nw, washington dc',
  /** No match: HTTP 200 with addressMatches []. */
  noMatch: '999 Nowhere Blvd, Atlantis, ZZ 00000',
  /** Two matches ~2,700 km apart (Houston, TX and Renton, WA): AMBIGUOUS_ADDRESS. */
  ambiguous: '200 Main St',
  /** Two matches ~40 m apart on opposite sides of the street: counts as one (place `houston-ah`). */
  nearDuplicate: '1800 Shepherd Dr, Houston, TX 77007',
} as const;

function buildAll(): { map: DemoMap; seeds: PlaceSeed[] } {
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
      number: '1600', streetName: 'Pennsylvania', suffixType: 'Ave', suffixDirection: 'NW', city: 'Washington',
      state: 'DC', zip: '20500', tigerLineId: '76225813',
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
      dfirm, name1: 'City of Houston', cid: '480296', stFips: '48', coFips: '201',
    });
    b.jurisdiction([rectRing(axmin, aymin, axmax, aymax)], {
      dfirm, name1: 'Harris County', name2: 'Unincorporated Areas', cid: '480287', stFips: '48', coFips: '201', ani: 'T',
    });
    // two panels with different effective dates: row 0 on 0690L, rows 1-2 on 0695M
    const split = c.lat0 + c.dLat / 2;
    b.panel([rectRing(all[0], all[1], all[2], split)], {
      dfirm, stFips: '48', pcomm: '201C', panel: '0690', suffix: 'L', eff: utcDate('2007-06-18'),
    });
    b.panel([rectRing(all[0], split, all[2], all[3])], {
      dfirm, stFips: '48', pcomm: '201C', panel: '0695', suffix: 'M', eff: utcDate('2019-10-16'), pre: utcDate('2007-06-18'),
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
    const fw = place('houston-ae-floodway', 0, 0, 'Houston, TX: AE FLOODWAY, BFE -9999 (none), no datum or unit',
      mapped('AE', { subtype: 'FLOODWAY', sfha: true, risk: 'high' }), '2100 Memorial Dr, Houston, TX 77007');
    address(['2100 Memorial Dr, Houston, TX 77007', '2100 Memorial Drive, Houston, TX 77007'], [
      matchOf(fw.lat, fw.lon, { number: '2100', streetName: 'Memorial', suffixType: 'Dr', city: 'Houston', state: 'TX', zip: '77007', tigerLineId: '20155021' }),
    ]);

    b.zone([sq(1, 0)], dfirm, { FLD_ZONE: 'AH', STUDY_TYP: 'SFHA with BFE no floodway', SFHA_TF: 'T', STATIC_BFE: 42, V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' });
    const ah = place('houston-ah', 1, 0, 'Houston, TX: AH (ponding), BFE 42 ft NAVD88; its address has two matches 40 m apart',
      mapped('AH', { sfha: true, risk: 'high', bfe: 42, datum: 'NAVD88' }), DEMO_ADDRESSES.nearDuplicate);
    const ahTwin = metersToDegrees(ah.lat, 40);
    address([DEMO_ADDRESSES.nearDuplicate, '1800 Shepherd Drive, Houston, TX 77007'], [
      matchOf(ah.lat, ah.lon, { number: '1800', streetName: 'Shepherd', suffixType: 'Dr', city: 'Houston', state: 'TX', zip: '77007', tigerLineId: '20155877', side: 'L' }),
      matchOf(ah.lat, ah.lon + ahTwin.dLon, { number: '1800', streetName: 'Shepherd', suffixType: 'Dr', city: 'Houston', state: 'TX', zip: '77007', tigerLineId: '20155878', side: 'R' }),
    ]);

    b.zone([sq(2, 0)], dfirm, { FLD_ZONE: 'AO', SFHA_TF: 'T', DEPTH: 1, LEN_UNIT: 'Feet' });
    place('houston-ao', 2, 0, 'Houston, TX: AO (sheet flow), depth 1 ft', mapped('AO', { sfha: true, risk: 'high', depth: 1 }));

    b.zone([sq(3, 0)], dfirm, { FLD_ZONE: 'A', STUDY_TYP: 'SFHA without BFE', SFHA_TF: 'T' });
    place('houston-a', 3, 0, 'Houston, TX: A, no BFE (-9999)', mapped('A', { sfha: true, risk: 'high' }));

    b.zone([sq(4, 0)], dfirm, X_SHADED);
    place('houston-x-shaded', 4, 0, 'Houston, TX: X shaded (0.2 PCT ANNUAL CHANCE FLOOD HAZARD)',
      mapped('X', { subtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', sfha: false, risk: 'moderate' }));

    b.zone([sq(5, 0)], dfirm, X_MINIMAL);
    const xu = place('houston-x-unshaded', 5, 0, 'Houston, TX: X unshaded (AREA OF MINIMAL FLOOD HAZARD)',
      mapped('X', { subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, risk: 'minimal' }), '4400 Washington Ave, Houston, TX 77007');
    address(['4400 Washington Ave, Houston, TX 77007', '4400 Washington Avenue, Houston, TX 77007'], [
      matchOf(xu.lat, xu.lon, { number: '4400', streetName: 'Washington', suffixType: 'Ave', city: 'Houston', state: 'TX', zip: '77007', tigerLineId: '20156310' }),
    ]);

    b.zone([sq(0, 1)], dfirm, X('<Null>'));
    place('houston-x-null-subtype', 0, 1, 'Houston, TX: X with ZONE_SUBTY "<Null>" (unshaded)',
      mapped('X', { subtype: null, sfha: false, risk: 'minimal' }));

    b.zone([sq(1, 1)], dfirm, X(' '));
    place('houston-x-blank-subtype', 1, 1, 'Houston, TX: X with ZONE_SUBTY " " (unshaded)',
      mapped('X', { subtype: null, sfha: false, risk: 'minimal' }));

    // seam: AE FLOODWAY (west half) and AE (east half) share the edge x = centre; the point is on it
    {
      const p = cell(c, 2, 1);
      const { dLat, dLon } = metersToDegrees(p.lat, ZONE_SIDE_M / 2);
      b.zone([rectRing(p.lon - dLon, p.lat - dLat, p.lon, p.lat + dLat)], dfirm, AE_FLOODWAY);
      b.zone([rectRing(p.lon, p.lat - dLat, p.lon + dLon, p.lat + dLat)], dfirm, AE(46));
      place('houston-seam', 2, 1, 'Houston, TX: on the shared edge of an AE FLOODWAY and an AE (BFE 46) polygon: floodway governs',
        mapped('AE', {
          subtype: 'FLOODWAY', sfha: true, risk: 'high',
          zonesAtPoint: [
            { floodZone: 'AE', zoneSubtype: 'FLOODWAY', inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: null },
            { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 46 },
          ],
        }));
    }

    b.zone([sq(3, 1)], dfirm, AE(45));
    b.zone([sq(3, 1)], dfirm, AE(45));
    place('houston-duplicate-ae', 3, 1, 'Houston, TX: two identical AE (BFE 45) polygons: one entry in zonesAtPoint',
      mapped('AE', { sfha: true, risk: 'high', bfe: 45, datum: 'NAVD88' }));

    const gap = place('houston-gap', 4, 1, 'Houston, TX: inside NFHL Availability but no Flood Hazard Zones polygon (a gap)',
      noZone('mapped_no_zone'), '2900 Sawyer St, Houston, TX 77007');
    address(['2900 Sawyer St, Houston, TX 77007', '2900 Sawyer Street, Houston, TX 77007'], [
      matchOf(gap.lat, gap.lon, { number: '2900', streetName: 'Sawyer', suffixType: 'St', city: 'Houston', state: 'TX', zip: '77007', tigerLineId: '20157402' }),
    ]);

    b.zone([sq(5, 1)], dfirm, { FLD_ZONE: 'OPEN WATER', DUAL_ZONE: 'F', SOURCE_CIT: `${dfirm}_FIRM1` });
    place('houston-open-water', 5, 1, 'Houston, TX: only an OPEN WATER polygon',
      noZone('mapped_no_zone', [{ floodZone: 'OPEN WATER', zoneSubtype: null, inSpecialFloodHazardArea: null, staticBaseFloodElevationFt: null }]));

    b.zone([sq(0, 2)], dfirm, { FLD_ZONE: 'AREA NOT INCLUDED' });
    place('houston-area-not-included', 0, 2, 'Harris County, TX: only an AREA NOT INCLUDED polygon, in a jurisdiction with ANI_TF "T"',
      noZone('mapped_no_zone', [{ floodZone: 'AREA NOT INCLUDED', zoneSubtype: null, inSpecialFloodHazardArea: null, staticBaseFloodElevationFt: null }]));

    counties.push(countyRecord({ name: 'Harris County', basename: 'Harris', state: '48', county: '201', countyns: '01383886', oid: 2981 }, clusterBox(c, 6, 3, 15000)));
    zctas.push(zctaRecord('77007', 2101, clusterBox(c, 6, 3, 2000)));

    // the ambiguous address: one of its two matches is here (south of the grid, inside availability)
    const south = cell(c, 2, -0.5);
    const renton = { lat: 47.4829, lon: -122.2171 };
    address([DEMO_ADDRESSES.ambiguous, '200 Main Street'], [
      matchOf(south.lat, south.lon, { number: '200', streetName: 'Main', suffixType: 'St', city: 'Houston', state: 'TX', zip: '77002', tigerLineId: '20150001' }),
      matchOf(renton.lat, renton.lon, { number: '200', streetName: 'Main', suffixType: 'Ave', preDirection: 'S', city: 'Renton', state: 'WA', zip: '98057', tigerLineId: '644160201' }),
    ]);
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
    seeds.push({ id: 'sacramento-a99', description: 'Sacramento, CA: A99 (federal levee under construction)', ...a99,
      address: '2000 Natomas Park Dr, Sacramento, CA 95833', zone: mapped('A99', { sfha: true, risk: 'high' }) });
    address(['2000 Natomas Park Dr, Sacramento, CA 95833', '2000 Natomas Park Drive, Sacramento, CA 95833'], [
      matchOf(a99.lat, a99.lon, { number: '2000', streetName: 'Natomas Park', suffixType: 'Dr', city: 'Sacramento', state: 'CA', zip: '95833', tigerLineId: '123456789' }),
    ]);
    b.zone([sq(2)], dfirm, X_LEVEE);
    seeds.push({ id: 'sacramento-x-levee', description: 'Sacramento, CA: X shaded (AREA WITH REDUCED FLOOD RISK DUE TO LEVEE)', ...at(2),
      zone: mapped('X', { subtype: 'AREA WITH REDUCED FLOOD RISK DUE TO LEVEE', sfha: false, risk: 'moderate' }) });
    b.zone([sq(3)], dfirm, { FLD_ZONE: 'D' });
    seeds.push({ id: 'sacramento-d', description: 'Sacramento, CA: D (possible but undetermined hazard)', ...at(3),
      zone: mapped('D', { sfha: false, risk: 'undetermined' }) });
    counties.push(countyRecord({ name: 'Sacramento County', basename: 'Sacramento', state: '06', county: '067', countyns: '00277298', oid: 612 }, clusterBox(c, 4, 1, 15000)));
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
      dfirm, stFips: '26', pcomm: '109C', panel: '0264', suffix: 'D', eff: NFHL_NO_DATE,
      type: 'Countywide, Not Printed', pnp: 'No Special Flood Hazard Areas',
    });
    const at = (col: number) => cell(c, col);
    const sq = (col: number, side = ZONE_SIDE_M) => {
      const p = cell(c, col);
      return squareAround(p.lat, p.lon, side);
    };
    const VE: Attributes = {
      FLD_ZONE: 'VE', ZONE_SUBTY: 'COASTAL FLOODPLAIN', STUDY_TYP: 'SFHA with BFE no floodway', SFHA_TF: 'T',
      STATIC_BFE: 586, V_DATUM: 'NAVD88', LEN_UNIT: 'Feet', FLD_AR_ID: '26109C_180', SOURCE_CIT: '26109C_STUDY3',
    };
    b.zone([sq(0)], dfirm, VE);
    const ve = at(0);
    seeds.push({ id: 'menominee-ve', description: 'Menominee, MI: VE (COASTAL FLOODPLAIN), BFE 586 ft NAVD88', ...ve,
      address: '100 1st St, Menominee, MI 49858',
      zone: mapped('VE', { subtype: 'COASTAL FLOODPLAIN', sfha: true, risk: 'very_high', bfe: 586, datum: 'NAVD88' }) });
    address(['100 1st St, Menominee, MI 49858', '100 First Street, Menominee, MI 49858'], [
      matchOf(ve.lat, ve.lon, { number: '100', streetName: '1st', suffixType: 'St', city: 'Menominee', state: 'MI', zip: '49858', tigerLineId: '112233445' }),
    ]);
    b.zone([sq(1)], dfirm, { FLD_ZONE: 'V', SFHA_TF: 'T', STUDY_TYP: 'SFHA without BFE' });
    seeds.push({ id: 'menominee-v', description: 'Menominee, MI: V, no BFE', ...at(1), zone: mapped('V', { sfha: true, risk: 'very_high' }) });
    // overlap: X shaded (500 m), AE 584 (400 m) and VE 586 (300 m) all contain the centre
    b.zone([sq(2, 500)], dfirm, X_SHADED);
    b.zone([sq(2, 400)], dfirm, AE(584));
    b.zone([sq(2, 300)], dfirm, VE);
    seeds.push({ id: 'menominee-overlap', description: 'Menominee, MI: X shaded, AE 584 and VE 586 overlap: VE governs', ...at(2),
      zone: mapped('VE', {
        subtype: 'COASTAL FLOODPLAIN', sfha: true, risk: 'very_high', bfe: 586, datum: 'NAVD88',
        zonesAtPoint: [
          { floodZone: 'VE', zoneSubtype: 'COASTAL FLOODPLAIN', inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 586 },
          { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 584 },
          { floodZone: 'X', zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', inSpecialFloodHazardArea: false, staticBaseFloodElevationFt: null },
        ],
      }) });
    b.zone([sq(3)], dfirm, X_MINIMAL);
    seeds.push({ id: 'menominee-placeholder-panel-date',
      description: 'Menominee, MI: X unshaded on panel 26109C0264D whose EFF_DATE is the 9999-09-09 placeholder (effectiveDate null)', ...at(3),
      zone: mapped('X', { subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, risk: 'minimal' }) });
    counties.push(countyRecord({ name: 'Menominee County', basename: 'Menominee', state: '26', county: '109', countyns: '01622997', oid: 1221 }, clusterBox(c, 4, 1, 15000)));
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
    seeds.push({ id: 'toa-baja-ae', description: 'Toa Baja, PR (18.3985, -66.1): AE on panel 72000C0330J effective 2009-11-18', ...tb,
      address: '100 Calle Principal, Toa Baja, PR 00949', zone: mapped('AE', { sfha: true, risk: 'high' }) });
    address(['100 Calle Principal, Toa Baja, PR 00949'], [
      matchOf(tb.lat, tb.lon, { number: '100', streetName: 'Calle Principal', suffixType: '', city: 'Toa Baja', state: 'PR', zip: '00949', tigerLineId: '260093118' }),
    ]);
    b.zone([sq(1)], dfirm, AE(10, 'PRVD02', 'Meters'));
    seeds.push({ id: 'pr-ae-meters', description: 'Toa Baja, PR: AE, STATIC_BFE 10 Meters PRVD02 (32.8 ft)', ...at(1),
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 32.8, datum: 'PRVD02' }) });
    b.zone([sq(2)], dfirm, AE(350, 'PRVD02', 'Centimeters'));
    seeds.push({ id: 'pr-ae-centimeters', description: 'Toa Baja, PR: AE, STATIC_BFE 350 Centimeters PRVD02 (11.5 ft)', ...at(2),
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 11.5, datum: 'PRVD02' }) });
    b.zone([sq(3)], dfirm, AE(12, '-9999', 'Feet'));
    seeds.push({ id: 'pr-ae-datum-9999', description: 'Toa Baja, PR: AE, BFE 12 ft with V_DATUM "-9999" (verticalDatum null)', ...at(3),
      zone: mapped('AE', { sfha: true, risk: 'high', bfe: 12, datum: null }) });
    counties.push(countyRecord({ name: 'Toa Baja Municipio', basename: 'Toa Baja', state: '72', county: '137', countyns: '01804548', lsadc: '13', oid: 3217 }, clusterBox(c, 4, 1, 6000)));
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
      ['renton-ae-floodway', AE_FLOODWAY, 'Renton, WA: AE FLOODWAY (Cedar River)', mapped('AE', { subtype: 'FLOODWAY', sfha: true, risk: 'high' }),
        '1000 Houser Way N, Renton, WA 98057', '1000', 'Houser', 'Way N'],
      ['renton-x-shaded', X_SHADED, 'Renton, WA: X shaded (0.2 PCT ANNUAL CHANCE FLOOD HAZARD)',
        mapped('X', { subtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', sfha: false, risk: 'moderate' }),
        '200 Mill Ave S, Renton, WA 98057', '200', 'Mill', 'Ave S'],
      ['renton-x-unshaded', X_MINIMAL, 'Renton, WA: X unshaded (AREA OF MINIMAL FLOOD HAZARD)',
        mapped('X', { subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, risk: 'minimal' }),
        '1055 S Grady Way, Renton, WA 98057', '1055', 'Grady', 'Way'],
    ];
    entries.forEach(([id, attrs, description, zone, addr, number, streetName, suffix], col) => {
      const p = cell(c, col + 1); // col 0 is where the ambiguous "200 Main St" match sits
      b.zone([squareAround(p.lat, p.lon, ZONE_SIDE_M)], dfirm, attrs);
      seeds.push({ id, description, lat: p.lat, lon: p.lon, address: addr, zone });
      const [suffixType, suffixDirection] = suffix.split(' ');
      address([addr], [
        matchOf(p.lat, p.lon, {
          number, streetName, suffixType, suffixDirection, preDirection: id === 'renton-x-unshaded' ? 'S' : undefined,
          city: 'Renton', state: 'WA', zip: '98057', tigerLineId: `64416${col}177`,
        }),
      ]);
    });
    counties.push(countyRecord({ name: 'King County', basename: 'King', state: '53', county: '033', countyns: '01531933', oid: 3301 }, clusterBox(c, 4, 1, 15000)));
    zctas.push(zctaRecord('98057', 6101, clusterBox(c, 4, 1, 2000)));
  }

  // ----- Lampasas, TX: paper-only (a FIRM panel, no NFHL Availability or zones)
  {
    const lat = 31.064;
    const lon = -98.182;
    b.panel([squareAround(lat, lon, 4000)], {
      dfirm: '480426', stFips: '48', pcomm: '0426', panel: '0005', suffix: 'B', eff: utcDate('1991-07-02'),
      type: 'Community Based, Panel Printed',
    });
    seeds.push({ id: 'lampasas-paper-only', description: 'Lampasas, TX: paper FIRM panel 4804260005B only, no digital NFHL (unmapped, with the panel)',
      lat, lon, address: '400 S Live Oak St, Lampasas, TX 76550', zone: noZone('unmapped') });
    address(['400 S Live Oak St, Lampasas, TX 76550', '400 South Live Oak Street, Lampasas, TX 76550'], [
      matchOf(lat, lon, { number: '400', preDirection: 'S', streetName: 'Live Oak', suffixType: 'St', city: 'Lampasas', state: 'TX', zip: '76550', tigerLineId: '30114920' }),
    ]);
    const cb = squareAround(lat, lon, 30000);
    counties.push(countyRecord({ name: 'Lampasas County', basename: 'Lampasas', state: '48', county: '281', countyns: '01383926', oid: 3001 }, [cb[0][0], cb[0][1], cb[2][0], cb[2][1]]));
    const zb = squareAround(lat, lon, 6000);
    zctas.push(zctaRecord('76550', 2201, [zb[0][0], zb[0][1], zb[2][0], zb[2][1]]));
  }

  // ----- Mount Vernon, WA: no NFHL coverage at all
  {
    const lat = 48.42;
    const lon = -122.33;
    seeds.push({ id: 'mount-vernon-unmapped', description: 'Mount Vernon, WA (48.42, -122.33): nothing in any NFHL layer (unmapped, no panel)',
      lat, lon, address: '910 Cleveland Ave, Mount Vernon, WA 98273', zone: noZone('unmapped') });
    address(['910 Cleveland Ave, Mount Vernon, WA 98273', '910 Cleveland Avenue, Mount Vernon, WA 98273'], [
      matchOf(lat, lon, { number: '910', streetName: 'Cleveland', suffixType: 'Ave', city: 'Mount Vernon', state: 'WA', zip: '98273', tigerLineId: '650370188' }),
    ]);
    const cb = squareAround(lat, lon, 30000);
    counties.push(countyRecord({ name: 'Skagit County', basename: 'Skagit', state: '53', county: '057', countyns: '01529223', oid: 3302 }, [cb[0][0], cb[0][1], cb[2][0], cb[2][1]]));
    const zb = squareAround(lat, lon, 6000);
    zctas.push(zctaRecord('98273', 6201, [zb[0][0], zb[0][1], zb[2][0], zb[2][1]]));
  }

  // ----- Outside the US: the North Atlantic; every NFHL layer and every Census layer is empty
  seeds.push({ id: 'outside-us-atlantic', description: 'North Atlantic Ocean (35, -50): outside the US; no NFHL data, Census returns empty layers',
    lat: 35, lon: -50, zone: noZone('unmapped') });

  return {
    map: { nfhl: b.nfhl, census: { counties, zctas, states: stateRecords(), addresses } },
    seeds,
  };
}

// ---------------------------------------------------------------------------------------------
// Queries over the map (shared by both emulators and by the expectations below)
// ---------------------------------------------------------------------------------------------

export function featuresAt<T extends { rings: Ring[]; bbox: BBox }>(features: readonly T[], lon: number, lat: number): T[] {
  return features.filter((f) => polygonIntersectsPoint(f.rings, lon, lat, f.bbox));
}

function isoDay(ms: AttributeValue): string | null {
  if (typeof ms !== 'number' || ms === NFHL_NO_DATE) return null;
  return new Date(ms).toISOString().slice(0, 10);
}

function expectationFor(map: DemoMap, seed: PlaceSeed): DemoExpectation {
  const { lat, lon } = seed;
  const panels = featuresAt(map.nfhl.firmPanels, lon, lat);
  const panel = panels[0]?.attributes;
  const jur = featuresAt(map.nfhl.politicalJurisdictions, lon, lat)[0]?.attributes;
  const lomrs = featuresAt(map.nfhl.lomrs, lon, lat)
    .map((f) => f.attributes)
    .filter((a) => a.STATUS === 'Effective')
    .sort((a, b) => Number(b.EFF_DATE) - Number(a.EFF_DATE))
    .map((a) => ({ caseNumber: String(a.CASE_NO), effectiveDate: isoDay(a.EFF_DATE) }));
  const county = featuresAt(map.census.counties, lon, lat)[0]?.attributes;
  const zcta = featuresAt(map.census.zctas, lon, lat)[0]?.attributes;
  return {
    ...seed.zone,
    firmPanel: panel
      ? {
          panel: String(panel.FIRM_PAN),
          panelNumber: panel.PANEL as string,
          suffix: panel.SUFFIX as string,
          effectiveDate: isoDay(panel.EFF_DATE),
          panelType: panel.PANEL_TYP as string,
        }
      : null,
    community: jur ? { name: jur.POL_NAME1 as string, communityId: jur.CID as string } : null,
    lomrs,
    county: county ? String(county.NAME) : null,
    countyFips: county ? String(county.GEOID) : null,
    zcta: zcta ? String(zcta.ZCTA5) : null,
  };
}

const BUILT = buildAll();

/** The shared, read-only demo map (emulators never mutate it). */
export const DEMO_MAP: DemoMap = BUILT.map;

/** A fresh copy of the demo map (for tests that want to modify their own). */
export function buildDemoMap(): DemoMap {
  return buildAll().map;
}

/**
 * One point per coverage case. `expect` is what GET /flood-zone?lat=..&lon=.. should answer (CONTRACT.md),
 * and `address` (when present) geocodes to exactly this point through the Census emulator.
 */
export const DEMO_PLACES: readonly DemoPlace[] = BUILT.seeds.map((seed) => ({
  id: seed.id,
  description: seed.description,
  lat: seed.lat,
  lon: seed.lon,
  ...(seed.address ? { address: seed.address } : {}),
  expect: expectationFor(BUILT.map, seed),
}));

export function demoPlace(id: string): DemoPlace {
  const place = DEMO_PLACES.find((p) => p.id === id);
  if (!place) throw new Error(`unknown demo place ${id}`);
  return place;
}
