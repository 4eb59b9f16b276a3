/**
 * A community's standing in the National Flood Insurance Program, from FEMA's Community Status Book as OpenFEMA
 * publishes it (dataset NfipCommunityStatusBook). Pure: no I/O, no clock, no locale. docs/api.md describes
 * `result.community.nfip`.
 */

/** One row of the table as OpenFEMA sends it: every field may be missing or of an unexpected type. */
export interface CommunityStatusRow {
  communityIdNumber?: unknown;
  communityName?: unknown;
  participatingInNFIP?: unknown;
  classRating?: unknown;
  sfhaDiscount?: unknown;
  nonSfhaDiscount?: unknown;
  currentlyEffectiveMapDate?: unknown;
  regularEmergencyProgramDate?: unknown;
  /** The date of the community's first FIRM; none (null) while it has only a Flood Hazard Boundary Map or no map at all. */
  initialFloodInsuranceRateMap?: unknown;
  lastRefresh?: unknown;
}

/** The fields of a row this rule reads (what a download asks OpenFEMA for with `$select`). */
export const COMMUNITY_STATUS_FIELDS: ReadonlyArray<keyof CommunityStatusRow> = [
  'communityIdNumber',
  'communityName',
  'participatingInNFIP',
  'classRating',
  'sfhaDiscount',
  'nonSfhaDiscount',
  'currentlyEffectiveMapDate',
  'regularEmergencyProgramDate',
  'initialFloodInsuranceRateMap',
  'lastRefresh',
];

/**
 * The NFIP's two programs: the emergency program (a first phase, before the community has a Flood Insurance Rate
 * Map, with lower coverage limits) and the regular program.
 */
export type NfipProgram = 'regular' | 'emergency';

/** `result.community.nfip`. */
export interface NfipStatus {
  /** Whether the Community Status Book lists the community at all. */
  listed: boolean;
  participating: boolean | null;
  /** The program a participating community is in; null when it does not participate, or the book does not tell. */
  program: NfipProgram | null;
  /** Federal flood insurance can be bought here exactly when the community participates. */
  floodInsuranceAvailable: boolean | null;
  /** Community Rating System class 1-9; null when the community is not in the CRS (class 10, 0 or none). */
  crsClass: number | null;
  sfhaDiscountPercent: number | null;
  nonSfhaDiscountPercent: number | null;
  currentEffectiveMapDate: string | null;
  programEntryDate: string | null;
  /** The date FEMA last refreshed the row. */
  asOf: string | null;
  note: string;
}

export const NOT_LISTED_NOTE = "This community is not in FEMA's Community Status Book; whether federal flood insurance is available here is unknown.";

/** A community id the table lacks: unknown, never "not available". */
export const NOT_LISTED: Readonly<NfipStatus> = Object.freeze({
  listed: false,
  participating: null,
  program: null,
  floodInsuranceAvailable: null,
  crsClass: null,
  sfhaDiscountPercent: null,
  nonSfhaDiscountPercent: null,
  currentEffectiveMapDate: null,
  programEntryDate: null,
  asOf: null,
  note: NOT_LISTED_NOTE,
});

/** A listed community as the index keeps it: its answer, and whether its row dates a map. */
interface CommunityStatusEntry {
  status: Readonly<NfipStatus>;
  mapDated: boolean;
}

/**
 * The table indexed once per download: a lookup is one or two Map reads, and every row's answer is built
 * (and frozen) here, so a join costs no parsing.
 */
export class CommunityStatusIndex {
  /** By the published id, trimmed and upper-cased ("480296", "48201C", "480287#"). */
  private readonly exact = new Map<string, CommunityStatusEntry>();
  /** By the first six digits of a published id; a plain six-digit id wins over a suffixed one. */
  private readonly bySixDigits = new Map<string, CommunityStatusEntry>();

