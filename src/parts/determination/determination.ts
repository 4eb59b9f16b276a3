/**
 * The lender's form filled in: section II of FEMA's Standard Flood Hazard Determination Form (FEMA Form 086-0-32) from
 * what the service read of FEMA's data, and at its heart whether federal flood insurance (NFIP) can be bought at a
 * place and whether a federally regulated or insured lender must require it (the mandatory purchase requirement of
 * the Flood Disaster Protection Act of 1973). The requirement applies only where a policy can be bought: where the
 * community does not participate, the lender's duty is a notice, not a purchase. Informational, never an official
 * determination. Pure: no I/O, no clock, no locale. An unknown input stays unknown in every answer that depends on
 * it; it never turns into a guess.
 *
 * Where a building was found (or given), the form is judged where the building is: its footprint's flood zones,
 * panel, coastal barrier status, community and letters, never the point's in their place. A building that could not
 * be looked up is unknown, not the point.
 */
import type { CoastalBarrier, Coverage, LomaStatus } from '../../flood-hazard/flood-hazard.types';
import { roundToTenth } from '../../flood-hazard/nfhl-values';
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

/** The standing the form reads: the community's, or `community_ambiguous` where several are mapped and none can be told to be the place's. */
export type StandingAtPlace = NfipStanding | 'community_ambiguous';

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

/** A Coastal Barrier Resources System status; `unavailable` when it could not be checked, `not_asked` when it was not. */
export type CoastalBarrierStanding = Pick<CoastalBarrier, 'status' | 'unit' | 'type' | 'floodInsuranceProhibitionDate'> | 'unavailable' | 'not_asked';

/** Where a coastal barrier status was read: at the point, or over the building's whole footprint. */
export type CoastalBarrierPlace = 'point' | 'footprint';

/** Why federal flood insurance is, is not, or may not be available. */
export type InsuranceReason =
  | 'participating'
  | 'not_participating'
  | 'not_listed'
  | 'nfip_status_unknown'
  /** Several NFIP communities are mapped at the building (or the point) and which one it lies in cannot be told. */
  | 'community_ambiguous'
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
  /** A building's whole footprint, no part of which has a flood zone on FEMA's map: unknown. */
  | 'footprint_off_map'
  /** A building whose footprint's flood zones could not be read this time: always unknown. */
  | 'footprint_unread'
  /** A building FEMA's building footprints could not be asked for this time: always unknown. */
  | 'building_unavailable';

export interface FloodInsuranceFacts {
  /** Whether the building (or the point) is in the SFHA; null when unknown. */
  inSfha: boolean | null;
  sfhaBasis: SfhaBasis;
  nfip: StandingAtPlace;
  coastalBarrier: CoastalBarrierStanding;
  /** Where the coastal barrier status was read, which its notes name. */
  coastalBarrierPlace: CoastalBarrierPlace;
}

/** A CBRS unit or OPA the place is inside. */
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
    /** The CBRS unit or OPA the place is inside; null elsewhere. */
    coastalBarrier: CoastalBarrierUnit | null;
  };
  /** True exactly where the building is in the SFHA and insurance is available; false outside it, or where no policy can be bought. */
  floodInsuranceRequired: boolean | null;
  /** One plain sentence per fact that changes what a lender must do. */
  notes: string[];
}

const PARTICIPATING: ReadonlySet<StandingAtPlace> = new Set(['regular', 'emergency', 'participating']);

const DECIDES = 'a flood determination company or the local floodplain administrator decides';

/** How a note names where a coastal barrier status was read. */
const BARRIER_PLACE_WORDS: Record<CoastalBarrierPlace, { lies: string; whether: string }> = {
  point: { lies: 'The point is', whether: 'the point lies' },
  footprint: { lies: "Part or all of the building's footprint lies", whether: 'the building lies' },
};

