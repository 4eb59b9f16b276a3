/**
 * Flood classification rules: turn what NFHL says about one point into the service's flood
 * determination (the rules are listed in docs/api.md). Pure functions only: no I/O, no clock, no locale.
 */
import {
  Community,
  Coverage,
  FirmPanel,
  FirmPanelAttributes,
  FloodDetermination,
  FloodHazardZoneAttributes,
  GeoPoint,
  Lomr,
  LomrAttributes,
  NfhlPointData,
  PoliticalJurisdictionAttributes,
  RiskLevel,
  ZoneAtPoint,
} from './flood-hazard.types';
import { compareDescendingNullsLast, formatNfhlDate, lengthInFeet, nfhlEpochMs, nfhlText } from './nfhl-values';

/** Flood zone codes that classify a point. Anything else in FLD_ZONE is not a zone. */
export type FloodZoneCode = 'V' | 'VE' | 'A' | 'AE' | 'AH' | 'AO' | 'AR' | 'A99' | 'X' | 'B' | 'C' | 'D';

/** FLD_ZONE values that are polygons of the map but say nothing about flood risk. */
export type NonZoneCode = 'OPEN WATER' | 'AREA NOT INCLUDED';

const FLOOD_ZONE_CODES: ReadonlySet<string> = new Set<FloodZoneCode>(['V', 'VE', 'A', 'AE', 'AH', 'AO', 'AR', 'A99', 'X', 'B', 'C', 'D']);
const NON_ZONE_CODES: ReadonlySet<string> = new Set<NonZoneCode>(['OPEN WATER', 'AREA NOT INCLUDED']);

/**
 * Severity classes, each with its rank (0 = most severe). Classes sharing a rank are equally severe;
 * ties are then broken by higher static BFE, then higher depth, then the order NFHL returned them.
 */
export const ZONE_SEVERITY = {
  VE: 0,
  V: 1,
  /** AE or A whose subtype is a floodway: the channel itself, where development is restricted. */
  A_FLOODWAY: 2,
  AE: 3,
  AH: 4,
  AO: 5,
  A: 6,
  AR: 7,
  A99: 8,
  X_SHADED: 9,
  B: 9,
  D: 10,
  X_UNSHADED: 11,
  C: 11,
  OPEN_WATER: 12,
  AREA_NOT_INCLUDED: 12,
} as const;

export type ZoneSeverityClass = keyof typeof ZONE_SEVERITY;

/** The classification of one zone polygon at the point. */
export interface ZoneClassification {
  /** Normalised FLD_ZONE (trimmed, upper case). */
  floodZone: FloodZoneCode;
  /** ZONE_SUBTY as published (trimmed), or null when NFHL left it empty. */
  zoneSubtype: string | null;
  severityClass: ZoneSeverityClass;
  /** Index into ZONE_SEVERITY order; lower is more severe. */
  severityRank: number;
  inSpecialFloodHazardArea: boolean;
  riskLevel: Exclude<RiskLevel, 'unknown'>;
  isFloodway: boolean;
  meaning: string;
  staticBaseFloodElevationFt: number | null;
  depthFt: number | null;
  verticalDatum: string | null;
}

/** FEMA Flood Map Service Center search for the point, for the user to verify the answer. */
export function femaMapUrl(point: GeoPoint): string {
  return `https://msc.fema.gov/portal/search?AddressQuery=${String(point.lat)}%2C${String(point.lon)}`;
}

/** FLD_ZONE trimmed, upper-cased and with inner whitespace collapsed, or null when empty. */
function normaliseZoneCode(value: string | null | undefined): string | null {
  const text = nfhlText(value);
  return text === null ? null : text.toUpperCase().replace(/\s+/g, ' ');
}

function isFloodwaySubtype(subtype: string | null): boolean {
  return subtype !== null && subtype.toUpperCase().includes('FLOODWAY');
}

/**
 * Whether an X polygon is shaded X (moderate risk). The shaded subtypes name the 0.2% or 1% chance
 * flood or a levee. Unshaded is only "AREA OF MINIMAL FLOOD HAZARD" or no subtype. Any other subtype
 * text on an X polygon is read as shaded: calling an unknown area "minimal" would understate the risk,
 * which is the worse mistake for a flood service.
 */
function isShadedX(subtype: string | null): boolean {
  if (subtype === null) return false;
  const text = subtype.toUpperCase().replace(/\s+/g, ' ');
  if (text.includes('0.2 PCT') || text.includes('0.2PCT') || text.includes('1 PCT') || text.includes('LEVEE')) return true;
  return text !== 'AREA OF MINIMAL FLOOD HAZARD';
}

