/**
 * What every upstream emulator shares: a real HTTP/1.1 server on loopback (keep-alive), on-demand fault
 * injection, a global latency, a log of every call received, and a control endpoint under `/_emulator` on the
 * same port, so faults can be set by hand (curl) while the service runs in offline mode.
 */
import Ajv from 'ajv';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { haversineMeters, type Position } from './geometry';

export type FaultKind =
  /** Wait `ms`, then answer normally (stacks with other faults). */
  | 'delay'
  /** Destroy the socket without answering (the client sees ECONNRESET / socket hang up). */
  | 'reset'
  /** Answer `status` (default 500) with `body` (default an HTML error page). */
  | 'http-status'
  /** An HTML error page with `status` (default 200), as a front end / proxy sends. */
  | 'html'
  /** HTTP 200, Content-Type application/json, the real answer cut in half. */
  | 'malformed-json'
  /** HTTP 200 with the ArcGIS error envelope {"error":{"code","message","details"}}. */
  | 'arcgis-error'
  /** Census: HTTP `status` (default 400) with a top-level {"errors":[...],"status":"400"}. */
  | 'errors-array'
  /** Census: HTTP 200 whose layer(s) come back as [{"status":"Layer query encountered an error: ..."}]. */
  | 'layer-error'
  /** HTTP 200 with `{}`. */
  | 'empty-object'
  /**
   * The real answer's status, type and first half, then filler that never ends (chunked, no Content-Length),
   * written as fast as the client reads, until the client closes the connection: an upstream gone mad. The
   * call's `bodyBytes` counts what was written.
   */
  | 'endless-body';

/** Every fault kind once (the type checker makes sure none is missing), for checking faults sent as JSON. */
const FAULT_KINDS: Record<FaultKind, true> = {
  delay: true,
  reset: true,
  'http-status': true,
  html: true,
  'malformed-json': true,
  'arcgis-error': true,
  'errors-array': true,
  'layer-error': true,
  'empty-object': true,
  'endless-body': true,
};

/** Queries whose point geometry lies within `withinM` metres (default 50) of `near` ([lon, lat]). */
export interface FaultPlace {
  near: Position;
  withinM?: number;
}

/** `withinM` of a FaultPlace that gives none. */
export const DEFAULT_FAULT_RADIUS_M = 50;

/**
 * Which calls a fault applies to:
 * - a number: an ArcGIS layer id (as requested, after any `layerIds` moves);
 * - a string: an endpoint (`root`, `layer`, `query` for ArcGIS; `onelineaddress`, `coordinates`,
 *   `locations/onelineaddress`, `benchmarks`, `vintages` for Census) or an ArcGIS layer name ("Flood Hazard Zones");
 * - a place (`{ near: [lon, lat], withinM }`): queries whose point geometry is that close;
 * - a predicate over the call record; or an array of any of these but predicates (any may match).
 */
export type FaultMatch = number | string | FaultPlace | ((call: CallRecord) => boolean) | Array<number | string | FaultPlace>;

export interface Fault {
  kind: FaultKind;
  /** How many matching requests it applies to; default unlimited. Counts down per matching request. */
  times?: number;
  match?: FaultMatch;
  /** `delay`: the delay. Any other kind: an extra wait before it strikes. */
  ms?: number;
  /** `http-status`, `html`, `errors-array`: the HTTP status. */
  status?: number;
  /** `http-status` / `html`: the body (an object is sent as JSON). */
  body?: string | object;
  contentType?: string;
  /** `arcgis-error`: error.code (default 500). */
  code?: number;
  /** `arcgis-error` / `layer-error`: the message. */
  message?: string;
  /** `arcgis-error`: error.details (default []). */
  details?: string[];
  /** `errors-array`: the errors (default ["Invalid benchmark"]-style message). */
  errors?: string[];
  /** `layer-error`: which geographies layers fail (substring of the layer name); default every layer returned. */
  layers?: string[];
}

/** A fault as kept by the emulator: `remaining` counts down, `hits` counts up. */
export interface ActiveFault extends Fault {
  readonly id: number;
  remaining: number;
  hits: number;
}

