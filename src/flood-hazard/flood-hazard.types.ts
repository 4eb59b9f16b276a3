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

export type Coverage = 'mapped' | 'mapped_no_zone' | 'unmapped';

export type RiskLevel = 'very_high' | 'high' | 'moderate' | 'minimal' | 'undetermined' | 'unknown';

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

export interface Lomr {
  caseNumber: string | null;
  effectiveDate: string | null;
}

/** The `result` object of a lookup (CONTRACT section 3): every field always present, `null` where it does not apply. */
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
  community: Community | null;
  lomrs: Lomr[] | null;
  zonesAtPoint: ZoneAtPoint[];
  femaMapUrl: string;
}

export interface GeoPoint {
  lat: number;
  lon: number;
}
