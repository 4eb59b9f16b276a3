import { pipeline, Readable } from 'node:stream';
import { createScanner, parse as parseTolerantly, ParseError, printParseErrorCode, visit } from 'jsonc-parser';
import Parser from 'stream-json/Parser';
import { pick } from 'stream-json/filters/Pick';
import { streamArray } from 'stream-json/streamers/StreamArray';
import { ApiError } from '../common/api-error';
import { invalidBatch, tooManyRows } from './batch-input-errors';

/** How deep a batch body may nest: a row needs 3 levels; deeper bodies are refused before any parser recurses into them. */
const MAX_DEPTH = 32;

const NO_LOCATIONS = 'The JSON body must be an object with a "locations" array.';
const NO_ROWS = '"locations" is empty: give at least one location.';
const tooDeep = (where: string) => invalidBatch(`The JSON body nests arrays and objects more than ${MAX_DEPTH} levels deep (${where}).`);

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
  if (!Array.isArray(locations)) throw invalidBatch(NO_LOCATIONS);
  if (locations.length === 0) throw invalidBatch(NO_ROWS);
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
    if (depth > MAX_DEPTH) throw tooDeep(`at line ${scanner.getTokenStartLine() + 1}`);
  }
}

const isRow = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const COORDINATE_LIMITS = [
  ['lat', 90],
  ['lon', 180],
] as const;

/** A numeric coordinate as plain decimal text (a number too large for any, a 400 either way, stays a number). */
const asPlainDecimal = (value: number): string | number => plainDecimal(String(value)) ?? value;

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
      row[field] = asPlainDecimal(value);
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

/** A token of stream-json's parser (values packed, not streamed in pieces). */
interface JsonToken {
  name: string;
  value?: string;
}

/** Where stream-json's Parser (v1) parses what it was given, pushing each token as it goes, then calls back (with its error). */
interface ParserInternals {
  _processBuffer(callback: (error?: Error | null) => void): void;
}

const LIMIT_OF = new Map<string, number>(COORDINATE_LIMITS);

/**
 * A JSON parser that checks the tokens as it makes them: an object whose "locations" (named once) is an
 * array, nesting at most MAX_DEPTH levels; and writes each element's numeric lat and lon as the text
 * readJsonLocations would give (here the text as sent is at hand, so a number on the limit needs no second
 * read). Checking at the moment a token is made, not further down the stream, knows exactly where the body
 * breaks: a failing stream drops the tokens it had made but not yet passed on.
 */
class LocationsParser extends Parser {
  /** The arrays and objects open around the next token. */
  private readonly open: Array<'object' | 'array'> = [];
  private part: 'before' | 'locations' | 'after' = 'before';
  private locationsNext = false;
  /** The element of "locations" being read. */
  private element = 0;
  /** The field of the element whose value comes next. */
  private field?: string;
  /** Why the body is refused, once it is: no token is passed on after it. */
  private refusal?: Error;

  constructor() {
    super({ streamValues: false });
  }

  get sawLocations(): boolean {
    return this.part !== 'before';
  }

  /** Where in the body the parser is, in words. */
  where(): string {
    if (this.part === 'before') return 'before its "locations" array';
    if (this.part === 'after') return 'after its "locations" array';
    return `at element ${this.element} of "locations"`;
  }

  override push(token: JsonToken | null): boolean {
    if (token === null) return super.push(null);
    if (this.refusal) return false;
    try {
      return super.push(this.checked(token));
    } catch (error) {
      this.refusal = error as Error;
      return false;
    }
  }

  _processBuffer(callback: (error?: Error | null) => void): void {
    (Parser.prototype as unknown as ParserInternals)._processBuffer.call(this, (error) => callback(error ?? this.refusal ?? null));
  }

  private checked(token: JsonToken): JsonToken {
    const depth = this.open.length;
    if (depth === 0 && token.name !== 'startObject') throw invalidBatch(NO_LOCATIONS);
    if (this.locationsNext) {
      this.locationsNext = false;
      if (token.name !== 'startArray') throw invalidBatch(NO_LOCATIONS);
      this.part = 'locations';
    }
    const inLocations = this.part === 'locations';
    const field = this.field;
    this.field = undefined;
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        this.open.push(token.name === 'startObject' ? 'object' : 'array');
        if (this.open.length > MAX_DEPTH) throw tooDeep(this.where());
        return token;
      case 'endObject':
      case 'endArray':
        this.open.pop();
        if (inLocations && this.open.length === 2) this.element += 1;
        if (inLocations && this.open.length === 1) {
          if (this.element === 0) throw invalidBatch(NO_ROWS);
          this.part = 'after';
        }
        return token;
      case 'keyValue':
        if (depth === 1 && token.value === 'locations') {
          // A streamed reader cannot take back the rows it gave (JSON.parse would keep the last "locations").
          if (this.part !== 'before') throw invalidBatch('The JSON body names "locations" twice.');
          this.locationsNext = true;
        }
        if (inLocations && depth === 3 && this.open[2] === 'object') this.field = token.value;
        return token;
      default:
        if (inLocations && depth === 2) this.element += 1;
        return token.name === 'numberValue' && field !== undefined && LIMIT_OF.has(field) ? coordinateToken(token.value!, LIMIT_OF.get(field)!) : token;
    }
  }
}

/** A numeric coordinate's token as readJsonLocations reads it: its plain decimal text, from the text as sent where it parses to exactly its limit. */
function coordinateToken(written: string, limit: number): JsonToken {
  const value = Number(written);
  const text = Math.abs(value) === limit ? (plainDecimal(written) ?? asPlainDecimal(value)) : asPlainDecimal(value);
  return typeof text === 'string' ? { name: 'stringValue', value: text } : { name: 'numberValue', value: written };
}

/** How every failure of stream-json's parser begins ("Parser cannot parse input: expected a value", "Parser has expected a value"). */
const PARSER_FAILURE = /^Parser (cannot parse input: |has )/;

/**
 * The rows of an `application/json` body, one by one as it streams in (a portfolio job's body may be far too
 * large to hold): each element of "locations" exactly as readJsonLocations gives it, with the same errors,
 * except that where the JSON breaks is told by the element of "locations" rather than the line, and that a
 * body naming "locations" twice is a 400 INVALID_BATCH.
 */
export async function* jsonLocationRows(body: Readable, maxRows: number): AsyncGenerator<unknown> {
  const tokens = new LocationsParser();
  const elements = streamArray();
  // Each stage fails the next with its error; the loop below reads the first failure.
  pipeline(body, tokens, pick({ filter: 'locations' }), elements, () => undefined);
  let rows = 0;
  try {
    for await (const { value } of elements as AsyncIterable<{ value: unknown }>) {
      if (rows === maxRows) throw tooManyRows(maxRows);
      rows += 1;
      yield value;
    }
  } catch (error) {
    if (error instanceof Error && !(error instanceof ApiError) && PARSER_FAILURE.test(error.message)) {
      throw invalidBatch(`The JSON body is malformed ${tokens.where()}: ${error.message.replace(PARSER_FAILURE, '')}.`);
    }
    throw error;
  } finally {
    elements.destroy();
  }
  if (!tokens.sawLocations) throw invalidBatch(NO_LOCATIONS);
}
