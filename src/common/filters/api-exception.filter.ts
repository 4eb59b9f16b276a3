import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, ErrorCode, UpstreamUnavailableError } from '../api-error';
import { ErrorAnswer, sendErrorAnswer } from '../error-envelope';
import { UPSTREAM_BY_NAME } from '../upstream/upstream-registry';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID_PARAMETERS',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  422: 'COORDINATES_OUT_OF_RANGE',
  429: 'RATE_LIMITED',
  502: 'UPSTREAM_UNAVAILABLE',
};

/**
 * The error envelope for any failure: upstream failures become 502, bugs a 500 without
 * internals. Pure, so a batch row gets exactly the body GET would send (`requestId` is the request's id).
 */
export function errorAnswerOf(exception: unknown, request: { id: string; method: string; path: string }): ErrorAnswer {
  const answer = (
    status: number,
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ): ErrorAnswer => ({
    status,
    body: { error: message, statusCode: status, code, requestId: request.id, ...details },
    headers,
  });
  if (exception instanceof UpstreamUnavailableError) {
    return answer(
      HttpStatus.BAD_GATEWAY,
      'UPSTREAM_UNAVAILABLE',
      `${UPSTREAM_BY_NAME[exception.upstream].label} is unavailable or returned an error; no answer can be given. Retry shortly.`,
      { upstream: exception.upstream },
      { 'Retry-After': '5' },
    );
  }
  if (exception instanceof ApiError) return answer(exception.getStatus(), exception.code, exception.message, exception.details, exception.headers);
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === HttpStatus.NOT_FOUND) {
      return answer(status, 'NOT_FOUND', `No such path: ${request.method} ${request.path}. See /health for the endpoint catalogue.`);
    }
    const code = CODE_BY_STATUS[status];
    if (code) return answer(status, code, plainMessage(exception));
    if (status < 500) return answer(status === 413 || status === 415 ? status : 400, 'INVALID_PARAMETERS', plainMessage(exception));
  }
  return answer(HttpStatus.INTERNAL_SERVER_ERROR, 'INTERNAL_ERROR', 'Internal error. The request id identifies it in the logs.');
}

/** A request's failure as its error answer, logged where an operator must look: an upstream down, or an error of ours. */
export function loggedErrorAnswer(exception: unknown, req: Request, logger: Logger): ErrorAnswer {
  const answer = errorAnswerOf(exception, { id: String(req.id ?? ''), method: req.method, path: req.path });
  if (exception instanceof UpstreamUnavailableError) {
    logger.warn({ upstream: exception.upstream, reason: exception.reason }, 'upstream unavailable');
  } else if (answer.status === HttpStatus.INTERNAL_SERVER_ERROR) {
    logger.error({ err: exception }, 'unhandled error');
  }
  return answer;
}

/** Sends every failure as the one error envelope. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(ApiExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (res.headersSent) return;
    sendErrorAnswer(res, loggedErrorAnswer(exception, req, this.logger));
  }
}

function plainMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return Array.isArray(message) ? message.join('; ') : String(message ?? exception.message);
}
