import { ApiError } from '../common/api-error';
import type { LocationQuery, LookupOptions } from '../lookup/dto/flood-zone-query.pipe';
import { readLookupLocation } from '../lookup/dto/lookup-parameters';

/** The fields of a batch row that mean something; any other field or column is ignored. */
export const ROW_FIELDS = ['id', 'address', 'lat', 'lon'] as const;
export type RowField = (typeof ROW_FIELDS)[number];

export const ID_MAX_LENGTH = 128;

/** The location fields of a row as sent (text; undefined when not given), for the CSV answer's query_* columns. */
export type AskedLocation = Partial<Record<Exclude<RowField, 'id'>, string>>;

/** A row read as far as it goes: `query` when its location is valid, otherwise the row's own error. */
export interface BatchRow {
  id: string | null;
  asked: AskedLocation;
  query?: LocationQuery;
  error?: ApiError;
}

const invalid = (message: string) => new ApiError(400, 'INVALID_PARAMETERS', message);

/**
 * One element of `locations` (JSON) or one CSV record (blank cells already left out), checked with the GET
 * rules on its own: an element that is not an object or an unusable `id` is its 400, a location breaking
 * CONTRACT section 2 steps 1-6 its 400/422. `options` (include, radius) are the whole request's.
 */
export function readBatchRow(row: unknown, options: LookupOptions): BatchRow {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    return { id: null, asked: {}, error: invalid('Each location must be an object with address, or lat and lon (and an optional id).') };
  }
  const fields = row as Partial<Record<RowField, unknown>>;
  const raw = { address: fields.address ?? undefined, lat: coordinateParameter(fields.lat), lon: coordinateParameter(fields.lon) };
  const asked = askedLocation(raw);
  const id = fields.id ?? null;
  if (id !== null && !(typeof id === 'number' && Number.isFinite(id)) && !(typeof id === 'string' && id.length <= ID_MAX_LENGTH)) {
    return { id: null, asked, error: invalid(`id must be a string of at most ${ID_MAX_LENGTH} characters, or a number.`) };
  }
  const echoedId = id === null ? null : String(id);
  try {
    return { id: echoedId, asked, query: { ...readLookupLocation(raw), ...options } };
  } catch (error) {
    if (error instanceof ApiError) return { id: echoedId, asked, error };
    throw error;
  }
}

/**
 * A coordinate as GET would receive it: text as sent, a number as its plain decimal text (so the GET text
 * rules decide), null as not given; any other type goes through unchanged and fails those rules.
 */
function coordinateParameter(value: unknown): unknown {
  if (value === null) return undefined;
  return typeof value === 'number' ? decimalText(value) : value;
}

function askedLocation(raw: Record<Exclude<RowField, 'id'>, unknown>): AskedLocation {
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => typeof value === 'string')) as AskedLocation;
}

/** A finite number as plain decimal text, never in exponent notation: 1e-7 is "0.0000001", 1e21 is "1" and 21 zeros. */
export function decimalText(value: number): string {
  const text = String(value);
  const exponent = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exponent) return text;
  const [, sign, lead, fraction = '', power] = exponent;
  const digits = lead + fraction;
  const point = 1 + Number(power);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