export interface CallRecord {
  method: string;
  /** URL path as received (without the query string). */
  path: string;
  /** `root` | `layer` | `query` | `onelineaddress` | `coordinates` | `locations/onelineaddress` | ... | `unknown`. */
  endpoint: string;
  /** ArcGIS: the requested layer id. */
  layerId?: number;
  /** ArcGIS: the name of the requested layer (e.g. "Flood Hazard Zones"), when it exists. */
  layerName?: string;
  /** Query parameters (and, for ArcGIS POST, form parameters). */
  query: Record<string, string>;
  /** The query string exactly as sent (without '?'), to check how a client encodes it (OpenFEMA's `%24top`). */
  rawQuery: string;
  /** The query's point geometry as [lon, lat] (WGS84), when it has one; what a `near` fault matches. */
  point?: Position;
  /** Date.now() at arrival. */
  at: number;
  /** The fault kind applied to this call, if any. */
  fault?: FaultKind;
  /** Set once the emulator answers it (or resets it): a call still held by a delay, or whose client left first, has not been. */
  answered?: true;
  /** `endless-body`: the bytes of the body written so far; final once `endlessBodiesStopped()` resolves. */
  bodyBytes?: number;
}

export type CallFilter = { endpoint?: string; layerId?: number; layerName?: string; path?: string } | ((call: CallRecord) => boolean);

export interface EmulatorOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Listen address; default 127.0.0.1. */
  host?: string;
  /** Delay added to every answer (benchmarks use 50). */
  latencyMs?: number;
  /** Keep at most this many call records (oldest dropped); default 200,000. `totalCalls` keeps counting. */
  callLogLimit?: number;
}

export interface Answer {
  status: number;
  contentType: string;
  /** A string is sent as UTF-8, a Buffer as is (Census batch answers are ISO-8859-1). */
  body: string | Buffer;
  headers?: Record<string, string>;
}

export interface RequestContext {
  call: CallRecord;
  params: Record<string, string>;
  /** The non-delay fault being applied (the handler may shape its answer by it, e.g. layer-error). */
  fault?: ActiveFault;
  /** POST: the raw request body (e.g. a multipart upload), whatever its type; urlencoded forms are also in `params`. */
  body?: Buffer;
  /** POST: the request's Content-Type header, as sent. */
  contentType?: string;
}

/** Why a map change cannot be published (see map-publishing.ts). */
export class PublishRefused extends Error {}

/** What a published map change did, as `POST /_emulator/publish` answers it. */
export type Published = Record<string, string | number | null>;

/** The reserved path of the control endpoint on every emulator port; calls to it are never logged or faulted. */
export const CONTROL_PATH = '/_emulator';

const MATCH_ITEM_SCHEMA = {
  anyOf: [
    { type: 'integer' },
    { type: 'string', minLength: 1 },
    {
      type: 'object',
      required: ['near'],
      additionalProperties: false,
      properties: {
        near: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
        withinM: { type: 'number', exclusiveMinimum: 0 },
      },
    },
  ],
};
const TEXT_LIST = { type: 'array', items: { type: 'string' } };

/** A fault as JSON (control endpoint, EMULATOR_FAULTS, --fault): the `Fault` shape without predicates. */
const FAULT_SCHEMA = {
  type: 'object',
  required: ['kind'],
  additionalProperties: false,
  properties: {
    kind: { enum: Object.keys(FAULT_KINDS) },
    times: { type: 'integer', minimum: 1 },
    match: { anyOf: [MATCH_ITEM_SCHEMA, { type: 'array', items: MATCH_ITEM_SCHEMA, minItems: 1 }] },
    ms: { type: 'number', minimum: 0 },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    body: { type: ['string', 'object'] },
    contentType: { type: 'string' },
    code: { type: 'integer' },
    message: { type: 'string' },
    details: TEXT_LIST,
    errors: TEXT_LIST,
    layers: TEXT_LIST,
  },
};
const isFault = new Ajv({ allErrors: true, allowUnionTypes: true }).compile<Fault>(FAULT_SCHEMA);

/** One fault or a list of them, as JSON sends them; throws a readable message naming what is wrong. */
export function parseFaults(value: unknown): Fault[] {
  const list: unknown[] = Array.isArray(value) ? value : [value];
  return list.map((fault, index) => {
    if (isFault(fault)) return fault;
    const problems = (isFault.errors ?? []).map((e) => {
      const detail =
        'allowedValues' in e.params
          ? ` (${(e.params.allowedValues as string[]).join(', ')})`
          : 'additionalProperty' in e.params
            ? ` ("${e.params.additionalProperty as string}")`
            : '';
      return `${e.instancePath.slice(1) || 'the fault'} ${e.message}${detail}`;
    });
    const which = Array.isArray(value) ? `fault ${index + 1}` : 'the fault';
    throw new Error(`${which} is not valid: ${[...new Set(problems)].join('; ')}`);
  });
}

