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
import type { CachedRoute } from '../common/cache-hit-path';
import { sendCachedEntity } from '../common/cached-entity';
import { ErrorEnvelopeDto } from '../common/error-envelope.dto';
import { MapPictureQuery, MapPictureQueryPipe, readMapPictureQuery } from './dto/map-picture-query.pipe';
import { MapPictureQueryDto } from './dto/map-picture-query.dto';
import { attributionSegments } from './map-legend';
import { BUILDING_LEGEND_LABEL } from './map-drawing';
import { MapPictureService } from './map-picture.service';
import { USA_STRUCTURES_SOURCE } from '../parts/structure/structure-answer';
import type { MapPicture } from './picture-cache';

export const MAP_PICTURE_PATH = '/flood-zone/map';

const pictureHeaders = {
  'X-Cache': {
    description: 'HIT (a picture already made), MISS or STALE (made from a stale answer).',
    schema: { type: 'string', enum: ['HIT', 'MISS', 'STALE'] },
  },
  ETag: { description: "Strong entity tag of the picture's bytes", schema: { type: 'string' } },
  'Cache-Control': {
    description: "public, max-age=<seconds left of the answer's cache entry>; at most 60 without the basemap",
    schema: { type: 'string' },
  },
  'X-Map-Legend': {
    description:
      'The zones of the legend, in its order, comma-separated (empty when there are none): exactly the zones the JSON answer names at the ' +
      "point (`result.zonesAtPoint`), over the building's footprint (`result.structure.zones`) and nearby (`result.nearby` of the lookup " +
      'with `include=nearby` and `radius` half the span, 10 to 2000 m). Each is its zone code, with `floodway` for a floodway and `shaded` ' +
      'or `unshaded` for X, e.g. `AE, AE floodway, X shaded`.',
    schema: { type: 'string' },
  },
  'X-Map-Unavailable': {
    description: '`basemap` when the basemap could not be had: the zones are drawn on a plain light grey background.',
    schema: { type: 'string', enum: ['basemap'] },
  },
};

@ApiTags('flood zone')
@Controller(MAP_PICTURE_PATH)
export class MapPictureController {
  constructor(private readonly pictures: MapPictureService) {}

  @Get()
  @ApiOperation({
    operationId: 'getFloodZoneMap',
    summary: 'Map picture of the flood zones around a US address or point (PNG)',
    description:
      "FEMA's flood zones around the point, drawn by FEMA's National Flood Hazard Layer in its own colours over the USGS National Map, with a " +
      'ring around the point, the outline of the building the answer is for (`result.structure.footprint` of the lookup with include=structure: ' +
      `black on a white halo, over the zones and under the ring, named last in the legend as "${BUILDING_LEGEND_LABEL}"), a scale bar, a legend of ` +
      'the zones the answer of GET /flood-zone names at the point, over the building and near the point, a caption in words (where there is a ' +
      'building, its answer first, e.g. "Building: in the SFHA, AE over 40.1% of its footprint", then the point\'s, named "at the address ' +
      'point"; the zone, FIRM panel and effective date), a north arrow, and the attribution ' +
      `"${attributionSegments(true, null).join(' · ')}" (without the basemap, "${attributionSegments(false, null).join(' · ')}"; with a ` +
      `building from USA Structures outlined, "${USA_STRUCTURES_SOURCE}" after the maps). The point is the centre of the picture: the pixel at column ` +
      '⌊width/2⌋, row ⌊height/2⌋ (from 0 at the top left) and those around it inside the ring show the zone the answer names there, as FEMA draws ' +
      'it (a floodway hatched, with a line through that pixel), in the colour of its legend entry. A point without ' +
      'a digital flood map gets a picture saying so. Location parameters and their errors as GET /flood-zone, and buildId to outline the building chosen; any other parameter (include and radius too) is refused. ' +
      'Informational only.',
  })
  @ApiQuery({ type: MapPictureQueryDto })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'ETag of a previous picture; a match gives 304.' })
  @ApiOkResponse({
    description: 'The picture (PNG, width x height pixels).',
    content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
    headers: pictureHeaders,
  })
  @ApiResponse({ status: 304, description: 'Not modified: the If-None-Match ETag still matches.' })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description:
      'INVALID_PARAMETERS: no location, both kinds given, a malformed or repeated parameter (width, height and span: digits only, once), or ' +
      'a parameter the picture does not read (a bracketed name such as `width[]` too), named in the message.',
  })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: 'ADDRESS_NOT_FOUND, or AMBIGUOUS_ADDRESS with `candidates`.' })
  @ApiUnprocessableEntityResponse({
    type: ErrorEnvelopeDto,
    description:
      'COORDINATES_OUT_OF_RANGE: lat outside [-90, 90] or lon outside [-180, 180], or lat beyond ±85.051128 (no Web Mercator map reaches it); ' +
      'BUILDING_NOT_FOUND: no building with that buildId within reach of the location; ' +
      'IMAGE_SIZE_OUT_OF_RANGE: width or height outside [200, 1600] pixels, or span outside [100, 5000] metres.',
  })
  @ApiTooManyRequestsResponse({ type: ErrorEnvelopeDto, description: 'RATE_LIMITED, only where rate limiting is configured; see Retry-After.' })
  @ApiBadGatewayResponse({
    type: ErrorEnvelopeDto,
    description:
      'UPSTREAM_UNAVAILABLE: FEMA (its answer or its picture of the zones) or the Census geocoder failed (`upstream` says which). A failed basemap is no error: see X-Map-Unavailable.',
  })
  @ApiResponse({ status: 500, type: ErrorEnvelopeDto, description: 'INTERNAL_ERROR.' })
  async picture(@Query(MapPictureQueryPipe) query: MapPictureQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    // As for a lookup: even its failure says it was not served from the cache.
    res.setHeader('X-Cache', 'MISS');
    sendPicture(req, res, await this.pictures.picture(query));
  }
}

/** Writes a picture's 200 (or 304 to a matching If-None-Match) with its headers, every header in one `writeHead`. */
function sendPicture(req: Request, res: Response, picture: MapPicture): void {
  const maxAge = picture.cacheStatus === 'STALE' ? 0 : Math.max(0, Math.floor((picture.entity.expiresAt - Date.now()) / 1000));
  sendCachedEntity(req, res, picture.entity, picture.cacheStatus, maxAge);
}

/** Repeated pictures, from the picture cache, served before the router as repeated lookups are. */
export function cachedPictures(pictures: MapPictureService): CachedRoute {
  return {
    path: MAP_PICTURE_PATH,
    find(raw) {
      let held: MapPicture | undefined;
      try {
        held = pictures.held(readMapPictureQuery(raw));
      } catch {
        return undefined;
      }
      return held?.entity;
    },
    served: () => pictures.countHit(),
  };
}
