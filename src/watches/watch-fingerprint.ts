/**
 * What a watch keeps of each answer (its fingerprint), and the event a change of it makes: pure rules, tested table
 * by table. docs/watches.md describes the fields and the kinds.
 */

/**
 * The watched facts of one answer. A field is absent when the answer could not tell it (its part was unavailable):
 * an unknown fact is no change, and the fact known before is kept.
 */
export interface WatchFingerprint {
  /** Whose zones these are: the building's footprint, or the point. */
  basis?: 'building' | 'point';
  /** The zones over the building (each once, sorted), or the point's zone; [] where no zone is mapped. */
  zones?: string[];
  /** Whether the building (building basis) or the point is in the Special Flood Hazard Area. */
  inSfha?: boolean | null;
  /** The governing FIRM panel and its effective date. */
  panel?: string | null;
  panelEffectiveDate?: string | null;
  /** The effective LOMRs at the point, "case@date", sorted. */
  lomrs?: string[];
  /** The letter of map change the lender's form names, "kind case@date". */
  letterOfMapChange?: string | null;
  /** The community's NFIP standing. */
  nfipParticipating?: boolean | null;
  nfipProgram?: string | null;
  crsClass?: number | null;
  /** Coastal barrier status, with the unit when inside one: "inside FL-64P", "buffer", "outside". */
  coastalBarrier?: string | null;
  /** A coming map (pending or preliminary) with its zone, "preliminary AE"; null when none covers the place. */
  mapChange?: string | null;
  floodInsuranceRequired?: boolean | null;
}

export type FingerprintField = keyof WatchFingerprint;

/** The fields in the order events list them. */
export const FINGERPRINT_FIELDS: readonly FingerprintField[] = [
  'basis',
  'zones',
  'inSfha',
  'panel',
  'panelEffectiveDate',
  'lomrs',
  'letterOfMapChange',
  'nfipParticipating',
  'nfipProgram',
  'crsClass',
  'coastalBarrier',
  'mapChange',
  'floodInsuranceRequired',
];

/** The kinds of events, the most consequential first: an event's kind is the first of them its changes make. */
export const WATCH_EVENT_KINDS = [
  'entered_sfha',
  'left_sfha',
  'zone_changed',
  'panel_revised',
  'letter_of_map_change',
  'nfip_status_changed',
  'coastal_barrier_changed',
  'map_change_coming',
  'map_change_withdrawn',
] as const;
export type WatchEventKind = (typeof WATCH_EVENT_KINDS)[number];

/** The part of an answer (GET /flood-zone's 200 body) the fingerprint reads; every field may be null or missing. */
export interface WatchedAnswer {
  result: {
    floodZone?: string | null;
    inSpecialFloodHazardArea?: boolean | null;
    firmPanel?: { panel?: string | null; effectiveDate?: string | null } | null;
    community?: { communityId?: string | null; nfip?: { participating?: boolean | null; program?: string | null; crsClass?: number | null } | null } | null;
    lomrs?: Array<{ caseNumber?: string | null; effectiveDate?: string | null }> | null;
    coastalBarrier?: { status?: string | null; unit?: string | null } | null;
    mapChange?: { status?: string | null; floodZone?: string | null } | null;
    structure?: { zones?: Array<{ floodZone?: string | null }> | null; buildingInSfha?: boolean | null } | null;
    determination?: {
      map?: { letterOfMapChange?: { kind?: string | null; caseNumber?: string | null; effectiveDate?: string | null } | null } | null;
      floodInsuranceRequired?: boolean | null;
    } | null;
    unavailable?: readonly string[];
  };
}

const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();

