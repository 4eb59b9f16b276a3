import { Injectable, PipeTransform } from '@nestjs/common';
import { readLookupLocation, readLookupOptions } from './lookup-parameters';

/** Where a lookup is asked for, once the v1 parameters (CONTRACT section 2, steps 1-6) are valid. */
export type LookupLocation = { kind: 'address'; address: string } | { kind: 'point'; lat: number; lon: number };

/** Opt-in parts of an answer (CONTRACT section 11). */
export type OptionalPart = 'nearby' | 'preliminary' | 'cbrs';

/** What beyond the point is asked for (CONTRACT section 11, steps 7-9); `radiusM` defaults to 500. */
export interface LookupOptions {
  include: ReadonlySet<OptionalPart>;
  radiusM: number;
}

/** What a lookup is asked for, once every parameter is valid. */
export type LocationQuery = LookupLocation & LookupOptions;

/**
 * Checks GET /flood-zone parameters in the CONTRACT order: the location (section 2, steps 1-6), then
 * the options (section 11, steps 7-9). The first rule broken decides the answer.
 */
@Injectable()
export class FloodZoneQueryPipe implements PipeTransform<Record<string, unknown>, LocationQuery> {
  transform(raw: Record<string, unknown>): LocationQuery {
    return { ...readLookupLocation(raw), ...readLookupOptions(raw) };
  }
}
