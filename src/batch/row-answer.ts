import type { ErrorEnvelope } from '../common/error-envelope';
import type { FloodZoneLookup } from '../lookup/flood-zone-lookup';
import type { AskedLocation } from './batch-row';

/** One row's answer: what GET /flood-zone answers for it (status and body), where it stands and its id. */
export interface RowAnswer {
  index: number;
  id: string | null;
  status: number;
  body: FloodZoneLookup | ErrorEnvelope;
  /** The row's location as sent; only the CSV answer shows it (for rows without a 200 body). */
  asked: AskedLocation;
  /** A CSV job row's other cells as given, for its results with the input's columns; only the CSV answer shows them. */
  otherCells?: string[];
}

export const isLookup = (answer: RowAnswer): answer is RowAnswer & { body: FloodZoneLookup } => answer.status === 200;

/** A row answered with a part unavailable (an upstream failed for it): degraded, kept no longer than an incomplete answer. */
export const isDegraded = (answer: RowAnswer): boolean => isLookup(answer) && answer.body.result.unavailable.length > 0;

/** A row whose footprint found the polygon pool full (503 POLYGONS_BUSY): nothing was wrong with it, only the moment. */
export const isPolygonsBusy = (answer: RowAnswer): boolean => answer.status === 503 && (answer.body as ErrorEnvelope).code === 'POLYGONS_BUSY';

/** The NDJSON line and JSON array element of a row. */
export function rowObject({ index, id, status, body }: RowAnswer) {
  return { index, id, status, body };
}
