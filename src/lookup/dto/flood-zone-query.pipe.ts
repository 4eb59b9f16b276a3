import { Injectable, PipeTransform } from '@nestjs/common';
import type { LocationQuery } from '../location-query';
import { readLookupLocation, readLookupOptions } from './lookup-parameters';

/**
 * Checks GET /flood-zone parameters in a fixed order: the location (address, or lat and lon, then their ranges),
 * then the options (`include`, then `radius`). The first rule broken decides the answer.
 */
@Injectable()
export class FloodZoneQueryPipe implements PipeTransform<Record<string, unknown>, LocationQuery> {
  transform(raw: Record<string, unknown>): LocationQuery {
    return { ...readLookupLocation(raw), ...readLookupOptions(raw) };
  }
}
