import { ApiError } from '../common/api-error';
import type { LocationQuery, LookupOptions } from '../lookup/location-query';
import { readLookupLocation } from '../lookup/dto/lookup-parameters';
import { checkGivenFootprint, invalidFootprint } from '../lookup/dto/footprint-lookup-body';
import type { PolygonWork } from '../parts/structure/polygon-work.client';

/** The fields of a batch row that mean something; any other field or column is ignored. */
export const ROW_FIELDS = ['id', 'address', 'lat', 'lon', 'footprint'] as const;
export type RowField = (typeof ROW_FIELDS)[number];

/** The fields that say where a row is (a footprint alone is no location). */
export const LOCATION_FIELDS = ['address', 'lat', 'lon'] as const;

export const ID_MAX_LENGTH = 128;

/** The location fields of a row as sent (text; undefined when not given), for the CSV answer's query_* columns. */
export type AskedLocation = Partial<Record<(typeof LOCATION_FIELDS)[number], string>>;

/**
 * A row read as far as it goes: `query` when its location is valid, otherwise the row's own error; and the footprint it
 * brings, as sent (parsed JSON), which rowLookup checks when the row's turn comes.
 */
export interface BatchRow {
  id: string | null;
  asked: AskedLocation;
  query?: LocationQuery;
  error?: ApiError;
  footprint?: unknown;
}

const invalid = (message: string) => new ApiError(400, 'INVALID_PARAMETERS', message);

/**
 * A CSV record as its reader read it: the cells of the location columns (a blank cell left out), the cells of
 * every other column as given ('' where a short record has none), and, when its cells do not line up with the
 * header's, why it is its own 400.
 */
export class CsvRecord {
  constructor(
    readonly fields: Partial<Record<RowField, string>>,
    readonly otherCells: string[],
    readonly problem?: string,
  ) {}
}

/**
 * One element of `locations` (JSON) or one CsvRecord, checked with the GET rules on its own: an element that
 * is not an object, an unusable `id` or a record with a problem is its 400, a
 * location breaking the GET rules (docs/api.md) its 400/422, then a CSV footprint cell that is not JSON its
 * 400 INVALID_FOOTPRINT. Coordinates are read as text, as GET reads them (the JSON reader gives numeric ones
 * as the text they were written as); null is not given. A footprint is a JSON row's object, or a CSV cell's GeoJSON
 * text; its rules are rowLookup's, run when the row's turn comes (a large one in the polygon pool, never here for
 * every row at once). `options` (include, radius) are the whole request's; a footprint adds the building to its row's.
 */
export function readBatchRow(row: unknown, options: LookupOptions): BatchRow {
  if (row instanceof CsvRecord) {
    const { footprint, ...fields } = row.fields;
    const read = readRowFields(fields, footprint === undefined ? undefined : () => geoJsonOfCell(footprint), options);
    return row.problem === undefined ? read : { id: read.id, asked: read.asked, error: invalid(row.problem) };
  }
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    return { id: null, asked: {}, error: invalid('Each location must be an object with address, or lat and lon (and an optional id).') };
  }
  const fields = row as Partial<Record<RowField, unknown>>;
  const footprint = fields.footprint ?? undefined;
  return readRowFields(fields, footprint === undefined ? undefined : () => footprint, options);
}

/**
 * The lookup a row read by readBatchRow asks for, its footprint checked as POST /flood-zone checks one
 * (checkGivenFootprint: in the polygon pool when large): throws the row's error, its footprint's 400
 * INVALID_FOOTPRINT, or 503 POLYGONS_BUSY when the pool is full.
 */
export async function rowLookup(row: BatchRow, work: PolygonWork, signal?: AbortSignal): Promise<LocationQuery> {
  if (!row.query) throw row.error;
  if (row.footprint === undefined) return row.query;
  return { ...row.query, footprint: await checkGivenFootprint(row.footprint, work, signal) };
}

/** A row's fields read (see readBatchRow), `footprintOf` reading its footprint when it has one (throwing its 400). */
function readRowFields(fields: Partial<Record<RowField, unknown>>, footprintOf: (() => unknown) | undefined, options: LookupOptions): BatchRow {
  const raw = { address: fields.address ?? undefined, lat: fields.lat ?? undefined, lon: fields.lon ?? undefined };
  const asked = askedLocation(raw);
  const id = fields.id ?? null;
  if (id !== null && !(typeof id === 'number' && Number.isFinite(id)) && !(typeof id === 'string' && id.length <= ID_MAX_LENGTH)) {
    return { id: null, asked, error: invalid(`id must be a string of at most ${ID_MAX_LENGTH} characters, or a number.`) };
  }
  const echoedId = id === null ? null : String(id);
  try {
    const query = { ...readLookupLocation(raw), ...options };
    return footprintOf ? { id: echoedId, asked, query, footprint: footprintOf() } : { id: echoedId, asked, query };
  } catch (error) {
    if (error instanceof ApiError) return { id: echoedId, asked, error };
    throw error;
  }
}

/** A CSV cell's footprint: its GeoJSON text parsed (checked afterwards as a JSON row's object is), or 400 INVALID_FOOTPRINT. */
function geoJsonOfCell(cell: string): unknown {
  try {
    return JSON.parse(cell);
  } catch {
    throw invalidFootprint('footprint: the cell is not GeoJSON text (a Polygon, MultiPolygon, or a Feature of one, written as JSON)');
  }
}

function askedLocation(raw: Record<keyof AskedLocation, unknown>): AskedLocation {
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => typeof value === 'string')) as AskedLocation;
}
