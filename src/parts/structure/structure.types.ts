/**
 * The building answer part (`include=structure`, `result.structure`): a building's footprint from FEMA/ORNL USA
 * Structures (or given by the caller), and the flood zones over the whole of it. Attribute names are the layer's own.
 */
import type { FirmPanelAttributes } from '../../flood-hazard/flood-hazard.types';

/** The NFHL polygons over a footprint are the flood-hazard feature's, which reads them. */
export type { FirmPanelPolygonFeature, FootprintLayers } from '../../flood-hazard/flood-hazard.types';

/** A [lon, lat] position (WGS84). */
export type LonLat = [number, number];

/**
 * A footprint in WGS84 lon/lat as GeoJSON has it: a Polygon (outer ring first, then its holes) or a MultiPolygon,
 * every ring closed (first position repeated last).
 */
export type Footprint = { type: 'Polygon'; coordinates: LonLat[][] } | { type: 'MultiPolygon'; coordinates: LonLat[][][] };

/** The USA Structures fields the service asks for. `-99999` is the layer's "no data"; PROP_ADDR and HEIGHT are often null. */
export interface StructureAttributes {
  BUILD_ID: number | string | null;
  OCC_CLS: string | null;
  PRIM_OCC: string | null;
  PROP_ADDR: string | null;
  PROP_CITY: string | null;
  PROP_ZIP: string | null;
  SQMETERS: number | null;
  HEIGHT: number | null;
  /** Epoch milliseconds (UTC), as ArcGIS gives a date field. */
  IMAGE_DATE: number | null;
  SOURCE: string | null;
  /** Marks an outbuilding (a shed, a garage); the data spells it many ways (Y/N, Yes/No, 1/0, true/false, blank, null). */
  OUTBLDG?: string | number | boolean | null;
  /** The 11-digit census tract the building lies in. */
  CENSUSCODE?: string | null;
  /** The 5-digit county FIPS code of the building. */
  FIPS?: string | null;
}

/** A building as USA Structures returned it: its attributes and its polygon (ArcGIS `rings`, [lon, lat], outSR 4326). */
export interface StructureFeature {
  attributes: StructureAttributes;
  rings: number[][][];
}

/** How the building was found. */
export type StructureMatch = 'contains' | 'address' | 'nearest' | 'chosen' | 'given' | 'none' | 'ambiguous';

/** A building near the point when none could be chosen (`ambiguous`, or `none` when those within reach stand across the street). */
export interface StructureCandidate {
  /** BUILD_ID; null when the layer gives none. */
  buildId: string | null;
  distanceM: number;
  address: string | null;
  /** Whether this building would be in the SFHA (the zones over its footprint); null when unknown. */
  buildingInSfha: boolean | null;
}

/** One flood zone over the footprint: polygons of one zone, subtype and BFE summed. */
export interface StructureZone {
  floodZone: string;
  zoneSubtype: string | null;
  inSpecialFloodHazardArea: boolean;
  staticBaseFloodElevationFt: number | null;
  /** Whole square feet of the footprint in this zone. */
  areaSqFt: number;
  /** Share of the footprint's area, one decimal. */
  sharePercent: number;
}

/** What the zones over a footprint say about the building (the pure rule's answer). */
export interface FootprintFloodZones {
  /** SFHA zones first, then by share, largest first. */
  zones: StructureZone[];
  /** 100 minus the entries' shares, never below 0, one decimal. */
  unmappedSharePercent: number;
  /** true: an SFHA zone has an entry; false: all entries non-SFHA and unmapped below 0.1 %; null otherwise (unknown, never "no"). */
  buildingInSfha: boolean | null;
  /** The highest static BFE among the SFHA entries, feet; null when none. */
  highestBfeFt: number | null;
  /** Every FIRM panel covering at least 0.1 m² of the footprint (FIRM_PAN + suffix), ordered by FIRM_PAN. */
  firmPanels: string[];
  /** The panel covering the largest share of the footprint; null when none. */
  governingPanel: FirmPanelAttributes | null;
}

/** `result.structure`. Every building field, `zones` and `buildingInSfha` are null when no building was chosen. */
export interface Structure {
  match: StructureMatch;
  distanceM: number | null;
  buildId: string | null;
  occupancy: string | null;
  primaryOccupancy: string | null;
  footprintAreaSqFt: number | null;
  heightM: number | null;
  /** YYYY-MM-DD (UTC). */
  imageDate: string | null;
  zones: StructureZone[] | null;
  unmappedSharePercent: number | null;
  buildingInSfha: boolean | null;
  highestBfeFt: number | null;
  firmPanels: string[] | null;
  candidates: StructureCandidate[];
  source: string | null;
  note: string;
  /** The footprint answered for (found or given), lon/lat; null when no building was chosen. Drawn on the map and report. */
  footprint: Footprint | null;
}
