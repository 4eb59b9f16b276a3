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
import { ErrorEnvelopeDto } from '../common/error-envelope.dto';
import { FloodZoneLookupDto } from './dto/flood-zone-response.dto';
import { FloodZoneQueryDto } from './dto/flood-zone-query.dto';
import { FloodZoneQueryPipe } from './dto/flood-zone-query.pipe';
import type { LocationQuery } from './location-query';
import { AnswerCache, LOOKUP_PATH } from './answer-cache';
import { sendCachedEntity } from '../common/cached-entity';
import { LookupService } from './lookup.service';

const cacheHeaders = {
  'X-Cache': { description: 'HIT, MISS or STALE', schema: { type: 'string', enum: ['HIT', 'MISS', 'STALE'] } },
  ETag: { description: 'Strong entity tag of the body', schema: { type: 'string' } },
  'Cache-Control': { description: 'public, max-age=<seconds left of the cache entry>', schema: { type: 'string' } },
};

@ApiTags('flood zone')
@Controller(LOOKUP_PATH)
export class LookupController {
  constructor(
    private readonly lookups: LookupService,
    private readonly answers: AnswerCache,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'lookupFloodZone',
    summary: 'Flood zone of a US address or point',
    description:
      "Give `address`, or both `lat` and `lon`. Answers live from FEMA's National Flood Hazard Layer: flood zone, SFHA status, FIRM panel, " +
      'a plain-language meaning and the sources. An unmapped point is a 200 with coverage "unmapped", never "not in a flood zone". Informational only.',
  })
  // The pipe turns the DTO into a LocationQuery, so the DTO is named here for the document.
  @ApiQuery({ type: FloodZoneQueryDto })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'ETag of a previous answer; a match gives 304.' })
  @ApiOkResponse({ type: FloodZoneLookupDto, description: 'The lookup result.', headers: cacheHeaders })
  @ApiResponse({ status: 304, description: 'Not modified: the If-None-Match ETag still matches.' })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description:
      'INVALID_PARAMETERS: no location, both kinds given, a malformed or repeated parameter, an unknown include item, or radius without include=nearby.',
  })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: 'ADDRESS_NOT_FOUND, or AMBIGUOUS_ADDRESS with `candidates`.' })
  @ApiUnprocessableEntityResponse({
    type: ErrorEnvelopeDto,
    description: 'COORDINATES_OUT_OF_RANGE: lat outside [-90, 90] or lon outside [-180, 180]; RADIUS_OUT_OF_RANGE: radius outside [10, 2000].',
  })
  @ApiTooManyRequestsResponse({ type: ErrorEnvelopeDto, description: 'RATE_LIMITED, only where rate limiting is configured; see Retry-After.' })
  @ApiBadGatewayResponse({
    type: ErrorEnvelopeDto,
    description: 'UPSTREAM_UNAVAILABLE: FEMA or the Census geocoder failed (`upstream` says which). Retry after a few seconds.',
  })
  @ApiResponse({ status: 500, type: ErrorEnvelopeDto, description: 'INTERNAL_ERROR.' })
  async lookup(@Query(FloodZoneQueryPipe) query: LocationQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    // A lookup is under way: even its failure (404, 502) says it was not served from the cache.
    res.setHeader('X-Cache', 'MISS');
    const answer = await this.lookups.lookup(query);
    sendCachedEntity(req, res, this.answers.remember(query, answer), answer.cacheStatus, answer.maxAgeSeconds);
  }
}
