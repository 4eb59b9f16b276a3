import { randomUUID } from 'node:crypto';
import { STATUS_CODES, ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import type { DrainState } from './drain-state';
import type { ErrorCode } from './api-error';
import { sendErrorEnvelope } from './error-envelope';
import { RequestFacts, withRequestFacts } from './request-context';
import type { ServiceLog } from './request-log';
import { watchBodyPace } from './request-body';
import type { UploadPace } from './upload-pace';

/** A client's id is reused only when it is a short, harmless token: it ends up in logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** What a page of another origin may read from an answer (CORS hides every other header). */
const EXPOSED_HEADERS = 'X-Request-Id, ETag, X-Cache, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Map-Legend, X-Map-Unavailable';

/**
 * Node's HTTP server limits: a client gets 20 s to send its headers; idle keep-alive connections stay open longer
 * than a typical load balancer's 60 s, so the balancer, not the service, closes them. No time for the whole request
 * (0): a body is held to the upload pace instead (docs/api.md, "Slow uploads"), so that an upload the API allows is
 * never cut at a fixed time, while one that drips still is.
 */
const SERVER_LIMITS = { headersTimeoutMs: 20_000, requestTimeoutMs: 0, keepAliveTimeoutMs: 65_000, checkEveryMs: 1_000 };

/** The methods a path answers, as its Allow header says them. */
export interface PathMethods {
  allow: string;
  methods: ReadonlySet<string>;
}

export function pathMethods(...methods: string[]): PathMethods {
  return { allow: methods.join(', '), methods: new Set(methods) };
}

/** Told about every request the edge sees end (the metrics). */
export interface RequestObserver {
  requestFinished(route: string, method: string, status: number, seconds: number): void;
}

export interface HttpEdgeOptions {
  log: ServiceLog;
  metrics: RequestObserver;
  drain: DrainState;
  /** Known paths and what they answer; any other method there is a 405. A `{name}` segment (`/jobs/{id}`) is any one segment. */
  paths: ReadonlyMap<string, PathMethods>;
  /** Known path prefixes (documentation assets), answering GET. */
  prefixes: readonly string[];
  /** Where the documentation pages (Swagger UI) are: paths starting with this get their own headers. */
  pagesPath: string;
  /** Helmet's options for the documentation pages (its Strict-Transport-Security goes only on answers over HTTPS). */
  pageSecurityHeaders: HelmetOptions;
  /** Helmet's options for every other answer: JSON, which needs the strictest policy (HSTS as for the pages). */
  apiSecurityHeaders: HelmetOptions;
  /** The pace every request body is held to, while a route reads it and after an answer given without reading it all. */
  uploadPace: UploadPace;
  /** Answers a request before the router when it can (cached lookups); otherwise calls `next`. */
  earlyAnswer?: (req: Request, res: Response, next: () => void, edge: EdgeHeaders) => void;
}

/**
 * The headers every answer carries (security, CORS, request id), for an early answer: as one flat list to
 * write in a single `writeHead`, or applied one by one to a response that is answered another way.
 */
export interface EdgeHeaders {
  /** Name, value, name, value...: the static headers, without the request id. */
  raw: readonly string[];
  requestId: string;
  apply(): void;
}

const READ_METHODS = pathMethods('GET', 'HEAD', 'OPTIONS');

/** The parser errors Node reports through `clientError`, as the envelope states them. */
const CLIENT_ERRORS: Record<string, [number, ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'REQUEST_HEADER_TOO_LARGE', 'The request line or headers are too large (at most 16 KiB together).'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'The request was not received in time.'],
};
const MALFORMED: [number, ErrorCode, string] = [400, 'BAD_REQUEST', 'The request is not valid HTTP/1.1.'];
const NOT_A_PATH: [number, ErrorCode, string] = [404, 'NOT_FOUND', 'No such path: this service is no proxy. See /health for the endpoint catalogue.'];

/**
 * Everything every request gets before the router, in one middleware: its id, the security and CORS
 * headers (computed once), its log line and metrics when it ends, the answers that need no route
 * (missing Host, undecodable path, preflight, 405), then cached lookups, then the request facts that
 * upstream calls report into. Also answers what Node's parser rejects, in the same envelope.
 */
export class HttpEdge {
  /** The headers of each kind of answer, over plain HTTP and over HTTPS. */
  private readonly apiHeaders: EdgeHeaderSet;
  private readonly pageHeaders: EdgeHeaderSet;
  /** Requests whose Expect header asks for something other than 100-continue: each is answered 417 here. */
  private readonly unmetExpectations = new WeakSet<IncomingMessage>();
  /** The known paths with a `{name}` segment, matched segment by segment. */
  private readonly templates: PathTemplate[];

  constructor(private readonly options: HttpEdgeOptions) {
    this.apiHeaders = edgeHeaderSet(options.apiSecurityHeaders);
    this.pageHeaders = edgeHeaderSet(options.pageSecurityHeaders);
    this.templates = [...options.paths].filter(([path]) => path.includes('{')).map(([path, methods]) => pathTemplate(path, methods));
  }

