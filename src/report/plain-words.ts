/**
 * What a lookup's answer means, in the words the report page prints. Pure: no I/O, no clock, no locale (numbers
 * are written as the JSON answer writes them, dates as its YYYY-MM-DD). Nothing here ever turns "unknown" into
 * "none" or "low risk".
 */
import type { CoastalBarrier, Coverage, LomaStatus, MapChange, RiskLevel } from '../flood-hazard/flood-hazard.types';
import type { FloodInsuranceFacts, FloodInsuranceRequirement, NfipStanding } from '../flood-hazard/flood-insurance-requirement';
import type { GroundElevationComparison } from '../parts/ground-elevation/ground-elevation';
import type { FloodZoneResult } from '../lookup/flood-zone-lookup';
import { AnswerPart, OPTIONAL_PARTS, OptionalField } from '../parts/answer-parts';

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

/**
 * What the lending rule needs from an answer. The Status Book as read does not tell the regular program from the
 * emergency one, so a participating community is only "participating"; a community that is missing or unknown leaves
 * the standing unknown.
 */
export function lendingFactsOf(result: FloodZoneResult): FloodInsuranceFacts {
  const nfip = result.community?.nfip;
  const standing: NfipStanding = !nfip
    ? 'unknown'
    : !nfip.listed
      ? 'not_listed'
      : nfip.participating === true
        ? 'participating'
        : nfip.participating === false
          ? 'not_participating'
          : 'unknown';
  const coastalBarrier = result.coastalBarrier ?? (result.unavailable.includes('coastalBarrier') ? 'unavailable' : 'not_asked');
  return { inSfha: result.inSpecialFloodHazardArea, nfip: standing, coastalBarrier };
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

export const MAP_CHANGE_WORDS: Record<MapChange['status'], string> = {
  pending: 'Pending map (adopted; it takes effect on a set date)',
  preliminary: 'Preliminary map (proposed, still open to appeal)',
  none: 'No preliminary or pending map here',
};

/** Said of a hazard or a change where FEMA has no digital map at the point: unknown, never "none". */
export const NO_DIGITAL_MAP = 'Unknown: no digital flood map here';

export const SFHA_CHANGE_WORDS: Record<MapChange['sfhaChange'], string> = {
  into_sfha: 'the point would move into the SFHA',
  out_of_sfha: 'the point would move out of the SFHA',
  unchanged: 'the SFHA status would not change',
  unknown: 'whether the SFHA status would change is unknown (a map has no zone at the point)',
};

export const COASTAL_BARRIER_WORDS: Record<CoastalBarrier['status'], string> = {
  inside: 'Inside a Coastal Barrier Resources System unit',
  buffer: 'In the buffer zone at the edge of a Coastal Barrier Resources System unit',
  outside: 'Outside the Coastal Barrier Resources System',
};

/** The ground against the base flood elevation, e.g. "7.3 ft below the static base flood elevation of 38 ft". */
export function groundAgainstBfe(comparison: GroundElevationComparison, uncertaintyFt: number | null): string {
  const bfe = `the ${comparison.bfe} BFE of ${comparison.bfeFt} ft`;
  const difference = Math.abs(comparison.differenceFt);
  const where = difference === 0 ? `at ${bfe}` : `${difference} ft ${comparison.differenceFt > 0 ? 'above' : 'below'} ${bfe}`;
  if (comparison.position !== 'within_uncertainty') return where;
  return uncertaintyFt === null ? `${where}, within the terrain model's uncertainty` : `${where}, within the terrain model's ${uncertaintyFt} ft uncertainty`;
}

/** Where each part that may be missing comes from, as said within a sentence, to say which source did not answer (an opt-in part says it itself). */
const PART_SOURCES: Record<AnswerPart, string> = {
  community: "FEMA's map of NFIP communities",
  nfipStatus: "FEMA's Community Status Book (OpenFEMA)",
  lomrs: "FEMA's map of Letters of Map Revision",
  lomas: "FEMA's map of Letters of Map Amendment",
  estimatedBaseFloodElevation: "FEMA's base flood elevation lines",
  ...(Object.fromEntries(OPTIONAL_PARTS.map((part) => [part.field, part.comesFrom])) as Record<OptionalField, string>),
};

/** Said of a part whose source failed this time: unknown, never "none". */
export function couldNotBeChecked(part: AnswerPart): string {
  return `Could not be checked: ${PART_SOURCES[part]} did not answer this time. This is unknown, not "none"; retry shortly.`;
}
