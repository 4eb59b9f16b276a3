/**
 * The lender's form filled in: section II of FEMA's Standard Flood Hazard Determination Form (FEMA Form 086-0-32) from
 * what the service read of FEMA's data, and at its heart whether federal flood insurance (NFIP) can be bought at a
 * place and whether a federally regulated or insured lender must require it (the mandatory purchase requirement of
 * the Flood Disaster Protection Act of 1973). The requirement applies only where a policy can be bought: where the
 * community does not participate, the lender's duty is a notice, not a purchase. Informational, never an official
 * determination. Pure: no I/O, no clock, no locale. An unknown input stays unknown in every answer that depends on
 * it; it never turns into a guess.
 */
import type { CoastalBarrier, Coverage, LomaStatus } from '../../flood-hazard/flood-hazard.types';
import { stateOfCountyFips } from './state-codes';

/** The community's standing in the NFIP, as FEMA's Community Status Book gives it. */
export type NfipStanding =
  /** Participating in the regular program (the community has a FIRM). */
  | 'regular'
  /** Participating in the emergency program (no FIRM yet: limited coverage). */
  | 'emergency'
  /** Participating, in a program the book does not tell. */
  | 'participating'
  | 'not_participating'
  /** The Status Book does not list the community. */
  | 'not_listed'
  /** The book lists the community without saying whether it participates, or there is no community to look up. */
  | 'unknown'
  /** No copy of the Status Book could be had. */
  | 'unavailable';

/** What the standing is read from: a community's NFIP status as the lookup answers it (`result.community.nfip`). */
export interface NfipStatusFacts {
  listed: boolean;
  participating: boolean | null;
  program: 'regular' | 'emergency' | null;
}

/** The standing of a community from its NFIP status; null when there is no community to look up, `unavailable` when no copy of the book could be had. */
export function nfipStandingOf(nfip: NfipStatusFacts | null | 'unavailable'): NfipStanding {
  if (nfip === null) return 'unknown';
  if (nfip === 'unavailable') return 'unavailable';
  if (!nfip.listed) return 'not_listed';
  if (nfip.participating === null) return 'unknown';
  if (!nfip.participating) return 'not_participating';
  return nfip.program ?? 'participating';
}

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

/** What an SFHA answer is about, which says why it may be unknown. */
export type SfhaBasis =
  /** The point: unknown where FEMA gives no flood zone there. */
  | 'point'
  /** A building's whole footprint: unknown where part of it is off FEMA's map and the rest outside the SFHA. */
  | 'footprint'
  /** A building whose footprint's flood zones could not be read this time: always unknown. */
  | 'footprint_unread';

export interface FloodInsuranceFacts {
  /** Whether the building (or the point) is in the SFHA; null when unknown. */
  inSfha: boolean | null;
  sfhaBasis: SfhaBasis;
  nfip: NfipStanding;
  coastalBarrier: CoastalBarrierStanding;
}

/** A CBRS unit or OPA the point is inside. */
export interface CoastalBarrierUnit {
  unit: string | null;
  type: string | null;
  /** When federal flood insurance was first barred there, YYYY-MM-DD. */
  designationDate: string | null;
}

export interface FloodInsuranceRequirement {
  insurance: {
    /** Whether an NFIP policy can be bought; null when it cannot be told. */
    available: boolean | null;
    reason: InsuranceReason;
    program: 'regular' | 'emergency' | null;
    /** The CBRS unit or OPA the point is inside; null elsewhere. */
    coastalBarrier: CoastalBarrierUnit | null;
  };
  /** True exactly where the building is in the SFHA and insurance is available; false outside it, or where no policy can be bought. */
  floodInsuranceRequired: boolean | null;
  /** One plain sentence per fact that changes what a lender must do. */
  notes: string[];
}

const PARTICIPATING: ReadonlySet<NfipStanding> = new Set(['regular', 'emergency', 'participating']);

