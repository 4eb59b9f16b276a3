/**
 * What a lookup's answer means, in the words the report page prints. Pure: no I/O, no clock, no locale (numbers
 * are written as the JSON answer writes them, dates as its YYYY-MM-DD). Nothing here ever turns "unknown" into
 * "none" or "low risk". An opt-in part's own words are in its folder (src/parts/<part>/<part>.words.ts).
 */
import type { Coverage, LomaStatus, RiskLevel } from '../flood-hazard/flood-hazard.types';
import { AnswerPart, OPTIONAL_PARTS } from '../parts/answer-parts';

/** The headline of the answer: the zone, or for a point without one, that its risk is unknown. */
export function zoneHeadline(coverage: Coverage, floodZone: string | null): string {
  if (coverage === 'unmapped') return 'No digital flood map here (unknown, not low risk)';
  if (coverage === 'mapped_no_zone' || floodZone === null) return 'No flood zone at this exact point (unknown, not low risk)';
  return `Zone ${floodZone}`;
}

export const RISK_WORDS: Record<RiskLevel, string> = {
  very_high: 'Very high risk: coastal, with waves',
  high: 'High risk',
  moderate: 'Moderate risk',
  minimal: 'Minimal risk: flooding can still happen',
  undetermined: 'Undetermined risk: not studied',
  unknown: 'Unknown risk',
};

/** Whether the point is in a Special Flood Hazard Area. */
export function sfhaAnswer(inSpecialFloodHazardArea: boolean | null): string {
  if (inSpecialFloodHazardArea === true) return 'Yes: in a Special Flood Hazard Area (SFHA)';
  if (inSpecialFloodHazardArea === false) return 'No: outside the Special Flood Hazard Area (SFHA)';
  return 'Unknown: FEMA gives no flood zone at this point';
}

/** FEMA's own LOMA status, as words. */
export const LOMA_STATUS_WORDS: Record<LomaStatus, string> = {
  valid: 'valid',
  denied: 'denied',
  incorporated: 'incorporated',
  superseded: 'superseded',
  contact_community: 'contact community',
  reevaluation_needed: 'reevaluation needed',
};

/** Where each part that may be missing comes from, as said within a sentence, to say which source did not answer (an opt-in part says it itself). */
const PART_SOURCES: Record<AnswerPart, string> = {
  community: "FEMA's map of NFIP communities",
  nfipStatus: "FEMA's Community Status Book (OpenFEMA)",
  lomrs: "FEMA's map of Letters of Map Revision",
  lomas: "FEMA's map of Letters of Map Amendment",
  estimatedBaseFloodElevation: "FEMA's base flood elevation lines",
  ...(Object.fromEntries(OPTIONAL_PARTS.map((part) => [part.field, part.comesFrom])) as Record<(typeof OPTIONAL_PARTS)[number]['field'], string>),
};

/** Said of a part whose source failed this time: unknown, never "none". */
export function couldNotBeChecked(part: AnswerPart): string {
  return `Could not be checked: ${PART_SOURCES[part]} did not answer this time. This is unknown, not "none"; retry shortly.`;
}
