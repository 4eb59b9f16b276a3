import { once } from 'node:events';
import { Controller, HttpCode, Logger, Post, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiQuery,
  ApiResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';
import type { LookupOptions } from '../lookup/dto/flood-zone-query.pipe';
import { readLookupOptions } from '../lookup/dto/lookup-parameters';
import { ErrorEnvelopeDto } from '../lookup/dto/flood-zone-response.dto';
import { NDJSON } from './answer-formats';
import { BatchLookupService } from './batch-lookup.service';
import { answerFormat, locationReader, readLocations } from './batch-request';
import { BATCH_BUSY_RETRY_AFTER_SECONDS, BatchSlots } from './batch-slots';
import { CSV_ANSWER_COLUMNS } from './csv-answer';
import { BatchAnswerDto, BatchRowAnswerDto } from './dto/batch-answer.dto';
import { BatchRequestDto, CSV_BATCH_EXAMPLE } from './dto/batch-request.dto';

const BATCH_PATH = '/flood-zone/batch';

@ApiTags('flood zone')
@ApiExtraModels(BatchRequestDto, BatchRowAnswerDto, BatchAnswerDto)
@Controller(BATCH_PATH)
export class BatchController {
  private readonly logger = new Logger(BatchController.name);
  private readonly maxRows: number;

  constructor(
    private readonly batches: BatchLookupService,
    private readonly slots: BatchSlots,
    config: ConfigService<AppConfig, true>,
  ) {
    this.maxRows = config.get('BATCH_MAX_LOCATIONS', { infer: true });
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Flood zones of many addresses or points',
    description:
      'Up to BATCH_MAX_LOCATIONS (default 10,000) locations in one request, as JSON or CSV; each row is answered exactly as GET /flood-zone ' +
      'answers it (status and body), in input order, streamed as rows finish. A bad row is its own 400/422, an upstream failure its own 502. ' +
      '`include` and `radius` apply to every row. Addresses go to the Census batch geocoder; each distinct point is looked up once per batch.',
    // Two bodies with different schemas, which @ApiBody (one schema for every media type) cannot say.
    requestBody: {
      required: true,
      description: 'At most 10 MiB. A malformed location is its own row\'s 400, never the whole request\'s.',
      content: {
        'application/json': {
          schema: { $ref: getSchemaPath(BatchRequestDto) },
          example: { locations: [{ id: 'r1', address: '1600 Pennsylvania Ave NW, Washington, DC 20500' }, { id: 'r2', lat: 29.9511, lon: -90.0715 }] },
        },
        'text/csv': {
          schema: {
            type: 'string',
            description: 'UTF-8, RFC 4180: a header row naming any of id, address, lat, lon (in any case; other columns are ignored), then one row per location. A blank cell is not given.',
          },
          example: CSV_BATCH_EXAMPLE,
        },
      },
    },
  })
  @ApiQuery({ name: 'include', required: false, description: 'As for GET /flood-zone: nearby, preliminary, cbrs (comma-separated), for every row.', schema: { type: 'string' } })
  @ApiQuery({ name: 'radius', required: false, description: 'As for GET /flood-zone: metres for include=nearby, 10 to 2000 (default 500).', schema: { type: 'string', pattern: '^\\d+$' } })
  @ApiResponse({
    status: 200,
    description: `One answer per location, in input order, by Accept: ${NDJSON} (default; one line per row), text/csv (columns ${CSV_ANSWER_COLUMNS.join(', ')}) or application/json.`,
    content: {
      [NDJSON]: { schema: { $ref: getSchemaPath(BatchRowAnswerDto) } },
      'text/csv': { schema: { type: 'string' } },
      'application/json': { schema: { $ref: getSchemaPath(BatchAnswerDto) } },
    },
  })
  @ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: 'INVALID_BATCH: malformed JSON or CSV, no `locations` array, no usable column, or no rows (the message says where); INVALID_PARAMETERS: a bad include or radius.' })
  @ApiResponse({ status: 405, type: ErrorEnvelopeDto, description: 'METHOD_NOT_ALLOWED (with `Allow: POST, OPTIONS`).' })
  @ApiPayloadTooLargeResponse({ type: ErrorEnvelopeDto, description: 'BATCH_TOO_LARGE: more than BATCH_MAX_LOCATIONS rows, or a body over 10 MiB.' })
  @ApiUnsupportedMediaTypeResponse({ type: ErrorEnvelopeDto, description: 'UNSUPPORTED_MEDIA_TYPE: a body that is neither application/json nor text/csv.' })
  @ApiUnprocessableEntityResponse({ type: ErrorEnvelopeDto, description: 'RADIUS_OUT_OF_RANGE: radius outside [10, 2000].' })
  @ApiTooManyRequestsResponse({ type: ErrorEnvelopeDto, description: 'BATCH_BUSY: BATCH_MAX_CONCURRENT batches are already running (see Retry-After); or RATE_LIMITED where rate limiting is configured.' })
  @ApiResponse({ status: 500, type: ErrorEnvelopeDto, description: 'INTERNAL_ERROR.' })
  async batch(@Req() req: Request, @Res() res: Response): Promise<void> {
    const options = readLookupOptions(req.query as Record<string, unknown>);
    const reader = locationReader(req);
    const release = this.slots.tryTake();
    if (!release) {
      res.setHeader('Retry-After', String(BATCH_BUSY_RETRY_AFTER_SECONDS));
      throw this.slots.busy();
    }
    try {
      const locations = await readLocations(req, reader, this.maxRows);
      await this.answer(req, res, locations, options);
    } finally {
      release();
    }
  }

  /** Streams the rows' answers in input order; a client that goes away cancels the rest. */
  private async answer(req: Request, res: Response, locations: unknown[], options: LookupOptions): Promise<void> {
    const format = answerFormat(req);
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    res.status(200);
    res.setHeader('Content-Type', format.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.flushHeaders();
    const write = async (text: string) => {
      if (text !== '' && !res.write(text)) await once(res, 'drain', { signal: gone.signal });
    };
    try {
      await write(format.opening());
      await this.batches.run(locations, options, String(req.id), gone.signal, (row) => write(format.row(row)));
      if (!gone.signal.aborted) res.end(format.closing());
    } catch (error) {
      if (gone.signal.aborted) return;
      // Past the status line an error can only cut the answer short, which the client sees as such.
      this.logger.error({ err: error }, 'batch cut short');
      res.destroy();
    }
  }
}
