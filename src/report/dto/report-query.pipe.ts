import { Injectable, PipeTransform } from '@nestjs/common';
import { readLookupLocation, readLookupOptions } from '../../lookup/dto/lookup-parameters';
import type { LocationQuery } from '../../lookup/location-query';
import { readPictureSize } from '../../map-picture/dto/map-picture-query.pipe';
import { EVERY_PART } from './report-query.dto';

/** What a report is asked for: a lookup, and the ground metres across its map picture. */
export type ReportQuery = LocationQuery & { spanM: number };

/**
 * GET /flood-zone/report parameters, in the order GET /flood-zone checks its own (the location, `include`, `radius`),
 * then `span` exactly as GET /flood-zone/map checks it. The first rule broken decides the answer, with the status and message
 * GET /flood-zone (for `span`, GET /flood-zone/map) gives.
 */
@Injectable()
export class ReportQueryPipe implements PipeTransform<Record<string, unknown>, ReportQuery> {
  transform(raw: Record<string, unknown>): ReportQuery {
    const location = readLookupLocation(raw);
    const options = readLookupOptions(raw.include === undefined ? { ...raw, include: EVERY_PART } : raw);
    return { ...location, ...options, spanM: readPictureSize(raw, 'span') };
  }
}
