import { Injectable, PipeTransform } from '@nestjs/common';
import { refuseUnreadParameters } from '../../common/query-string';
import {
  BUILDING_PARAMETERS,
  LOCATION_PARAMETERS,
  OPTION_PARAMETERS,
  readBuildId,
  readLookupLocation,
  readLookupOptions,
} from '../../lookup/dto/lookup-parameters';
import type { LocationQuery } from '../../lookup/location-query';
import { readPictureSize } from '../../map-picture/dto/map-picture-query.pipe';
import { determinationPart } from '../../parts/determination/determination.part';
import { EVERY_PART } from './report-query.dto';

/** What a report is asked for: a lookup, and the ground metres across its map picture. */
export type ReportQuery = LocationQuery & { spanM: number };

/** Every parameter GET /flood-zone/report reads: those of GET /flood-zone, and the span of its picture. */
const REPORT_PARAMETERS = [...LOCATION_PARAMETERS, ...OPTION_PARAMETERS, ...BUILDING_PARAMETERS, 'span'];

/**
 * GET /flood-zone/report parameters: none it does not read (400), then in the order GET /flood-zone checks its own (the
 * location, `include`, `radius`, `buildId`), then `span` exactly as GET /flood-zone/map checks it. The lender's form
 * (`determination`) is always asked for, with the parts it reads. The first rule broken decides the
 * answer, with the status and message GET /flood-zone (for `span`, GET /flood-zone/map) gives.
 */
@Injectable()
export class ReportQueryPipe implements PipeTransform<Record<string, unknown>, ReportQuery> {
  transform(raw: Record<string, unknown>): ReportQuery {
    refuseUnreadParameters(raw, REPORT_PARAMETERS);
    const location = readLookupLocation(raw);
    const options = readLookupOptions(raw.include === undefined ? { ...raw, include: EVERY_PART } : raw);
    // Its words on insurance and lending are the lender's form's, whatever else `include` names.
    const include = new Set([...options.include, determinationPart.include]);
    return { ...location, ...options, include, ...readBuildId(raw), spanM: readPictureSize(raw, 'span') };
  }
}
