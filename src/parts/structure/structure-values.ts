/**
 * How USA Structures writes values: NFHL's spellings of "none" (null, blank, `<Null>`) and its own `-99999` for "no
 * data", in text and number fields alike. Pure functions.
 */
import { nfhlNumber, nfhlText } from '../../flood-hazard/nfhl-values';

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
