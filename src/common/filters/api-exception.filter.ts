import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, ErrorCode, UpstreamName, UpstreamUnavailableError } from '../api-error';
import { sendErrorEnvelope } from '../error-envelope';

const UPSTREAM_LABEL: Record<UpstreamName, string> = {
  flood_data: 'The FEMA flood data service (NFHL)',
  flood_data_preliminary: "FEMA's preliminary flood map service",
  flood_data_pending: "FEMA's pending flood map service",
  coastal_barrier: 'The U.S. Fish and Wildlife Service Coastal Barrier Resources System service',
  geocoder: 'The U.S. Census geocoder',
};

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID_PARAMETERS',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  422: 'COORDINATES_OUT_OF_RANGE',
  429: 'RATE_LIMITED',
  502: 'UPSTREAM_UNAVAILABLE',
};

/** Maps every failure to the CONTRACT section 5 envelope; upstream failures become 502, bugs a 500 without internals. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(ApiExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (res.headersSent) return;

    if (exception instanceof UpstreamUnavailableError) {
      this.logger.warn({ upstream: exception.upstream, reason: exception.reason }, 'upstream unavailable');
      sendErrorEnvelope(
        req,
        res,
        HttpStatus.BAD_GATEWAY,
        'UPSTREAM_UNAVAILABLE',
        `${UPSTREAM_LABEL[exception.upstream]} is unavailable or returned an error; no answer can be given. Retry shortly.`,
        { upstream: exception.upstream },
        { 'Retry-After': '5' },
      );
      return;
    }
    if (exception instanceof ApiError) {
      sendErrorEnvelope(req, res, exception.getStatus(), exception.code, exception.message, exception.details);
      return;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = CODE_BY_STATUS[status];
      if (code && status !== HttpStatus.NOT_FOUND) {
        sendErrorEnvelope(req, res, status, code, plainMessage(exception));
        return;
      }
      if (status === HttpStatus.NOT_FOUND) {
        sendErrorEnvelope(req, res, status, 'NOT_FOUND', `No such path: ${req.method} ${req.path}. See /health for the endpoint catalogue.`);
        return;
      }
      if (status < 500) {
        sendErrorEnvelope(req, res, status === 413 || status === 415 ? status : 400, 'INVALID_PARAMETERS', plainMessage(exception));
        return;
      }
    }
    this.logger.error({ err: exception }, 'unhandled error');
    sendErrorEnvelope(req, res, HttpStatus.INTERNAL_SERVER_ERROR, 'INTERNAL_ERROR', 'Internal error. The request id identifies it in the logs.');
  }
}

function plainMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return Array.isArray(message) ? message.join('; ') : String(message ?? exception.message);
}
