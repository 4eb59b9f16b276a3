import { Controller, Get, HttpCode, Post, Query, Req, Res, UseGuards, applyDecorators } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiQuery,
  ApiResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ErrorEnvelopeDto } from '../common/error-envelope.dto';
import { QueryParametersGuard, ReadsQueryParameters } from '../common/query-string';
import { POLYGONS_BUSY_RETRY_AFTER_SECONDS, readFootprintLookupRequest } from './dto/footprint-lookup-body';
import { PolygonWork } from '../parts/structure/polygon-work.client';
import {
  FOOTPRINT_LOOKUP_BODY_CONTENT,
  FootprintLookupDto,
  GeoJsonFootprintFeatureDto,
  GeoJsonMultiPolygonDto,
  GeoJsonPolygonDto,
} from './dto/footprint-lookup.dto';
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

/** The failures GET and POST /flood-zone share, as the document lists them: where the lookup itself fails. */
const LookupFailures = () =>
  applyDecorators(
    ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: 'ADDRESS_NOT_FOUND, or AMBIGUOUS_ADDRESS with `candidates`.' }),
    ApiUnprocessableEntityResponse({
      type: ErrorEnvelopeDto,
      description:
        'COORDINATES_OUT_OF_RANGE: lat outside [-90, 90] or lon outside [-180, 180]; RADIUS_OUT_OF_RANGE: radius outside [10, 2000]; ' +
        'BUILDING_NOT_FOUND: no building with that buildId within reach of the location.',
    }),
    ApiTooManyRequestsResponse({ type: ErrorEnvelopeDto, description: 'RATE_LIMITED, only where rate limiting is configured; see Retry-After.' }),
    ApiBadGatewayResponse({
      type: ErrorEnvelopeDto,
      description: 'UPSTREAM_UNAVAILABLE: FEMA or the Census geocoder failed (`upstream` says which). Retry after a few seconds.',
    }),
    ApiResponse({ status: 500, type: ErrorEnvelopeDto, description: 'INTERNAL_ERROR.' }),
  );

@ApiTags('flood zone')
@ApiExtraModels(FootprintLookupDto, GeoJsonPolygonDto, GeoJsonMultiPolygonDto, GeoJsonFootprintFeatureDto)
@Controller(LOOKUP_PATH)
export class LookupController {
  constructor(
    private readonly lookups: LookupService,
    private readonly answers: AnswerCache,
    private readonly polygons: PolygonWork,
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
      'INVALID_PARAMETERS: no location, both kinds given, a malformed or repeated parameter, a name with brackets (such as `lat[]` or `include[]`, named in the message), ' +
      'an unknown include item, or radius without include=nearby.',
  })
  @LookupFailures()
  async lookup(@Query(FloodZoneQueryPipe) query: LocationQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    // A lookup is under way: even its failure (404, 502) says it was not served from the cache.
    res.setHeader('X-Cache', 'MISS');
    const answer = await this.lookups.lookup(query);
    sendCachedEntity(req, res, this.answers.remember(query, answer), answer.cacheStatus, answer.maxAgeSeconds);
  }

  @Post()
  @HttpCode(200)
  // Its parameters are the body's fields: a query parameter would go unread without a word.
  @UseGuards(QueryParametersGuard)
  @ReadsQueryParameters()
  @ApiOperation({
    operationId: 'lookupFloodZoneWithFootprint',
    summary: "Flood zone of a US address or point, with the building's footprint",
    description:
      "GET /flood-zone's lookup with the outline of the building (or parcel) the caller already has: the parameters as a JSON body, plus " +
      '`footprint`, answered exactly as GET /flood-zone answers the same parameters; the footprint asks for the building part of the answer. ' +
      'Each answer is for its own body: `Cache-Control: no-store`, no ETag. No query parameters: each is a 400 naming it.',
    // Not `required`: an empty body is the service's 400, not a gateway's 422.
    requestBody: {
      required: false,
      description:
        'Needed: a JSON object of at most 256 KiB with `address`, or `lat` and `lon`, and `footprint`; a field not listed is a 400 INVALID_PARAMETERS naming it. ' +
        'A body of any other type, or compressed, is a 415 UNSUPPORTED_MEDIA_TYPE.',
      content: FOOTPRINT_LOOKUP_BODY_CONTENT,
    },
  })
  @ApiOkResponse({
    type: FloodZoneLookupDto,
    description: 'The lookup result, as GET /flood-zone gives it.',
    headers: {
      'X-Cache': cacheHeaders['X-Cache'],
      'Cache-Control': { description: 'no-store: the answer is for this body.', schema: { type: 'string', enum: ['no-store'] } },
    },
  })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description:
      'INVALID_PARAMETERS: a body that is not a JSON object (malformed JSON: the message says where), a field or query parameter the operation does not read, ' +
      'or a parameter GET /flood-zone would refuse (no location, both kinds, a malformed value, an include item not listed, radius without nearby); ' +
      'INVALID_FOOTPRINT: the footprint is missing, or breaks a rule, which the message names (GeoJSON Polygon, MultiPolygon or a Feature of one; ' +
      'positions of numbers in lon/lat; closed rings of at least 4 positions; at most 2,000 vertices; no ring crossing itself or another; some area, at most 1 km²; within 1 km of the location).',
  })
  @ApiPayloadTooLargeResponse({ type: ErrorEnvelopeDto, description: 'REQUEST_BODY_TOO_LARGE: a body over 256 KiB.' })
  @ApiServiceUnavailableResponse({
    type: ErrorEnvelopeDto,
    description:
      'POLYGONS_BUSY: the threads checking large footprints (over 250 vertices) are all busy and their queue is full; retry after the Retry-After seconds.',
    headers: { 'Retry-After': { description: `Seconds to wait before retrying (${POLYGONS_BUSY_RETRY_AFTER_SECONDS}).`, schema: { type: 'integer' } } },
  })
  @ApiUnsupportedMediaTypeResponse({
    type: ErrorEnvelopeDto,
    description: 'UNSUPPORTED_MEDIA_TYPE: a body that is not application/json, or a compressed body (any Content-Encoding but identity).',
  })
  @LookupFailures()
  async lookupWithFootprint(@Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('X-Cache', 'MISS');
    const query = await readFootprintLookupRequest(req, this.polygons);
    const answer = await this.lookups.lookup(query);
    res.locals.cacheStatus = answer.cacheStatus;
    res.setHeader('X-Cache', answer.cacheStatus);
    res.setHeader('Cache-Control', 'no-store');
    // Written as is: Express's res.json would add an entity tag, which nothing can use for a POST.
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(answer.body));
  }
}
