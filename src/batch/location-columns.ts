import { ROW_FIELDS, RowField } from './batch-row';

/** Header names read as a row field besides the field's own name (any case, spaces around ignored), as loan books and GIS exports name them. */
export const FIELD_ALIASES: Readonly<Record<string, RowField>> = { latitude: 'lat', longitude: 'lon', lng: 'lon', long: 'lon' };

/** The header names read as a location's fields, in words. */
export const READ_COLUMN_NAMES = 'id, address, lat (or latitude), lon (or longitude, lng, long)';

/** A CSV header row read: which column is which field (a `footprint` column holds each row's GeoJSON text), and every other column (copied to job results and the command line's output). */
export interface LocationColumns {
  fields: Array<[RowField, number]>;
  others: Array<{ name: string; column: number }>;
  /** Cells in the header row: a record with another count is that row's 400. */
  width: number;
}

/** Why a header row cannot be read; the message completes "the header row …" (each reader says where the row is). */
export class HeaderProblem extends Error {}

/**
 * Reads a CSV header row, for the batch and job endpoints and the command line alike: the fields' own names and
 * their aliases in any case. A header naming no field, or one field twice (which would make a row ambiguous), is
 * a HeaderProblem.
 */
export function readLocationHeader(header: string[]): LocationColumns {
  const fields: Array<[RowField, number]> = [];
  const others: Array<{ name: string; column: number }> = [];
  header.forEach((name, column) => {
    const key = name.trim().toLowerCase();
    const field = (ROW_FIELDS as readonly string[]).includes(key) ? (key as RowField) : FIELD_ALIASES[key];
    if (!field) return others.push({ name, column });
    const twice = fields.find(([other]) => other === field);
    if (twice) throw new HeaderProblem(`names ${field} twice ("${header[twice[1]]}" and "${name}"); keep one`);
    fields.push([field, column]);
  });
  // A footprint column alone says where no row is.
  if (fields.every(([field]) => field === 'footprint')) throw new HeaderProblem(`names none of the columns ${READ_COLUMN_NAMES}`);
  return { fields, others, width: header.length };
}

/** The warning for columns not read as a location (a misspelt "Lattitude" shows here); undefined when every column is read. */
export function unreadColumnsWarning({ others }: LocationColumns): string | undefined {
  if (others.length === 0) return undefined;
  const names = others.map(({ name, column }) => (name.trim() === '' ? `(unnamed column ${column + 1})` : `"${name}"`));
  return `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not read as a location (id, address, lat or latitude, lon or longitude, lng, long)`;
}
