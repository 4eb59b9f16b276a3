/**
 * How NFHL writes values: text with many spellings of "none", the -9999 number sentinel, lengths in a
 * LEN_UNIT, dates as epoch milliseconds with a 9999-09-09 placeholder. Pure functions, shared by every rule.
 */
import { OFF_THE_EARTH, isOnEarth } from '../common/geo-point';

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
export function nfhlNumber(value: unknown): number | null {
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
export function lengthInFeet(value: unknown, unit: unknown): number | null {
  const length = nfhlNumber(value);
  if (length === null) return null;
  const unitName = nfhlText(unit)?.toLowerCase();
  if (unitName === 'meters' || unitName === 'meter' || unitName === 'm') return roundToTenth(length * FEET_PER_METER);
  if (unitName === 'centimeters' || unitName === 'centimeter' || unitName === 'cm') {
    return roundToTenth(length / CENTIMETERS_PER_FOOT);
  }
  return length;
}

/** The least and most a length can be, in feet. */
interface FeetBounds {
  lowest: number;
  highest: number;
  /** What a length within them is, for a failure's reason. */
  what: string;
}

/**
 * A flood elevation (STATIC_BFE, a BFE line's ELEV) is a water surface over US land, in NAVD88 or one of the other
 * datums FEMA maps in (NGVD29, PRVD02, local datums), all within a few feet of each other: the lowest land is Badwater
 * Basin in Death Valley, -282 ft, the highest Denali, 20,310 ft. FEMA's own elevations lie well inside (the Salton Sea
 * shore near -220 ft, Colorado mountain towns near 10,000 ft): a value beyond these bounds is no elevation at all.
 */
const FLOOD_ELEVATION: FeetBounds = { lowest: -300, highest: 21_000, what: 'a flood elevation' };

/**
 * A flood depth (DEPTH, mapped for AO zones, whose sheet flow is 1 to 3 ft by definition) is never below 0, and no
 * mapped flood is 100 ft deep: FEMA maps deep water by its elevation, not its depth.
 */
const FLOOD_DEPTH: FeetBounds = { lowest: 0, highest: 100, what: 'a flood depth' };

/** The NFHL fields whose values are lengths in their feature's LEN_UNIT, and what they can be. */
const LENGTH_FIELDS: Record<string, FeetBounds> = { STATIC_BFE: FLOOD_ELEVATION, ELEV: FLOOD_ELEVATION, DEPTH: FLOOD_DEPTH };

/**
 * What is wrong with the values of an NFHL feature, or null: an elevation or depth outside what a flood can be (in
 * feet, whatever its LEN_UNIT), or a place (LAT, LON) off the earth. None of these is an answer to give: shown, a BFE
 * of 1e308 ft would be read as one. The "no value" sentinels are no problem.
 */
export function nfhlValueProblem(attributes: Record<string, unknown>): string | null {
  for (const [field, { lowest, highest, what }] of Object.entries(LENGTH_FIELDS)) {
    const feet = lengthInFeet(attributes[field], attributes.LEN_UNIT);
    if (feet === null || (feet >= lowest && feet <= highest)) continue;
    const unit = nfhlText(attributes.LEN_UNIT);
    return `${field} ${String(attributes[field])}${unit === null ? '' : ` ${unit}`} is not ${what} (${lowest} to ${highest} ft)`;
  }
  const [lat, lon] = [nfhlNumber(attributes.LAT), nfhlNumber(attributes.LON)];
  if (lat !== null && lon !== null && !isOnEarth({ lat, lon })) return `LAT ${lat}, LON ${lon}: ${OFF_THE_EARTH}`;
  return null;
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
