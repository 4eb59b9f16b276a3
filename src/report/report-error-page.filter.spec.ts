import { Logger, type ArgumentsHost } from '@nestjs/common';
import { ApiError, UpstreamUnavailableError } from '../common/api-error';
import { errorAnswerOf } from '../common/filters/api-exception.filter';
import { ReportErrorPageFilter } from './report-error-page.filter';
import { REPORT_PAGE_POLICY } from './report-page-policy';

interface Sent {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

function answerTo(exception: unknown, method = 'GET', url = '/flood-zone/report?address=200%20Main%20St&span=900'): Sent {
  const sent: Sent = {};
  const req = { id: 'req-7', method, path: '/flood-zone/report', originalUrl: url };
  const res = {
    headersSent: false,
    writeHead: (status: number, headers: Record<string, string>) => Object.assign(sent, { status, headers }),
    end: (body?: string) => Object.assign(sent, { body }),
  };
  const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
  new ReportErrorPageFilter().catch(exception, host);
  return sent;
}

describe('ReportErrorPageFilter', () => {
  let errors: jest.SpyInstance;
  let warnings: jest.SpyInstance;
  beforeEach(() => {
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('logs a bug as an error and an upstream failure as a warning, as the JSON answers do; a client error not at all', () => {
    answerTo(new Error('boom'));
    answerTo(new UpstreamUnavailableError('elevation', 'timeout'));
    answerTo(new ApiError(404, 'ADDRESS_NOT_FOUND', 'The address could not be found.'));
    expect(errors.mock.calls).toEqual([[{ err: expect.any(Error) }, 'unhandled error']]);
    expect(warnings.mock.calls).toEqual([[{ upstream: 'elevation', reason: 'timeout' }, 'upstream unavailable']]);
  });

  it.each([
    ['a bug', new Error('boom at /src/x.ts:1'), 500, 'INTERNAL_ERROR'],
    ['a bad parameter', new ApiError(400, 'INVALID_PARAMETERS', 'lat and lon must be given together.'), 400, 'INVALID_PARAMETERS'],
    ['an upstream failure', new UpstreamUnavailableError('flood_data', 'HTTP 503'), 502, 'UPSTREAM_UNAVAILABLE'],
  ])("%s: the envelope's status, code and message as a page, never cached", (_what, exception, status, code) => {
    const sent = answerTo(exception);
    const envelope = errorAnswerOf(exception, { id: 'req-7', method: 'GET', path: '/flood-zone/report' });
    expect(sent.status).toBe(status);
    expect(envelope.body.code).toBe(code);
    expect(sent.headers).toEqual({
      ...envelope.headers,
      'Cache-Control': 'no-store',
      'Content-Security-Policy': REPORT_PAGE_POLICY,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(sent.body!)),
    });
    expect(sent.body).toContain(`No report: ${status} ${code}`);
    expect(sent.body).toContain(envelope.body.error.replace(/'/g, '&#39;'));
    expect(sent.body).toContain('Request id req-7');
    expect(sent.body).not.toMatch(/boom|\.ts:\d|\n\s+at /);
  });

  it('a 502 says Retry-After: 5', () => {
    expect(answerTo(new UpstreamUnavailableError('geocoder', 'reset')).headers).toMatchObject({ 'Retry-After': '5' });
  });

  it("links each match of an ambiguous address to its report, with the request's other parameters", () => {
    const sent = answerTo(
      new ApiError(404, 'AMBIGUOUS_ADDRESS', 'The address matches several places.', {
        candidates: [{ matchedAddress: '200 MAIN ST', lat: 29.7589, lon: -95.3632 }],
      }),
    );
    expect(sent.body).toContain('<a href="/flood-zone/report?span=900&amp;lat=29.7589&amp;lon=-95.3632">200 MAIN ST</a>');
  });

  it('HEAD: the headers only', () => {
    const sent = answerTo(new ApiError(400, 'INVALID_PARAMETERS', 'Give an address, or both lat and lon.'), 'HEAD');
    expect(sent.status).toBe(400);
    expect(Number(sent.headers!['Content-Length'])).toBeGreaterThan(0);
    expect(sent.body).toBeUndefined();
  });
});
