import { parse as parseTolerantly, ParseError, printParseErrorCode } from 'jsonc-parser';
import { invalidBatch, tooManyRows } from './batch-input-errors';

/**
 * The rows of an `application/json` batch, `{ "locations": [ … ] }`: each element as sent (readBatchRow
 * judges it on its own). Throws 400 INVALID_BATCH saying where the JSON breaks or what is missing, or 413
 * past `maxRows` elements.
 */
export function readJsonLocations(body: Buffer, maxRows: number): unknown[] {
  const text = body.toString('utf8').replace(/^\uFEFF/, '');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw invalidBatch(`The JSON body is malformed ${whereBroken(text)}.`);
  }
  const locations = typeof document === 'object' && document !== null ? (document as { locations?: unknown }).locations : undefined;
  if (!Array.isArray(locations)) throw invalidBatch('The JSON body must be an object with a "locations" array.');
  if (locations.length === 0) throw invalidBatch('"locations" is empty: give at least one location.');
  if (locations.length > maxRows) throw tooManyRows(maxRows);
  return locations;
}

/** Where and how strict JSON breaks ("at line 3, column 12: ValueExpected"): JSON.parse does not say where. */
function whereBroken(text: string): string {
  const errors: ParseError[] = [];
  parseTolerantly(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const [first] = errors;
  if (!first) return 'at the end';
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  return `at line ${line}, column ${before.length - before.lastIndexOf('\n')}: ${printParseErrorCode(first.error)}`;
}
