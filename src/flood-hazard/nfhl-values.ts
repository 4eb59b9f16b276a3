/**
 * How NFHL writes values: text with many spellings of "none", the -9999 number sentinel, lengths in a
 * LEN_UNIT, dates as epoch milliseconds with a 9999-09-09 placeholder. Pure functions, shared by every rule.
 */

/** NFHL's numeric "no value" sentinel. */
const NFHL_NUMBER_NONE = -9999;

const FEET_PER_METER = 3.28084;
const CENTIMETERS_PER_FOOT = 30.48;

/** NFHL text with its many spellings of "none" (null, "", " ", "<Null>", "-9999") reduced to null. */
export function nfhlText(value: unknown): string | null {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value !== NFHL_NUMBER_NONE ? String(value) : null;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '' || text === '-9999' || text.toLowerCase() === '<null>') return null;
  return text;
}

/** A usable NFHL number, or null for null/undefined/NaN and the -9999 sentinel. */
export function nfhlNumber(value: number | null | undefined): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value === NFHL_NUMBER_NONE) return null;
  return value;
}

/** Feet are published and shown to one decimal. */
export function roundToTenth(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * A length (BFE or depth) in feet. NFHL publishes most lengths in feet; LEN_UNIT names the
 * exceptions. A missing or unrecognised unit is taken as feet, NFHL's default.
 */
export function lengthInFeet(value: number | null | undefined, unit: string | null | undefined): number | null {
  const length = nfhlNumber(value);
  if (length === null) return null;
  const unitName = nfhlText(unit)?.toLowerCase();
  if (unitName === 'meters' || unitName === 'meter' || unitName === 'm') return roundToTenth(length * FEET_PER_METER);
  if (unitName === 'centimeters' || unitName === 'centimeter' || unitName === 'cm') {
    return roundToTenth(length / CENTIMETERS_PER_FOOT);
  }
  return length;
}

/** Epoch ms of a real NFHL date, or null for sentinels and the 9999-09-09 "no date" placeholder. */
export function nfhlEpochMs(value: number | null | undefined): number | null {
  const ms = nfhlNumber(value);
  if (ms === null) return null;
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return null;
  // NFHL writes 9999-09-09 for "no date"; any date that far out is a placeholder, not a real date.
  if (date.getUTCFullYear() >= 9999) return null;
  return ms;
}

/**
 * An NFHL date (epoch ms, UTC midnight) as YYYY-MM-DD in UTC. Local time would move dates a day back
 * in US time zones, so only UTC is used.
 */
export function formatNfhlDate(value: number | null | undefined): string | null {
  const ms = nfhlEpochMs(value);
  return ms === null ? null : new Date(ms).toISOString().slice(0, 10);
}

/** Sort order for "higher first", with unknown values last. */
export function compareDescendingNullsLast(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return b - a;
}
