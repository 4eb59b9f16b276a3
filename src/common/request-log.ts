import { createHash } from 'node:crypto';
import type { LoggerService } from '@nestjs/common';
import pino, { Level, Logger } from 'pino';
import { currentRequestId } from './request-context';

/**
 * Street addresses are personal data: at `info` and above a log line carries a short hash of the
 * address instead, enough to correlate repeated lookups without revealing where anyone lives. A parameter
 * counts as an address when its name, decoded as the query parser decodes it (percent escapes, `+` as a
 * space), starts with "address" in any case: `addr%65ss`, `ADDRESS`, `address[]` and `address[0]` are all
 * hashed, whether or not the service reads them as the address.
 */
function redactAddress(url: string, level: string): string {
  if (level === 'debug' || level === 'trace') return url;
  const queryStart = url.indexOf('?');
  // Only a URL naming "address" literally or with escapes can hold one: lat/lon lookups skip the parsing.
  if (queryStart < 0 || !MAY_NAME_ADDRESS.test(url)) return url;
  const pairs = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const [[name, value]] = [...new URLSearchParams(pair), ['', '']];
      if (!name.trim().toLowerCase().startsWith('address')) return pair;
      return `${pair.slice(0, pair.includes('=') ? pair.indexOf('=') : pair.length)}=${encodeURIComponent(`sha256:${addressHash(value)}`)}`;
    });
  return `${url.slice(0, queryStart)}?${pairs.join('&')}`;
}

const MAY_NAME_ADDRESS = /address|%/i;

function addressHash(address: string): string {
  return createHash('sha256').update(address.trim().replace(/\s+/g, ' ').toLowerCase()).digest('hex').slice(0, 12);
}

/** What one request's log line says, gathered by the HTTP edge when the response is done. */
export interface RequestOutcome {
  id: string;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  route: string | null;
  cache: string | null;
  upstreamMs: Record<string, number[]> | null;
  /** The client went away before the answer was complete. */
  aborted: boolean;
  /** Why Node's parser refused the request, when it did. */
  reason?: string;
}

/**
 * The service's one pino logger: JSON lines on stdout for the application (as Nest's logger, with the
 * request id of the request being served, if any) and one line per request. Written directly, not
 * through per-request child loggers: a cache hit must not pay for logging it does not write.
 */
export class ServiceLog implements LoggerService {
  readonly pino: Logger;

  constructor(readonly level: string) {
    this.pino = pino({
      level,
      mixin: () => {
        const reqId = currentRequestId();
        return reqId === undefined ? {} : { reqId };
      },
    });
  }

  /** One line per request: id, method, url (address hashed), route, status, duration, cache outcome, upstream timings. */
  request(outcome: RequestOutcome): void {
    const level: Level = outcome.status >= 500 ? 'error' : 'info';
    if (!this.pino.isLevelEnabled(level)) return;
    const responseTime = Math.round(outcome.durationMs);
    this.pino[level](
      {
        reqId: outcome.id,
        req: { id: outcome.id, method: outcome.method, url: redactAddress(outcome.url, this.level) },
        res: { statusCode: outcome.status },
        responseTime,
        route: outcome.route,
        cache: outcome.cache,
        upstreamMs: outcome.upstreamMs,
        ...(outcome.aborted ? { aborted: true } : {}),
        ...(outcome.reason ? { reason: outcome.reason } : {}),
      },
      `${outcome.method} ${outcome.status} ${responseTime}ms${outcome.aborted ? ' (client went away)' : ''}`,
    );
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /**
   * Nest calls a logger as (message, context), (message, stack, context) for errors, or, from the
   * service's own code, (object, message, context): the context is always last.
   */
  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const context = params.length > 0 && typeof params[params.length - 1] === 'string' ? (params.pop() as string) : undefined;
    const [detail] = params;
    if (message instanceof Error) {
      this.pino[level]({ context, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ context, ...message }, typeof detail === 'string' ? detail : '');
    } else {
      this.pino[level]({ context, ...(typeof detail === 'string' ? { stack: detail } : {}) }, String(message));
    }
  }
}