/** The CBRS notes for a status read at `place`. */
function coastalBarrierNotes(place: CoastalBarrierPlace): { buffer: string; unavailable: string } {
  const { lies, whether } = BARRIER_PLACE_WORDS[place];
  return {
    buffer:
      `${lies} in the buffer zone at the edge of a Coastal Barrier Resources System unit: an official determination of whether the building ` +
      'lies inside the unit is advised.',
    unavailable:
      `Whether ${whether} in the Coastal Barrier Resources System, where federal flood insurance is restricted, could not be checked: ` +
      'whether a policy can be bought here, and so whether a lender must require one, is unknown.',
  };
}

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
    footprint_off_map:
      "Whether the building is in the SFHA is unknown (FEMA's map gives no flood zone anywhere on its footprint), so whether a lender must " +
      `require flood insurance is unknown: ${DECIDES}.`,
    footprint_unread:
      "Whether the building is in the SFHA is unknown (FEMA's flood zones over its footprint could not be read this time), so whether a lender " +
      `must require flood insurance is unknown: retry shortly, or ${DECIDES}.`,
    building_unavailable:
      "Whether the building is in the SFHA is unknown (FEMA's building footprints did not answer this time, so the building could not be looked " +
      `up), so whether a lender must require flood insurance is unknown: retry shortly, or ${DECIDES}.`,
  } satisfies Record<SfhaBasis, string>,
  notListed:
    "The community is not in FEMA's Community Status Book: whether federal flood insurance can be bought here, and so whether a lender must " +
    'require it, is unknown.',
  nfipStatusUnknown:
    'Whether the community participates in the NFIP is unknown: whether federal flood insurance can be bought here, and so whether a lender ' +
    'must require it, is unknown.',
  buffer: { point: coastalBarrierNotes('point').buffer, footprint: coastalBarrierNotes('footprint').buffer } satisfies Record<CoastalBarrierPlace, string>,
  coastalBarrierUnavailable: {
    point: coastalBarrierNotes('point').unavailable,
    footprint: coastalBarrierNotes('footprint').unavailable,
  } satisfies Record<CoastalBarrierPlace, string>,
  coastalBarrierNotAsked:
    'Whether the point lies in the Coastal Barrier Resources System, where federal flood insurance is restricted, was not checked: ' +
    'whether a policy can be bought here, and so whether a lender must require one, is unknown.',
} as const;

/** The coastal barrier's restriction, for a unit the place (`point`, or part of the building's footprint) is inside. */
export function coastalBarrierNote(barrier: CoastalBarrierUnit, inSfha: boolean | null, place: CoastalBarrierPlace): string {
  const unit = [barrier.unit, barrier.type && `(${barrier.type})`].filter(Boolean).join(' ');
  const before = barrier.designationDate ?? 'the date the unit was designated';
  const unknown =
    inSfha === false ? 'whether a policy can be bought is unknown' : 'whether a policy can be bought, and so whether a lender must require one, is unknown';
  return (
    `${BARRIER_PLACE_WORDS[place].lies} inside Coastal Barrier Resources System unit ${unit || '(unnamed)'}: federal flood insurance is available ` +
    `only for a building built before ${before} and not substantially improved since. When the building was built is not known here, so ${unknown}.`
  );
}

/**
 * Several communities mapped where the form is judged (`point`, or over the building's footprint), none of them its
 * own: the form names none, and nothing that depends on the community is known.
 */
export function ambiguousCommunityNote({ ambiguousAmong }: AmbiguousCommunityFacts, inSfha: boolean | null, place: CoastalBarrierPlace): string {
  const named = ambiguousAmong.map(({ name, number }) => [name ?? 'unnamed', number && `community ${number}`].filter(Boolean).join(', ')).join('; ');
  const how = ambiguousAmong.length === 2 ? 'Two' : String(ambiguousAmong.length);
  const where = place === 'point' ? 'at this point' : "over the building's footprint, each over as much of it";
  const which = place === 'point' ? 'the point lies in' : 'the building lies in';
  const lending = inSfha === false ? '' : ', and so whether a lender must require it,';
  return (
    `${how} NFIP communities are mapped ${where} (${named}): which one ${which} cannot be told from FEMA's map, so the form names no community, ` +
    `and its standing in the NFIP and whether federal flood insurance can be bought here${lending} are unknown: the local floodplain administrator ` +
    'or a flood determination company decides.'
  );
}

