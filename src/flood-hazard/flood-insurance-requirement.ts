/**
 * Whether federal flood insurance (NFIP) can be bought at a place, and whether a federally regulated or insured
 * lender must require it (the mandatory purchase requirement of the Flood Disaster Protection Act of 1973), from
 * three facts: the Special Flood Hazard Area, the community's standing in the NFIP, and the Coastal Barrier
 * Resources System. The requirement applies only where a policy can be bought: where the community does not
 * participate, the lender's duty is a notice, not a purchase. Pure: no I/O, no clock, no locale. An unknown input
 * stays unknown in every answer that depends on it; it never turns into a guess.
 */
import type { CoastalBarrier } from './flood-hazard.types';

/** The community's standing in the NFIP, as FEMA's Community Status Book gives it. */
export type NfipStanding =
  /** Participating in the regular program (the community has a FIRM). */
  | 'regular'
  /** Participating in the emergency program (no FIRM yet: limited coverage). */
  | 'emergency'
  /** Participating, in a program the data at hand does not name. */
  | 'participating'
  | 'not_participating'
  /** The Status Book does not list the community. */
  | 'not_listed'
  /** The Status Book could not be read, does not say, or there is no community to look up. */
  | 'unknown';

/** The point's Coastal Barrier Resources System status; `unavailable` when it could not be checked, `not_asked` when it was not. */
export type CoastalBarrierStanding = Pick<CoastalBarrier, 'status' | 'unit' | 'type' | 'floodInsuranceProhibitionDate'> | 'unavailable' | 'not_asked';

/** Why federal flood insurance is, is not, or may not be available. */
export type InsuranceReason =
  | 'participating'
  | 'not_participating'
  | 'not_listed'
  | 'nfip_status_unknown'
  /** Inside a CBRS unit or OPA: it depends on when the building was built or substantially improved. */
  | 'coastal_barrier'
  /** The community participates, but the coastal barrier status could not be checked or was not asked. */
  | 'coastal_barrier_unknown';

export interface FloodInsuranceFacts {
  /** Whether the building (or the point) is in the SFHA; null when unknown (no digital map, no zone). */
  inSfha: boolean | null;
  nfip: NfipStanding;
  coastalBarrier: CoastalBarrierStanding;
}

export interface FloodInsuranceRequirement {
  insurance: {
    /** Whether an NFIP policy can be bought; null when it cannot be told. */
    available: boolean | null;
    reason: InsuranceReason;
    program: 'regular' | 'emergency' | null;
    /** The CBRS unit or OPA the point is inside; null elsewhere. */
    coastalBarrier: { unit: string | null; type: string | null; designationDate: string | null } | null;
  };
  /** True exactly where the point is in the SFHA and insurance is available; false outside it, or where no policy can be bought. */
  floodInsuranceRequired: boolean | null;
  /** One plain sentence per fact that changes what a lender must do. */
  notes: string[];
}

const PARTICIPATING: ReadonlySet<NfipStanding> = new Set(['regular', 'emergency', 'participating']);

export const LENDING_NOTES = {
  required:
    'Flood insurance is required for a loan on a building here from a federally regulated or insured lender: it is in the SFHA and federal flood ' +
    'insurance is available (the mandatory purchase requirement of the Flood Disaster Protection Act of 1973).',
  emergency: "The community is in the NFIP's emergency program: policies there cover only limited amounts.",
  notParticipating:
    'No NFIP policy can be bought here: the community does not participate in the program. A federally regulated lender may still lend on a ' +
    'building in the SFHA, but must tell the borrower that federal disaster assistance may be unavailable, and federal agencies may not ' +
    'finance its purchase or construction.',
  outsideSfha: 'Outside the SFHA federal law does not require flood insurance for a loan, but a lender may, and flooding can still happen.',
  sfhaUnknown:
    'Whether a building here is in the SFHA is unknown (FEMA gives no flood zone at this point), so whether a lender must require flood ' +
    'insurance is unknown: a flood determination company or the local floodplain administrator decides.',
  notListed:
    "The community is not in FEMA's Community Status Book: whether federal flood insurance can be bought here, and so whether a lender must " +
    'require it, is unknown.',
  nfipStatusUnknown:
    'Whether the community participates in the NFIP is unknown: whether federal flood insurance can be bought here, and so whether a lender ' +
    'must require it, is unknown.',
  buffer:
    'The point is in the buffer zone at the edge of a Coastal Barrier Resources System unit: an official determination of whether the building ' +
    'lies inside the unit is advised.',
  coastalBarrierUnavailable:
    'Whether the point lies in the Coastal Barrier Resources System, where federal flood insurance is restricted, could not be checked: ' +
    'whether a policy can be bought here, and so whether a lender must require one, is unknown.',
  coastalBarrierNotAsked:
    'Whether the point lies in the Coastal Barrier Resources System, where federal flood insurance is restricted, was not checked: ' +
    'whether a policy can be bought here, and so whether a lender must require one, is unknown.',
} as const;