// ---------------------------------------------------------------------------------------------
// Zone classification
// ---------------------------------------------------------------------------------------------

const FLOODWAY_NOTE = ' The point is in the regulatory floodway, where development is restricted.';

const HIGH_RISK = 'High-risk area (1% annual chance flood)';
const COASTAL_HIGH_RISK = 'Very-high-risk coastal area: a coastal high-hazard area with a 1% annual chance flood and additional hazards from storm waves';

/** Shaded X and the older B zone mean the same. */
const MODERATE_RISK =
  'Moderate-risk area: 0.2% annual chance flood, or 1% annual chance flood with average depths under 1 foot, or reduced risk behind a levee. Outside the Special Flood Hazard Area, but flooding can happen.';
/** Unshaded X and the older C zone mean the same. */
const MINIMAL_RISK = 'Minimal-risk area: minimal flood hazard, outside the 1% and 0.2% annual chance floodplains. Flooding can still happen.';

/** Plain-language meaning per zone, in the service's own words; each starts with the risk. Never says "safe". */
const ZONE_MEANING: Record<ZoneKind, string> = {
  VE: `${COASTAL_HIGH_RISK}; a base flood elevation has been determined.`,
  V: `${COASTAL_HIGH_RISK}; no base flood elevation has been determined.`,
  AE: `${HIGH_RISK} with a base flood elevation determined.`,
  AH: `${HIGH_RISK} of shallow flooding, usually ponding, with a base flood elevation determined.`,
  AO: `${HIGH_RISK} of shallow sheet-flow flooding, usually on slopes, given as a flood depth instead of a base flood elevation.`,
  A: `${HIGH_RISK}; no base flood elevation has been determined.`,
  AR: `${HIGH_RISK} where a flood-control levee is being restored to give protection again.`,
  A99: `${HIGH_RISK} that will be protected by a federal flood-control levee still under construction.`,
  X_SHADED: MODERATE_RISK,
  B: MODERATE_RISK,
  D: 'Undetermined risk: possible but undetermined flood hazard; the area has not been studied.',
  X_UNSHADED: MINIMAL_RISK,
  C: MINIMAL_RISK,
};

/** Meaning when no flood zone applies (mapped_no_zone, unmapped). */
const UNKNOWN_MEANING =
  'Unknown flood risk: FEMA gives no flood zone for this exact point, so the flood hazard here is unknown. This is not the same as "not in a flood zone".';

const RISK_BY_ZONE: Record<FloodZoneCode, { sfha: boolean; risk: Exclude<RiskLevel, 'unknown'> }> = {
  V: { sfha: true, risk: 'very_high' },
  VE: { sfha: true, risk: 'very_high' },
  A: { sfha: true, risk: 'high' },
  AE: { sfha: true, risk: 'high' },
  AH: { sfha: true, risk: 'high' },
  AO: { sfha: true, risk: 'high' },
  AR: { sfha: true, risk: 'high' },
  A99: { sfha: true, risk: 'high' },
  X: { sfha: false, risk: 'moderate' }, // minimal when unshaded, see classifyZone
  B: { sfha: false, risk: 'moderate' },
  C: { sfha: false, risk: 'minimal' },
  D: { sfha: false, risk: 'undetermined' },
};

/** A zone code with X split into shaded and unshaded: what the meaning and risk depend on. */
type ZoneKind = Exclude<FloodZoneCode, 'X'> | 'X_SHADED' | 'X_UNSHADED';

function zoneKindOf(zone: FloodZoneCode, subtype: string | null): ZoneKind {
  if (zone === 'X') return isShadedX(subtype) ? 'X_SHADED' : 'X_UNSHADED';
  return zone;
}

/**
 * Classify one Flood Hazard Zones polygon. Returns null when FLD_ZONE is not a flood zone
 * (OPEN WATER, AREA NOT INCLUDED, blank or unknown codes). SFHA follows the zone code, which
 * defines an SFHA, never SFHA_TF (a few published rows contradict their own zone).
 */