/** Whether insurance is available and required at a place, with the notes a lender needs. */
export function floodInsuranceRequirement({ inSfha, sfhaBasis, nfip, coastalBarrier, coastalBarrierPlace }: FloodInsuranceFacts): FloodInsuranceRequirement {
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
    if (inside) notes.push(coastalBarrierNote(inside, inSfha, coastalBarrierPlace));
    if (typeof coastalBarrier === 'object' && coastalBarrier.status === 'buffer') notes.push(LENDING_NOTES.buffer[coastalBarrierPlace]);
  }
  // An unknown availability matters to a lender only where the building may be in the SFHA.
  if (inSfha !== false) {
    if (nfip === 'not_listed') notes.push(LENDING_NOTES.notListed);
    if (nfip === 'unknown' || nfip === 'unavailable') notes.push(LENDING_NOTES.nfipStatusUnknown);
    if (participates && coastalBarrier === 'unavailable') notes.push(LENDING_NOTES.coastalBarrierUnavailable[coastalBarrierPlace]);
    if (participates && coastalBarrier === 'not_asked') notes.push(LENDING_NOTES.coastalBarrierNotAsked);
  }
  return {
    insurance: { available, reason, program: nfip === 'regular' || nfip === 'emergency' ? nfip : null, coastalBarrier: inside },
    floodInsuranceRequired,
    notes,
  };
}

function availability(nfip: StandingAtPlace, coastalBarrier: CoastalBarrierStanding): { available: boolean | null; reason: InsuranceReason } {
  if (nfip === 'community_ambiguous') return { available: null, reason: 'community_ambiguous' };
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

/** A valid LOMA nearer than this to the building (or the point) may concern it: listed among the nearby letters to read. */
export const LETTER_OF_MAP_CHANGE_REACH_M = 30;

/** At most this many nearby letters are listed, the nearest. */
export const NEARBY_LETTERS_MAX = 5;

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

/** An NFIP community with its standing in the program. */
export interface CommunityFacts {
  name: string | null;
  number: string | null;
  nfip: NfipStanding;
  /**
   * Whether its row of the Community Status Book gives a map date (its initial FIRM, or its current effective map):
   * false when the book lists it with none; null when the book does not list it or could not be had.
   */
  mapInStatusBook: boolean | null;
}

/** Several NFIP communities mapped at the place, none of which can be told to be its own (each as the form would name it). */
export interface AmbiguousCommunityFacts {
  ambiguousAmong: ReadonlyArray<{ name: string | null; number: string | null }>;
}

/**
 * The community of a place: none where FEMA maps none, ambiguous where it maps several and none can be told to be the
 * place's, `unavailable` when FEMA's political jurisdictions did not answer.
 */
export type CommunityAt = CommunityFacts | AmbiguousCommunityFacts | null | 'unavailable';

/** An effective Letter of Map Revision, as the form names it. */
export interface LomrFacts {
  caseNumber: string | null;
  effectiveDate: string | null;
}

/** A Letter of Map Amendment near the building (or the point), as FEMA's LOMA layer gives it. */
export interface LomaFacts {
  caseNumber: string | null;
  effectiveDate: string | null;
  status: LomaStatus;
  /** Metres from the building's footprint (0 inside it), or from the point. */
  distanceM: number;
  /** Whether its point lies inside the building's footprint (false when measured from the point). */
  inFootprint: boolean;
}

/**
 * Where the building stands, read over its whole footprint: the community whose political jurisdiction covers the
 * largest share of it, its coastal barrier status (inside when any part lies in a unit), the effective LOMRs covering
 * any part of it, and the LOMAs around it measured from it. Each `unavailable` when its map did not answer.
 */
export interface SiteFacts {
  community: CommunityAt;
  coastalBarrier: Exclude<CoastalBarrierStanding, 'not_asked'>;
  lomrs: readonly LomrFacts[] | 'unavailable';
  lomas: readonly LomaFacts[] | 'unavailable';
}

/** The building the form answers for, as the building part found it. */
export type BuildingFacts =
  /** Found (or given by the caller), with the flood zones over its footprint and where it stands. */
  | {
      status: 'found';
      /** The zones over the footprint, SFHA zones first; [] when none covers it. */
      zones: readonly ZoneFacts[];
      /** true: any part in the SFHA; false: all of it mapped outside; null: part of it off FEMA's map and the rest outside. */
      inSfha: boolean | null;
      /** The FIRM panel covering the largest share of the footprint; null when none does. */
      governingPanel: PanelFacts | null;
      site: SiteFacts;
    }
  /** Found (or given), but the flood zones or panels over its footprint could not be read this time. */
  | { status: 'footprint_unread'; site: SiteFacts }
  /** FEMA's building footprints answered, and no building could be chosen: none within reach, or several. */
  | { status: 'not_found' }
  /** FEMA's building footprints did not answer this time: the building is unknown. */
  | { status: 'unavailable' };

/**
 * Everything the form is filled from: plain data, each input that could not be had said so (`unavailable`), never
 * left out or replaced by a guess. The community, coastal barrier and letters here are the point's; a building's own
 * are in its `site`.
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
  /** The NFIP community at the point. */
  community: CommunityAt;
  /** The location's county (Census): its name and 5-digit FIPS code, each null when unknown. */
  county: { name: string | null; fips: string | null };
  /** Always asked for the form, so never `not_asked`. */
  coastalBarrier: Exclude<CoastalBarrierStanding, 'not_asked'>;
  /** Effective LOMRs at the point, newest first. */
  lomrs: readonly LomrFacts[] | 'unavailable';
  /** LOMAs near the point, measured from it. */
  lomas: readonly LomaFacts[] | 'unavailable';
  /** When the service read FEMA's data (ISO 8601), not when the form was printed. */
  determinedAt: string;
}

