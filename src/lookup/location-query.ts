import type { IncludeItem } from '../parts/answer-parts';

/** Where a lookup is asked for, once the location parameters (address, or lat and lon) are valid. */
export type LookupLocation = { kind: 'address'; address: string } | { kind: 'point'; lat: number; lon: number };

/** What beyond the point is asked for (`include`, then `radius`); `radiusM` defaults to 500. */
export interface LookupOptions {
  include: ReadonlySet<IncludeItem>;
  radiusM: number;
}

/** What a lookup is asked for, once every parameter is valid. */
export type LocationQuery = LookupLocation & LookupOptions;