export function classifyZone(zone: FloodHazardZoneAttributes): ZoneClassification | null {
  const code = normaliseZoneCode(zone.FLD_ZONE);
  if (code === null || !FLOOD_ZONE_CODES.has(code)) return null;
  const floodZone = code as FloodZoneCode;
  const zoneSubtype = nfhlText(zone.ZONE_SUBTY);
  const zoneKind = zoneKindOf(floodZone, zoneSubtype);
  const isFloodway = isFloodwaySubtype(zoneSubtype);
  const severityClass: ZoneSeverityClass = (floodZone === 'AE' || floodZone === 'A') && isFloodway ? 'A_FLOODWAY' : zoneKind;
  const riskLevel = zoneKind === 'X_UNSHADED' ? 'minimal' : RISK_BY_ZONE[floodZone].risk;
  // A floodway subtype refines the zone's meaning rather than replacing it.
  const meaning = isFloodway ? `${ZONE_MEANING[zoneKind]}${FLOODWAY_NOTE}` : ZONE_MEANING[zoneKind];

  return {
    floodZone,
    zoneSubtype,
    severityClass,
    severityRank: ZONE_SEVERITY[severityClass],
    inSpecialFloodHazardArea: RISK_BY_ZONE[floodZone].sfha,
    riskLevel,
    isFloodway,
    meaning,
    staticBaseFloodElevationFt: lengthInFeet(zone.STATIC_BFE, zone.LEN_UNIT),
    depthFt: lengthInFeet(zone.DEPTH, zone.LEN_UNIT),
    verticalDatum: nfhlText(zone.V_DATUM),
  };
}

/** A zone as an answer names it (at the point, nearby or over a building's footprint): FLD_ZONE and ZONE_SUBTY as published. */
export interface NamedZone {
  floodZone: string;
  zoneSubtype: string | null;
}

/** A zone an answer names, classified by the same rules as a polygon at the point; null when it is not a flood zone. */
export function classifyNamedZone(zone: NamedZone): ZoneClassification | null {
  return classifyZone({ FLD_ZONE: zone.floodZone, ZONE_SUBTY: zone.zoneSubtype, SFHA_TF: null, STATIC_BFE: null, DEPTH: null, V_DATUM: null, LEN_UNIT: null });
}

/** The zone's short name, as the picture's legend and the headlines give it: the code, with "floodway", or X's "shaded"/"unshaded". */
export function zoneDesignation(zone: NamedZone): string {
  const classified = classifyNamedZone(zone);
  if (classified === null) return zone.floodZone;
  if (classified.isFloodway) return `${classified.floodZone} floodway`;
  if (classified.severityClass === 'X_SHADED') return 'X shaded';
  if (classified.severityClass === 'X_UNSHADED') return 'X unshaded';
  return classified.floodZone;
}

/** What orders zone polygons from the most severe: the severity class, then the higher static BFE, then the higher depth. */
export type ZoneSeverity = Pick<ZoneClassification, 'severityRank' | 'staticBaseFloodElevationFt' | 'depthFt'>;

/** Sort order for "most severe first" (ZONE_SEVERITY, then higher static BFE, then higher depth); 0 for equally severe. */
export function moreSevereFirst(a: ZoneSeverity, b: ZoneSeverity): number {
  return (
    a.severityRank - b.severityRank ||
    compareDescendingNullsLast(a.staticBaseFloodElevationFt, b.staticBaseFloodElevationFt) ||
    compareDescendingNullsLast(a.depthFt, b.depthFt)
  );
}

/** A polygon at the point, as far as ordering and zonesAtPoint are concerned. */
interface RankedPolygon {
  entry: ZoneAtPoint;
  severity: ZoneSeverity;
  order: number;
  zone: ZoneClassification | null;
  attributes: FloodHazardZoneAttributes;
}

/** The polygon that governs a point: its classification and the attributes NFHL published for it. */
export interface GoverningZone {
  zone: ZoneClassification;
  attributes: FloodHazardZoneAttributes;
}

function rankPolygons(zones: FloodHazardZoneAttributes[]): RankedPolygon[] {
  const ranked: RankedPolygon[] = [];
  zones.forEach((attributes, order) => {
    const zone = classifyZone(attributes);
    if (zone) {
      ranked.push({
        entry: {
          floodZone: zone.floodZone,
          zoneSubtype: zone.zoneSubtype,
          inSpecialFloodHazardArea: zone.inSpecialFloodHazardArea,
          staticBaseFloodElevationFt: zone.staticBaseFloodElevationFt,
        },
        severity: zone,
        order,
        zone,
        attributes,
      });
      return;
    }
    const code = normaliseZoneCode(attributes.FLD_ZONE);
    if (code !== null && NON_ZONE_CODES.has(code)) {
      // Listed so the client sees why there is no zone; they carry no flood information.
      ranked.push({
        entry: {
          floodZone: code,
          zoneSubtype: nfhlText(attributes.ZONE_SUBTY),
          inSpecialFloodHazardArea: null,
          staticBaseFloodElevationFt: null,
        },
        severity: {
          severityRank: code === 'OPEN WATER' ? ZONE_SEVERITY.OPEN_WATER : ZONE_SEVERITY.AREA_NOT_INCLUDED,
          staticBaseFloodElevationFt: null,
          depthFt: null,
        },
        order,
        zone: null,
        attributes,
      });
    }
  });
  return ranked.sort((a, b) => moreSevereFirst(a.severity, b.severity) || a.order - b.order);
}