/** An input of the form that can be missing, by its name in the answer's `unavailable`. */
export type DeterminationInput = 'community' | 'nfipStatus' | 'lomrs' | 'lomas' | 'structure' | 'coastalBarrier';

export interface LetterOfMapChange {
  /** LOMR: a revision of the map covering the building (or the point); LOMA: an amendment whose point lies inside the building's footprint (LOMR-Fs included). */
  kind: 'LOMR' | 'LOMA';
  caseNumber: string | null;
  effectiveDate: string | null;
}

/** A valid LOMA near the building (or the point) that does not fill the form's field: it may concern this building. */
export interface NearbyLetter {
  caseNumber: string | null;
  effectiveDate: string | null;
  /** Metres from the building's footprint (or the point), one decimal. */
  distanceM: number;
}

/** `result.determination`. */
export interface LenderDetermination {
  /** `building` when a building was found or given, or could not be looked up (the answers are for it); `point` when none could be chosen. */
  basis: 'building' | 'point';
  community: { name: string | null; number: string | null; county: string | null; state: string | null };
  map: {
    /** False where a map exists; true only where the Status Book lists the community with no map at all; null when that is unknown. */
    noNfipMap: boolean | null;
    /** Whether FEMA's digital flood map (NFHL) maps the place. */
    digital: boolean;
    panel: string | null;
    panelEffectiveDate: string | null;
    letterOfMapChange: LetterOfMapChange | null;
    /** Valid LOMAs within 30 m the form's field does not name, nearest first; null when the letters could not be read. */
    nearbyLetters: NearbyLetter[] | null;
  };
  /** The building's (or the point's) zones, SFHA zones first; null when none is known. */
  floodZones: string[] | null;
  insurance: FloodInsuranceRequirement['insurance'];
  buildingInSfha: boolean | null;
  floodInsuranceRequired: boolean | null;
  notes: string[];
  determinedAt: string;
}

