import type { Request } from 'express';
import { readBatchRow, rowLookup, CsvRecord } from '../batch/batch-row';
import { bodyTooLarge } from '../batch/batch-input-errors';
import { readCsvLocations, noNotes } from '../batch/csv-locations';
import { readJsonLocations } from '../batch/json-locations';
import { ApiError } from '../common/api-error';
import { ownLoopTurn } from '../common/event-loop-turns';
import { parseJsonBody } from '../common/json-body';
import { bufferedBody, contentEncodingOf, mediaTypeOf, readBody } from '../common/request-body';
import { includeItems, isIncludeItem } from '../lookup/dto/flood-zone-query.dto';
import type { PolygonWork } from '../parts/structure/polygon-work.client';
import { invalidWatch, WatchInputRow } from './watches';

/** A watch body may be up to 256 MiB, as a job's (a million rows of CSV fit). */
export const WATCH_BODY_MAX_BYTES = 256 * 1024 * 1024;
const NAME_MAX_LENGTH = 200;
const FIELDS = ['name', 'locations', 'fromJob', 'webhook', 'include'];

/** A watch's body as read: its locations (rows as the batch reads them) or the job to take them from, and its options. */
export interface WatchBody {
  name: string | null;
  include: string[];
  webhookUrl: string | null;
  fromJob: string | null;
  rows: WatchInputRow[];
}

const limits = () => ({
  maxBytes: WATCH_BODY_MAX_BYTES,
  tooLarge: () => bodyTooLarge(WATCH_BODY_MAX_BYTES),
  cutShort: () => invalidWatch('The body ended before it was complete.'),
});

/** The batch readers' 400 INVALID_BATCH is this endpoint's INVALID_WATCH, with the same message. */
function asWatchError(error: unknown): unknown {
  return error instanceof ApiError && error.code === 'INVALID_BATCH' ? invalidWatch(error.message) : error;
}

/**
 * A watch's body: JSON `{ name?, locations | fromJob, webhook?: { url }, include? }`, or CSV rows read as the batch
 * reads them with `name`, `webhook` and `include` as query parameters. Each location must have an id (unique in the
 * watch) and a valid location, else 400 INVALID_WATCH naming it; `locations` (or `addOnly`: the locations alone) at most `maxRows`.
 */
export async function readWatchBody(req: Request, maxRows: number, work: PolygonWork, locationsOnly = false): Promise<WatchBody> {
  const encoding = contentEncodingOf(req);
  if (encoding !== '') throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `A watch body is sent uncompressed, not with Content-Encoding: ${encoding}.`);
  const mediaType = mediaTypeOf(req);
  try {
    if (mediaType === 'application/json') return await readJsonWatch(await readBody(req, limits(), bufferedBody), maxRows, work, locationsOnly);
    if (mediaType === 'text/csv') {
      const records = await readBody(req, limits(), (body) => readCsvLocations(body, maxRows, noNotes()));
      return {
        ...queryOptions(req.query as Record<string, unknown>, locationsOnly),
        fromJob: null,
        rows: await watchRows(records, (n) => `line ${n + 2}`, work),
      };
    }
  } catch (error) {
    throw asWatchError(error);
  }
  throw new ApiError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `A watch is sent as application/json ({"locations": [...]} or {"fromJob": "..."}) or text/csv (a header row naming id, address, lat, lon), not ${mediaType || 'a body without Content-Type'}.`,
  );
}