  constructor(rows: readonly CommunityStatusRow[]) {
    for (const row of rows) {
      const id = communityKey(row.communityIdNumber);
      if (id !== null && !this.exact.has(id)) this.exact.set(id, { status: Object.freeze(nfipStatusOf(row)), mapDated: rowDatesAMap(row) });
    }
    for (const [id, entry] of this.exact) {
      const six = sixDigits(id);
      if (six !== null && (id === six || !this.bySixDigits.has(six))) this.bySixDigits.set(six, entry);
    }
  }

  /** Communities indexed (distinct published ids). */
  get size(): number {
    return this.exact.size;
  }

  /** The community's standing: an exact match on the published id first, else on its first six digits; `listed: false` when neither. */
  lookup(communityId: string): Readonly<NfipStatus> {
    return this.entryOf(communityId)?.status ?? NOT_LISTED;
  }

  /** Whether the community's row gives a map date (its initial FIRM, or its current effective map); null when the book does not list it. */
  mapDated(communityId: string): boolean | null {
    return this.entryOf(communityId)?.mapDated ?? null;
  }

  private entryOf(communityId: string): CommunityStatusEntry | undefined {
    const id = communityKey(communityId);
    if (id === null) return undefined;
    const six = sixDigits(id);
    return this.exact.get(id) ?? (six === null ? undefined : this.bySixDigits.get(six));
  }
}

/**
 * Whether the book's row dates a map of the community: its initial FIRM, or its current effective map (a FIRM, or a
 * Flood Hazard Boundary Map in the emergency program). A row with neither lists the community with no NFIP map at all.
 */
export function rowDatesAMap(row: CommunityStatusRow): boolean {
  return communityStatusDate(row.initialFloodInsuranceRateMap) !== null || communityStatusDate(row.currentlyEffectiveMapDate) !== null;
}

/** The answer for one listed community. */
export function nfipStatusOf(row: CommunityStatusRow): NfipStatus {
  const participating = yesNo(row.participatingInNFIP);
  const crsClass = crsClassOf(row.classRating);
  // Outside the CRS there is no community discount, whatever the discount columns hold.
  const sfhaDiscountPercent = crsClass === null ? null : discountPercent(row.sfhaDiscount);
  const nonSfhaDiscountPercent = crsClass === null ? null : discountPercent(row.nonSfhaDiscount);
  const program = participating === true ? programOf(row) : null;
  return {
    listed: true,
    participating,
    program,
    floodInsuranceAvailable: participating,
    crsClass,
    sfhaDiscountPercent,
    nonSfhaDiscountPercent,
    currentEffectiveMapDate: communityStatusDate(row.currentlyEffectiveMapDate),
    programEntryDate: communityStatusDate(row.regularEmergencyProgramDate),
    asOf: communityStatusDate(row.lastRefresh),
    note: listedNote(participating, program, crsClass, sfhaDiscountPercent, nonSfhaDiscountPercent),
  };
}

/**
 * A participating community's program: the regular program once it has a FIRM (the book's date of its initial FIRM),
 * else the emergency program. A community without a Special Flood Hazard Area, which the book marks "(NSFHA)" in place
 * of its current map date, is in the regular program without a FIRM (FEMA's community data dictionary: "no SFHA -
 * Regular Program with no FIRM"). A row without the field, or with a FIRM date that cannot be read, leaves the
 * program unknown.
 */
function programOf(row: CommunityStatusRow): NfipProgram | null {
  const firm = row.initialFloodInsuranceRateMap;
  if (firm === undefined) return null;
  if (firm !== null && firm !== '') return communityStatusDate(firm) === null ? null : 'regular';
  return typeof row.currentlyEffectiveMapDate === 'string' && /NSFHA/i.test(row.currentlyEffectiveMapDate) ? 'regular' : 'emergency';
}

