import { once } from 'node:events';
import { Controller, Delete, Get, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiLocationsBodyErrors, ApiRowOptions, LOCATIONS_BODY_CONTENT, READER_WARNING_HEADER, ROW_ANSWERS_CONTENT } from '../batch/dto/batch-openapi';
import { ANSWER_FORMATS, CSV, csvWithInput, NDJSON } from '../batch/answer-formats';
import { acceptedAnswerFormat, sendWarnings, storeLocations, streamedLocationReader } from '../batch/batch-request';
import { noNotes } from '../batch/csv-locations';
import { CSV_ANSWER_COLUMNS, ERROR_COLUMNS } from '../batch/csv-answer';
import { ApiError } from '../common/api-error';
import { QueryParametersGuard, ReadsQueryParameters } from '../common/query-string';
import type { AppConfig } from '../config/app-config';
import { ErrorEnvelopeDto } from '../common/error-envelope.dto';
import { OPTION_PARAMETERS, readLookupOptions } from '../lookup/dto/lookup-parameters';
import { JobAcceptedDto, JobCancelledDto, JobStatusDto } from './dto/job.dto';
import { resultsNotAcceptable } from './job-errors';
import type { JobStatusView } from './job-record';
import { PortfolioJobs } from './portfolio-jobs';

export const JOBS_PATH = '/flood-zone/jobs';

/** A job body may be up to 256 MiB (a million rows of CSV fit). */
const JOB_BODY_MAX_BYTES = 256 * 1024 * 1024;

const ID_PARAMETER = { name: 'id', description: "The job's id, as the submission answered it.", example: '3f2b9c1e-7a4d-4e8b-9c61-0d5e2a7b4f18' };
const NOT_FOUND = 'JOB_NOT_FOUND: no such job: it never existed, was cancelled and deleted, or its results expired (JOB_TTL_HOURS after it finished).';
const UNREAD_PARAMETER = 'INVALID_PARAMETERS: a query parameter the operation does not read (a bracketed name such as `include[]` too), named in the message.';
/** The 503 of every job endpoint, answered at once (see /health `jobs`); its Retry-After says when to ask again. */
const UNAVAILABLE = {
  type: ErrorEnvelopeDto,
  description:
    'JOBS_UNAVAILABLE: jobs cannot be served now, and the message says why: no Redis is configured for jobs (set JOBS_REDIS_URL or REDIS_URL), ' +
    'the jobs Redis is not answering (retry after Retry-After), or it may evict keys (its maxmemory-policy must be noeviction). Lookups and batches work as usual.',
  headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
};

@ApiTags('flood zone')
@ApiExtraModels(JobAcceptedDto, JobStatusDto, JobCancelledDto)
@Controller(JOBS_PATH)
@UseGuards(QueryParametersGuard)
@ReadsQueryParameters()
@ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: UNREAD_PARAMETER })
export class JobsController {
  private readonly maxRows: number;

  constructor(
    private readonly jobs: PortfolioJobs,
    config: ConfigService<AppConfig, true>,
  ) {
    this.maxRows = config.get('JOB_MAX_LOCATIONS', { infer: true });
  }

