/**
 * Benchmark plumbing: child processes (service, emulators, Express baseline) that are always killed on the way
 * out, an HTTP client on loopback (GET, and a streamed batch POST), and small statistics helpers.
 */
import { ChildProcess, fork, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import type { EpqsPoint } from '../test/emulators/epqs-emulator';
import type { Point } from './points';
import { UPSTREAM_REGISTRY, type UpstreamBaseUrlVariable } from '../src/common/upstream/upstream-registry';

export const ROOT = path.resolve(__dirname, '..');

/**
 * The service build the benchmark runs: `npm run bench` compiles src/ with tsconfig.build.json (what `nest build`
 * does) into bench/.service/dist instead of dist/, so that it neither deletes dist/ under a concurrently running
 * test suite nor loses its own build to someone else's `nest build` (which empties dist/ first).
 * package.json sits next to it because the service reads its version from two levels above dist/health.
 */
export const SERVICE_DIR = path.join(__dirname, '.service');
export const SERVICE_MAIN = path.join(SERVICE_DIR, 'dist', 'main.js');

export function prepareServiceBuild(): void {
  if (!fs.existsSync(SERVICE_MAIN)) {
    throw new Error(`${SERVICE_MAIN} is missing: run the build step of npm run bench (tsc -p tsconfig.build.json --outDir bench/.service/dist)`);
  }
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(SERVICE_DIR, 'package.json'));
}

// ----- child processes: every one is tracked and killed on exit, error or signal -----

const children = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