const DECIDES = 'a flood determination company or the local floodplain administrator decides';

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
  sfhaUnknown: {
    point:
      'Whether a building here is in the SFHA is unknown (FEMA gives no flood zone at this point), so whether a lender must require flood ' +
      `insurance is unknown: ${DECIDES}.`,
    footprint:
      "Whether the building is in the SFHA is unknown (part of its footprint lies where FEMA's map gives no flood zone, the rest outside the " +
      `SFHA), so whether a lender must require flood insurance is unknown: ${DECIDES}.`,
    footprint_unread:
      "Whether the building is in the SFHA is unknown (FEMA's flood zones over its footprint could not be read this time), so whether a lender " +
      `must require flood insurance is unknown: retry shortly, or ${DECIDES}.`,
  } satisfies Record<SfhaBasis, string>,
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
export function coastalBarrierNote(barrier: CoastalBarrierUnit, inSfha: boolean | null): string {
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
export function floodInsuranceRequirement({ inSfha, sfhaBasis, nfip, coastalBarrier }: FloodInsuranceFacts): FloodInsuranceRequirement {
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
  if (inSfha === null) notes.push(LENDING_NOTES.sfhaUnknown[sfhaBasis]);
  // In a community that does not participate no policy can be bought at all: the barrier changes nothing there.
  if (nfip !== 'not_participating') {
    if (inside) notes.push(coastalBarrierNote(inside, inSfha));
    if (typeof coastalBarrier === 'object' && coastalBarrier.status === 'buffer') notes.push(LENDING_NOTES.buffer);
  }
  // An unknown availability matters to a lender only where the building may be in the SFHA.
  if (inSfha !== false) {
    if (nfip === 'not_listed') notes.push(LENDING_NOTES.notListed);
    if (nfip === 'unknown' || nfip === 'unavailable') notes.push(LENDING_NOTES.nfipStatusUnknown);
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
  if (nfip === 'unknown' || nfip === 'unavailable') return { available: null, reason: 'nfip_status_unknown' };
  if (coastalBarrier === 'unavailable' || coastalBarrier === 'not_asked') return { available: null, reason: 'coastal_barrier_unknown' };
  if (coastalBarrier.status === 'inside') return { available: null, reason: 'coastal_barrier' };
  return { available: true, reason: 'participating' };
}

// ---------------------------------------------------------------------------------------------
// The whole form: section II of the SFHDF
// ---------------------------------------------------------------------------------------------

/** A LOMA or LOMR letter nearer than this to the building (or the point) is the form's letter of map change. */
export const LETTER_OF_MAP_CHANGE_REACH_M = 30;

/** A FIRM panel as the form names it. */
export interface PanelFacts {
  /** FIRM_PAN with its suffix, e.g. 48201C0865L. */
  panel: string;
  /** YYYY-MM-DD; null when FEMA publishes none. */
  effectiveDate: string | null;
}

/** A flood zone the answer covers, and whether it is a Special Flood Hazard Area (null when FEMA does not say). */
export interface ZoneFacts {
  floodZone: string;
  inSfha: boolean | null;
}

/** The building the form answers for, as the building part found it. */
export type BuildingFacts =
  /** Found (or given by the caller), with the flood zones over its footprint. */
  | {
      status: 'found';
      /** The zones over the footprint, SFHA zones first; [] when none covers it. */
      zones: readonly ZoneFacts[];
      /** true: any part in the SFHA; false: all of it mapped outside; null: part of it off FEMA's map and the rest outside. */
      inSfha: boolean | null;
      /** The FIRM panel covering the largest share of the footprint; null when none does. */
      governingPanel: PanelFacts | null;
    }
  /** Found (or given), but the flood zones or panels over its footprint could not be read this time. */
  | { status: 'footprint_unread' }
  /** No building could be chosen: none within reach, or several. */
  | { status: 'not_found' }
  /** FEMA's building footprints did not answer this time. */
  | { status: 'unavailable' };

/** A Letter of Map Amendment near the building (or the point), as FEMA's LOMA layer gives it. */
export interface LomaFacts {
  caseNumber: string | null;
  effectiveDate: string | null;
  status: LomaStatus;
  /** Metres from the building's footprint (basis `building`) or from the point. */
  distanceM: number;
}

/**
 * Everything the form is filled from: plain data, each input that could not be had said so (`unavailable`), never
 * left out or replaced by a guess.
 */
export interface DeterminationFacts {
  /** FEMA's effective map at the point (the lookup's own answer, always there). */
  point: {
    coverage: Coverage;
    inSfha: boolean | null;
    /** Every zone at the point. */
    zones: readonly ZoneFacts[];
    /** The FIRM panel in effect at the point; null when none. */
    panel: PanelFacts | null;
  };
  building: BuildingFacts;
  /** The NFIP community at the point; null when FEMA maps none there. */
  community: { name: string | null; number: string | null } | null | 'unavailable';
  /** The location's county (Census): its name and 5-digit FIPS code, each null when unknown. */
  county: { name: string | null; fips: string | null };
  nfip: NfipStanding;
  /** Always asked for the form, so never `not_asked`. */
  coastalBarrier: Exclude<CoastalBarrierStanding, 'not_asked'>;
  /** Effective LOMRs at the point, newest first. */
  lomrs: ReadonlyArray<{ caseNumber: string | null; effectiveDate: string | null }> | 'unavailable';
  /** LOMAs near the building (or the point), each with its distance. */
  lomas: readonly LomaFacts[] | 'unavailable';
  /** When the service read FEMA's data (ISO 8601), not when the form was printed. */
  determinedAt: string;
}

/** An input of the form that can be missing, by its name in the answer's `unavailable`. */
export type DeterminationInput = 'community' | 'nfipStatus' | 'structure' | 'coastalBarrier';

export interface LetterOfMapChange {
  /** LOMR: a revision of the map at the point; LOMA: an amendment for a property nearby (FEMA's LOMA layer, LOMR-Fs included). */
  kind: 'LOMR' | 'LOMA';
  caseNumber: string | null;
  effectiveDate: string | null;
}

/** `result.determination`. */
export interface LenderDetermination {
  /** `building` when a building was found or given (the answers are for its footprint), else `point`. */
  basis: 'building' | 'point';
  community: { name: string | null; number: string | null; county: string | null; state: string | null };
  map: { noNfipMap: boolean; panel: string | null; panelEffectiveDate: string | null; letterOfMapChange: LetterOfMapChange | null };
  /** The building's (or the point's) zones, SFHA zones first; null when they could not be read. */
  floodZones: string[] | null;
  insurance: FloodInsuranceRequirement['insurance'];
  buildingInSfha: boolean | null;
  floodInsuranceRequired: boolean | null;
  notes: string[];
  determinedAt: string;
}

export const DETERMINATION_NOTES = {
  pointBasis: {
    not_found:
      "No building could be located in FEMA's building footprints for this location, so these answers are for the point: near a zone edge the " +
      'building itself may lie in another zone.',
    unavailable:
      "FEMA's building footprints did not answer this time, so the building could not be located and these answers are for the point: near a " +
      'zone edge the building itself may lie in another zone.',
  },
  lettersUnchecked:
    "Whether a Letter of Map Change applies here could not be checked this time (FEMA's letters did not answer): one may have removed the " +
    'building from the SFHA.',
} as const;

/** A valid LOMA near a building that may be in the SFHA: the letter, not the map, may settle it. */
export function lomaNote(letter: LetterOfMapChange, basis: LenderDetermination['basis']): string {
  const which = [letter.caseNumber && `case ${letter.caseNumber}`, letter.effectiveDate && `effective ${letter.effectiveDate}`].filter(Boolean).join(', ');
  return (
    `A valid Letter of Map Amendment${which ? ` (${which})` : ''} lies within ${LETTER_OF_MAP_CHANGE_REACH_M} m of the ${basis}: if it removed ` +
    'this building from the SFHA, federal law does not require flood insurance for it, so the letter should be read.'
  );
}

/** Section II of the form, and the inputs it lacked (each named once, in a fixed order). */
export function lenderDetermination(facts: DeterminationFacts): { determination: LenderDetermination; unavailable: DeterminationInput[] } {
  const { point, building } = facts;
  const basis = building.status === 'found' || building.status === 'footprint_unread' ? 'building' : 'point';
  const onFootprint = building.status === 'found' ? building : null;
  const inSfha = basis === 'point' ? point.inSfha : (onFootprint?.inSfha ?? null);
  const panel = basis === 'point' ? point.panel : (onFootprint?.governingPanel ?? null);
  const zones = basis === 'point' ? point.zones : (onFootprint?.zones ?? null);
  const letter = letterOfMapChange(facts.lomrs, facts.lomas);
  const requirement = floodInsuranceRequirement({
    inSfha,
    sfhaBasis: basis === 'point' ? 'point' : onFootprint ? 'footprint' : 'footprint_unread',
    nfip: facts.nfip,
    coastalBarrier: facts.coastalBarrier,
  });

  const notes = [
    building.status === 'not_found' || building.status === 'unavailable' ? DETERMINATION_NOTES.pointBasis[building.status] : null,
    ...requirement.notes,
    letter?.kind === 'LOMA' && inSfha !== false ? lomaNote(letter, basis) : null,
    letter === null && (facts.lomrs === 'unavailable' || facts.lomas === 'unavailable') && inSfha !== false ? DETERMINATION_NOTES.lettersUnchecked : null,
  ].filter((note): note is string => note !== null);

  const community = facts.community === 'unavailable' ? null : facts.community;
  const unavailable: DeterminationInput[] = [];
  if (facts.community === 'unavailable') unavailable.push('community');
  if (facts.nfip === 'unavailable') unavailable.push('nfipStatus');
  if (building.status === 'unavailable' || building.status === 'footprint_unread') unavailable.push('structure');
  if (facts.coastalBarrier === 'unavailable') unavailable.push('coastalBarrier');

  return {
    determination: {
      basis,
      community: {
        name: community?.name ?? null,
        number: community?.number ?? null,
        county: facts.county.name,
        state: stateOfCountyFips(facts.county.fips),
      },
      map: {
        noNfipMap: point.coverage === 'unmapped',
        panel: panel?.panel ?? null,
        panelEffectiveDate: panel?.effectiveDate ?? null,
        letterOfMapChange: letter,
      },
      floodZones: zones === null ? null : sfhaZonesFirst(zones),
      insurance: requirement.insurance,
      buildingInSfha: inSfha,
      floodInsuranceRequired: requirement.floodInsuranceRequired,
      notes,
      determinedAt: facts.determinedAt,
    },
    unavailable,
  };
}

/** An effective LOMR at the point (the newest), else the nearest valid LOMA within reach, else none. */
function letterOfMapChange(lomrs: DeterminationFacts['lomrs'], lomas: DeterminationFacts['lomas']): LetterOfMapChange | null {
  const lomr = lomrs === 'unavailable' ? undefined : lomrs[0];
  if (lomr) return { kind: 'LOMR', caseNumber: lomr.caseNumber, effectiveDate: lomr.effectiveDate };
  if (lomas === 'unavailable') return null;
  const [nearest] = lomas.filter((loma) => loma.status === 'valid' && loma.distanceM <= LETTER_OF_MAP_CHANGE_REACH_M).sort((a, b) => a.distanceM - b.distanceM);
  return nearest ? { kind: 'LOMA', caseNumber: nearest.caseNumber, effectiveDate: nearest.effectiveDate } : null;
}

/** Each zone once, SFHA zones first, otherwise in the order given. */
function sfhaZonesFirst(zones: readonly ZoneFacts[]): string[] {
  const ordered = [...zones.filter((zone) => zone.inSfha === true), ...zones.filter((zone) => zone.inSfha !== true)];
  return [...new Set(ordered.map((zone) => zone.floodZone))];
}
