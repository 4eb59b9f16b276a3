/**
 * What a lookup's answer means, in the words the report page prints. Pure: no I/O, no clock, no locale (numbers
 * are written as the JSON answer writes them, dates as its YYYY-MM-DD). Nothing here ever turns "unknown" into
 * "none" or "low risk". An opt-in part's own words are in its folder (src/parts/<part>/<part>.words.ts).
 */
import type { Coverage, LomaStatus, RiskLevel } from '../flood-hazard/flood-hazard.types';
import type { FloodZoneResult } from '../lookup/flood-zone-lookup';
import { AnswerPart, OPTIONAL_PARTS } from '../parts/answer-parts';
import { FloodInsuranceFacts, FloodInsuranceRequirement, nfipStandingOf } from '../parts/determination/determination';

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

/** What the lending rule needs from an answer: the point's SFHA, the community's standing and the coastal barrier. */
export function lendingFactsOf(result: FloodZoneResult): FloodInsuranceFacts {
  const community = result.community;
  const coastalBarrier = result.coastalBarrier ?? (result.unavailable.includes('coastalBarrier') ? 'unavailable' : 'not_asked');
  // A community whose standing is null is one the book could not be had for; no community at all leaves it unknown.
  const nfip = community === null ? null : (community.nfip ?? 'unavailable');
  return { inSfha: result.inSpecialFloodHazardArea, sfhaBasis: 'point', nfip: nfipStandingOf(nfip), coastalBarrier };
}

/** Whether federal flood insurance can be bought here, in a few words, the coastal barrier included. */
export function insuranceAvailabilityWords({ insurance }: FloodInsuranceRequirement, coastalBarrierFailed: boolean): string {
  switch (insurance.reason) {
    case 'participating':
      return 'Available: the community participates';
    case 'not_participating':
      return 'Not available: the community does not participate';
    case 'not_listed':
      return "Unknown: the community is not in FEMA's Community Status Book";
    case 'nfip_status_unknown':
      return 'Unknown: whether the community participates is not known';
    case 'coastal_barrier': {
      const barrier = insurance.coastalBarrier;
      return (
        `Only for some buildings: the point is inside Coastal Barrier Resources System unit ${barrier?.unit ?? '(unnamed)'}, where it is available ` +
        `only for a building built before ${barrier?.designationDate ?? 'the unit was designated'} and not substantially improved since`
      );
    }
    case 'coastal_barrier_unknown':
      return `Unknown: the community participates, but whether the point is in a coastal barrier unit ${coastalBarrierFailed ? 'could not be checked' : 'was not checked'}`;
  }
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