export const DETERMINATION_NOTES = {
  pointBasis:
    "No building could be located in FEMA's building footprints for this location, so these answers are for the point: near a zone edge the " +
    'building itself may lie in another zone.',
  lettersUnchecked:
    "Whether a Letter of Map Change applies here could not be checked this time (FEMA's letters did not answer): one may have removed the " +
    'building from the SFHA.',
} as const;

/** The case and date of a letter, for a sentence: "case 19-06-1234A, effective 2020-02-14". */
function letterWords({ caseNumber, effectiveDate }: { caseNumber: string | null; effectiveDate: string | null }): string {
  return [caseNumber && `case ${caseNumber}`, effectiveDate && `effective ${effectiveDate}`].filter(Boolean).join(', ');
}

/** A valid LOMA inside the footprint of a building that may be in the SFHA: the letter, not the map, may settle it. */
export function lomaNote(letter: LetterOfMapChange): string {
  const which = letterWords(letter);
  return (
    `A valid Letter of Map Amendment${which ? ` (${which})` : ''} lies inside the building's footprint: if it removed this building from the ` +
    'SFHA, federal law does not require flood insurance for it, so the letter should be read.'
  );
}

/** Valid LOMAs near the building (or the point) that the form does not name: one may still concern the building. */
export function nearbyLettersNote(letters: readonly NearbyLetter[], basis: LenderDetermination['basis']): string {
  const from = basis === 'building' ? "the building's footprint, not inside it" : 'the point';
  if (letters.length === 1) {
    const [letter] = letters;
    const which = letterWords(letter);
    return `A valid Letter of Map Amendment${which ? ` (${which})` : ''} lies ${letter.distanceM} m from ${from}: it may concern this building and should be read.`;
  }
  const listed = letters.map((letter) => `${letter.caseNumber ?? 'case number not published'}, ${letter.distanceM} m`).join('; ');
  return (
    `Valid Letters of Map Amendment lie within ${LETTER_OF_MAP_CHANGE_REACH_M} m of ${basis === 'building' ? "the building's footprint" : 'the point'} ` +
    `(${listed}): each may concern this building and should be read.`
  );
}

/** The place's map is a paper FIRM only: its zones are on the panel, not in FEMA's digital map. */
export function paperMapNote(panel: PanelFacts): string {
  const effective = panel.effectiveDate ? `, effective ${panel.effectiveDate}` : '';
  return (
    `FEMA's flood map here is a paper FIRM (panel ${panel.panel}${effective}), not on its digital map (NFHL): the flood zones must be read from ` +
    "that panel (FEMA's Map Service Center, msc.fema.gov)."
  );
}

/** What the form reads for the place it judges: the building's footprint when one was read, else the point. */
interface JudgedPlace {
  sfhaBasis: SfhaBasis;
  inSfha: boolean | null;
  zones: readonly ZoneFacts[] | null;
  /** The form's panel (box B2): the footprint's governing panel or the point's; null when unknown. */
  panel: PanelFacts | null;
  /** A FIRM panel FEMA names at or over the place, the point's where the footprint was not read: a map exists. */
  panelHere: PanelFacts | null;
  digital: boolean;
  community: CommunityAt;
  coastalBarrier: Exclude<CoastalBarrierStanding, 'not_asked'>;
  coastalBarrierPlace: CoastalBarrierPlace;
  /** The LOMRs that may be the form's letter; null when none may be (a building that could not be looked up). */
  lomrs: readonly LomrFacts[] | 'unavailable' | null;
  lomas: readonly LomaFacts[] | 'unavailable';
}

