import { pipeline, Readable } from 'node:stream';
import Parser from 'stream-json/Parser';
import { pick } from 'stream-json/filters/Pick';
import { streamArray } from 'stream-json/streamers/StreamArray';
import { ApiError } from '../common/api-error';
import { JSON_MAX_DEPTH, jsonPlace, nestedTooDeep, numberAsPlainDecimal, numbersAsWritten, parseJsonBody, plainDecimal } from '../common/json-body';
import { LAT_MAX_DEGREES, LON_MAX_DEGREES } from '../lookup/dto/flood-zone-query.dto';
import { invalidBatch, tooManyRows } from './batch-input-errors';

const NO_LOCATIONS = 'The JSON body must be an object with a "locations" array.';
const NO_ROWS = '"locations" is empty: give at least one location.';
const tooDeep = (where: string) => invalidBatch(nestedTooDeep(where));

/**
 * The rows of an `application/json` batch, `{ "locations": [ … ] }`: each element as sent (readBatchRow
 * judges it on its own), except that a numeric lat or lon is its plain decimal text, so a row reads it as GET
 * reads text. Throws 400 INVALID_BATCH saying where the JSON breaks, what is missing or that it nests too
 * deep, or 413 past `maxRows` elements.
 */
export function readJsonLocations(body: Buffer, maxRows: number): unknown[] {
  const { document, text } = parseJsonBody(body, invalidBatch);
  const locations = typeof document === 'object' && document !== null ? (document as { locations?: unknown }).locations : undefined;
  if (!Array.isArray(locations)) throw invalidBatch(NO_LOCATIONS);
  if (locations.length === 0) throw invalidBatch(NO_ROWS);
  if (locations.length > maxRows) throw tooManyRows(maxRows);
  writeCoordinatesAsText(text, locations);
  return locations;
}

const isRow = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const COORDINATE_LIMITS = [
  ['lat', LAT_MAX_DEGREES],
  ['lon', LON_MAX_DEGREES],
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
      if (Math.abs(value) === limit) onTheLimit.add(jsonPlace('locations', index, field));
      row[field] = numberAsPlainDecimal(value);
    }
  });
  if (onTheLimit.size > 0) writeCoordinatesAsSent(text, locations, onTheLimit);
}

/** The coordinates at `places` (in `locations`, see jsonPlace) replaced by the exact text they were written as. */
function writeCoordinatesAsSent(text: string, locations: unknown[], places: Set<string>): void {
  for (const [place, number] of numbersAsWritten(text, places, invalidBatch)) {
    const [, index, field] = JSON.parse(place) as [string, number, string];
    const row = locations[index] as Record<string, unknown>;
    row[field] = plainDecimal(number) ?? row[field];
  }
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
 * array, nesting at most JSON_MAX_DEPTH levels; and writes each element's numeric lat and lon as the text
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
        if (this.open.length > JSON_MAX_DEPTH) throw tooDeep(this.where());
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
  const text = Math.abs(value) === limit ? (plainDecimal(written) ?? numberAsPlainDecimal(value)) : numberAsPlainDecimal(value);
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