  readonly handle = (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const id = requestIdOf(req);
    req.id = id;
    req.uploadPace = this.options.uploadPace;
    const facts: RequestFacts = { requestId: id, upstreamMs: {} };
    // One listener per request: 'close' follows every response, sent or abandoned.
    this.options.drain.entered();
    res.once('close', () => {
      this.options.drain.left();
      this.finished(req, res, facts, performance.now() - started);
      // Answered before its body was all in (a 405, a route that reads none): the rest is only drained now, and must
      // keep the pace like any body, or the connection goes.
      if (!req.complete && !req.socket.destroyed)
        watchBodyPace(
          req,
          this.options.uploadPace,
          () => req.socket.destroy(),
          () => true,
        );
    });

    const queryStart = req.url.indexOf('?');
    const rawPath = queryStart < 0 ? req.url : req.url.slice(0, queryStart);
    const known = this.knownPath(rawPath);
    const isPage = rawPath.startsWith(this.options.pagesPath);
    const { headers, raw } = (isPage ? this.pageHeaders : this.apiHeaders)[req.secure ? 'https' : 'http'];
    let applied = false;
    const apply = () => {
      if (applied) return;
      applied = true;
      for (const [name, value] of headers) res.setHeader(name, value);
      res.setHeader('X-Request-Id', id);
    };
    const routed = () => {
      apply();
      withRequestFacts(facts, next);
    };
    const { earlyAnswer } = this.options;
    const expectationUnmet = this.unmetExpectations.has(req);
    // An early answer (a cached lookup) writes every header at once; anything else sets them one by one.
    if (earlyAnswer && !isPage && !expectationUnmet && req.headers.host !== undefined && known?.methods.methods.has(req.method) && req.method !== 'OPTIONS') {
      if (known) res.locals.route = known.route;
      return earlyAnswer(req, res, routed, { raw, requestId: id, apply });
    }
    apply();
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      return sendErrorEnvelope(req, res, 400, 'BAD_REQUEST', 'An HTTP/1.1 request must carry a Host header.');
    }
    if (expectationUnmet) {
      const expected = String(req.headers.expect).slice(0, 64);
      return sendErrorEnvelope(req, res, 417, 'EXPECTATION_FAILED', `Expect: ${expected} cannot be met; only 100-continue is supported.`);
    }
    if (rawPath.includes('%') && !decodable(rawPath)) {
      return sendErrorEnvelope(req, res, 404, 'NOT_FOUND', 'No such path: its percent-encoding is invalid. See /health for the endpoint catalogue.');
    }
    if (known) res.locals.route = known.route;
    if (req.method === 'OPTIONS') return this.preflight(req, res, known?.methods ?? READ_METHODS);
    if (known && !known.methods.methods.has(req.method)) {
      return sendErrorEnvelope(
        req,
        res,
        405,
        'METHOD_NOT_ALLOWED',
        `Method ${req.method} is not allowed on ${known.path}; use ${[...known.methods.methods].filter((m) => m !== 'HEAD' && m !== 'OPTIONS').join(' or ')}.`,
        {},
        {
          Allow: known.methods.allow,
        },
      );
    }
    routed();
  };

  /** Server limits and the envelope for parser errors; call before the server listens. */
  install(server: Server): void {
    server.headersTimeout = SERVER_LIMITS.headersTimeoutMs;
    server.requestTimeout = SERVER_LIMITS.requestTimeoutMs;
    server.keepAliveTimeout = SERVER_LIMITS.keepAliveTimeoutMs;
    // How often Node looks for requests past those timeouts (read when the server starts listening).
    (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = SERVER_LIMITS.checkEveryMs;
    // Node would answer a missing Host with a bare 400; the edge answers it in the envelope instead.
    (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
    server.on('clientError', this.clientError);
    // Without these listeners Node answers an Expect other than 100-continue with a bare 417 and drops a
    // CONNECT without a word; through the edge both get the envelope, a request id, a log line and metrics.
    server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
      this.unmetExpectations.add(req);
      server.emit('request', req, res);
    });
    server.on('connect', (req: IncomingMessage, socket: Duplex) => {
      // This service is no proxy: a CONNECT is answered as any request for its target (405 on a known path,
      // otherwise 404), then the connection closes (Node no longer parses it as HTTP). Express cannot route
      // a target that is no path (host:port), so the edge answers that one at the socket.
      if (!req.url?.startsWith('/')) return this.answerAtSocket(socket, NOT_A_PATH, 'CONNECT', 'no path');
      const res = new ServerResponse(req);
      res.shouldKeepAlive = false;
      res.assignSocket(socket as Parameters<ServerResponse['assignSocket']>[0]);
      res.once('finish', () => socket.end());
      server.emit('request', req, res);
    });
  }

  private readonly clientError = (error: NodeJS.ErrnoException, socket: Duplex): void => {
    // An answer already under way on this connection (the body of an answered request is malformed) cannot be followed by another.
    const answering = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    this.answerAtSocket(socket, CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED, 'UNPARSED', error.code ?? error.message);
  };

  /** The envelope written straight to a connection Node will not answer on, then closed; logged and counted like any answer. */
  private answerAtSocket(socket: Duplex, [status, code, message]: [number, ErrorCode, string], method: string, reason: string): void {
    const id = randomUUID();
    const body = JSON.stringify({ error: message, statusCode: status, code, requestId: id });
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      ...this.apiHeaders.http.headers.map(([name, value]) => `${name}: ${value}`),
      `X-Request-Id: ${id}`,
      'Cache-Control: no-store',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    this.options.metrics.requestFinished('unmatched', method, status, 0);
    this.options.log.request({ id, method, url: '', status, durationMs: 0, route: null, cache: null, upstreamMs: null, aborted: false, reason });
  }

  /** The known path a request is for: `path` as the catalogue writes it, `route` as the router and the metrics name it. */
  private knownPath(rawPath: string): { path: string; route: string; methods: PathMethods } | undefined {
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
    const methods = this.options.paths.get(path);
    if (methods) return { path, route: path, methods };
    const template = this.templates.find(({ pattern }) => pattern.test(path));
    if (template) return template;
    const prefix = this.options.prefixes.find((p) => path.startsWith(p));
    return prefix ? { path: `${prefix}*`, route: `${prefix}*`, methods: READ_METHODS } : undefined;
  }

  /** CORS preflight: open to every origin, without credentials; the browser may cache it for a day. */
  private preflight(req: IncomingMessage, res: ServerResponse, methods: PathMethods): void {
    res.statusCode = 204;
    res.setHeader('Access-Control-Allow-Methods', methods.allow);
    const asked = req.headers['access-control-request-headers'];
    if (asked) res.setHeader('Access-Control-Allow-Headers', asked);
    res.setHeader('Vary', 'Access-Control-Request-Headers');
    res.setHeader('Access-Control-Max-Age', '86400');
    res.setHeader('Content-Length', '0');
    res.end();
  }

  private finished(req: Request, res: Response, facts: RequestFacts, durationMs: number): void {
    const route = (req.route as { path?: string } | undefined)?.path ?? res.locals.route ?? null;
    this.options.metrics.requestFinished(route ?? 'unmatched', req.method, res.statusCode, durationMs / 1000);
    this.options.log.request({
      id: req.id as string,
      method: req.method,
      url: req.originalUrl,
      status: res.statusCode,
      durationMs,
      route,
      cache: res.locals.cacheStatus ?? null,
      upstreamMs: facts.upstreamMs,
      aborted: !res.writableFinished,
    });
  }
}

