import { Controller, Get, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CachedEntity, sendCachedEntity, weakEntityTag } from '../common/cached-entity';
import { LookupService } from '../lookup/lookup.service';
import { INCOMPLETE_ANSWER_MAX_AGE_SECONDS } from '../parts/answer-part';
import { MapPictureService } from '../map-picture/map-picture.service';
import { ReportQuery, ReportQueryPipe } from './dto/report-query.pipe';
import { ReportQueryDto } from './dto/report-query.dto';
import { ReportErrorPageFilter } from './report-error-page.filter';
import { REPORT_PATH, jsonAnswerUrl, pictureQueryOf } from './report-links';
import { ReportPicture, reportPage } from './report-page';
import { REPORT_PAGE_POLICY } from './report-page-policy';

const PAGE = { 'text/html': { schema: { type: 'string' } } };
const POLICY_HEADER = {
  'Content-Security-Policy': { description: "The page's own policy: data: images (its picture) and inline style only.", schema: { type: 'string' } },
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
  constructor(
    private readonly lookups: LookupService,
    private readonly pictures: MapPictureService,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'getFloodZoneReport',
    summary: 'Printable flood zone report of a US address or point (HTML page)',
    description:
      "The answer of GET /flood-zone for the same parameters (every opt-in part unless `include` says otherwise, and always the lender's form) as one HTML page that prints on one " +
      'A4 or Letter page, headed by the report date and the report id (the request id, as in X-Request-Id): the map picture of GET /flood-zone/map ' +
      "inside the page (a data: image, so a saved page is complete; when FEMA's picture of the zones fails, the page says so in its place and is still " +
      '200), a banner that leads with the building where one was found or given (e.g. "Building: in the SFHA, AE over 40.1% of its footprint", or ' +
      'its SFHA status unknown when it could not be looked up), then the zone at the address point, the NFIP status, what it means for insurance ' +
      "and lending as section II of FEMA's Standard Flood Hazard Determination Form " +
      '(result.determination, always asked for: the community, the map panel and letter of map change, the zones, whether federal flood insurance ' +
      'is available and whether the mandatory purchase requirement applies, for the building when one was found, with its notes), elevations, ' +
      'letters of map change, nearby hazards, coming map changes, coastal barriers, the building and its footprint on the picture (or, where none was chosen, the buildings near the address, each with whether it is in the SFHA and its buildId), the ' +
      "sources with their dates (the building's data credited, FEMA/ORNL USA Structures, CC BY 4.0) and the disclaimer, with links to the JSON answer and to FEMA's Map Service Center. A part that could not be checked " +
      `says so. No script, no resource loaded (Content-Security-Policy: ${REPORT_PAGE_POLICY}). Informational only.`,
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
      ETag: { description: 'Weak entity tag of the page apart from its date and id (the same for every copy of the same report)', schema: { type: 'string' } },
      'Cache-Control': {
        description: "public, max-age=<seconds left of the answer's cache entry, and of its picture's>; at most 60 without the picture",
        schema: { type: 'string' },
      },
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
    ...pageOfError(
      'COORDINATES_OUT_OF_RANGE, RADIUS_OUT_OF_RANGE, BUILDING_NOT_FOUND (no building with that buildId within reach), or IMAGE_SIZE_OUT_OF_RANGE: span outside [100, 5000].',
    ),
  })
  @ApiResponse({ status: 429, ...pageOfError('RATE_LIMITED, only where rate limiting is configured; see Retry-After.') })
  @ApiResponse({ status: 502, ...pageOfError('UPSTREAM_UNAVAILABLE: FEMA or the Census geocoder failed. Retry after a few seconds.') })
  @ApiResponse({ status: 500, ...pageOfError('INTERNAL_ERROR.') })
  async report(@Query(ReportQueryPipe) query: ReportQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    // As for a lookup: even its failure says it was not served from the cache.
    res.setHeader('X-Cache', 'MISS');
    // The picture is drawn while the answer is looked up; its failure is said on the page, the answer's is the page's error.
    const pictureQuery = pictureQueryOf(query);
    const drawing = pictureQuery && this.pictures.picture(pictureQuery).catch(() => null);
    const answer = await this.lookups.lookup(query);
    let picture: ReportPicture = 'beyond_web_mercator';
    let expiresAt = Date.now() + answer.maxAgeSeconds * 1000;
    if (pictureQuery !== null) {
      const drawn = await drawing;
      const { width, height, spanM } = pictureQuery;
      const png = drawn?.entity.body;
      picture = png === undefined ? 'not_drawn' : { png: Buffer.isBuffer(png) ? png : Buffer.from(png), width, height, spanM };
      // A page without its picture is incomplete: kept no longer than an answer with a missing part.
      expiresAt = Math.min(expiresAt, drawn ? drawn.entity.expiresAt : Date.now() + INCOMPLETE_ANSWER_MAX_AGE_SECONDS * 1000);
    }
    const links = { jsonAnswer: jsonAnswerUrl(query), picture };
    const html = reportPage(answer.body, links, { id: String(req.id), madeAt: new Date() });
    // Sent as a cached answer is (X-Cache, Cache-Control, ETag and 304), with the page's own policy. Every copy has its own date and id, so
    // its tag is weak: taken of the page without them.
    const page: CachedEntity = {
      body: html,
      byteLength: Buffer.byteLength(html),
      contentType: 'text/html; charset=utf-8',
      etag: weakEntityTag(reportPage(answer.body, links, null)),
      expiresAt,
      headers: ['Content-Security-Policy', REPORT_PAGE_POLICY],
    };
    sendCachedEntity(req, res, page, answer.cacheStatus, Math.max(0, Math.floor((expiresAt - Date.now()) / 1000)));
  }
}
