import { Injectable, PipeTransform } from '@nestjs/common';
import type { LocationQuery } from '../location-query';
import { readLookupQuery } from './lookup-parameters';

/**
 * Checks GET /flood-zone parameters in a fixed order: no name with brackets, the location (address, or lat and lon,
 * then their ranges), then the options (`include`, then `radius`). The first rule broken decides the answer.
 */
@Injectable()
export class FloodZoneQueryPipe implements PipeTransform<Record<string, unknown>, LocationQuery> {
  transform(raw: Record<string, unknown>): LocationQuery {
    return readLookupQuery(raw);
  }
}
