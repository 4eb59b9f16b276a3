/**
 * Emulator of OpenFEMA's NFIP Community Status Book, on loopback. Base path /api/open:
 *
 *   GET /api/open/v1/NfipCommunityStatusBook?$select=&$top=&$skip=&$filter=&$orderby=&$inlinecount=&$metadata=&$format=
 *
 * Answers the v1 envelope (fixtures/openfema-envelope.citysdk.excerpt.json): `metadata` (skip, top, count,
 * filter, format, orderby, select, entityname, url) and the rows under the dataset's name. `$` may come
 * percent-encoded (`%24top`, as the service is asked) or not; `rawQuery` of each call shows which. Paging:
 * `$top` (default 1000, at most 10000) and `$skip`; `$select` of known fields only (the published field list,
 * fixtures/openfema-nfip-community-status-book.fields.json, and the columns of a recorded copy of the dataset,
 * fixtures/openfema-nfip-community-status-book.recorded.excerpt.json); `$filter` of `field eq|ne value` joined by `and`;
 * `$orderby` of `field [asc|desc]`; `count` only with `$inlinecount=allpages`. Any other dataset or path:
 * an HTML page (404). A query it cannot run: 400 with `{"error": [...]}`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Answer, CallRecord, EmulatorOptions, Published, RequestContext, UpstreamEmulator, escapeHtml, htmlAnswer, jsonAnswer } from './emulator-core';
import { publishOnStatusBook } from './map-publishing';
import { CommunityStatusBookRow, DEMO_COMMUNITY_STATUS_BOOK } from './community-status-book';

export const OPENFEMA_BASE_PATH = '/api/open';
export const COMMUNITY_STATUS_BOOK_DATASET = 'NfipCommunityStatusBook';
/** The most rows one page may ask for. */
export const OPENFEMA_MAX_TOP = 10_000;
/** Rows of a page that gives no `$top`. */
export const OPENFEMA_DEFAULT_TOP = 1000;

const fixture = <T>(name: string): T => JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', name), 'utf8')) as T;
/** The published field list, and the columns of a recorded copy of the whole dataset (which has four more). */
const FIELDS = [
  ...Object.keys(fixture<{ fields: Record<string, string> }>('openfema-nfip-community-status-book.fields.json').fields),
  ...Object.keys(fixture<{ columns: Record<string, string> }>('openfema-nfip-community-status-book.recorded.excerpt.json').columns),
];
/** Every row also has these, as every OpenFEMA dataset does. */
const KNOWN_FIELDS = new Set([...FIELDS, 'id', 'hash']);

const QUERY_OPTIONS = new Set(['$select', '$top', '$skip', '$filter', '$orderby', '$inlinecount', '$metadata', '$format']);

export interface OpenFemaEmulatorOptions extends EmulatorOptions {
  /** The table served; default the demo Community Status Book. */
  rows?: readonly CommunityStatusBookRow[];
}

class BadQuery extends Error {}

/** The OpenFEMA emulator. */
export class OpenFemaEmulator extends UpstreamEmulator {
  private table: readonly CommunityStatusBookRow[];

  private constructor(options: OpenFemaEmulatorOptions) {
    super(OPENFEMA_BASE_PATH, options);
    this.table = options.rows ?? DEMO_COMMUNITY_STATUS_BOOK;
  }

  static async start(options: OpenFemaEmulatorOptions = {}): Promise<OpenFemaEmulator> {
    const emulator = new OpenFemaEmulator(options);
    await emulator.listen(options);
    return emulator;
  }

  /** The rows served now. */
  get rows(): readonly CommunityStatusBookRow[] {
    return this.table;
  }

  /** A community suspended or reinstated (map-publishing.ts): its row as the next refresh shows it. */
  protected publishChange(input: unknown): Published {
    const { rows, published } = publishOnStatusBook(this.table, input);
    this.table = rows;
    return published;
  }

  /** Replaces the table, as FEMA's daily refresh does. */
  setRows(rows: readonly CommunityStatusBookRow[]): void {
    this.table = rows;
  }

  protected describe(subPath: string): Pick<CallRecord, 'endpoint'> {
    return { endpoint: subPath === `v1/${COMMUNITY_STATUS_BOOK_DATASET}` ? COMMUNITY_STATUS_BOOK_DATASET : 'unknown' };
  }

  protected htmlErrorPage(status: number): string {
    return `<!DOCTYPE html><html lang="en"><head><title>Error | FEMA.gov</title></head><body><h1>FEMA.gov</h1><p>The server could not complete your request (${status}).</p></body></html>`;
  }

  protected answer(ctx: RequestContext): Answer {
    const { call, params } = ctx;
    if (call.endpoint === 'unknown') return htmlAnswer(notFoundPage(call.path), 404);
    try {
      return jsonAnswer(this.page(params, call));
    } catch (error) {
      if (error instanceof BadQuery) return jsonAnswer({ error: [error.message] }, 400);
      throw error;
    }
  }

