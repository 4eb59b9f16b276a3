/**
 * Emulator of OpenFEMA, on loopback. Base path /api/open:
 *
 *   GET /api/open/v1/NfipCommunityStatusBook?$select=&$top=&$skip=&$filter=&$orderby=&$inlinecount=&$count=&$metadata=&$format=
 *   GET /api/open/v3/NfipClaims?…, /api/open/v3/NfipPolicies?…, /api/open/v2/DisasterDeclarationsSummaries?…  (the same options)
 *
 * Answers OpenFEMA's envelope: `metadata` (skip, top, count, filter, format, orderby, select, entityname, url: the v1
 * envelope of fixtures/openfema-envelope.citysdk.excerpt.json; v2 and v3 add rundate, metadata and version, as
 * fixtures/openfema-disaster-declarations-v2.envelope.json records) and the rows under the dataset's name. `$` may
 * come percent-encoded (`%24top`, as the service is asked) or not; `rawQuery` of each call shows which. Paging: `$top`
 * (default 1000, at most 10000; `pageCap` serves fewer, as a server that caps its pages) and `$skip`; `$select` of
 * known fields only (the published field lists: fixtures/openfema-nfip-community-status-book.fields.json and
 * .recorded.excerpt.json, openfema-nfip-claims-v3.fields.json, openfema-nfip-policies-v3.fields.json, the
 * declarations' envelope); `$filter` of `field eq|ne|gt|ge|lt|le value` joined by `and` (dates compared as dates);
 * `$orderby` of `field [asc|desc]`; `count` only with `$inlinecount=allpages` or `$count=true`. Any other dataset or
 * path: an HTML page (404). A query it cannot run: 400 with `{"error": [...]}`. Calls are logged by dataset
 * (`endpoint`: NfipCommunityStatusBook, NfipClaims, NfipPolicies, DisasterDeclarationsSummaries).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Answer, CallRecord, EmulatorOptions, Published, RequestContext, UpstreamEmulator, escapeHtml, htmlAnswer, jsonAnswer } from './emulator-core';
import { publishOnStatusBook } from './map-publishing';
import { CommunityStatusBookRow, DEMO_COMMUNITY_STATUS_BOOK } from './community-status-book';
import { DEMO_CLAIMS, DEMO_DECLARATIONS, DEMO_POLICIES, OpenFemaRow } from './area-records';

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
const fieldsOf = (name: string) => Object.keys(fixture<{ fields: Record<string, string> }>(name).fields);

type Row = Readonly<Record<string, unknown>>;

/** A dataset the emulator serves: its path under the base, and the fields its rows may have (every row also has `id` and `hash`). */
interface Dataset {
  path: string;
  version: 'v1' | 'v2' | 'v3';
  fields: ReadonlySet<string>;
}

const DATASETS: Record<string, Dataset> = {
  [COMMUNITY_STATUS_BOOK_DATASET]: { path: `v1/${COMMUNITY_STATUS_BOOK_DATASET}`, version: 'v1', fields: new Set([...FIELDS, 'id', 'hash']) },
  NfipClaims: { path: 'v3/NfipClaims', version: 'v3', fields: new Set([...fieldsOf('openfema-nfip-claims-v3.fields.json'), 'id', 'hash']) },
  NfipPolicies: { path: 'v3/NfipPolicies', version: 'v3', fields: new Set([...fieldsOf('openfema-nfip-policies-v3.fields.json'), 'id', 'hash']) },
  DisasterDeclarationsSummaries: {
    path: 'v2/DisasterDeclarationsSummaries',
    version: 'v2',
    fields: new Set([...fieldsOf('openfema-disaster-declarations-v2.envelope.json'), 'hash']),
  },
};

/** Every dataset's answers carry the time of the run (v2 and v3). */
const RUN_DATE = '2026-11-27T23:17:36.211Z';

const QUERY_OPTIONS = new Set(['$select', '$top', '$skip', '$filter', '$orderby', '$inlinecount', '$count', '$metadata', '$format']);

export interface OpenFemaEmulatorOptions extends EmulatorOptions {
  /** The table served; default the demo Community Status Book. */
  rows?: readonly CommunityStatusBookRow[];
  /** The NFIP claims, policies and declarations served; default the demo records (area-records.ts). */
  claims?: readonly OpenFemaRow[];
  policies?: readonly OpenFemaRow[];
  declarations?: readonly OpenFemaRow[];
  /** The most rows a page holds whatever `$top` asks (default `$top`'s limit, 10000): how a client's paging is seen. */
  pageCap?: number;
}

