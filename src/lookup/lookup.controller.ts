import { createHash } from 'node:crypto';
import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ErrorEnvelopeDto, FloodZoneLookupDto } from './dto/flood-zone-response.dto';
import { FloodZoneQueryDto } from './dto/flood-zone-query.dto';
import { FloodZoneQueryPipe, LocationQuery } from './dto/flood-zone-query.pipe';
import { LookupService } from './lookup.service';

const cacheHeaders = {
  'X-Cache': { description: 'HIT, MISS or STALE', schema: { type: 'string', enum: ['HIT', 'MISS', 'STALE'] } },
  ETag: { description: 'Strong entity tag of the body', schema: { type: 'string' } },
  'Cache-Control': { description: 'public, max-age=<seconds left of the cache entry>', schema: { type: 'string' } },
};

@ApiTags('flood zone')
@Controller('flood-zone')
export class LookupController {
  constructor(private readonly lookups: LookupService) {}

  @Get()
  @ApiOperation({
    summary: 'Flood zone of a US address or point',
    description:
      'Give `address`, or both `lat` and `lon`. Answers live from FEMA\'s National Flood Hazard Layer: flood zone, SFHA status, FIRM panel, ' +
      'a plain-language meaning and the sources. An unmapped point is a 200 with coverage "unmapped", never "not in a flood zone". Informational only.',
  })
  // The pipe turns the DTO into a LocationQuery, so the DTO is named here for the document.
  @ApiQuery({ type: FloodZoneQueryDto })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'ETag of a previous answer; a match gives 304.' })
  @ApiOkResponse({ type: FloodZoneLookupDto, description: 'The lookup result.', headers: cacheHeaders })
  @ApiResponse({ status: 304, description: 'Not modified: the If-None-Match ETag still matches.' })
  @ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: 'INVALID_PARAMETERS: no location, both kinds given, or a malformed parameter.' })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: 'ADDRESS_NOT_FOUND, or AMBIGUOUS_ADDRESS with `candidates`.' })
  @ApiResponse({ status: 405, type: ErrorEnvelopeDto, description: 'METHOD_NOT_ALLOWED (with an Allow header).' })
  @ApiUnprocessableEntityResponse({ type: ErrorEnvelopeDto, description: 'COORDINATES_OUT_OF_RANGE: lat outside [-90, 90] or lon outside [-180, 180].' })
  @ApiTooManyRequestsResponse({ type: ErrorEnvelopeDto, description: 'RATE_LIMITED, only where rate limiting is configured; see Retry-After.' })
  @ApiBadGatewayResponse({ type: ErrorEnvelopeDto, description: 'UPSTREAM_UNAVAILABLE: FEMA or the Census geocoder failed (`upstream` says which). Retry after a few seconds.' })
  @ApiResponse({ status: 500, type: ErrorEnvelopeDto, description: 'INTERNAL_ERROR.' })
  async lookup(@Query(FloodZoneQueryPipe) query: LocationQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    const answer = await this.lookups.lookup(query);
    const json = JSON.stringify(answer.body);
    const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`;
    res.setHeader('X-Cache', answer.cacheStatus);
    res.setHeader('Cache-Control', `public, max-age=${answer.maxAgeSeconds}`);
    res.setHeader('ETag', etag);
    res.locals.cacheStatus = answer.cacheStatus;
    if (matchesEtag(req.headers['if-none-match'], etag)) {
      res.status(304).end();
      return;
    }
    res.status(200).type('application/json').send(json);
  }
}

/** If-None-Match may list several tags or `*`; weak comparison is allowed for GET (RFC 9110 13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