interface PathTemplate {
  pattern: RegExp;
  /** As the catalogue writes it: `/flood-zone/jobs/{id}`. */
  path: string;
  /** As Express writes it (`/flood-zone/jobs/:id`), so that the metrics of a 405 or a preflight share the label of the routed answers. */
  route: string;
  methods: PathMethods;
}

function pathTemplate(path: string, methods: PathMethods): PathTemplate {
  const segments = path.split('/').map((segment) => (/^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return { pattern: new RegExp(`^${segments.join('/')}$`), path, route: path.replace(/\{(\w+)\}/g, ':$1'), methods };
}

function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

interface EdgeHeaderList {
  headers: Array<[string, string]>;
  /** The same as name, value, name, value... */
  raw: readonly string[];
}
type EdgeHeaderSet = Record<'http' | 'https', EdgeHeaderList>;

/**
 * The static headers of one kind of answer: helmet's and CORS. Strict-Transport-Security only over HTTPS:
 * browsers ignore it on plain HTTP, and there it would only advertise a policy the operator never chose
 * (cluster-internal plain-HTTP names); behind a TLS-terminating proxy with TRUST_PROXY=true it is sent.
 */
function edgeHeaderSet(security: HelmetOptions): EdgeHeaderSet {
  const cors: Array<[string, string]> = [
    ['Access-Control-Allow-Origin', '*'],
    ['Access-Control-Expose-Headers', EXPOSED_HEADERS],
  ];
  const list = (headers: Array<[string, string]>): EdgeHeaderList => ({ headers: [...headers, ...cors], raw: [...headers, ...cors].flat() });
  return { http: list(precomputedHeaders({ ...security, strictTransportSecurity: false } as HelmetOptions)), https: list(precomputedHeaders(security)) };
}

/** Helmet's headers depend on its options only: run it once against a recorder and reuse what it set. */
function precomputedHeaders(options: HelmetOptions): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = { setHeader: (name: string, value: unknown) => headers.push([name, String(value)]), removeHeader: () => undefined };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}