function listedNote(participating: boolean | null, program: NfipProgram | null, crsClass: number | null, sfha: number | null, nonSfha: number | null): string {
  if (participating === false) {
    return "Federal flood insurance (NFIP) is not available: FEMA's Community Status Book lists the community as not participating in the program.";
  }
  if (participating === null) {
    return "FEMA's Community Status Book lists the community but does not say whether it participates; whether federal flood insurance is available here is unknown.";
  }
  const available =
    program === 'emergency'
      ? "Federal flood insurance (NFIP) is available: the community participates, in the program's emergency phase, where coverage limits are lower."
      : 'Federal flood insurance (NFIP) is available: the community participates.';
  if (crsClass === null) return `${available} It is not in the Community Rating System, so policies here get no community discount.`;
  const discounts = [sfha === null ? null : `a ${sfha}% discount in the SFHA`, nonSfha === null ? null : `${nonSfha}% outside it`].filter(
    (part): part is string => part !== null,
  );
  if (discounts.length === 0) return `${available} It is in Community Rating System class ${crsClass}; the book gives no discount for it.`;
  const discount = sfha === null ? `a ${nonSfha}% discount outside the SFHA` : discounts.join(' and ');
  return `${available} Its Community Rating System class ${crsClass} gives ${discount}.`;
}

/** The id as published, trimmed and upper-cased; null when there is none. */
export function communityKey(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const id = String(value).trim().toUpperCase();
  return id === '' ? null : id;
}

/** The six-digit community number an id starts with ("480287" of "480287#" or "480287B"); null when it does not start with six digits. */
export function sixDigits(id: string): string | null {
  return /^\d{6}/.test(id) ? id.slice(0, 6) : null;
}

function yesNo(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return null;
  const word = value.trim().toLowerCase();
  if (['true', 'yes', 'y', '1'].includes(word)) return true;
  if (['false', 'no', 'n', '0'].includes(word)) return false;
  return null;
}

/** Classes 1 (best) to 9; 10, 0 or nothing means the community is not in the CRS. */
function crsClassOf(value: unknown): number | null {
  const n = numberIn(value);
  return n !== null && Number.isInteger(n) && n >= 1 && n <= 9 ? n : null;
}

/** A whole percent; null when there is no discount. A fraction (0.25) is read as the share it is. */
function discountPercent(value: unknown): number | null {
  const n = numberIn(value);
  if (n === null || n <= 0 || n > 100) return null;
  return Math.round(n < 1 ? n * 100 : n);
}

/** A number, or a text holding one ("5", " 25% "); null otherwise. */
function numberIn(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(value);
  return match ? Number(match[1]) : null;
}

const ISO_DATE = /(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/;
const US_DATE = /(?<!\d)(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?!\d)/;

/**
 * A date of the book as `YYYY-MM-DD` (UTC): ISO (a timestamp is taken in UTC) or `MM/DD/YY` / `MM/DD/YYYY`,
 * where a two-digit year from 68 on is 19xx (the program began in 1968). Text beside the date, such as a
 * map note "(L)" or "(M)", is dropped; anything without a real calendar date is null.
 */
export function communityStatusDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const iso = ISO_DATE.exec(value);
  if (iso) {
    const [text, year, month, day, time] = iso;
    if (time !== undefined && /(?:Z|[+-]\d{2}:?\d{2})$/.test(time)) {
      const at = new Date(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
      return Number.isNaN(at.getTime()) || !calendarDate(Number(year), Number(month), Number(day)) ? null : at.toISOString().slice(0, 10);
    }
    return calendarDate(Number(year), Number(month), Number(day));
  }
  const us = US_DATE.exec(value);
  if (!us) return null;
  const [, month, day, yearText] = us;
  const shortYear = Number(yearText);
  const year = yearText.length === 4 ? shortYear : shortYear >= 68 ? 1900 + shortYear : 2000 + shortYear;
  return calendarDate(year, Number(month), Number(day));
}

function calendarDate(year: number, month: number, day: number): string | null {
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  return at.toISOString().slice(0, 10);
}