function judgedPlace({ point, building, community, coastalBarrier, lomrs, lomas }: DeterminationFacts): JudgedPlace {
  const atPoint = { community, coastalBarrier, coastalBarrierPlace: 'point', lomas } as const;
  const pointMapped = point.coverage !== 'unmapped';
  switch (building.status) {
    case 'found':
      return {
        // Unknown with no zone anywhere on it: there is no rest outside the SFHA to speak of.
        sfhaBasis: building.zones.length === 0 ? 'footprint_off_map' : 'footprint',
        inSfha: building.inSfha,
        zones: building.zones,
        panel: building.governingPanel,
        panelHere: building.governingPanel,
        digital: pointMapped || building.zones.length > 0,
        ...siteOf(building.site),
      };
    case 'footprint_unread':
      return {
        sfhaBasis: 'footprint_unread',
        inSfha: null,
        zones: null,
        panel: null,
        panelHere: point.panel,
        digital: pointMapped,
        ...siteOf(building.site),
      };
    case 'unavailable':
      // The building is unknown: its zones, panel and letters are not the point's. The community and coastal barrier are
      // the point's, the building looked for lying within a few tens of metres of it; the notes say they are the point's.
      return {
        sfhaBasis: 'building_unavailable',
        inSfha: null,
        zones: null,
        panel: null,
        panelHere: point.panel,
        digital: pointMapped,
        ...atPoint,
        lomrs: null,
      };
    case 'not_found':
      return {
        sfhaBasis: 'point',
        inSfha: point.inSfha,
        zones: point.zones,
        panel: point.panel,
        panelHere: point.panel,
        digital: pointMapped,
        ...atPoint,
        lomrs,
      };
  }
}

function siteOf(site: SiteFacts): Pick<JudgedPlace, 'community' | 'coastalBarrier' | 'coastalBarrierPlace' | 'lomrs' | 'lomas'> {
  return { community: site.community, coastalBarrier: site.coastalBarrier, coastalBarrierPlace: 'footprint', lomrs: site.lomrs, lomas: site.lomas };
}

/** Box B5: a map exists where FEMA's digital map or a FIRM panel covers the place, or the Status Book dates one; none only where the book lists none. */
function noNfipMap({ digital, panelHere, community }: JudgedPlace): boolean | null {
  if (digital || panelHere !== null) return false;
  const inBook = communityFactsOf(community)?.mapInStatusBook ?? null;
  return inBook === null ? null : !inBook;
}

/** The one community of a place; null when there is none, several, or its map did not answer. */
function communityFactsOf(community: CommunityAt): CommunityFacts | null {
  return community !== null && typeof community === 'object' && 'nfip' in community ? community : null;
}

/** Section II of the form, and the inputs it lacked (each named once, in a fixed order). */
export function lenderDetermination(facts: DeterminationFacts): { determination: LenderDetermination; unavailable: DeterminationInput[] } {
  const { building } = facts;
  const basis = building.status === 'not_found' ? 'point' : 'building';
  const place = judgedPlace(facts);
  const community = communityFactsOf(place.community);
  const ambiguous = place.community !== null && typeof place.community === 'object' && 'ambiguousAmong' in place.community ? place.community : null;
  const requirement = floodInsuranceRequirement({
    inSfha: place.inSfha,
    sfhaBasis: place.sfhaBasis,
    nfip: ambiguous ? 'community_ambiguous' : (community?.nfip ?? 'unknown'),
    coastalBarrier: place.coastalBarrier,
    coastalBarrierPlace: place.coastalBarrierPlace,
  });
  const letters = lettersOf(place);
  const { inSfha } = place;

  const notes = [
    basis === 'point' ? DETERMINATION_NOTES.pointBasis : null,
    ambiguous ? ambiguousCommunityNote(ambiguous, inSfha, place.coastalBarrierPlace) : null,
    ...requirement.notes,
    !place.digital && place.panelHere ? paperMapNote(place.panelHere) : null,
    letters.letterOfMapChange?.kind === 'LOMA' && inSfha !== false ? lomaNote(letters.letterOfMapChange) : null,
    letters.nearbyLetters !== null && letters.nearbyLetters.length > 0 ? nearbyLettersNote(letters.nearbyLetters, basis) : null,
    letters.letterOfMapChange === null && letters.unchecked && inSfha !== false ? DETERMINATION_NOTES.lettersUnchecked : null,
  ].filter((note): note is string => note !== null);

  const unavailable: DeterminationInput[] = [];
  if (place.community === 'unavailable') unavailable.push('community');
  if (community?.nfip === 'unavailable') unavailable.push('nfipStatus');
  if (place.lomrs === 'unavailable') unavailable.push('lomrs');
  if (place.lomas === 'unavailable') unavailable.push('lomas');
  if (building.status === 'unavailable' || building.status === 'footprint_unread') unavailable.push('structure');
  if (place.coastalBarrier === 'unavailable') unavailable.push('coastalBarrier');

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
        noNfipMap: noNfipMap(place),
        digital: place.digital,
        panel: place.panel?.panel ?? null,
        panelEffectiveDate: place.panel?.effectiveDate ?? null,
        letterOfMapChange: letters.letterOfMapChange,
        nearbyLetters: letters.nearbyLetters,
      },
      floodZones: place.zones === null || place.zones.length === 0 ? null : sfhaZonesFirst(place.zones),
      insurance: requirement.insurance,
      buildingInSfha: inSfha,
      floodInsuranceRequired: requirement.floodInsuranceRequired,
      notes,
      determinedAt: facts.determinedAt,
    },
    unavailable,
  };
}