function governingOf(ranked: RankedPolygon[]): GoverningZone | null {
  const governing = ranked.find((polygon) => polygon.zone !== null);
  return governing?.zone ? { zone: governing.zone, attributes: governing.attributes } : null;
}

/**
 * The most severe classified polygon among those at a point (the v1 ranking), or null when none has a
 * real zone. Its attributes carry what the determination does not show, such as DFIRM_ID.
 */
export function governingZone(zones: FloodHazardZoneAttributes[]): GoverningZone | null {
  return governingOf(rankPolygons(zones));
}

function distinctZonesAtPoint(ranked: RankedPolygon[]): ZoneAtPoint[] {
  const seen = new Set<string>();
  const result: ZoneAtPoint[] = [];
  for (const { entry } of ranked) {
    const key = JSON.stringify([entry.floodZone, entry.zoneSubtype, entry.inSpecialFloodHazardArea, entry.staticBaseFloodElevationFt]);
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(entry);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Panels, community, LOMRs
// ---------------------------------------------------------------------------------------------

/** A FIRM panel as the answer names it (FIRM_PAN, with its number and suffix letter), or null when FIRM_PAN is empty. */
export function toFirmPanel(attributes: FirmPanelAttributes): FirmPanel | null {
  const panel = nfhlText(attributes.FIRM_PAN);
  if (panel === null) return null;
  // FIRM_PAN is 11 characters: 6 of DFIRM id, 4 of panel number, 1 suffix letter (72000C0330J).
  const derivedNumber = panel.length === 11 ? panel.slice(6, 10) : null;
  const derivedSuffix = /[A-Z]$/i.test(panel) ? panel.slice(-1) : null;
  return {
    panel,
    panelNumber: nfhlText(attributes.PANEL) ?? derivedNumber,
    suffix: nfhlText(attributes.SUFFIX) ?? derivedSuffix,
    effectiveDate: formatNfhlDate(attributes.EFF_DATE),
    panelType: nfhlText(attributes.PANEL_TYP),
  };
}

/** The panel in effect at the point: on a panel edge, the most recently effective one. */
function selectFirmPanel(panels: FirmPanelAttributes[]): FirmPanel | null {
  const candidates = panels
    .map((attributes, order) => ({ attributes, order, effective: nfhlEpochMs(attributes.EFF_DATE) }))
    .filter(({ attributes }) => nfhlText(attributes.FIRM_PAN) !== null)
    .sort((a, b) => compareDescendingNullsLast(a.effective, b.effective) || a.order - b.order);
  return candidates.length > 0 ? toFirmPanel(candidates[0].attributes) : null;
}

/** The NFIP community of a political jurisdiction. */
export function communityOf(jurisdiction: PoliticalJurisdictionAttributes): Community {
  return { name: nfhlText(jurisdiction.POL_NAME1), communityId: nfhlText(jurisdiction.CID) };
}

/** What tells one community from another: its community id, else its name (FEMA may keep one community in several polygons). */
export function communityKey({ name, communityId }: Community): string {
  return JSON.stringify(communityId === null ? [null, name] : [communityId]);
}

/** The NFIP communities of the political jurisdictions given, each once, in the order given; null when their query failed. */
export function communitiesOf(jurisdictions: readonly PoliticalJurisdictionAttributes[] | null): Community[] | null {
  // null = the query failed: unknown, so no guess.
  if (jurisdictions === null) return null;
  const byKey = new Map<string, Community>();
  for (const community of jurisdictions.map(communityOf)) if (!byKey.has(communityKey(community))) byKey.set(communityKey(community), community);
  return [...byKey.values()];
}

/**
 * The community at a point: the one FEMA maps there. Where FEMA maps several (the point on their shared boundary, or
 * in an overlap of their polygons), none is the point's: FEMA's point query gives no geometry to tell them apart, and
 * where the held polygons could (a point well inside them all) it lies in an overlap, in both. Null then, as when
 * there is none or the query failed.
 */
export function soleCommunity(communities: readonly Community[] | null): Community | null {
  return communities?.length === 1 ? communities[0] : null;
}

/** The effective LOMRs among those given, newest first, each case once; null when their query failed. */
export function toLomrs(lomrs: LomrAttributes[] | null): Lomr[] | null {
  // null = the query failed: unknown, never [] (which would claim there are none).
  if (lomrs === null) return null;
  const effective = lomrs
    .filter((lomr) => nfhlText(lomr.STATUS)?.toLowerCase() === 'effective')
    .map((lomr, order) => ({ lomr, order, effective: nfhlEpochMs(lomr.EFF_DATE) }))
    .sort((a, b) => compareDescendingNullsLast(a.effective, b.effective) || a.order - b.order);
  const seen = new Set<string | null>();
  const result: Lomr[] = [];
  for (const { lomr } of effective) {
    const caseNumber = nfhlText(lomr.CASE_NO);
    if (seen.has(caseNumber)) continue;
    seen.add(caseNumber);
    result.push({ caseNumber, effectiveDate: formatNfhlDate(lomr.EFF_DATE) });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The determination
// ---------------------------------------------------------------------------------------------

function noZoneGuidance(coverage: Exclude<Coverage, 'mapped'>, firmPanel: FirmPanel | null): string {
  if (coverage === 'mapped_no_zone') {
    return (
      "FEMA's flood map covers this area, but no flood-zone polygon contains this exact point " +
      '(open water, an area not included in the map, or a seam between map polygons), so this result is not safe to rely on. ' +
      'Move the point slightly (for example onto the building) or check the FEMA Flood Map Service Center (msc.fema.gov).'
    );
  }
  const base = 'FEMA has no digital flood map (NFHL) for this location, so the flood risk here is unknown, not absent.';
  if (firmPanel) {
    return (
      `${base} The area may be mapped on a paper FIRM (panel ${firmPanel.panel}): ` +
      'check the FEMA Flood Map Service Center (msc.fema.gov) or the local floodplain administrator.'
    );
  }
  return `${base} Check the FEMA Flood Map Service Center (msc.fema.gov) or the local floodplain administrator.`;
}

/**
 * The flood determination (`result` of a lookup) for one point from everything NFHL said about it.
 * The most severe zone polygon governs; no zone never means zone X.
 */
export function determineFloodHazard(data: NfhlPointData): FloodDetermination {
  const ranked = rankPolygons(data.zones);
  const governing = governingOf(ranked)?.zone ?? null;
  const zonesAtPoint = distinctZonesAtPoint(ranked);
  const firmPanel = selectFirmPanel(data.panels);
  const communitiesAtPoint = communitiesOf(data.jurisdictions);
  const shared = {
    firmPanel,
    community: soleCommunity(communitiesAtPoint),
    communitiesAtPoint,
    lomrs: toLomrs(data.lomrs),
    zonesAtPoint,
  };

  if (governing) {
    return {
      coverage: 'mapped',
      isMapped: true,
      floodZone: governing.floodZone,
      zoneSubtype: governing.zoneSubtype,
      isFloodway: governing.isFloodway,
      inSpecialFloodHazardArea: governing.inSpecialFloodHazardArea,
      riskLevel: governing.riskLevel,
      staticBaseFloodElevationFt: governing.staticBaseFloodElevationFt,
      verticalDatum: governing.verticalDatum,
      depthFt: governing.depthFt,
      meaning: governing.meaning,
      guidance: null,
      ...shared,
    };
  }

  // Any Flood Hazard Zones polygon at all (OPEN WATER, AREA NOT INCLUDED, or an unreadable code)
  // shows the point lies inside FEMA's digital map, even when availability was not asked.
  const coverage: Exclude<Coverage, 'mapped'> = data.inAvailability === true || data.zones.length > 0 ? 'mapped_no_zone' : 'unmapped';
  return {
    coverage,
    isMapped: coverage !== 'unmapped',
    floodZone: null,
    zoneSubtype: null,
    isFloodway: null,
    inSpecialFloodHazardArea: null,
    riskLevel: 'unknown',
    staticBaseFloodElevationFt: null,
    verticalDatum: null,
    depthFt: null,
    meaning: UNKNOWN_MEANING,
    guidance: noZoneGuidance(coverage, firmPanel),
    ...shared,
  };
}
