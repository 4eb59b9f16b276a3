import { Controller, Delete, Get, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiError } from '../common/api-error';
import { ErrorEnvelopeDto } from '../common/error-envelope.dto';
import { QueryParametersGuard, ReadsQueryParameters } from '../common/query-string';
import type { AppConfig } from '../config/app-config';
import { PortfolioJobs } from '../jobs/portfolio-jobs';
import { PolygonWork } from '../parts/structure/polygon-work.client';
import { WatchCreatedDto, WatchEventDto, WatchEventPageDto, WatchStatusDto } from './dto/watch.dto';
import { readWatchBody, WatchBody } from './watch-body';
import { invalidWatch, Watches, WatchInputRow } from './watches';
import { checkWebhookUrl, WebhookUrlPolicy } from './webhook/webhook-url';

export const WATCHES_PATH = '/flood-zone/watches';

const ID_PARAMETER = { name: 'id', description: "The watch's id, as its creation answered it.", example: '7c9e6679-7425-40de-944b-e07fc1f90ae7' };
const NOT_FOUND = 'WATCH_NOT_FOUND: no such watch (never created, or stopped and deleted).';
const UNAVAILABLE = {
  type: ErrorEnvelopeDto,
  description:
    'JOBS_UNAVAILABLE: watches live in the jobs Redis, which cannot serve now (none configured: set JOBS_REDIS_URL or REDIS_URL; not answering: retry after Retry-After; it may evict keys). Lookups work as usual.',
  headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
};
const INVALID =
  'INVALID_WATCH: the body breaks a rule, named in the message (malformed JSON or CSV, a field that is not a watch’s, a location without an id or with an id given twice or already watched, a location GET would refuse, a bad include or webhook).';
const BODY_CONTENT = {
  'application/json': {
    schema: {
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 200 },
        locations: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'string' },
              address: { type: 'string' },
              lat: { type: 'number' },
              lon: { type: 'number' },
              footprint: { type: 'object' },
            },
          },
        },
        fromJob: {
          type: 'string',
          description: 'A completed portfolio job: its rows are watched (ids as in the job; a row without one is named by its index).',
        },
        webhook: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } },
        include: { type: 'array', items: { type: 'string' } },
      },
    },
    example: {
      name: 'Servicing portfolio',
      locations: [{ id: 'loan-1', lat: 29.76839, lon: -95.377582 }],
      webhook: { url: 'https://servicing.example.com/flood-events' },
    },
  },
  'text/csv': { schema: { type: 'string' }, example: 'id,address,lat,lon\nloan-1,,29.76839,-95.377582\n' },
};

@ApiTags('watches')
@ApiExtraModels(WatchCreatedDto, WatchStatusDto, WatchEventDto, WatchEventPageDto)
@Controller(WATCHES_PATH)
@UseGuards(QueryParametersGuard)
@ReadsQueryParameters()
export class WatchesController {
  private readonly maxLocations: number;
  private readonly policy: WebhookUrlPolicy;

  constructor(
    private readonly watches: Watches,
    private readonly jobs: PortfolioJobs,
    private readonly polygons: PolygonWork,
    config: ConfigService<AppConfig, true>,
  ) {
    this.maxLocations = config.get('WATCH_MAX_LOCATIONS', { infer: true });
    this.policy = {
      allowPrivate: config.get('WATCH_WEBHOOK_ALLOW_PRIVATE', { infer: true }),
      allowHttp: config.get('WATCH_WEBHOOK_ALLOW_HTTP', { infer: true }),
    };
  }

