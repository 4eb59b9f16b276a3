/**
 * The NFHL data this service reads, as FEMA publishes it (attribute names are NFHL's own), and the
 * flood determination the service derives from it. Only the fields the service asks for are listed.
 */

/** Layer 28 "Flood Hazard Zones". Numbers use -9999 for "none"; texts use null, "", " ", "<Null>" or "-9999". */
export interface FloodHazardZoneAttributes {
  FLD_ZONE: string | null;
  ZONE_SUBTY: string | null;
  SFHA_TF: string | null;
  STATIC_BFE: number | null;
  DEPTH: number | null;
  V_DATUM: string | null;
  LEN_UNIT: string | null;
  DFIRM_ID?: string | null;
  FLD_AR_ID?: string | null;
}

/** Layer 3 "FIRM Panels". Dates are epoch milliseconds in UTC; 253392451200000 (9999-09-09) means "no date". */
export interface FirmPanelAttributes {
  FIRM_PAN: string | null;
  PANEL: string | null;
  SUFFIX: string | null;
  EFF_DATE: number | null;
  PANEL_TYP: string | null;
  DFIRM_ID?: string | null;
}

/** Layer 1 "LOMRs" (Letters of Map Revision). */
export interface LomrAttributes {
  CASE_NO: string | null;
  EFF_DATE: number | null;
  STATUS: string | null;
}

/** Layer 22 "Political Jurisdictions". */
export interface PoliticalJurisdictionAttributes {
  POL_NAME1: string | null;
  CID: string | null;
}

/** Everything NFHL said about one point. `null` for a supplementary layer means its query failed (unknown). */
export interface NfhlPointData {
  zones: FloodHazardZoneAttributes[];
  panels: FirmPanelAttributes[];
  lomrs: LomrAttributes[] | null;
  jurisdictions: PoliticalJurisdictionAttributes[] | null;
  /** Whether NFHL Availability (layer 0) covers the point; null when it was not asked (a zone polygon was found). */
  inAvailability: boolean | null;
}

/** Layer 34 "LOMAs" (a point layer). Dates are epoch ms (UTC). There is no CASE_NO or EFF_DATE here. */
export interface LomaAttributes {
  CASENUMBER: string | null;
  DATEENDED: number | null;
  OUTCOME: string | null;
  REVAL_STAT: string | null;
  PROJECTCATEGORY: string | null;
  LAT: number | null;
  LON: number | null;
}

/** A LOMA point as NFHL returned it: attributes plus its location (lon, lat; from the geometry or LAT/LON). */
export interface LomaFeature {
  attributes: LomaAttributes;
  lon: number;
  lat: number;
}

/** Layer 16 "Base Flood Elevations" (polylines). ELEV is whole feet as printed; -1 and 0 occur and are unusable. */
export interface BfeLineAttributes {
  ELEV: number | null;
  LEN_UNIT: string | null;
  V_DATUM: string | null;
  DFIRM_ID: string | null;
}

/** A BFE line with its geometry: ArcGIS `paths`, each a list of [lon, lat] (outSR 4326). */
export interface BfeLineFeature {
  attributes: BfeLineAttributes;
  paths: number[][][];
}

/** A Flood Hazard Zones polygon with its geometry: ArcGIS `rings`, each a list of [lon, lat] (outSR 4326). */
export interface ZonePolygonFeature {
  attributes: FloodHazardZoneAttributes;
  rings: number[][][];
}

/** A FIRM Panels (layer 3) polygon with its geometry. */
export interface FirmPanelPolygonFeature {
  attributes: FirmPanelAttributes;
  rings: number[][][];
}

/** Every Flood Hazard Zones and FIRM Panels polygon intersecting a footprint's envelope, with exact geometry. */
export interface FootprintLayers {
  zones: ZonePolygonFeature[];
  panels: FirmPanelPolygonFeature[];
}

/** A polygon of an NFHL layer with its geometry: ArcGIS `rings`, each a list of [lon, lat] (outSR 4326). */
export interface PolygonFeature<A> {
  attributes: A;
  rings: number[][][];
}

/**
 * Where a building stands on FEMA's map, for the lender's form: every political jurisdiction and LOMR polygon
 * intersecting its footprint's envelope, with exact geometry, and the LOMAs around it when they were asked for. Each is
 * null when its query failed.
 */
export interface FootprintSurroundings {
  jurisdictions: Array<PolygonFeature<PoliticalJurisdictionAttributes>> | null;
  lomrs: Array<PolygonFeature<LomrAttributes>> | null;
  /** Absent when not asked for. */
  lomas?: LomaFeature[] | null;
}

/** Preliminary / pending "… Availability" layer (FEMA's PrelimPending services). */
export interface MapChangeAvailabilityAttributes {
  DFIRM_ID: string | null;
  PRELM_ISSUE_DATE: number | null;
}