export function killAllChildren(): void {
  for (const child of children) {
    if (alive(child)) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

process.on('exit', killAllChildren);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllChildren();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/** Sends SIGTERM, then SIGKILL if the child has not exited within `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (!alive(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => alive(child) && child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

const TS_NODE = ['-r', 'ts-node/register/transpile-only'];

/** A forked TypeScript child driven by `{id, cmd, args}` messages. */
export class IpcChild {
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(readonly child: ChildProcess) {
    child.on('message', (msg: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const waiter = this.pending.get(msg.id);
      if (!waiter) return;
      this.pending.delete(msg.id);
      if (msg.ok) waiter.resolve(msg.result);
      else waiter.reject(new Error(msg.error));
    });
    child.once('exit', (code, signal) => {
      for (const w of this.pending.values()) w.reject(new Error(`child exited (${code ?? signal})`));
      this.pending.clear();
    });
  }

  static fork(script: string): IpcChild {
    const child = track(fork(path.join(__dirname, script), [], { cwd: ROOT, execArgv: TS_NODE, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    return new IpcChild(child);
  }

  call<T>(cmd: string, args?: Record<string, unknown>, timeoutMs = 30_000): Promise<T> {
    const id = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`IPC ${cmd}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v as T)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.child.send({ id, cmd, args });
    });
  }

  stop(): Promise<void> {
    return stopChild(this.child, 2000);
  }
}

export interface EmulatorCounts {
  floodHazardZones: number;
  firmPanels: number;
  lomrs: number;
  politicalJurisdictions: number;
  lomas: number;
  bfeLines: number;
  availability: number;
  nfhlRoot: number;
  nfhlTotal: number;
  nfhlFaulted: number;
  censusCoordinates: number;
  censusOnelineaddress: number;
  censusAddressbatch: number;
  censusTotal: number;
}

/** What the service needs to reach the emulators: every upstream's base-URL variable. */
export type UpstreamEnv = Record<UpstreamBaseUrlVariable, string>;

/** The upstream emulators, in their own process. */
export class Emulators {
  private constructor(
    private readonly ipc: IpcChild,
    readonly env: UpstreamEnv,
  ) {}

  /** `portfolios`: the Census emulator also knows the addresses of that many batch portfolios of `size` rows (portfolio.ts). */
  static async start(latencyMs: number, portfolios?: { sets: number; size: number }): Promise<Emulators> {
    const ipc = IpcChild.fork('emulator-host.ts');
    const env = await ipc.call<UpstreamEnv>('start', { latencyMs, portfolios }, 60_000);
    return new Emulators(ipc, env);
  }

  setLatency(ms: number): Promise<void> {
    return this.ipc.call('setLatency', { ms });
  }
  /** The ground the elevation (EPQS) emulator answers, replacing what it had. */
  setElevationPoints(points: EpqsPoint[]): Promise<void> {
    return this.ipc.call('setElevationPoints', { points });
  }
  /** OpenFEMA serves a Community Status Book of `count` rows (community-status-table.ts). */
  setCommunityStatusRows(count: number): Promise<{ rows: number }> {
    return this.ipc.call('setCommunityStatusRows', { count });
  }
  /**
   * The NFHL and Census emulators serve the map of the loan book of `rows` rows (loan-book.ts) instead of the demo
   * map, over the loan book's counties or the watched nation's: its features per layer.
   */
  loadLoanBookMap(rows: number, nation: 'loanBook' | 'watched' = 'loanBook'): Promise<Tally> {
    return this.ipc.call('loadLoanBookMap', { rows, nation }, 300_000);
  }
  /** Every FIRM panel of a county's map (its DFIRM_ID) revised, effective `effective` (YYYY-MM-DD): how many. */
  reviseCountyMap(dfirmId: string, effective: string): Promise<{ panels: number }> {
    return this.ipc.call('reviseCountyMap', { dfirmId, effective }, 120_000);
  }
  /** The NFHL and Census emulators serve the demo map again. */
  loadDemoMap(): Promise<void> {
    return this.ipc.call('loadDemoMap');
  }
  /** The flood zone the served map has at each point (null where it has none). */
  floodZonesAt(points: Point[]): Promise<Array<{ floodZone: string; zoneSubtype: string | null } | null>> {
    return this.ipc.call('floodZonesAt', { points });
  }
  /** USA Structures serves these rings as the hostile-geometry fuzz's house (null: the demo buildings again). */
  serveFootprint(rings: Array<Array<[number, number]>> | null): Promise<void> {
    return this.ipc.call('serveFootprint', { rings });
  }
  /** NFHL serves a VE zone polygon of these rings over the fuzz's footprint, besides its own (null: its own alone again). */
  serveZone(rings: Array<Array<[number, number]>> | null): Promise<void> {
    return this.ipc.call('serveZone', { rings });
  }
  injectRandomNfhlQueryFault(probability: number, kind: string, status?: number): Promise<void> {
    return this.ipc.call('injectRandomNfhlQueryFault', { probability, kind, status });
  }
  clearFaults(): Promise<void> {
    return this.ipc.call('clearFaults');
  }
  resetCalls(): Promise<void> {
    return this.ipc.call('resetCalls');
  }
  counts(): Promise<EmulatorCounts> {
    return this.ipc.call('counts');
  }
  /** Calls since the last reset per emulator and endpoint, and per layer for queries (e.g. `cbrs query CBRS Buffer Zone`). */
  breakdown(): Promise<Tally> {
    return this.ipc.call('breakdown');
  }
  /** The most calls each emulator received within one second since the last reset (`nfhl`, `census`, ...). */
  busiestSecond(): Promise<Tally> {
    return this.ipc.call('busiestSecond');
  }
  async close(): Promise<void> {
    await this.ipc.call('close').catch(() => undefined);
    await this.ipc.stop();
  }
}

/** Sequential requests timed one by one, with the upstream calls they made (counted at the emulators). */
export interface TimedBlock {
  ms: number[];
  calls: Tally;
}

/** `count` sequential requests, each made and timed by `ask(i)`, the emulators' call counts reset before them. */
export async function timedBlock(emulators: Emulators, count: number, ask: (i: number) => Promise<number>): Promise<TimedBlock> {
  await emulators.resetCalls();
  const ms: number[] = [];
  for (let i = 0; i < count; i++) ms.push(await ask(i));
  return { ms, calls: await emulators.breakdown() };
}

/** The times of several blocks, one after the other. */
export function msOf(blocks: TimedBlock[]): number[] {
  return blocks.flatMap(({ ms }) => ms);
}

/** How much later block `a`'s median answer came than block `b`'s, ms. */
export function p50Gap(a: TimedBlock, b: TimedBlock): number {
  return percentile(a.ms, 50) - percentile(b.ms, 50);
}

/** The upstream calls of several blocks, added up per endpoint. */
export function callsOf(blocks: TimedBlock[]): Tally {
  const sum: Tally = {};
  for (const { calls } of blocks) for (const [k, v] of Object.entries(calls)) sum[k] = (sum[k] ?? 0) + v;
  return sum;
}

/** The plain Express baseline, in its own process, serving `body`. */
export async function startExpressBaseline(body: string): Promise<{ base: string; stop: () => Promise<void> }> {
  const child = track(fork(path.join(__dirname, 'express-app.ts'), [], { cwd: ROOT, execArgv: TS_NODE, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Express baseline did not start within 30 s')), 30_000);
    child.once('message', (msg: { port: number }) => (clearTimeout(timer), resolve(msg.port)));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`Express baseline exited (${code})`))));
    child.send({ body });
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => stopChild(child, 2000) };
}

/** Every configuration variable of the service (see docs/api.md, Configuration): none leaks in from the caller's shell. */
const SERVICE_VARIABLES = [
  'PORT',
  'HOST',
  'PUBLIC_BASE_URL',
  ...UPSTREAM_REGISTRY.map((upstream) => upstream.baseUrlVariable),
  'GEOCODER_BENCHMARK',
  'GEOCODER_VINTAGE',
  'BATCH_MAX_LOCATIONS',
  'BATCH_MAX_CONCURRENT',
  'UPSTREAM_TIMEOUT_MS',
  'UPSTREAM_RETRIES',
  'LOOKUP_DEADLINE_MS',
  'CACHE_TTL_SECONDS',
  'GEOCODE_CACHE_TTL_SECONDS',
  'CACHE_MAX_ENTRIES',
  'STALE_IF_ERROR_SECONDS',
  'UPSTREAM_MAX_CONCURRENCY',
  'SHUTDOWN_GRACE_MS',
  'REDIS_URL',
  'RATE_LIMIT_PER_MINUTE',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'CIRCUIT_BREAKER_FAILURE_RATE',
  'CIRCUIT_BREAKER_WINDOW_MS',
  'CIRCUIT_BREAKER_MIN_CALLS',
  'CIRCUIT_BREAKER_HALF_OPEN_MS',
  'JOBS_REDIS_URL',
  'JOB_MAX_LOCATIONS',
  'JOB_WORKERS',
  'JOB_UPSTREAM_RATE_PER_SECOND',
  'JOB_TTL_HOURS',
  'HELD_POLYGONS_MAX_MB',
];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The built service (`node <build>/dist/main.js`, see SERVICE_MAIN) as a child process. */
export class Service {
  private output = '';

  private constructor(
    readonly child: ChildProcess,
    readonly base: string,
    readonly env: Record<string, string>,
  ) {
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  static async start(upstreams: Record<string, string>, overrides: Record<string, string> = {}): Promise<Service> {
    const port = await freePort();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SERVICE_VARIABLES.includes(k)) env[k] = v;
    Object.assign(env, {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: '2000',
      ...upstreams,
      ...overrides,
    });
    const child = track(spawn(process.execPath, [SERVICE_MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
    const service = new Service(child, `http://127.0.0.1:${port}`, env);
    await service.waitReady(30_000);
    return service;
  }

  private async waitReady(limitMs: number): Promise<void> {
    const agent = new http.Agent({ keepAlive: false });
    const until = Date.now() + limitMs;
    for (let i = 0; i < 1000 && Date.now() < until; i++) {
      if (!alive(this.child)) throw new Error(`the service exited during start-up:\n${this.output}`);
      const ok = await httpGet(`${this.base}/health/ready`, agent, 1000).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return;
      await sleep(100);
    }
    throw new Error(`the service was not ready within ${limitMs} ms:\n${this.output}`);
  }

  /** Resident set size of the service process, MiB (VmRSS of /proc/<pid>/status). */
  rssMiB(): number {
    const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
    return round(kb / 1024, 1);
  }

  /** V8 heap in use, MiB, from the service's own /metrics (prom-client default metrics). */
  async heapUsedMiB(agent: http.Agent): Promise<number | null> {
    const r = await httpGet(`${this.base}/metrics`, agent, 5000).catch(() => undefined);
    const m = r && /^nodejs_heap_size_used_bytes\s+([\d.e+]+)/m.exec(r.body);
    return m ? round(Number(m[1]) / 1048576, 1) : null;
  }

  /**
   * The longest event-loop delay of the service since the previous call, ms: prom-client's
   * `nodejs_eventloop_lag_max_seconds` (monitorEventLoopDelay, 10 ms resolution), which each scrape of /metrics starts
   * again.
   */
  async longestLoopDelayMs(agent: http.Agent): Promise<number> {
    const r = await httpGet(`${this.base}/metrics`, agent, 5000);
    const m = /^nodejs_eventloop_lag_max_seconds\s+([\d.e+-]+)/m.exec(r.body);
    if (!m) throw new Error('no nodejs_eventloop_lag_max_seconds in /metrics');
    return Number(m[1]) * 1000;
  }

  async stop(): Promise<void> {
    await stopChild(this.child, 4000);
  }
}

// ----- HTTP on loopback -----

export function keepAlive(maxSockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
}

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

export function httpGet(url: string, agent: http.Agent, timeoutMs = 30_000): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }),
      );
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${url}`)));
    req.on('error', reject);
  });
}

/** The JSON body of a 200 answer; any other status fails the scenario with the start of the body. */
export function expectOk(r: HttpAnswer, what: string): Record<string, any> {
  if (r.status !== 200) throw new Error(`${what}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
  return JSON.parse(r.body) as Record<string, any>;
}

/** A POST whose answer is read line by line as it streams in (NDJSON), and that can be cut off. */
export interface StreamedPost {
  /** Settles when the whole answer has been read (or the request failed or was cut off). */
  done: Promise<{ status: number; headers: http.IncomingHttpHeaders; lines: number; ms: number }>;
  /** The answer's status once its head has arrived. */
  readonly status: number | undefined;
  /** Lines read so far. */
  readonly lines: number;
  /** Goes away mid-answer, as a client that disconnects. */
  abort(): void;
}

export function postStreamed(url: string, contentType: string, body: string, onLine: (line: string) => void): StreamedPost {
  let lines = 0;
  let status: number | undefined;
  let req: http.ClientRequest | undefined;
  const done = new Promise<{ status: number; headers: http.IncomingHttpHeaders; lines: number; ms: number }>((resolve, reject) => {
    const started = performance.now();
    req = http.request(
      url,
      { method: 'POST', agent: false, headers: { 'Content-Type': contentType, Accept: 'application/x-ndjson', 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        status = res.statusCode;
        let rest = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const parts = (rest + chunk).split('\n');
          rest = parts.pop() ?? '';
          for (const line of parts) {
            if (line === '') continue;
            lines++;
            onLine(line);
          }
        });
        res.on('end', () => {
          if (rest !== '') {
            lines++;
            onLine(rest);
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, lines, ms: performance.now() - started });
        });
        res.on('error', reject);
        res.on('aborted', () => reject(new Error('answer cut short')));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  return {
    done,
    get status() {
      return status;
    },
    get lines() {
      return lines;
    },
    abort: () => req?.destroy(new Error('aborted by the benchmark')),
  };
}

// ----- numbers -----

/** A count per key: upstream calls per endpoint, answers per status. */
export type Tally = Record<string, number>;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function round(v: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** Nearest-rank percentile of unsorted samples. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

export function mean(samples: number[]): number {
  return samples.reduce((a, b) => a + b, 0) / samples.length;
}
