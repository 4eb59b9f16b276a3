import { createScanner, parse as parseTolerantly, ParseError, printParseErrorCode, visit } from 'jsonc-parser';
import type { ApiError } from './api-error';

/**
 * Reading a JSON request body strictly, and saying where it breaks: the batch's and the lookup's bodies alike. Each
 * endpoint refuses with its own envelope code (`refuse`); the messages are the same.
 */

/** How deep a JSON body may nest: deeper bodies are refused before any parser recurses into them, and nobody needs more. */
export const JSON_MAX_DEPTH = 32;

/** The message refusing a body nested deeper than JSON_MAX_DEPTH, saying where. */
export const nestedTooDeep = (where: string) => `The JSON body nests arrays and objects more than ${JSON_MAX_DEPTH} levels deep (${where}).`;

/** Makes the error an endpoint answers a body it cannot read with (400, in its own envelope code). */
export type BodyRefusal = (message: string) => ApiError;

/** jsonc-parser's SyntaxKind.EOF (a const enum, which isolated modules cannot read). */
const EOF = 17;

/**
 * The body's JSON value and its text (a leading byte order mark dropped). Malformed JSON is refused saying where it
 * breaks, and nesting deeper than JSON_MAX_DEPTH saying on which line.
 */
export function parseJsonBody(body: Buffer, refuse: BodyRefusal): { document: unknown; text: string } {
  const text = body.toString('utf8').replace(/^\uFEFF/, '');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    refuseDeepNesting(text, refuse);
    throw refuse(`The JSON body is malformed ${whereBroken(text)}.`);
  }
  // JSON.parse copes with any depth; what reads the text again (jsonc-parser) recurses, and nobody needs it.
  if (nestsDeeperThan(document, JSON_MAX_DEPTH)) refuseDeepNesting(text, refuse);
  return { document, text };
}

/** Whether a parsed value holds arrays or objects more than `levels` deep (itself counting as one). */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return levels === 0 || Object.values(value).some((inner) => nestsDeeperThan(inner, levels - 1));
}

/** Refuses the text, naming the line, when it nests arrays and objects more than JSON_MAX_DEPTH deep. */
function refuseDeepNesting(text: string, refuse: BodyRefusal): void {
  const scanner = createScanner(text, true);
  let depth = 0;
  while (scanner.scan() !== EOF) {
    // Brackets are one-character tokens; a string token, even "[", is longer (its quotes).
    const token = scanner.getTokenLength() === 1 ? text[scanner.getTokenOffset()] : '';
    if (token === '[' || token === '{') depth += 1;
    else if (token === ']' || token === '}') depth -= 1;
    if (depth > JSON_MAX_DEPTH) throw refuse(nestedTooDeep(`at line ${scanner.getTokenStartLine() + 1}`));
  }
}

/** A place in a JSON document: the steps of its path (`jsonPlace('locations', 3, 'lon')`), as numbersAsWritten finds it. */
export const jsonPlace = (...steps: Array<string | number>): string => JSON.stringify(steps);

/**
 * The numbers at `places` (see jsonPlace) exactly as the text writes them, by place; the last of repeated keys wins,
 * as in JSON.parse. For text parseJsonBody read.
 */
export function numbersAsWritten(text: string, places: ReadonlySet<string>, refuse: BodyRefusal): Map<string, string> {
  // The document parsed, but a repeated key may hide deep nesting JSON.parse dropped: visit recurses into it.
  refuseDeepNesting(text, refuse);
  const written = new Map<string, string>();
  visit(text, {
    onLiteralValue: (value: unknown, offset: number, length: number, _line: number, _character: number, pathOf: () => Array<string | number>) => {
      if (typeof value !== 'number') return;
      const place = jsonPlace(...pathOf());
      if (places.has(place)) written.set(place, text.slice(offset, offset + length));
    },
  });
  return written;
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

/** A parsed number as plain decimal text (one too large for any, a 400 either way, stays a number). */
export const numberAsPlainDecimal = (value: number): string | number => plainDecimal(String(value)) ?? value;

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
