import { once } from 'node:events';
import { Controller, HttpCode, Logger, Post, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiBadRequestResponse, ApiExtraModels, ApiOperation, ApiResponse, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiLocationsBodyErrors, ApiRowOptions, LOCATIONS_BODY_CONTENT, READER_WARNING_HEADER, ROW_ANSWERS_CONTENT } from './dto/batch-openapi';
import type { AppConfig } from '../config/app-config';
import type { LookupOptions } from '../lookup/location-query';
import { readOptionsQuery } from '../lookup/dto/lookup-parameters';
import { ErrorEnvelopeDto } from '../common/error-envelope.dto';
import { DrainState } from '../common/drain-state';
import { NDJSON } from './answer-formats';
import { BatchLookupService } from './batch-lookup.service';
import { answerFormat, locationReader, readLocations, sendWarnings } from './batch-request';
import { noNotes } from './csv-locations';
import { BATCH_BUSY_RETRY_AFTER_SECONDS, BatchSlots } from './batch-slots';
import { CSV_ANSWER_COLUMNS } from './csv-answer';
import { BatchAnswerDto, BatchRowAnswerDto } from './dto/batch-answer.dto';
import { BatchLocationDto, BatchRequestDto } from './dto/batch-request.dto';

const BATCH_PATH = '/flood-zone/batch';
/** How long the rows already written to a cut answer may take to leave before its connection is dropped. */
const CUT_FLUSH_MS = 250;

@ApiTags('flood zone')
@ApiExtraModels(BatchRequestDto, BatchLocationDto, BatchRowAnswerDto, BatchAnswerDto)
@Controller(BATCH_PATH)
export class BatchController {
  private readonly logger = new Logger(BatchController.name);
  private readonly maxRows: number;
  private readonly answerStallMs: number;

