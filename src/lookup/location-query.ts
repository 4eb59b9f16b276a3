import type { IncludeItem } from '../parts/answer-parts';
import type { Footprint } from '../parts/structure/structure.types';

/** Where a lookup is asked for, once the location parameters (address, or lat and lon) are valid. */
export type LookupLocation = { kind: 'address'; address: string } | { kind: 'point'; lat: number; lon: number };

/** What beyond the point is asked for (`include`, then `radius`); `radiusM` defaults to 500. */
export interface LookupOptions {
  include: ReadonlySet<IncludeItem>;
  radiusM: number;
  /** The building's (or parcel's) footprint the caller gave (POST /flood-zone), already checked; the building is then not looked for. */
  footprint?: Footprint;
}

/** What a lookup is asked for, once every parameter is valid. */
export type LocationQuery = LookupLocation & LookupOptions;