class BadQuery extends Error {}

/** The OpenFEMA emulator. */
export class OpenFemaEmulator extends UpstreamEmulator {
  private table: readonly CommunityStatusBookRow[];
  private readonly records: Record<string, readonly Row[]>;
  private readonly pageCap: number;

  private constructor(options: OpenFemaEmulatorOptions) {
    super(OPENFEMA_BASE_PATH, options);
    this.table = options.rows ?? DEMO_COMMUNITY_STATUS_BOOK;
    this.records = {
      NfipClaims: options.claims ?? DEMO_CLAIMS,
      NfipPolicies: options.policies ?? DEMO_POLICIES,
      DisasterDeclarationsSummaries: options.declarations ?? DEMO_DECLARATIONS,
    };
    this.pageCap = options.pageCap ?? OPENFEMA_MAX_TOP;
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

  /** Replaces the rows of a dataset of the area's record, as FEMA's monthly refresh does. */
  setRecords(dataset: 'NfipClaims' | 'NfipPolicies' | 'DisasterDeclarationsSummaries', rows: readonly OpenFemaRow[]): void {
    this.records[dataset] = rows;
  }

  protected describe(subPath: string): Pick<CallRecord, 'endpoint'> {
    const dataset = Object.entries(DATASETS).find(([, { path: datasetPath }]) => datasetPath === subPath);
    return { endpoint: dataset ? dataset[0] : 'unknown' };
  }

  protected htmlErrorPage(status: number): string {
    return `<!DOCTYPE html><html lang="en"><head><title>Error | FEMA.gov</title></head><body><h1>FEMA.gov</h1><p>The server could not complete your request (${status}).</p></body></html>`;
  }

  protected answer(ctx: RequestContext): Answer {
    const { call, params } = ctx;
    if (call.endpoint === 'unknown') return htmlAnswer(notFoundPage(call.path), 404);
    try {
      return jsonAnswer(this.page(call.endpoint, params, call));
    } catch (error) {
      if (error instanceof BadQuery) return jsonAnswer({ error: [error.message] }, 400);
      throw error;
    }
  }

  private page(entity: string, params: Record<string, string>, call: CallRecord): Record<string, unknown> {
    const dataset = DATASETS[entity]!;
    const known = dataset.fields;
    for (const name of Object.keys(params)) {
      if (name.startsWith('$') && !QUERY_OPTIONS.has(name)) throw new BadQuery(`Unknown query option: ${name}`);
    }
    const format = params.$format ?? 'json';
    if (format !== 'json') throw new BadQuery(`$format ${format} is not supported here; use json`);
    const top = wholeNumber(params.$top, '$top', OPENFEMA_DEFAULT_TOP);
    if (top > OPENFEMA_MAX_TOP) throw new BadQuery(`$top must not exceed ${OPENFEMA_MAX_TOP}`);
    const skip = wholeNumber(params.$skip, '$skip', 0);
    const select = params.$select === undefined ? null : fieldList(params.$select, '$select', known);
    const filter = params.$filter ?? '';
    const matches = filterOf(filter, known);
    const order = params.$orderby === undefined ? [] : orderOf(params.$orderby, known);
    const inlineCount = params.$inlinecount ?? 'none';
    if (inlineCount !== 'none' && inlineCount !== 'allpages') throw new BadQuery(`$inlinecount must be allpages or none, not ${inlineCount}`);
    const countAsked = params.$count ?? 'false';
    if (countAsked !== 'true' && countAsked !== 'false') throw new BadQuery(`$count must be true or false, not ${countAsked}`);
    const metadataWanted = (params.$metadata ?? 'true').toLowerCase() !== 'false';

    const rows: readonly Row[] = entity === COMMUNITY_STATUS_BOOK_DATASET ? this.table : this.records[entity]!;
    const chosen = rows.filter(matches);
    if (order.length > 0) chosen.sort((a, b) => compareRows(a, b, order));
    const page = chosen
      .slice(skip, skip + Math.min(top, this.pageCap))
      .map((row) => (select ? Object.fromEntries(select.filter((f) => f in row).map((f) => [f, row[f]])) : row));
    const metadata = {
      skip,
      top,
      count: inlineCount === 'allpages' || countAsked === 'true' ? chosen.length : 0,
      filter,
      format,
      orderby: Object.fromEntries(order.map(([field, direction]) => [field, direction])),
      select,
      entityname: entity,
      ...(dataset.version === 'v1' ? {} : { rundate: RUN_DATE, metadata: true, version: dataset.version }),
      url: `${call.path}${call.rawQuery ? `?${call.rawQuery}` : ''}`,
    };
    return { ...(metadataWanted ? { metadata } : {}), [entity]: page };
  }
}

function wholeNumber(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim())) throw new BadQuery(`${name} must be a whole number, not ${JSON.stringify(value)}`);
  return Number(value);
}

