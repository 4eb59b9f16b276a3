import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { loggedErrorAnswer } from '../common/filters/api-exception.filter';
import { errorPage } from './error-page';
import { REPORT_PAGE_POLICY } from './report-page-policy';
import { candidateReportUrl } from './report-links';

/**
 * A report's failure as an HTML page with exactly the status, code, message and headers (Retry-After) of the
 * JSON envelope GET /flood-zone would give, never cached.
 */
@Catch()
export class ReportErrorPageFilter implements ExceptionFilter {
  private readonly logger = new Logger(ReportErrorPageFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (res.headersSent) return;
    const answer = loggedErrorAnswer(exception, req, this.logger);
    const requestQuery = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
    const page = errorPage(answer.body, (candidate) => candidateReportUrl(requestQuery, candidate));
    res.writeHead(answer.status, {
      ...answer.headers,
      'Cache-Control': 'no-store',
      'Content-Security-Policy': REPORT_PAGE_POLICY,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(page)),
    });
    res.end(req.method === 'HEAD' ? undefined : page);
  }
}
