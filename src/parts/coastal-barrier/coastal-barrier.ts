/**
 * Coastal Barrier Resources System status of a point (`include=cbrs`), from the U.S. Fish and
 * Wildlife Service's "CBRS Prohibitions" and "CBRS Buffer Zone" layers. Pure functions: no I/O, no
 * clock, no locale.
 */
import { formatNfhlDate, nfhlText } from '../../flood-hazard/nfhl-values';
import { CbrsProhibitionAttributes, CoastalBarrier } from '../../flood-hazard/flood-hazard.types';

export const COASTAL_BARRIER_NOTES: Readonly<Record<CoastalBarrier['status'], string>> = {
  inside: 'New federal flood insurance is generally unavailable here for buildings built or substantially improved after the prohibition date.',
  buffer:
    'The point is in the buffer zone along a Coastal Barrier Resources System boundary, where the map alone cannot settle it: ask the U.S. Fish and Wildlife Service for an official CBRS determination.',
  outside: 'The point is outside the Coastal Barrier Resources System, so its federal flood insurance prohibition does not apply here.',
};

/**
 * System Units come first: there the prohibition covers nearly all federal spending, not only flood
 * insurance as in an Otherwise Protected Area, so it is the stronger statement about the place.
 */
const CBRS_TYPE_ORDER: ReadonlyMap<string, number> = new Map([
  ['system unit', 0],
  ['otherwise protected area', 1],
]);

/**
 * Where the point is in CBRS terms. With several prohibition polygons at the point (overlapping
 * units, a System Unit beside an OPA), one is chosen deterministically: System Unit before OPA, then
 * the earliest prohibition date (the rule that has applied longest, so it covers every building the
 * later ones do), then the unit name.
 */
export function coastalBarrierAt(prohibitions: CbrsProhibitionAttributes[], inBufferZone: boolean): CoastalBarrier {
  const [chosen] = prohibitions
    .map((attributes) => ({
      unit: nfhlText(attributes.Unit),
      type: nfhlText(attributes.CBRS_Type),
      date: floodInsuranceProhibitionDate(attributes.FI_Date),
    }))
    .sort((a, b) => typeRank(a.type) - typeRank(b.type) || compareDatesEarliestFirst(a.date, b.date) || compareText(a.unit, b.unit));
  if (chosen) {
    return {
      status: 'inside',
      unit: chosen.unit,
      type: chosen.type,
      floodInsuranceProhibitionDate: chosen.date,
      note: COASTAL_BARRIER_NOTES.inside,
    };
  }
  const status = inBufferZone ? 'buffer' : 'outside';
  return { status, unit: null, type: null, floodInsuranceProhibitionDate: null, note: COASTAL_BARRIER_NOTES[status] };
}

function typeRank(type: string | null): number {
  return CBRS_TYPE_ORDER.get(type?.toLowerCase() ?? '') ?? CBRS_TYPE_ORDER.size;
}

/** YYYY-MM-DD strings sort as dates; a missing date goes last. */
function compareDatesEarliestFirst(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** Code-unit order, not a locale's: the same on every machine. */
function compareText(a: string | null, b: string | null): number {
  const left = a ?? '';
  const right = b ?? '';
  return left < right ? -1 : left > right ? 1 : 0;
}

const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(AM|PM)?)?$/i;
const EPOCH_MS = /^-?\d{9,}$/;

/** A date and time as written, before it is checked and moved to UTC. */
interface WrittenDate {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Milliseconds east of UTC; 0 for "Z" or no zone. */
  offsetMs: number;
}

/**
 * FI_Date as a UTC YYYY-MM-DD. The service has sent it both as an ArcGIS date (epoch ms) and as text:
 * "1990-11-16", "1990-11-16T00:00:00Z", "1990-11-16 00:00:00", "11/16/1990", "11/16/1990 12:00:00 AM",
 * or epoch ms as digits. A written date is that calendar date; a written time with a zone is converted
 * to UTC; a time without a zone is read as UTC, never as the server's local time. "Null", blanks and
 * anything unreadable are null: an unknown date, not a guess.
 */
export function floodInsuranceProhibitionDate(value: number | string | null | undefined): string | null {
  if (typeof value === 'number') return formatNfhlDate(value);
  const text = nfhlText(value);
  if (text === null || text.toLowerCase() === 'null') return null;
  if (EPOCH_MS.test(text)) return formatNfhlDate(Number(text));
  const written = readIsoDate(text) ?? readUsDate(text);
  return written === null ? null : utcDate(written);
}

function readIsoDate(text: string): WrittenDate | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const [, year, month, day, hour = '0', minute = '0', second = '0', zone] = match;
  return { year: +year, month: +month, day: +day, hour: +hour, minute: +minute, second: +second, offsetMs: zoneOffsetMs(zone) };
}

function readUsDate(text: string): WrittenDate | null {
  const match = US_DATE.exec(text);
  if (!match) return null;
  const [, month, day, year, hour = '0', minute = '0', second = '0', meridiem] = match;
  let hour24 = +hour;
  if (meridiem !== undefined) {
    if (hour24 < 1 || hour24 > 12) return null;
    hour24 = (hour24 % 12) + (meridiem.toUpperCase() === 'PM' ? 12 : 0);
  }
  return { year: +year, month: +month, day: +day, hour: hour24, minute: +minute, second: +second, offsetMs: 0 };
}

/** "+05:00" / "-0500" / "Z" / none as milliseconds east of UTC. */
function zoneOffsetMs(zone: string | undefined): number {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
}

/** The UTC date of a written date and time, or null when it is no real calendar date or clock time. */
function utcDate({ year, month, day, hour, minute, second, offsetMs }: WrittenDate): string | null {
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const asWritten = new Date(ms);
  // Date.UTC rolls 1990-02-30 over into March: such a date never existed.
  if (asWritten.getUTCFullYear() !== year || asWritten.getUTCMonth() !== month - 1 || asWritten.getUTCDate() !== day) {
    return null;
  }
  return formatNfhlDate(ms - offsetMs);
}