  @Post()
  @HttpCode(202)
  @ReadsQueryParameters(...OPTION_PARAMETERS)
  @ApiOperation({
    operationId: 'submitJob',
    summary: 'Start a portfolio job: flood zones of up to a million locations, answered in the background',
    description:
      'The body of POST /flood-zone/batch (JSON or CSV), up to JOB_MAX_LOCATIONS rows (default 1,000,000) and 256 MiB. The rows are stored and ' +
      'answered in chunks of 1,000 by the workers of every replica, within JOB_UPSTREAM_RATE_PER_SECOND calls per upstream service for all jobs ' +
      'together; follow the Location to see the job progress, then read its results. `include` and `radius` apply to every row.',
    requestBody: {
      required: false,
      description:
        'Needed (an empty body is a 400 INVALID_BATCH): at most 256 MiB, as application/json or text/csv, read as POST /flood-zone/batch reads them. ' +
        "A malformed location is its own row's 400 in the results, never the whole request's.",
      content: LOCATIONS_BODY_CONTENT,
    },
  })
  @ApiRowOptions()
  @ApiAcceptedResponse({
    type: JobAcceptedDto,
    description: 'The job is stored and queued.',
    headers: { Location: { description: 'The job: /flood-zone/jobs/{id}.', schema: { type: 'string' } }, ...READER_WARNING_HEADER },
  })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description:
      'INVALID_BATCH: malformed JSON or CSV, no `locations` array (or two of them), no usable column, or no rows (the message says where: ' +
      'the line of a CSV body, the element of `locations` of a JSON one); INVALID_PARAMETERS: a bad include or radius, or a query parameter ' +
      'other than these two (a bracketed name such as `include[]` too), named in the message.',
  })
  @ApiLocationsBodyErrors({ maxRowsSetting: 'JOB_MAX_LOCATIONS', maxBody: '256 MiB' })
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  @ApiResponse({ status: 500, type: ErrorEnvelopeDto, description: 'INTERNAL_ERROR.' })
  async submit(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.jobs.assertAvailable();
    const options = readLookupOptions(req.query as Record<string, unknown>);
    const reader = streamedLocationReader(req);
    // The rows are stored chunk by chunk as the body arrives: memory holds a chunk or two, whatever the body's size.
    const limits = { maxRows: this.maxRows, maxBytes: JOB_BODY_MAX_BYTES };
    const notes = noNotes();
    const { id, status, total, done, warnings } = await storeLocations(req, reader, limits, notes, (rows) => this.jobs.submit(rows, options, notes));
    sendWarnings(res, notes);
    res.status(202).setHeader('Location', `${JOBS_PATH}/${id}`).setHeader('Cache-Control', 'no-store').json({ id, status, total, done, warnings });
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getJob',
    summary: 'Where a portfolio job stands',
    description: 'Its status, rows done and rows failed upstream (errors), its times, and the seconds left at its pace so far.',
  })
  @ApiParam(ID_PARAMETER)
  @ApiOkResponse({ type: JobStatusDto })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: NOT_FOUND })
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  @ApiResponse({ status: 500, type: ErrorEnvelopeDto, description: 'INTERNAL_ERROR.' })
  async status(@Param('id') id: string, @Res() res: Response): Promise<void> {
    const job: JobStatusView = await this.jobs.status(id);
    res.setHeader('Cache-Control', 'no-store').json(job);
  }

  @Get(':id/results')
  @ReadsQueryParameters('columns')
  @ApiOperation({
    operationId: 'getJobResults',
    summary: "A completed portfolio job's answers",
    description:
      'Every row in input order, each exactly as GET /flood-zone answered it, in the formats of POST /flood-zone/batch (by Accept), streamed. ' +
      'Kept JOB_TTL_HOURS after the job completed.',
  })
  @ApiParam(ID_PARAMETER)
  @ApiQuery({
    name: 'columns',
    required: false,
    enum: ['all'],
    description:
      `all: the CSV answer with the input's columns, as the command line's \`flood-zone batch\` writes it: after the answer's columns, ${ERROR_COLUMNS.join(' and ')} ` +
      "(the error envelope's message; an ambiguous address's candidates as JSON), then a CSV body's other columns, each row's cells as given (a name the " +
      'answer already has gets the prefix input_). Accept must allow text/csv; another value is a 400 INVALID_PARAMETERS.',
  })
  @ApiOkResponse({
    description: `One answer per row, in input order, by Accept: application/json, ${NDJSON} (the default, also for */*) or text/csv (columns ${CSV_ANSWER_COLUMNS.join(', ')}; with columns=all, more), as POST /flood-zone/batch answers.`,
    content: ROW_ANSWERS_CONTENT,
  })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description:
      'INVALID_PARAMETERS: columns other than all, columns=all with an Accept that refuses text/csv, or a query parameter the operation does not read (named in the message).',
  })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: NOT_FOUND })
  @ApiResponse({
    status: 406,
    type: ErrorEnvelopeDto,
    description: `NOT_ACCEPTABLE: an Accept that allows none of ${Object.keys(ANSWER_FORMATS).join(', ')} (nor any type, */*).`,
  })
  @ApiConflictResponse({
    type: ErrorEnvelopeDto,
    description: 'JOB_NOT_FINISHED: the job is queued or running (see its status), or it failed or was cancelled.',
  })
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  @ApiResponse({ status: 500, type: ErrorEnvelopeDto, description: 'INTERNAL_ERROR.' })
  async results(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const withInput = readResultColumns(req);
    // Asked before the job is read: a client that cannot take any format need not wait on Redis to hear so.
    const asked = withInput ? undefined : acceptedAnswerFormat(req);
    if (!withInput && !asked) throw resultsNotAcceptable(String(req.headers.accept), Object.keys(ANSWER_FORMATS));
    const { chunks, otherColumns } = await this.jobs.results(id);
    const format = asked ?? csvWithInput(otherColumns);
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    res.status(200).setHeader('Content-Type', format.contentType).setHeader('Cache-Control', 'no-store');
    const write = async (text: string) => {
      if (text !== '' && !res.write(text)) await once(res, 'drain', { signal: gone.signal });
    };
    try {
      await write(format.opening());
      // One chunk in memory at a time, however large the job.
      for await (const answers of chunks) {
        await write(answers.map((answer) => format.row(answer)).join(''));
      }
    } catch (error) {
      if (gone.signal.aborted) return;
      // Past the status line a failure can only cut the answer short, which the client sees as such.
      res.destroy(error as Error);
      return;
    }
    res.end(format.closing());
  }

  @Delete(':id')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'cancelJob',
    summary: 'Cancel a portfolio job and delete its data',
    description:
      'A running job takes no more work (no upstream call starts for it) and its rows and results are deleted; its status then says cancelled until it expires. A finished job is deleted whole.',
  })
  @ApiParam(ID_PARAMETER)
  @ApiAcceptedResponse({ type: JobCancelledDto })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto, description: NOT_FOUND })
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  @ApiResponse({ status: 500, type: ErrorEnvelopeDto, description: 'INTERNAL_ERROR.' })
  async cancel(@Param('id') id: string, @Res() res: Response): Promise<void> {
    await this.jobs.cancel(id);
    res.status(202).setHeader('Cache-Control', 'no-store').json({ id, status: 'cancelled' });
  }
}

/**
 * Whether the results are asked for with the input's columns (`columns=all`): always the CSV answer, so Accept
 * must allow text/csv. Any other value, or an Accept without text/csv, is a 400 INVALID_PARAMETERS.
 */
function readResultColumns(req: Request): boolean {
  const columns = req.query.columns;
  if (columns === undefined) return false;
  if (columns !== 'all') throw new ApiError(400, 'INVALID_PARAMETERS', "columns must be all (the answer with the input's columns), or left out.");
  if (!req.accepts(CSV)) throw new ApiError(400, 'INVALID_PARAMETERS', 'columns=all is for the text/csv answer: accept text/csv.');
  return true;
}