/**
 * The form's letter (box B4): an effective LOMR covering the building's footprint (or the point), the newest; else,
 * for a building, a valid LOMA whose point lies inside its footprint. Every other valid LOMA within reach is a nearby
 * letter. `unchecked` when a letter the form could name could not be read.
 */
function lettersOf({ lomrs, lomas }: JudgedPlace): { letterOfMapChange: LetterOfMapChange | null; nearbyLetters: NearbyLetter[] | null; unchecked: boolean } {
  const valid = lomas === 'unavailable' ? [] : lomas.filter((loma) => loma.status === 'valid');
  const lomr = lomrs === null || lomrs === 'unavailable' ? undefined : lomrs[0];
  // Only a building's footprint has LOMAs inside it (measured from the point, none is).
  const inside = lomr ? undefined : [...valid].filter((loma) => loma.inFootprint).sort(newestFirst)[0];
  const letterOfMapChange: LetterOfMapChange | null = lomr
    ? { kind: 'LOMR', caseNumber: lomr.caseNumber, effectiveDate: lomr.effectiveDate }
    : inside
      ? { kind: 'LOMA', caseNumber: inside.caseNumber, effectiveDate: inside.effectiveDate }
      : null;
  const nearbyLetters =
    lomas === 'unavailable'
      ? null
      : valid
          .filter((loma) => loma !== inside && loma.distanceM <= LETTER_OF_MAP_CHANGE_REACH_M)
          .sort((a, b) => a.distanceM - b.distanceM || compareText(a.caseNumber, b.caseNumber))
          .slice(0, NEARBY_LETTERS_MAX)
          .map(({ caseNumber, effectiveDate, distanceM }) => ({ caseNumber, effectiveDate, distanceM: roundToTenth(distanceM) }));
  return { letterOfMapChange, nearbyLetters, unchecked: lomrs !== null && (lomrs === 'unavailable' || lomas === 'unavailable') };
}

/** The newest letter first (an unknown date last), then by case number. */
function newestFirst(a: LomaFacts, b: LomaFacts): number {
  return compareText(b.effectiveDate ?? '', a.effectiveDate ?? '') || compareText(a.caseNumber, b.caseNumber);
}

/** Code-unit order, not a locale's: the same on every machine. */
function compareText(a: string | null, b: string | null): number {
  const left = a ?? '';
  const right = b ?? '';
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Each zone once, SFHA zones first, otherwise in the order given. */
function sfhaZonesFirst(zones: readonly ZoneFacts[]): string[] {
  const ordered = [...zones.filter((zone) => zone.inSfha === true), ...zones.filter((zone) => zone.inSfha !== true)];
  return [...new Set(ordered.map((zone) => zone.floodZone))];
}
