import { Controller, Get, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CachedEntity, entityTag } from '../lookup/answer-cache';
import { sendCachedEntity } from '../lookup/cache-hit-path';
import { LookupService } from '../lookup/lookup.service';
import { ReportQuery, ReportQueryPipe } from './dto/report-query.pipe';
import { ReportQueryDto } from './dto/report-query.dto';
import { ReportErrorPageFilter } from './report-error-page.filter';
import { REPORT_PATH, jsonAnswerUrl, pictureOf } from './report-links';
import { reportPage } from './report-page';
import { REPORT_PAGE_POLICY } from './report-page-policy';

const PAGE = { 'text/html': { schema: { type: 'string' } } };
const POLICY_HEADER = {
  'Content-Security-Policy': { description: "The page's own policy: images of this origin and inline style only.", schema: { type: 'string' } },
};

/** An error of the report: the status, code and message of the JSON envelope, as a page. */
const pageOfError = (description: string) => ({
  description:
    `${description} An HTML page saying the status, code and message of the JSON error envelope that GET /flood-zone (for span, ` +
    'GET /flood-zone/map) gives for the same request.',
  content: PAGE,
  headers: POLICY_HEADER,
});

@ApiTags('flood zone')
@UseFilters(ReportErrorPageFilter)
@Controller(REPORT_PATH)
export class ReportController {
  constructor(private readonly lookups: LookupService) {}

  @Get()
  @ApiOperation({
    operationId: 'getFloodZoneReport',
    summary: 'Printable flood zone report of a US address or point (HTML page)',
    description:
      'The answer of GET /flood-zone for the same parameters (every opt-in part unless `include` says otherwise) as one HTML page that prints on one ' +
      'A4 or Letter page: the map picture of GET /flood-zone/map, the zone and what it means for insurance and lending, elevations, letters of map ' +
      'change, nearby hazards, coming map changes, coastal barriers, NFIP status, the sources with their dates and the disclaimer, with links to the ' +
      "JSON answer and to FEMA's Map Service Center. A part that could not be checked says so. No script, no resource of another origin " +
      `(Content-Security-Policy: ${REPORT_PAGE_POLICY}). Informational only.`,
  })
  @ApiQuery({ type: ReportQueryDto })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'ETag of a previous page; a match gives 304.' })
  @ApiResponse({
    status: 200,
    description: 'The report page (UTF-8 HTML).',
    content: PAGE,
    headers: {
      'X-Cache': {
        description: "HIT, MISS or STALE: how the page's answer was read, as for GET /flood-zone",
        schema: { type: 'string', enum: ['HIT', 'MISS', 'STALE'] },
      },
      ETag: { description: "Strong entity tag of the page's bytes", schema: { type: 'string' } },
      'Cache-Control': { description: "public, max-age=<seconds left of the answer's cache entry>", schema: { type: 'string' } },
      ...POLICY_HEADER,
    },
  })
  @ApiResponse({ status: 304, description: 'Not modified: the If-None-Match ETag still matches.' })
  @ApiResponse({
    status: 400,
    ...pageOfError('INVALID_PARAMETERS: as for GET /flood-zone, or a span that is not a whole number.'),
  })
  @ApiResponse({ status: 404, ...pageOfError('ADDRESS_NOT_FOUND, or AMBIGUOUS_ADDRESS listing the matches, each linked to its own report.') })
  @ApiResponse({
    status: 422,
    ...pageOfError('COORDINATES_OUT_OF_RANGE, RADIUS_OUT_OF_RANGE, or IMAGE_SIZE_OUT_OF_RANGE: span outside [100, 5000].'),
  })
  @ApiResponse({ status: 429, ...pageOfError('RATE_LIMITED, only where rate limiting is configured; see Retry-After.') })
  @ApiResponse({ status: 502, ...pageOfError('UPSTREAM_UNAVAILABLE: FEMA or the Census geocoder failed. Retry after a few seconds.') })
  @ApiResponse({ status: 500, ...pageOfError('INTERNAL_ERROR.') })
  async report(@Query(ReportQueryPipe) query: ReportQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    // As for a lookup: even its failure says it was not served from the cache.
    res.setHeader('X-Cache', 'MISS');
    const answer = await this.lookups.lookup(query);
    const html = reportPage(answer.body, { jsonAnswer: jsonAnswerUrl(query), picture: pictureOf(answer.body.location, query.spanM) });
    // Sent as a cached answer is (X-Cache, Cache-Control, ETag and 304), with the page's own policy.
    const page: CachedEntity = {
      body: html,
      byteLength: Buffer.byteLength(html),
      contentType: 'text/html; charset=utf-8',
      etag: entityTag(html),
      expiresAt: Date.now() + answer.maxAgeSeconds * 1000,
      headers: ['Content-Security-Policy', REPORT_PAGE_POLICY],
    };
    sendCachedEntity(req, res, page, answer.cacheStatus, answer.maxAgeSeconds);
  }
}