async function readJsonWatch(body: Buffer, maxRows: number, work: PolygonWork, locationsOnly: boolean): Promise<WatchBody> {
  const { document } = parseJsonBody(body, invalidWatch);
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw invalidWatch('The JSON body must be an object with "locations" (or "fromJob").');
  const fields = document as Record<string, unknown>;
  const allowed = locationsOnly ? ['locations'] : FIELDS;
  const unknown = Object.keys(fields).find((field) => !allowed.includes(field));
  if (unknown !== undefined) throw invalidWatch(`${unknown}: not a field of a watch (${allowed.join(', ')}).`);
  const fromJob = fields.fromJob ?? null;
  if (fromJob !== null && typeof fromJob !== 'string') throw invalidWatch('fromJob must be the id of a completed portfolio job.');
  if (fromJob !== null && fields.locations !== undefined) throw invalidWatch('locations and fromJob: give one of them, not both.');
  if (fromJob === null && fields.locations === undefined) throw invalidWatch('locations: give the locations to watch (or fromJob, a completed job).');
  const rows = fromJob === null ? await watchRows(readJsonLocations(body, maxRows), (n) => `locations[${n}]`, work) : [];
  return { name: readName(fields.name), include: readInclude(fields.include), webhookUrl: readWebhook(fields.webhook), fromJob, rows };
}

function readName(name: unknown): string | null {
  if (name === undefined || name === null) return null;
  if (typeof name !== 'string' || name.length > NAME_MAX_LENGTH) throw invalidWatch(`name must be text of at most ${NAME_MAX_LENGTH} characters.`);
  return name;
}

function readInclude(include: unknown): string[] {
  if (include === undefined || include === null) return [];
  const items = typeof include === 'string' ? includeItems(include) : include;
  if (!Array.isArray(items) || !items.every((item) => typeof item === 'string' && isIncludeItem(item))) {
    throw invalidWatch('include must be a list of the parts of an answer (nearby, preliminary, cbrs, elevation, structure, determination).');
  }
  return [...new Set(items as string[])];
}

function readWebhook(webhook: unknown): string | null {
  if (webhook === undefined || webhook === null) return null;
  const url = typeof webhook === 'object' && !Array.isArray(webhook) ? (webhook as { url?: unknown }).url : undefined;
  if (typeof url !== 'string' || url.length > 2048) throw invalidWatch('webhook.url must be the https URL (at most 2048 characters) that receives the events.');
  return url;
}

function queryOptions(query: Record<string, unknown>, locationsOnly: boolean): Pick<WatchBody, 'name' | 'include' | 'webhookUrl'> {
  if (locationsOnly) return { name: null, include: [], webhookUrl: null };
  const single = (name: string) => {
    const value = query[name];
    if (value !== undefined && typeof value !== 'string') throw invalidWatch(`${name} is given more than once.`);
    return value;
  };
  const webhook = single('webhook');
  return { name: readName(single('name')), include: readInclude(single('include')), webhookUrl: webhook === undefined ? null : readWebhook({ url: webhook }) };
}

/**
 * The rows, each checked as a batch row is (its location, then its footprint, in the polygon pool when large) with
 * its id required and unique: the first that breaks a rule is a 400 INVALID_WATCH naming it (`where` says where a row
 * is in the body); a full polygon pool is the 503 POLYGONS_BUSY it is for POST /flood-zone.
 */
async function watchRows(rows: unknown[], where: (n: number) => string, work: PolygonWork): Promise<WatchInputRow[]> {
  const seen = new Set<string>();
  const checked: WatchInputRow[] = [];
  for (const [n, row] of rows.entries()) {
    const read = readBatchRow(row, { include: new Set(), radiusM: 500 });
    if (read.error) throw invalidWatch(`${where(n)}: ${read.error.message}`);
    if (read.footprint !== undefined) {
      // One footprint at a time, each in a loop turn of its own: a watch of many buildings holds neither the pool nor the loop.
      await ownLoopTurn();
      await rowLookup(read, work).catch((error: unknown) => {
        throw error instanceof ApiError && error.code === 'INVALID_FOOTPRINT' ? invalidWatch(`${where(n)}: ${error.message}`) : error;
      });
    }
    if (read.id === null || read.id === '') throw invalidWatch(`${where(n)}.id: every watched location needs an id (the events name it).`);
    if (seen.has(read.id)) throw invalidWatch(`${where(n)}.id: ${JSON.stringify(read.id)} is given twice.`);
    seen.add(read.id);
    checked.push({ id: read.id, row: row instanceof CsvRecord ? row : row });
  }
  return checked;
}
