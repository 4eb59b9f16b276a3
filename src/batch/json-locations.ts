import { createScanner, parse as parseTolerantly, ParseError, printParseErrorCode, visit } from 'jsonc-parser';
import { invalidBatch, tooManyRows } from './batch-input-errors';

/** How deep a batch body may nest: a row needs 3 levels; deeper bodies are refused before any parser recurses into them. */
const MAX_DEPTH = 32;

/** jsonc-parser's SyntaxKind.EOF (a const enum, which isolated modules cannot read). */
const EOF = 17;

/**
 * The rows of an `application/json` batch, `{ "locations": [ … ] }`: each element as sent (readBatchRow
 * judges it on its own), except that a numeric lat or lon is its plain decimal text, so a row reads it as GET
 * reads text. Throws 400 INVALID_BATCH saying where the JSON breaks, what is missing or that it nests too
 * deep, or 413 past `maxRows` elements.
 */
export function readJsonLocations(body: Buffer, maxRows: number): unknown[] {
  const text = body.toString('utf8').replace(/^\uFEFF/, '');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    refuseDeepNesting(text);
    throw invalidBatch(`The JSON body is malformed ${whereBroken(text)}.`);
  }
  // JSON.parse copes with any depth; what reads the text again (jsonc-parser) recurses, and nobody needs it.
  if (nestsDeeperThan(document, MAX_DEPTH)) refuseDeepNesting(text);
  const locations = typeof document === 'object' && document !== null ? (document as { locations?: unknown }).locations : undefined;
  if (!Array.isArray(locations)) throw invalidBatch('The JSON body must be an object with a "locations" array.');
  if (locations.length === 0) throw invalidBatch('"locations" is empty: give at least one location.');
  if (locations.length > maxRows) throw tooManyRows(maxRows);
  writeCoordinatesAsText(text, locations);
  return locations;
}

/** Whether a parsed value holds arrays or objects more than `levels` deep (itself counting as one). */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return levels === 0 || Object.values(value).some((inner) => nestsDeeperThan(inner, levels - 1));
}

/** Throws 400 INVALID_BATCH, naming the line, when the text nests arrays and objects more than MAX_DEPTH deep. */
function refuseDeepNesting(text: string): void {
  const scanner = createScanner(text, true);
  let depth = 0;
  while (scanner.scan() !== EOF) {
    // Brackets are one-character tokens; a string token, even "[", is longer (its quotes).
    const token = scanner.getTokenLength() === 1 ? text[scanner.getTokenOffset()] : '';
    if (token === '[' || token === '{') depth += 1;
    else if (token === ']' || token === '}') depth -= 1;
    if (depth > MAX_DEPTH) {
      throw invalidBatch(`The JSON body nests arrays and objects more than ${MAX_DEPTH} levels deep (at line ${scanner.getTokenStartLine() + 1}).`);
    }
  }
}

const isRow = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const COORDINATE_LIMITS = [
  ['lat', 90],
  ['lon', 180],
] as const;

/**
 * Each numeric lat and lon of a row as plain decimal text. A number that parsed to exactly ±90 or ±180 is
 * read again from the text it was written as: there, and only there, the rounding of JSON.parse can decide
 * the range check (90.00000000000000001 parses to 90, in range, where GET reads the same text as beyond 90).
 */
function writeCoordinatesAsText(text: string, locations: unknown[]): void {
  const onTheLimit = new Set<string>();
  locations.forEach((row, index) => {
    if (!isRow(row)) return;
    for (const [field, limit] of COORDINATE_LIMITS) {
      const value = row[field];
      if (typeof value !== 'number') continue;
      if (Math.abs(value) === limit) onTheLimit.add(`${index} ${field}`);
      row[field] = plainDecimal(String(value)) ?? value;
    }
  });
  if (onTheLimit.size > 0) writeCoordinatesAsSent(text, locations, onTheLimit);
}

/** The coordinates at `places` ("index field") replaced by the exact text they were written as; the last of repeated keys wins, as in JSON.parse. */
function writeCoordinatesAsSent(text: string, locations: unknown[], places: Set<string>): void {
  // The document parsed, but a repeated key may hide deep nesting JSON.parse dropped: visit recurses into it.
  refuseDeepNesting(text);
  const written = new Map<string, string>();
  visit(text, {
    onLiteralValue: (value: unknown, offset: number, length: number, _line: number, _character: number, pathOf: () => Array<string | number>) => {
      if (typeof value !== 'number') return;
      const [top, index, field, ...deeper] = pathOf();
      const place = `${index} ${field}`;
      if (top === 'locations' && deeper.length === 0 && places.has(place)) written.set(place, text.slice(offset, offset + length));
    },
  });
  for (const [place, number] of written) {
    const [index, field] = place.split(' ');
    const row = locations[Number(index)] as Record<string, unknown>;
    row[field] = plainDecimal(number) ?? row[field];
  }
}

/** Beyond this exponent a coordinate is absurd either way, and its plain decimal text would be huge: it stays a number (a 400). */
const MAX_EXPONENT = 400;

/** A number's text (JSON's or JavaScript's) as a plain decimal, exactly: 1e-7 is "0.0000001", 1.25e+22 is "125" and 20 zeros; undefined past MAX_EXPONENT. */
export function plainDecimal(number: string): string | undefined {
  const parts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(number);
  if (!parts) return undefined;
  const [, sign, whole, fraction = '', exponent] = parts;
  if (exponent === undefined) return number;
  const power = Number(exponent);
  if (Math.abs(power) > MAX_EXPONENT) return undefined;
  const digits = whole + fraction;
  // How many digits stand before the decimal point once the exponent is applied.
  const point = whole.length + power;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  const integer = point >= digits.length ? digits + '0'.repeat(point - digits.length) : digits.slice(0, point);
  const rest = digits.slice(point);
  return `${sign}${integer.replace(/^0+(?=\d)/, '')}${rest ? `.${rest}` : ''}`;
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
