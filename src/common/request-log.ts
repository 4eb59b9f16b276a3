import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';

/**
 * Street addresses are personal data: at `info` and above a log line carries a short hash of the
 * address instead, enough to correlate repeated lookups without revealing where anyone lives.
 */
export function redactAddress(url: string, level: string): string {
  if (level === 'debug' || level === 'trace') return url;
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  const addresses = params.getAll('address');
  if (addresses.length === 0) return url;
  params.delete('address');
  for (const address of addresses) params.append('address', `sha256:${addressHash(address)}`);
  return `${url.slice(0, queryStart)}?${params.toString()}`;
}

function addressHash(address: string): string {
  return createHash('sha256').update(address.trim().replace(/\s+/g, ' ').toLowerCase()).digest('hex').slice(0, 12);
}

type LoggedRequest = IncomingMessage & { id: string; route?: { path?: string } };
type LoggedResponse = ServerResponse & { locals?: Record<string, unknown> };

function outcome(req: IncomingMessage, res: ServerResponse): Record<string, unknown> {
  const locals = (res as LoggedResponse).locals ?? {};
  return {
    route: (req as LoggedRequest).route?.path ?? null,
    cache: locals.cacheStatus ?? null,
    upstreamMs: (locals.requestFacts as { upstreamMs?: unknown } | undefined)?.upstreamMs ?? null,
  };
}

/** One JSON line per request: id, method, route, status, duration, cache outcome and upstream timings. */
export function requestLogOptions(level: string): Params {
  return {
    pinoHttp: {
      level,
      genReqId: (req) => (req as LoggedRequest).id,
      quietReqLogger: true,
      // Added to the completion line only: customProps would be evaluated (and logged) twice.
      customSuccessObject: (req, res, line: object) => ({ ...line, ...outcome(req, res) }),
      customErrorObject: (req, res, _error, line: object) => ({ ...line, ...outcome(req, res) }),
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactAddress(req.url, level) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customSuccessMessage: (req, res, responseTime) => `${req.method} ${res.statusCode} ${Math.round(responseTime)}ms`,
      customErrorMessage: (req, res) => `${req.method} ${res.statusCode}`,
    },
  };
}