  @Post()
  @ReadsQueryParameters('name', 'webhook', 'include')
  @ApiOperation({
    operationId: 'createWatch',
    summary: 'Watch locations for the life of their loans: be told when FEMA’s answer for any of them changes',
    description:
      'Locations (JSON or CSV, read as POST /flood-zone/batch reads them, each with an id; at most WATCH_MAX_LOCATIONS) or the rows of a completed portfolio job (fromJob). ' +
      'Each is answered once (the baseline), then every sweep answers again those FEMA may have changed; a change is an event in the feed and, with a webhook, ' +
      'POSTed signed to it (see the webhooks of this document and docs/watches.md). A CSV body takes name, webhook (its URL) and include as query parameters.',
    requestBody: { required: true, content: BODY_CONTENT },
  })
  @ApiQuery({ name: 'name', required: false, description: 'CSV body only: the watch’s name.' })
  @ApiQuery({ name: 'webhook', required: false, description: 'CSV body only: the webhook URL.' })
  @ApiQuery({ name: 'include', required: false, description: 'CSV body only: more parts asked for each location, comma-separated.' })
  @ApiCreatedResponse({ type: WatchCreatedDto, headers: { Location: { description: 'The watch: /flood-zone/watches/{id}.', schema: { type: 'string' } } } })
  @ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: INVALID })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: 'JOB_NOT_FOUND: fromJob names no job.' })
  @ApiResponse({ status: 409, type: ErrorEnvelopeDto, description: 'JOB_NOT_FINISHED: fromJob names a job that has not completed.' })
  @ApiResponse({ status: 413, type: ErrorEnvelopeDto, description: 'BATCH_TOO_LARGE: more than WATCH_MAX_LOCATIONS locations, or a body over 256 MiB.' })
  @ApiResponse({ status: 415, type: ErrorEnvelopeDto, description: 'UNSUPPORTED_MEDIA_TYPE: a body other than application/json or text/csv.' })
  @ApiUnprocessableEntityResponse({
    type: ErrorEnvelopeDto,
    description:
      'WEBHOOK_URL_REFUSED: the webhook URL is not https, carries credentials, or its host resolves to a loopback, private, link-local or metadata address.',
  })
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  @ApiResponse({ status: 500, type: ErrorEnvelopeDto, description: 'INTERNAL_ERROR.' })
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.watches.assertAvailable();
    const body = await readWatchBody(req, this.maxLocations, this.polygons);
    if (body.webhookUrl !== null) await this.checkWebhook(body.webhookUrl);
    const rows = body.fromJob === null ? body.rows : await this.rowsOfJob(body.fromJob);
    if (rows.length === 0) throw invalidWatch('locations: give at least one location.');
    const created = await this.watches.create({ name: body.name, include: body.include, webhookUrl: body.webhookUrl, rows });
    res.status(201).setHeader('Location', `${WATCHES_PATH}/${created.id}`).setHeader('Cache-Control', 'no-store').json(created);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getWatch', summary: 'Where a watch stands', description: 'Its status, locations, sweeps, events, deliveries and webhook.' })
  @ApiParam(ID_PARAMETER)
  @ApiOkResponse({ type: WatchStatusDto })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: NOT_FOUND })
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  async status(@Param('id') id: string, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store').json(await this.watches.status(id));
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'stopWatch',
    summary: 'Stop a watch and delete its data',
    description: 'No more sweeps, events or deliveries; its locations and events are deleted. Its status says stopped for 48 hours.',
  })
  @ApiParam(ID_PARAMETER)
  @ApiOkResponse({ type: WatchStatusDto })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: NOT_FOUND })
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  async stop(@Param('id') id: string, @Res() res: Response): Promise<void> {
    await this.watches.stop(id);
    res.setHeader('Cache-Control', 'no-store').json(await this.watches.status(id));
  }

  @Post(':id/locations')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'addWatchLocations',
    summary: 'Add locations to a watch',
    description:
      'JSON `{ "locations": [...] }` or CSV, as at creation; each new id must not be watched already. They are baselined, then swept with the others.',
    requestBody: { required: true, content: { 'application/json': BODY_CONTENT['application/json'], 'text/csv': BODY_CONTENT['text/csv'] } },
  })
  @ApiParam(ID_PARAMETER)
  @ApiResponse({ status: 202, type: WatchStatusDto, description: 'The locations are stored and being baselined.' })
  @ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: INVALID })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: NOT_FOUND })
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  async addLocations(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    this.watches.assertAvailable();
    await this.watches.status(id);
    const body: WatchBody = await readWatchBody(req, this.maxLocations, this.polygons, true);
    if (body.rows.length === 0) throw invalidWatch('locations: give at least one location.');
    res
      .status(202)
      .setHeader('Cache-Control', 'no-store')
      .json(await this.watches.addLocations(id, body.rows));
  }

  @Delete(':id/locations/:locationId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'removeWatchLocation',
    summary: 'Stop watching one location',
    description: 'The location is no longer answered; its past events stay in the feed.',
  })
  @ApiParam(ID_PARAMETER)
  @ApiParam({ name: 'locationId', description: "The location's id, as given.", example: 'loan-000123' })
  @ApiResponse({ status: 204, description: 'Removed.' })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: `${NOT_FOUND} LOCATION_NOT_FOUND: the watch has no location of that id.` })
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  async removeLocation(@Param('id') id: string, @Param('locationId') locationId: string, @Res() res: Response): Promise<void> {
    await this.watches.removeLocation(id, locationId);
    res.status(204).end();
  }

  @Get(':id/events')
  @ReadsQueryParameters('after', 'limit')
  @ApiOperation({
    operationId: 'getWatchEvents',
    summary: "A watch's events, in order, paged by cursor",
    description:
      'The events after the one named by `after` (from the first without it), oldest first; `next` is the `after` of the next page. Events never expire while the watch exists.',
  })
  @ApiParam(ID_PARAMETER)
  @ApiQuery({ name: 'after', required: false, description: 'The id of the last event already read.', example: '1764309600123-0' })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'Events per page, 1 to 1000 (default 100).',
    schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
  })
  @ApiOkResponse({ type: WatchEventPageDto })
  @ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: 'INVALID_PARAMETERS: after is not an event id, or limit is not 1 to 1000.' })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: NOT_FOUND })
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  async events(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const { after, limit } = req.query;
    if (after !== undefined && typeof after !== 'string') throw new ApiError(400, 'INVALID_PARAMETERS', 'after is given more than once.');
    const count = limit === undefined ? 100 : typeof limit === 'string' && /^\d{1,4}$/.test(limit) ? Number(limit) : NaN;
    if (!(count >= 1 && count <= 1000)) throw new ApiError(400, 'INVALID_PARAMETERS', 'limit must be a whole number from 1 to 1000.');
    res.setHeader('Cache-Control', 'no-store').json(await this.watches.events(id, after ?? null, count));
  }

  private async checkWebhook(url: string): Promise<void> {
    const verdict = await checkWebhookUrl(url, this.policy);
    if (!verdict.ok) throw new ApiError(422, 'WEBHOOK_URL_REFUSED', `webhook.url is refused: ${verdict.reason}`);
  }

  /** A completed job's rows as locations: each at the point it was answered at (no geocoding again), else as it was asked. */
  private async rowsOfJob(jobId: string): Promise<WatchInputRow[]> {
    const { chunks } = await this.jobs.results(jobId);
    const rows: WatchInputRow[] = [];
    const seen = new Set<string>();
    for await (const answers of chunks) {
      for (const answer of answers) {
        let id = answer.id ?? String(answer.index);
        if (seen.has(id)) id = `${id}#${answer.index}`;
        seen.add(id);
        const body = answer.body as { location?: { lat: number; lon: number } };
        const at = answer.status === 200 && body.location ? { lat: String(body.location.lat), lon: String(body.location.lon) } : answer.asked;
        rows.push({ id, row: { id, ...at } });
      }
      if (rows.length > this.maxLocations)
        throw new ApiError(413, 'BATCH_TOO_LARGE', `A watch holds at most ${this.maxLocations} locations (WATCH_MAX_LOCATIONS).`);
    }
    return rows;
  }
}