function fieldList(value: string, name: string, known: ReadonlySet<string>): string[] {
  const fields = value.split(',').map((f) => f.trim());
  const unknown = fields.filter((f) => !known.has(f));
  if (fields.length === 0 || unknown.length > 0) throw new BadQuery(`${name}: unknown field(s) ${unknown.join(', ') || '(none given)'}`);
  return fields;
}

type Direction = 'asc' | 'desc';

function orderOf(value: string, known: ReadonlySet<string>): Array<[string, Direction]> {
  return value.split(',').map((item) => {
    const [field, direction = 'asc', ...rest] = item.trim().split(/\s+/);
    if (!known.has(field) || rest.length > 0 || (direction !== 'asc' && direction !== 'desc')) {
      throw new BadQuery(`$orderby: cannot order by ${JSON.stringify(item.trim())}`);
    }
    return [field, direction];
  });
}

function compareRows(a: Row, b: Row, order: Array<[string, Direction]>): number {
  for (const [field, direction] of order) {
    const [x, y] = [a[field], b[field]].map((v) => (v === null || v === undefined ? '' : String(v)));
    if (x !== y) return (x < y ? -1 : 1) * (direction === 'asc' ? 1 : -1);
  }
  return 0;
}

type Comparison = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

/** An ISO date or date-time: compared with another as a time (OpenFEMA compares its date fields as dates). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/;

/** -1, 0 or 1 as `a` is before, equal to or after `b`; null when they cannot be ordered. */
function ordering(a: unknown, b: unknown): number | null {
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a === 'string' && typeof b === 'number') return ordering(Number(a), b);
  if (typeof a !== 'string' || typeof b !== 'string') return null;
  if (ISO_DATE.test(a) && ISO_DATE.test(b)) return Math.sign(Date.parse(a) - Date.parse(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `field eq 'text'`, `field ne 12`, `field ge '2026-01-01'`, `field eq true`, joined by `and`; anything else is a bad query. */
function filterOf(filter: string, known: ReadonlySet<string>): (row: Row) => boolean {
  if (filter.trim() === '') return () => true;
  const terms = filter.split(/\s+and\s+/i).map((term) => {
    const match = /^\s*(\w+)\s+(eq|ne|gt|ge|lt|le)\s+('(?:[^']|'')*'|-?\d+(?:\.\d+)?|true|false|null)\s*$/i.exec(term);
    if (!match || !known.has(match[1]!)) throw new BadQuery(`$filter: cannot read ${JSON.stringify(term.trim())}`);
    const [, field, op, literal] = match as unknown as [string, string, string, string];
    const value: unknown = literal.startsWith("'")
      ? literal.slice(1, -1).replace(/''/g, "'")
      : literal === 'true' || literal === 'false'
        ? literal === 'true'
        : literal === 'null'
          ? null
          : Number(literal);
    const comparison = op.toLowerCase() as Comparison;
    const equal = (row: Row) => (row[field] ?? null) === value || (typeof value === 'number' && Number(row[field]) === value);
    if (comparison === 'eq') return equal;
    if (comparison === 'ne') return (row: Row) => !equal(row);
    return (row: Row) => {
      const order = ordering(row[field] ?? null, value);
      if (order === null) return false;
      return comparison === 'gt' ? order > 0 : comparison === 'ge' ? order >= 0 : comparison === 'lt' ? order < 0 : order <= 0;
    };
  });
  return (row) => terms.every((term) => term(row));
}

function notFoundPage(requestPath: string): string {
  return `<!DOCTYPE html><html lang="en"><head><title>Page Not Found | FEMA.gov</title></head><body><h1>Page Not Found</h1><p>We could not find ${escapeHtml(requestPath)}.</p></body></html>`;
}