/** The coastal barrier's restriction, for a unit the point is inside. */
export function coastalBarrierNote(barrier: { unit: string | null; type: string | null; designationDate: string | null }, inSfha: boolean | null): string {
  const unit = [barrier.unit, barrier.type && `(${barrier.type})`].filter(Boolean).join(' ');
  const before = barrier.designationDate ?? 'the date the unit was designated';
  const unknown =
    inSfha === false ? 'whether a policy can be bought is unknown' : 'whether a policy can be bought, and so whether a lender must require one, is unknown';
  return (
    `The point is inside Coastal Barrier Resources System unit ${unit || '(unnamed)'}: federal flood insurance is available only for a building ` +
    `built before ${before} and not substantially improved since. When the building was built is not known here, so ${unknown}.`
  );
}

/** Whether insurance is available and required at a place, with the notes a lender needs. */
export function floodInsuranceRequirement({ inSfha, nfip, coastalBarrier }: FloodInsuranceFacts): FloodInsuranceRequirement {
  const participates = PARTICIPATING.has(nfip);
  const inside =
    typeof coastalBarrier === 'object' && coastalBarrier.status === 'inside'
      ? { unit: coastalBarrier.unit, type: coastalBarrier.type, designationDate: coastalBarrier.floodInsuranceProhibitionDate }
      : null;
  const { available, reason } = availability(nfip, coastalBarrier);
  const floodInsuranceRequired = inSfha === false || (inSfha === true && available === false) ? false : inSfha === true && available === true ? true : null;

  const notes: string[] = [];
  if (floodInsuranceRequired === true) notes.push(LENDING_NOTES.required);
  if (nfip === 'emergency') notes.push(LENDING_NOTES.emergency);
  if (nfip === 'not_participating' && inSfha !== false) notes.push(LENDING_NOTES.notParticipating);
  if (inSfha === false) notes.push(LENDING_NOTES.outsideSfha);
  if (inSfha === null) notes.push(LENDING_NOTES.sfhaUnknown);
  // In a community that does not participate no policy can be bought at all: the barrier changes nothing there.
  if (nfip !== 'not_participating') {
    if (inside) notes.push(coastalBarrierNote(inside, inSfha));
    if (typeof coastalBarrier === 'object' && coastalBarrier.status === 'buffer') notes.push(LENDING_NOTES.buffer);
  }
  // An unknown availability matters to a lender only where the point may be in the SFHA.
  if (inSfha !== false) {
    if (nfip === 'not_listed') notes.push(LENDING_NOTES.notListed);
    if (nfip === 'unknown') notes.push(LENDING_NOTES.nfipStatusUnknown);
    if (participates && coastalBarrier === 'unavailable') notes.push(LENDING_NOTES.coastalBarrierUnavailable);
    if (participates && coastalBarrier === 'not_asked') notes.push(LENDING_NOTES.coastalBarrierNotAsked);
  }
  return {
    insurance: { available, reason, program: nfip === 'regular' || nfip === 'emergency' ? nfip : null, coastalBarrier: inside },
    floodInsuranceRequired,
    notes,
  };
}

function availability(nfip: NfipStanding, coastalBarrier: CoastalBarrierStanding): { available: boolean | null; reason: InsuranceReason } {
  if (nfip === 'not_participating') return { available: false, reason: 'not_participating' };
  if (nfip === 'not_listed') return { available: null, reason: 'not_listed' };
  if (nfip === 'unknown') return { available: null, reason: 'nfip_status_unknown' };
  if (coastalBarrier === 'unavailable' || coastalBarrier === 'not_asked') return { available: null, reason: 'coastal_barrier_unknown' };
  if (coastalBarrier.status === 'inside') return { available: null, reason: 'coastal_barrier' };
  return { available: true, reason: 'participating' };
}