  constructor(
    private readonly batches: BatchLookupService,
    private readonly slots: BatchSlots,
    private readonly drain: DrainState,
    config: ConfigService<AppConfig, true>,
  ) {
    this.maxRows = config.get('BATCH_MAX_LOCATIONS', { infer: true });
    this.answerStallMs = config.get('BATCH_ANSWER_STALL_MS', { infer: true });
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'screenBatch',
    summary: 'Flood zones of many addresses or points',
    description:
      'Up to BATCH_MAX_LOCATIONS (default 10,000) locations in one request, as JSON or CSV; each row is answered exactly as GET /flood-zone ' +
      'answers it (status and body), in input order, streamed as rows finish. A bad row is its own 400/422, an upstream failure its own 502. ' +
      '`include` and `radius` apply to every row. Addresses go to the Census batch geocoder; each distinct point is looked up once per batch.',
    // Two bodies with different schemas, which @ApiBody (one schema for every media type) cannot say.
    // Not `required`: an empty body is the service's 400 INVALID_BATCH, not a gateway's 422.
    requestBody: {
      required: false,
      description:
        "Needed (an empty body is a 400 INVALID_BATCH): at most 10 MiB, as application/json or text/csv. A malformed location is its own row's 400, never the whole request's; " +
        'a JSON body that is not an object with a `locations` array is a 400 INVALID_BATCH, and a body of any other type a 415 UNSUPPORTED_MEDIA_TYPE.',
      content: LOCATIONS_BODY_CONTENT,
    },
  })
  @ApiRowOptions()
  @ApiResponse({
    status: 200,
    description:
      `One answer per location, in input order, by Accept: application/json (the one typed clients should ask for), ${NDJSON} (the default, also for */*: ` +
      `one BatchRowAnswerDto per line, streamed) or text/csv (columns ${CSV_ANSWER_COLUMNS.join(', ')}: nfip_participating, crs_class and ` +
      `sfha_discount_percent are result.community.nfip's, ground_elevation_ft and ground_minus_bfe_ft result.groundElevation's (include=elevation), ` +
      `tract, area_claims (<10 where withheld), area_claims_outside_sfha_percent and area_flood_declarations result.history's (include=history), ` +
      `empty when null; a text cell a spreadsheet would run as a formula is written with a leading ').`,
    headers: READER_WARNING_HEADER,
    content: ROW_ANSWERS_CONTENT,
  })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description:
      "INVALID_BATCH: malformed JSON or CSV, JSON nested more than 32 levels, no `locations` array, no usable column (or one named twice, as lat and latitude), or no rows (the message says where; a CSV record with more or fewer cells than the header is only that row's 400 INVALID_PARAMETERS); INVALID_PARAMETERS: a bad include or radius, or a query parameter with brackets (such as `include[]`, named in the message).",
  })
  @ApiLocationsBodyErrors({ maxRowsSetting: 'BATCH_MAX_LOCATIONS', maxBody: '10 MiB' })
  @ApiTooManyRequestsResponse({
    type: ErrorEnvelopeDto,
    description:
      'BATCH_BUSY: BATCH_MAX_CONCURRENT batches are already running, or the instance is shutting down (see Retry-After); or RATE_LIMITED where rate limiting is configured.',
  })
  @ApiResponse({ status: 500, type: ErrorEnvelopeDto, description: 'INTERNAL_ERROR.' })
  async batch(@Req() req: Request, @Res() res: Response): Promise<void> {
    const options = readOptionsQuery(req.query as Record<string, unknown>);
    const reader = locationReader(req);
    // A batch that could not run is told so before it sends its body; but the slot itself is taken once the
    // body is in, so an upload, however slow, never holds one.
    if (this.slots.full) this.turnAway(res);
    const notes = noNotes();
    const locations = await readLocations(req, reader, this.maxRows, notes);
    sendWarnings(res, notes);
    const release = this.slots.tryTake() ?? this.turnAway(res);
    // However the batch ends: the connection's end frees the slot even if some of the batch's work lingers.
    res.once('close', release);
    try {
      await this.answer(req, res, locations, options);
    } finally {
      release();
    }
  }

  private turnAway(res: Response): never {
    res.setHeader('Retry-After', String(BATCH_BUSY_RETRY_AFTER_SECONDS));
    throw this.slots.busy();
  }

  /**
   * Streams the rows' answers in input order. A client that goes away cancels the rest; one that reads none
   * of its answer for BATCH_ANSWER_STALL_MS, or the end of a shutdown's drain, cuts it short. A cut answer is
   * aborted (no closing chunk), never ended, so the client can tell it from a complete one.
   */
  private async answer(req: Request, res: Response, locations: unknown[], options: LookupOptions): Promise<void> {
    const format = answerFormat(req);
    const requestId = String(req.id);
    const cancelled = new AbortController();
    let cutBecause: string | undefined;
    let stalled = false;
    const cut = (why: string) => {
      cutBecause ??= why;
      cancelled.abort();
    };
    res.once('close', () => {
      if (!res.writableFinished) cancelled.abort();
    });
    if (res.destroyed) cancelled.abort();
    const overdue = () => cut('the service is shutting down');
    this.drain.overdue.addEventListener('abort', overdue, { once: true });
    res.status(200);
    res.setHeader('Content-Type', format.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.flushHeaders();
    const write = async (text: string) => {
      if (text === '' || res.write(text)) return;
      const unread = AbortSignal.timeout(this.answerStallMs);
      try {
        await once(res, 'drain', { signal: AbortSignal.any([cancelled.signal, unread]) });
      } catch (error) {
        if (unread.aborted && !cancelled.signal.aborted) {
          stalled = true;
          cut(`its client read none of the answer for ${this.answerStallMs} ms`);
        }
        throw error;
      }
    };
    let sent = 0;
    try {
      await write(format.opening());
      // On SIGTERM no new row starts; the rows under way are written, then the answer is cut below.
      await this.batches.run(
        locations,
        options,
        requestId,
        cancelled.signal,
        async (row) => {
          await write(format.row(row));
          sent++;
        },
        this.drain.stopping,
      );
    } catch (error) {
      if (!cancelled.signal.aborted) {
        // Past the status line an error can only cut the answer short, which the client sees as such.
        this.logger.error({ err: error, requestId }, 'batch cut short');
        abortAnswer(res, CUT_FLUSH_MS);
        return;
      }
    } finally {
      this.drain.overdue.removeEventListener('abort', overdue);
    }
    if (cutBecause === undefined && cancelled.signal.aborted) return;
    if (cutBecause === undefined && sent === locations.length) {
      res.end(format.closing());
      return;
    }
    cutBecause ??= this.drain.stopping.aborted ? 'the service is shutting down' : 'rows went unanswered';
    this.logger.warn({ requestId, rowsSent: sent, rows: locations.length }, `batch cut short: ${cutBecause}`);
    abortAnswer(res, stalled ? 0 : CUT_FLUSH_MS);
  }
}

/**
 * Ends a streamed answer without its closing chunk, so that the client sees it cut: what was written goes out
 * first (for at most `flushMs`, which stays within a shutdown's margin), then the connection is dropped.
 */
function abortAnswer(res: Response, flushMs: number): void {
  if (flushMs > 0) {
    res.socket?.end();
    setTimeout(() => res.destroy(), flushMs).unref();
  } else {
    res.destroy();
  }
}
