/**
 * How USA Structures writes values: NFHL's spellings of "none" (null, blank, `<Null>`) and its own `-99999` for "no
 * data", in text and number fields alike. Pure functions.
 */
import { nfhlNumber, nfhlText } from '../../flood-hazard/nfhl-values';
import type { StructureAttributes } from './structure.types';

/** USA Structures' "no data". */
const NO_DATA = -99999;

/** A field as text (BUILD_ID is a number in the layer, a string in the answer), or null for every spelling of "none". */
export function structureText(value: unknown): string | null {
  const text = nfhlText(value);
  return text === String(NO_DATA) ? null : text;
}

/** A usable number, or null for null, NaN and both sentinels. */
export function structureNumber(value: number | null | undefined): number | null {
  const number = nfhlNumber(value);
  return number === NO_DATA ? null : number;
}

/** A census tract's GEOID: 2-digit state, 3-digit county, 6-digit tract. */
export const TRACT_DIGITS = 11;
/** A tract's GEOID, or a block group's (1 digit more) or a block's (4 more) that lies in it. */
const TRACT_OR_FINER = /^\d{11,15}$/;

/**
 * The census tract USA Structures names for a building: CENSUSCODE, the tract's 11-digit GEOID (a longer code, a block
 * group's or a block's, is read as the tract it lies in). Null when it names none for sure: not all digits, shorter
 * than a tract's or longer than a block's, a state, county or tract code of zeros, or a county other than the building's
 * FIPS. A code that is not a tract is never guessed at: the lookup then takes the geocoder's tract.
 */
export function buildingTract({ CENSUSCODE, FIPS }: Pick<StructureAttributes, 'CENSUSCODE' | 'FIPS'>): string | null {
  const code = structureText(CENSUSCODE);
  if (code === null || !TRACT_OR_FINER.test(code)) return null;
  const tract = code.slice(0, TRACT_DIGITS);
  if (/^00/.test(tract) || tract.slice(2, 5) === '000' || tract.slice(5) === '000000') return null;
  const county = structureText(FIPS);
  return county !== null && /^\d{5}$/.test(county) && county !== tract.slice(0, 5) ? null : tract;
}
