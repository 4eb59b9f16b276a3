import type { Community, EstimatedBaseFloodElevation, FloodDetermination, Loma } from '../flood-hazard/flood-hazard.types';
import type { AnswerPart, OptionalFields } from '../parts/answer-parts';
import type { NfipStatus } from '../parts/nfip-status/nfip-status';

/** `result.community`: the NFIP community at the point, with its standing in the program joined at answer time. */
export interface CommunityWithNfip extends Community {
  /** Null when no Community Status Book could be had (then `nfipStatus` is unavailable). */
  nfip: Readonly<NfipStatus> | null;
}

/** The whole `result` of a lookup: the determination, the supplementary parts, and the opt-in parts `include` asked for. */
export interface FloodZoneResult extends Omit<FloodDetermination, 'community' | 'communitiesAtPoint'>, OptionalFields {
  community: CommunityWithNfip | null;
  /** Every NFIP community FEMA maps at the point, each with its standing; several where `community` cannot tell which is the point's. */
  communitiesAtPoint: CommunityWithNfip[] | null;
  /** FEMA's Map Service Center at the queried point (not the rounded one the determination is cached under). */
  femaMapUrl: string;
  /** LOMAs within LOMA_REACH_M, nearest first; null when their query failed. */
  lomas: Loma[] | null;
  estimatedBaseFloodElevation: EstimatedBaseFloodElevation | null;
  /** Parts whose query failed; [] when the answer is complete. */
  unavailable: AnswerPart[];
}

/** The GET /flood-zone answer (its fields are described in docs/api.md). */
export interface FloodZoneLookup {
  query: { address: string | null; lat: number | null; lon: number | null };
  location: {
    matchedAddress: string | null;
    lat: number;
    lon: number;
    county: string | null;
    countyFips: string | null;
    zip: string | null;
    source: 'census_geocoder' | 'coordinates';
  };
  result: FloodZoneResult;
  source: { floodData: string; floodService: string; geocoder: string };
  retrievedAt: string;
  disclaimer: string;
}

export const FLOOD_DATA_NAME = 'FEMA National Flood Hazard Layer (NFHL)';

export const DISCLAIMER =
  'Informational only: this is not an official flood determination, not an elevation certificate and not insurance advice. ' +
  'Flood maps change and may not reflect current conditions; verify at the FEMA Flood Map Service Center (msc.fema.gov) ' +
  'or with your local floodplain administrator.';