/** The fingerprint of an answer; fields whose part was unavailable (or not asked) are left out. */
export function fingerprintOf(answer: WatchedAnswer): WatchFingerprint {
  const result = answer.result;
  const unavailable = new Set(result.unavailable ?? []);
  const print: WatchFingerprint = {};
  const building = result.structure;
  if (building && building.zones && building.buildingInSfha !== null && building.buildingInSfha !== undefined) {
    print.basis = 'building';
    print.zones = sortedUnique(building.zones.flatMap((zone) => (zone.floodZone ? [zone.floodZone] : [])));
    print.inSfha = building.buildingInSfha;
  } else {
    print.basis = 'point';
    print.zones = result.floodZone ? [result.floodZone] : [];
    print.inSfha = result.inSpecialFloodHazardArea ?? null;
  }
  print.panel = result.firmPanel?.panel ?? null;
  print.panelEffectiveDate = result.firmPanel?.effectiveDate ?? null;
  if (!unavailable.has('lomrs') && result.lomrs) {
    print.lomrs = sortedUnique(result.lomrs.map((lomr) => `${lomr.caseNumber ?? '?'}@${lomr.effectiveDate ?? '?'}`));
  }
  const determination = result.determination;
  if (determination) {
    const letter = determination.map?.letterOfMapChange;
    print.letterOfMapChange = letter ? `${letter.kind ?? '?'} ${letter.caseNumber ?? '?'}@${letter.effectiveDate ?? '?'}` : null;
    print.floodInsuranceRequired = determination.floodInsuranceRequired ?? null;
  }
  const nfip = result.community?.nfip;
  if (!unavailable.has('nfipStatus') && !unavailable.has('community') && nfip !== undefined) {
    print.nfipParticipating = nfip?.participating ?? null;
    print.nfipProgram = nfip?.program ?? null;
    print.crsClass = nfip?.crsClass ?? null;
  }
  if (result.coastalBarrier) {
    const { status, unit } = result.coastalBarrier;
    print.coastalBarrier = status === 'inside' && unit ? `inside ${unit}` : (status ?? null);
  }
  if (result.mapChange) {
    const { status, floodZone } = result.mapChange;
    print.mapChange = status && status !== 'none' ? `${status} ${floodZone ?? '?'}` : null;
  }
  return print;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields known in both that differ, in FINGERPRINT_FIELDS order. */
export function changedFields(before: WatchFingerprint, after: WatchFingerprint): FingerprintField[] {
  return FINGERPRINT_FIELDS.filter((field) => field in before && field in after && !same(before[field], after[field]));
}

/** The fingerprint to keep after an answer: what it tells, and what it could not tell kept from before. */
export function mergedFingerprint(before: WatchFingerprint, after: WatchFingerprint): WatchFingerprint {
  const merged: WatchFingerprint = {};
  for (const field of FINGERPRINT_FIELDS) {
    const value = field in after ? after[field] : before[field];
    if (value !== undefined) (merged as Record<string, unknown>)[field] = value;
  }
  return merged;
}

const ZONE_FIELDS: readonly FingerprintField[] = ['basis', 'zones'];
const PANEL_FIELDS: readonly FingerprintField[] = ['panel', 'panelEffectiveDate'];
const LETTER_FIELDS: readonly FingerprintField[] = ['lomrs', 'letterOfMapChange'];
const NFIP_FIELDS: readonly FingerprintField[] = ['nfipParticipating', 'nfipProgram', 'crsClass', 'floodInsuranceRequired'];

/** The most consequential kind the changed fields make, or null when none changed. */
export function eventKindOf(before: WatchFingerprint, after: WatchFingerprint, changed: readonly FingerprintField[]): WatchEventKind | null {
  const has = (fields: readonly FingerprintField[]) => fields.some((field) => changed.includes(field));
  if (changed.includes('inSfha') && after.inSfha === true) return 'entered_sfha';
  if (changed.includes('inSfha') && before.inSfha === true) return 'left_sfha';
  if (has(ZONE_FIELDS) || changed.includes('inSfha')) return 'zone_changed';
  if (has(PANEL_FIELDS)) return 'panel_revised';
  if (has(LETTER_FIELDS)) return 'letter_of_map_change';
  if (has(NFIP_FIELDS)) return 'nfip_status_changed';
  if (changed.includes('coastalBarrier')) return 'coastal_barrier_changed';
  if (changed.includes('mapChange')) return after.mapChange ? 'map_change_coming' : 'map_change_withdrawn';
  return null;
}

/** What a lender must do once a building it lends on is mapped into the SFHA. */
export const ENTERED_SFHA_NOTE =
  'FEMA now maps this building into the Special Flood Hazard Area. A federally regulated lender must notify the borrower and, if the ' +
  'borrower has not bought flood insurance within 45 days of that notice, require it (and may buy it on the borrower’s behalf).';

const NOTES: Record<WatchEventKind, string> = {
  entered_sfha: ENTERED_SFHA_NOTE,
  left_sfha:
    'FEMA no longer maps this building in the Special Flood Hazard Area: federal law no longer requires flood insurance for the loan, though the lender may.',
  zone_changed: 'FEMA’s flood zone here changed.',
  panel_revised: 'The FIRM panel governing this place was revised or replaced.',
  letter_of_map_change: 'A letter of map change (LOMR or LOMA) now applies here, or no longer does.',
  nfip_status_changed: 'The community’s standing in the National Flood Insurance Program changed (participation, program or CRS class).',
  coastal_barrier_changed: 'The Coastal Barrier Resources System status of this place changed.',
  map_change_coming: 'A preliminary or pending FEMA map now covers this place; it does not yet set insurance requirements.',
  map_change_withdrawn: 'The preliminary or pending FEMA map that covered this place no longer does.',
};

/** One location's change between two fingerprints, before it is given an id and a time. */
export interface FingerprintChange {
  kind: WatchEventKind;
  before: Partial<WatchFingerprint>;
  after: Partial<WatchFingerprint>;
  note: string;
  /** The date FEMA gives the change where the fingerprint tells it (the new panel's or LOMR's), else null. */
  effectiveDate: string | null;
}

/** The change from `before` to `after`, or null when no known field changed. */
export function fingerprintChange(before: WatchFingerprint, after: WatchFingerprint): FingerprintChange | null {
  const changed = changedFields(before, after);
  const kind = eventKindOf(before, after, changed);
  if (kind === null) return null;
  const pick = (print: WatchFingerprint) => Object.fromEntries(changed.map((field) => [field, print[field]])) as Partial<WatchFingerprint>;
  return { kind, before: pick(before), after: pick(after), note: NOTES[kind], effectiveDate: effectiveDateOf(before, after, changed) };
}

/** The newest effective date among what is new in `after`: a LOMR's or letter's, else the panel's. */
function effectiveDateOf(before: WatchFingerprint, after: WatchFingerprint, changed: readonly FingerprintField[]): string | null {
  const dates: string[] = [];
  const newLomrs = (after.lomrs ?? []).filter((lomr) => !(before.lomrs ?? []).includes(lomr));
  for (const lomr of newLomrs) dates.push(lomr.split('@')[1]);
  if (changed.includes('letterOfMapChange') && after.letterOfMapChange) dates.push(after.letterOfMapChange.split('@')[1]);
  const dated = dates.filter((date) => /^\d{4}-\d\d-\d\d$/.test(date)).sort();
  if (dated.length > 0) return dated[dated.length - 1];
  return changed.length > 0 && after.panelEffectiveDate && after.panelEffectiveDate !== before.panelEffectiveDate ? after.panelEffectiveDate : null;
}