  private page(params: Record<string, string>, call: CallRecord): Record<string, unknown> {
    for (const name of Object.keys(params)) {
      if (name.startsWith('$') && !QUERY_OPTIONS.has(name)) throw new BadQuery(`Unknown query option: ${name}`);
    }
    const format = params.$format ?? 'json';
    if (format !== 'json') throw new BadQuery(`$format ${format} is not supported here; use json`);
    const top = wholeNumber(params.$top, '$top', OPENFEMA_DEFAULT_TOP);
    if (top > OPENFEMA_MAX_TOP) throw new BadQuery(`$top must not exceed ${OPENFEMA_MAX_TOP}`);
    const skip = wholeNumber(params.$skip, '$skip', 0);
    const select = params.$select === undefined ? null : fieldList(params.$select, '$select');
    const filter = params.$filter ?? '';
    const matches = filterOf(filter);
    const order = params.$orderby === undefined ? [] : orderOf(params.$orderby);
    const inlineCount = params.$inlinecount ?? 'none';
    if (inlineCount !== 'none' && inlineCount !== 'allpages') throw new BadQuery(`$inlinecount must be allpages or none, not ${inlineCount}`);
    const metadataWanted = (params.$metadata ?? 'true').toLowerCase() !== 'false';

    const chosen = this.table.filter(matches);
    if (order.length > 0) chosen.sort((a, b) => compareRows(a, b, order));
    const rows = chosen.slice(skip, skip + top).map((row) => (select ? Object.fromEntries(select.filter((f) => f in row).map((f) => [f, row[f]])) : row));
    const metadata = {
      skip,
      top,
      count: inlineCount === 'allpages' ? chosen.length : 0,
      filter,
      format,
      orderby: Object.fromEntries(order.map(([field, direction]) => [field, direction])),
      select,
      entityname: COMMUNITY_STATUS_BOOK_DATASET,
      url: `${call.path}${call.rawQuery ? `?${call.rawQuery}` : ''}`,
    };
    return { ...(metadataWanted ? { metadata } : {}), [COMMUNITY_STATUS_BOOK_DATASET]: rows };
  }
}

function wholeNumber(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim())) throw new BadQuery(`${name} must be a whole number, not ${JSON.stringify(value)}`);
  return Number(value);
}

function fieldList(value: string, name: string): string[] {
  const fields = value.split(',').map((f) => f.trim());
  const unknown = fields.filter((f) => !KNOWN_FIELDS.has(f));
  if (fields.length === 0 || unknown.length > 0) throw new BadQuery(`${name}: unknown field(s) ${unknown.join(', ') || '(none given)'}`);
  return fields;
}

type Direction = 'asc' | 'desc';

function orderOf(value: string): Array<[string, Direction]> {
  return value.split(',').map((item) => {
    const [field, direction = 'asc', ...rest] = item.trim().split(/\s+/);
    if (!KNOWN_FIELDS.has(field) || rest.length > 0 || (direction !== 'asc' && direction !== 'desc')) {
      throw new BadQuery(`$orderby: cannot order by ${JSON.stringify(item.trim())}`);
    }
    return [field, direction];
  });
}

function compareRows(a: CommunityStatusBookRow, b: CommunityStatusBookRow, order: Array<[string, Direction]>): number {
  for (const [field, direction] of order) {
    const [x, y] = [a[field], b[field]].map((v) => (v === null || v === undefined ? '' : String(v)));
    if (x !== y) return (x < y ? -1 : 1) * (direction === 'asc' ? 1 : -1);
  }
  return 0;
}

/** `field eq 'text'`, `field ne 12`, `field eq true`, joined by `and`; anything else is a bad query. */
function filterOf(filter: string): (row: CommunityStatusBookRow) => boolean {
  if (filter.trim() === '') return () => true;
  const terms = filter.split(/\s+and\s+/i).map((term) => {
    const match = /^\s*(\w+)\s+(eq|ne)\s+('(?:[^']|'')*'|-?\d+(?:\.\d+)?|true|false|null)\s*$/i.exec(term);
    if (!match || !KNOWN_FIELDS.has(match[1])) throw new BadQuery(`$filter: cannot read ${JSON.stringify(term.trim())}`);
    const [, field, op, literal] = match;
    const value: unknown = literal.startsWith("'")
      ? literal.slice(1, -1).replace(/''/g, "'")
      : literal === 'true' || literal === 'false'
        ? literal === 'true'
        : literal === 'null'
          ? null
          : Number(literal);
    const equal = (row: CommunityStatusBookRow) => (row[field] ?? null) === value || (typeof value === 'number' && Number(row[field]) === value);
    return op.toLowerCase() === 'eq' ? equal : (row: CommunityStatusBookRow) => !equal(row);
  });
  return (row) => terms.every((term) => term(row));
}

function notFoundPage(requestPath: string): string {
  return `<!DOCTYPE html><html lang="en"><head><title>Page Not Found | FEMA.gov</title></head><body><h1>Page Not Found</h1><p>We could not find ${escapeHtml(requestPath)}.</p></body></html>`;
}