/** What one of FEMA's coming maps (preliminary or pending) says at a point; zones as layer 28. */
export interface MapChangeMapData {
  availability: MapChangeAvailabilityAttributes[];
  zones: FloodHazardZoneAttributes[];
}

/** USFWS "CBRS Prohibitions". `FI_Date` arrives as epoch ms or as a date string. */
export interface CbrsProhibitionAttributes {
  Unit: string | null;
  CBRS_Type: string | null;
  FI_Date: number | string | null;
}

export const COVERAGES = ['mapped', 'mapped_no_zone', 'unmapped'] as const;
export type Coverage = (typeof COVERAGES)[number];

export const RISK_LEVELS = ['very_high', 'high', 'moderate', 'minimal', 'undetermined', 'unknown'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export interface ZoneAtPoint {
  floodZone: string;
  zoneSubtype: string | null;
  inSpecialFloodHazardArea: boolean | null;
  staticBaseFloodElevationFt: number | null;
}

export interface FirmPanel {
  panel: string;
  panelNumber: string | null;
  suffix: string | null;
  effectiveDate: string | null;
  panelType: string | null;
}

export interface Community {
  name: string | null;
  communityId: string | null;
}

/**
 * Several NFIP communities FEMA maps at one place (a point on their shared boundary, jurisdictions overlapping in
 * FEMA's data, a building split evenly between them), none of which can be told to be the place's own: each once, as
 * FEMA listed them. Which one it is, the floodplain administrator or a determination company decides.
 */
export interface AmbiguousCommunity {
  ambiguousAmong: Community[];
}

export interface Lomr {
  caseNumber: string | null;
  effectiveDate: string | null;
}

export type LomaStatus = 'valid' | 'denied' | 'incorporated' | 'superseded' | 'contact_community' | 'reevaluation_needed';

/** A Letter of Map Amendment near the point (`result.lomas`). */
export interface Loma {
  caseNumber: string | null;
  effectiveDate: string | null;
  status: LomaStatus;
  outcome: string | null;
  category: string | null;
  distanceM: number;
}

/** A BFE estimated from the BFE lines around the point (`result.estimatedBaseFloodElevation`). */
export interface EstimatedBaseFloodElevation {
  elevationFt: number;
  verticalDatum: string | null;
  method: 'interpolated' | 'nearest_line';
  lines: Array<{ elevationFt: number; distanceM: number }>;
  note: string;
}

/** `include=nearby`: the nearest hazard of one kind. */
export interface NearbyHazard {
  distanceM: number;
  floodZone: string;
  zoneSubtype: string | null;
  staticBaseFloodElevationFt: number | null;
}

/** The nearest hazards of each kind found on FEMA's digital map around the point (null: none found within the radius). */
export interface NearbyHazardsFound {
  radiusM: number;
  sfha: NearbyHazard | null;
  floodway: NearbyHazard | null;
  moderate: NearbyHazard | null;
}

/** `result.nearby`: what was found, and what a null entry means at this point (none, or unknown where there is no digital map). */
export interface NearbyHazards extends NearbyHazardsFound {
  note: string;
}

/** `include=preliminary`: what the coming map says at the point (`result.mapChange`). */
export interface MapChange {
  status: 'pending' | 'preliminary' | 'none';
  issuedDate: string | null;
  floodZone: string | null;
  zoneSubtype: string | null;
  inSpecialFloodHazardArea: boolean | null;
  staticBaseFloodElevationFt: number | null;
  sfhaChange: 'into_sfha' | 'out_of_sfha' | 'unchanged' | 'unknown';
  note: string;
}

/** `include=cbrs`: the point's Coastal Barrier Resources System status (`result.coastalBarrier`). */
export interface CoastalBarrier {
  status: 'inside' | 'buffer' | 'outside';
  unit: string | null;
  type: string | null;
  floodInsuranceProhibitionDate: string | null;
  note: string;
}

/** The `result` object of a lookup: every field always present, `null` where it does not apply. */
export interface FloodDetermination {
  coverage: Coverage;
  isMapped: boolean;
  floodZone: string | null;
  zoneSubtype: string | null;
  isFloodway: boolean | null;
  inSpecialFloodHazardArea: boolean | null;
  riskLevel: RiskLevel;
  staticBaseFloodElevationFt: number | null;
  verticalDatum: string | null;
  depthFt: number | null;
  meaning: string;
  guidance: string | null;
  firmPanel: FirmPanel | null;
  /** The NFIP community at the point; null when FEMA maps none there, several (see `communitiesAtPoint`), or its query failed. */
  community: Community | null;
  /** Every NFIP community FEMA maps at the point, each once, in FEMA's order; null when its query failed. */
  communitiesAtPoint: Community[] | null;
  lomrs: Lomr[] | null;
  zonesAtPoint: ZoneAtPoint[];
}

/** The flood answers' point is the one the upstream plumbing uses. */
export type { GeoPoint } from '../common/geo-point';
