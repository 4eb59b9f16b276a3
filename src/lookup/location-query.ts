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
  /** The USA Structures building the caller chose (BUILD_ID), within reach of the location; the building is then not chosen for the point. */
  buildId?: string;
}

/** What a lookup is asked for, once every parameter is valid. */
export type LocationQuery = LookupLocation & LookupOptions;