/** Faults as JSON: unlimited `remaining` shows as null, a predicate as "(predicate)". */
function faultsAsJson(faults: readonly ActiveFault[]): unknown {
  return JSON.parse(
    JSON.stringify(faults, (_key, value: unknown) => {
      if (typeof value === 'function') return '(predicate)';
      return value === Infinity ? null : value;
    }),
  );
}

export function jsonAnswer(value: unknown, status = 200, contentType = 'application/json;charset=UTF-8', pretty = false): Answer {
  return { status, contentType, body: pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value) };
}

export function htmlAnswer(html: string, status = 200): Answer {
  return { status, contentType: 'text/html;charset=UTF-8', body: html };
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export abstract class UpstreamEmulator {
  /** Full base URL, e.g. http://127.0.0.1:PORT/arcgis/rest/services/public/NFHL/MapServer. */
  baseUrl = '';
  /** http://127.0.0.1:PORT */
  origin = '';
  /** http://127.0.0.1:PORT/_emulator: faults, latency and call counts over HTTP. */
  controlUrl = '';
  port = 0;
  /** Every call since start / resetCalls(), up to callLogLimit. */
  readonly calls: CallRecord[] = [];
  totalCalls = 0;
  /**
   * The most calls held at once (received, neither answered nor left by their client) since start / resetCalls():
   * how many requests at a time the service under test sent here, whatever the timing.
   */
  peakConcurrentCalls = 0;
  /** Calls held now (see peakConcurrentCalls). */
  private openCalls = 0;

  protected readonly server: http.Server;
  private faults: ActiveFault[] = [];
  private faultSeq = 0;
  private latencyMs: number;
  private readonly callLogLimit: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly endlessBodies = new Set<Promise<void>>();
  private closed = false;

  protected constructor(
    protected readonly basePath: string,
    options: EmulatorOptions,
  ) {
    this.latencyMs = options.latencyMs ?? 0;
    this.callLogLimit = options.callLogLimit ?? 200_000;
    this.server = http.createServer((req, res) => {
      this.onRequest(req, res).catch((err: unknown) => {
        if (!res.headersSent && !res.destroyed) {
          res.writeHead(500, { 'Content-Type': 'text/plain' });
          res.end(`emulator bug: ${err instanceof Error ? err.message : String(err)}`);
        }
      });
    });
    // Longer than typical client agents' idle timeouts, so a reused socket is not closed under the client.
    this.server.keepAliveTimeout = 30_000;
    this.server.headersTimeout = 31_000;
  }

  protected async listen(options: EmulatorOptions): Promise<void> {
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(options.port ?? 0, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    this.port = address.port;
    const hostForUrl = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    this.origin = `http://${hostForUrl}:${this.port}`;
    this.baseUrl = `${this.origin}${this.basePath}`;
    this.controlUrl = `${this.origin}${CONTROL_PATH}`;
  }

  /** Stops listening and destroys every open (keep-alive) connection and pending delay. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  // ----- faults -----

  injectFault(fault: Fault): ActiveFault {
    const active: ActiveFault = { ...fault, id: ++this.faultSeq, remaining: fault.times ?? Infinity, hits: 0 };
    this.faults.push(active);
    return active;
  }

  removeFault(fault: ActiveFault): void {
    this.faults = this.faults.filter((f) => f !== fault);
  }

  clearFaults(): void {
    this.faults = [];
  }

  get activeFaults(): readonly ActiveFault[] {
    return this.faults.filter((f) => f.remaining > 0);
  }

  setLatency(ms: number): void {
    this.latencyMs = Math.max(0, ms);
  }

  get latency(): number {
    return this.latencyMs;
  }

  // ----- calls -----

  callCount(filter?: CallFilter): number {
    if (!filter) return this.calls.length;
    return this.calls.filter((c) => matchesFilter(c, filter)).length;
  }

  callsMatching(filter?: CallFilter): CallRecord[] {
    return filter ? this.calls.filter((c) => matchesFilter(c, filter)) : [...this.calls];
  }

  resetCalls(): void {
    this.calls.length = 0;
    this.totalCalls = 0;
    this.peakConcurrentCalls = this.openCalls;
  }

  /** Resolves once no `endless-body` answer is being written any more (every client gave up), so `bodyBytes` are final. */
  async endlessBodiesStopped(): Promise<void> {
    while (this.endlessBodies.size > 0) await Promise.all(this.endlessBodies);
  }

  // ----- to implement -----

  /** Names the endpoint (and layer) of a request; `subPath` is the path after basePath ('' for the base itself). */
  protected abstract describe(subPath: string, params: Record<string, string>): Pick<CallRecord, 'endpoint' | 'layerId' | 'layerName'>;
  protected abstract answer(ctx: RequestContext, subPath: string | null): Answer;
  /** The HTML page of an `html` fault. */
  protected abstract htmlErrorPage(status: number): string;
  /** Does a string `match` name this call (beyond endpoint equality)? */
  protected matchesName(_name: string, _call: CallRecord): boolean {
    return false;
  }
  /** Whether POST form bodies are read as parameters (ArcGIS accepts POST; Census answers GET only). */
  protected acceptsPostForm(): boolean {
    return false;
  }
  /** The request's point geometry as [lon, lat] in WGS84, if the protocol carries one (for `near` faults). */
  protected queryPoint(_params: Record<string, string>): Position | undefined {
    return undefined;
  }
  /** How much later than the latency this call is answered by its own data (a slow place), before any fault's wait. */
  protected answerDelayMs(_call: CallRecord): number {
    return 0;
  }

  // ----- machinery -----

  protected sleep(ms: number): Promise<void> {
    if (!(ms > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }

  private faultMatches(fault: ActiveFault, call: CallRecord): boolean {
    const m = fault.match;
    if (m === undefined) return true;
    const one = (x: number | string | FaultPlace): boolean => {
      if (typeof x === 'number') return call.layerId === x;
      if (typeof x === 'string') return call.endpoint === x || call.layerName === x || this.matchesName(x, call);
      const [lon, lat] = x.near;
      return call.point !== undefined && haversineMeters(lat, lon, call.point[1], call.point[0]) <= (x.withinM ?? DEFAULT_FAULT_RADIUS_M);
    };
    if (typeof m === 'function') return m(call);
    if (Array.isArray(m)) return m.some(one);
    return one(m);
  }

  private async readBody(req: http.IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private async onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const path = url.pathname;
    if (path === CONTROL_PATH || path.startsWith(`${CONTROL_PATH}/`)) {
      await this.control(req, res, path.slice(CONTROL_PATH.length).replace(/\/+$/, ''));
      return;
    }
    this.peakConcurrentCalls = Math.max(this.peakConcurrentCalls, ++this.openCalls);
    // Answered, reset or left by its client: the response closes once either way.
    res.once('close', () => this.openCalls--);
    const params: Record<string, string> = {};
    for (const [k, v] of url.searchParams) if (!(k in params)) params[k] = v;
    let body: Buffer | undefined;
    const contentType = req.headers['content-type'];
    if (req.method === 'POST') {
      body = await this.readBody(req);
      // A form without a Content-Type is read as urlencoded, as ArcGIS Server does.
      if (this.acceptsPostForm() && (contentType === undefined || /^application\/x-www-form-urlencoded\b/i.test(contentType))) {
        for (const [k, v] of new URLSearchParams(body.toString('utf8'))) if (!(k in params)) params[k] = v;
      }
    } else {
      req.resume();
    }
    let subPath: string | null = null;
    if (path === this.basePath || path === `${this.basePath}/`) subPath = '';
    else if (path.startsWith(`${this.basePath}/`)) subPath = path.slice(this.basePath.length + 1).replace(/\/+$/, '');
    const described = subPath === null ? { endpoint: 'unknown' } : this.describe(subPath, params);
    const point = subPath === null ? undefined : this.queryPoint(params);
    const call: CallRecord = {
      method: req.method ?? 'GET',
      path,
      ...described,
      query: params,
      rawQuery: url.search.slice(1),
      ...(point ? { point } : {}),
      at: Date.now(),
    };
    this.totalCalls += 1;
    this.calls.push(call);
    if (this.calls.length > this.callLogLimit) this.calls.splice(0, this.calls.length - this.callLogLimit);

    // faults: every matching delay applies (stacking); then the first matching non-delay fault
    let wait = this.latencyMs + this.answerDelayMs(call);
    let fault: ActiveFault | undefined;
    for (const f of this.faults) {
      if (f.remaining <= 0 || !this.faultMatches(f, call)) continue;
      if (f.kind === 'delay') {
        f.remaining -= 1;
        f.hits += 1;
        wait += f.ms ?? 0;
        call.fault ??= 'delay';
      } else if (!fault) {
        f.remaining -= 1;
        f.hits += 1;
        fault = f;
        wait += f.ms ?? 0;
        call.fault = f.kind;
      }
    }
    this.faults = this.faults.filter((f) => f.remaining > 0);

    await this.sleep(wait);
    if (this.closed || res.destroyed) return;
    call.answered = true;

    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'endless-body') {
      this.sendEndlessBody(res, call, this.answer({ call, params, fault, body, contentType }, subPath));
      return;
    }
    let answer: Answer;
    switch (fault?.kind) {
      case 'http-status': {
        const status = fault.status ?? 500;
        if (fault.body === undefined) answer = htmlAnswer(genericErrorPage(status), status);
        else if (typeof fault.body === 'string') answer = { status, contentType: fault.contentType ?? 'text/plain;charset=UTF-8', body: fault.body };
        else answer = jsonAnswer(fault.body, status, fault.contentType ?? 'application/json;charset=UTF-8');
        break;
      }
      case 'html': {
        const status = fault.status ?? 200;
        const body = typeof fault.body === 'string' ? fault.body : this.htmlErrorPage(status);
        answer = htmlAnswer(body, status);
        break;
      }
      case 'malformed-json': {
        const real = this.answer({ call, params, body, contentType }, subPath).body.toString();
        const cut = real.slice(0, Math.max(1, Math.floor(real.length / 2)));
        answer = { status: 200, contentType: 'application/json;charset=UTF-8', body: cut.startsWith('{') ? cut : `{"result":${cut}` };
        break;
      }
      case 'arcgis-error':
        answer = jsonAnswer({
          error: { code: fault.code ?? 500, message: fault.message ?? 'Error performing query operation', details: fault.details ?? [] },
        });
        break;
      case 'errors-array': {
        const status = fault.status ?? 400;
        answer = jsonAnswer({ errors: fault.errors ?? ['Invalid benchmark'], status: String(status) }, status);
        break;
      }
      case 'empty-object':
        answer = jsonAnswer({});
        break;
      default:
        answer = this.answer({ call, params, fault, body, contentType }, subPath);
    }
    if (req.method === 'HEAD') answer = { ...answer, body: '' };
    res.writeHead(answer.status, {
      'Content-Type': answer.contentType,
      'Content-Length': Buffer.byteLength(answer.body),
      ...answer.headers,
    });
    res.end(answer.body);
  }

  /**
   * The answer's first half, then spaces for ever, at the pace the client reads (the pipe waits for the socket
   * to drain), until the client closes the connection or the emulator closes.
   */
  private sendEndlessBody(res: http.ServerResponse, call: CallRecord, answer: Answer): void {
    const real = Buffer.from(answer.body);
    const chunks = [real.subarray(0, Math.floor(real.length / 2))];
    const endless = new Readable({
      read() {
        this.push(chunks.pop() ?? ENDLESS_FILLER);
      },
    });
    call.bodyBytes = 0;
    endless.on('data', (chunk: Buffer) => (call.bodyBytes = (call.bodyBytes ?? 0) + chunk.length));
    res.writeHead(answer.status, { 'Content-Type': answer.contentType, ...answer.headers });
    const writing = pipeline(endless, res).catch(() => undefined);
    this.endlessBodies.add(writing);
    void writing.then(() => this.endlessBodies.delete(writing));
  }

  // ----- control endpoint -----

  /** `/_emulator` (route '') and below: read and change faults and latency; never logged as a call. */
  private async control(req: http.IncomingMessage, res: http.ServerResponse, route: string): Promise<void> {
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      const text = `${JSON.stringify(value, null, 2)}\n`;
      res.writeHead(status, { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': Buffer.byteLength(text), ...headers });
      res.end(text);
    };
    const method = req.method ?? 'GET';
    const allowed: Record<string, string[]> = { '': ['GET'], '/faults': ['POST', 'DELETE'], '/latency': ['PUT'], '/calls': ['DELETE'], '/publish': ['POST'] };
    const faultId = /^\/faults\/(\d+)$/.exec(route);
    const methods = faultId ? ['DELETE'] : allowed[route];
    if (!methods) {
      req.resume();
      send(404, { error: `no control route ${CONTROL_PATH}${route}; see GET ${CONTROL_PATH}` });
      return;
    }
    if (!methods.includes(method)) {
      req.resume();
      send(405, { error: `${method} is not allowed on ${CONTROL_PATH}${route}` }, { Allow: methods.join(', ') });
      return;
    }
    let input: unknown;
    if (method === 'POST' || method === 'PUT') {
      try {
        input = JSON.parse((await this.readBody(req)).toString('utf8'));
      } catch {
        send(400, { error: 'the body must be JSON' });
        return;
      }
    } else {
      req.resume();
    }

    if (faultId) {
      const fault = this.activeFaults.find((f) => f.id === Number(faultId[1]));
      if (!fault) send(404, { error: `no active fault ${faultId[1]}` });
      else {
        this.removeFault(fault);
        send(200, { removed: faultsAsJson([fault]) });
      }
    } else if (route === '') {
      send(200, this.controlStatus());
    } else if (route === '/faults' && method === 'POST') {
      let faults: Fault[];
      try {
        faults = parseFaults(input);
      } catch (error) {
        send(400, { error: (error as Error).message });
        return;
      }
      send(201, { added: faultsAsJson(faults.map((f) => this.injectFault(f))) });
    } else if (route === '/faults') {
      const cleared = this.activeFaults.length;
      this.clearFaults();
      send(200, { cleared });
    } else if (route === '/publish') {
      this.publishAnswer(input, send);
    } else if (route === '/latency') {
      const ms = (input as { ms?: unknown } | null)?.ms;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
        send(400, { error: 'send {"ms": N} with N a number of milliseconds >= 0' });
        return;
      }
      this.setLatency(ms);
      send(200, { latencyMs: this.latency });
    } else {
      this.resetCalls();
      send(200, { calls: 0 });
    }
  }

  /**
   * Publishes a map change in the emulator's data (map-publishing.ts), as FEMA would: what it did, or undefined when
   * this emulator holds no data that changes. Throws PublishRefused for a change its data cannot take.
   */
  protected publishChange(_input: unknown): Published | undefined {
    return undefined;
  }

  /** `POST /_emulator/publish`: 201 with what was published, 400 with why not, 404 from an emulator that publishes nothing. */
  private publishAnswer(input: unknown, send: (status: number, value: unknown) => void): void {
    try {
      const published = this.publishChange(input);
      if (published === undefined) send(404, { error: 'this emulator publishes no map changes' });
      else send(201, { published });
    } catch (error) {
      if (!(error instanceof PublishRefused)) throw error;
      send(400, { error: error.message });
    }
  }

  /** What GET /_emulator shows: where it serves, the latency, the active faults and the calls received. */
  private controlStatus(): Record<string, unknown> {
    const byEndpoint: Record<string, number> = {};
    const byLayer: Record<string, number> = {};
    let faulted = 0;
    for (const call of this.calls) {
      byEndpoint[call.endpoint] = (byEndpoint[call.endpoint] ?? 0) + 1;
      if (call.layerName !== undefined) byLayer[call.layerName] = (byLayer[call.layerName] ?? 0) + 1;
      if (call.fault !== undefined) faulted += 1;
    }
    return {
      baseUrl: this.baseUrl,
      latencyMs: this.latency,
      faults: faultsAsJson(this.activeFaults),
      calls: { total: this.totalCalls, byEndpoint, byLayer, faulted },
    };
  }
}

function matchesFilter(call: CallRecord, filter: CallFilter): boolean {
  if (typeof filter === 'function') return filter(call);
  if (filter.endpoint !== undefined && call.endpoint !== filter.endpoint) return false;
  if (filter.layerId !== undefined && call.layerId !== filter.layerId) return false;
  if (filter.layerName !== undefined && call.layerName !== filter.layerName) return false;
  if (filter.path !== undefined && call.path !== filter.path) return false;
  return true;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** What an endless body goes on with after the real answer's first half. */
const ENDLESS_FILLER = Buffer.alloc(64 * 1024, ' ');

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? http.STATUS_CODES[status] ?? 'Error';
}

export function genericErrorPage(status: number): string {
  const reason = reasonPhrase(status);
  return `<!DOCTYPE html>\n<html><head><title>${status} ${reason}</title></head>\n<body><h1>${status} ${reason}</h1>\n<p>The server encountered an error processing the request.</p></body></html>\n`;
}
