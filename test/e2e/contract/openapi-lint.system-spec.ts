/**
 * The OpenAPI document passes the linters client teams run, as the running service serves it: Redocly's
 * recommended rules and Spectral's `spectral:oas` ruleset, with no problem of any severity. Both CLIs run from
 * node_modules/.bin on the exported document, offline (Redocly's telemetry and update check are off). The
 * document declares only the operations the service serves, so a generated client has a function for each of
 * them and no other; HEAD, the CORS preflight and the 405 of any other method stay the service's behaviour
 * (test/e2e/http/http-behaviour.e2e-spec.ts). The same document declares the headers every answer carries.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ERROR_CODES } from '../../../src/common/api-error';
import { startStack, type Stack } from '../../support/stack';

const BIN = path.resolve(__dirname, '../../../node_modules/.bin');
/** What each path serves, by method: the document's every operation. */
const SERVED: Record<string, Record<string, string>> = {
  '/flood-zone': { get: 'lookupFloodZone', post: 'lookupFloodZoneWithFootprint' },
  '/flood-zone/batch': { post: 'screenBatch' },
  '/flood-zone/map': { get: 'getFloodZoneMap' },
  '/flood-zone/report': { get: 'getFloodZoneReport' },
  '/flood-zone/jobs': { post: 'submitJob' },
  '/flood-zone/jobs/{id}': { get: 'getJob', delete: 'cancelJob' },
  '/flood-zone/jobs/{id}/results': { get: 'getJobResults' },
  '/flood-zone/watches': { post: 'createWatch' },
  '/flood-zone/watches/{id}': { get: 'getWatch', delete: 'stopWatch' },
  '/flood-zone/watches/{id}/locations': { post: 'addWatchLocations' },
  '/flood-zone/watches/{id}/locations/{locationId}': { delete: 'removeWatchLocation' },
  '/flood-zone/watches/{id}/events': { get: 'getWatchEvents' },
  '/health': { get: 'getServiceStatus' },
  '/health/ready': { get: 'checkReadiness' },
  '/metrics': { get: 'scrapeMetrics' },
  '/openapi.json': { get: 'getOpenApiDocument' },
  '/api-docs.html': { get: 'showApiDocs' },
};
/** The answers the per-client rate limit covers (RATE_LIMIT_PER_MINUTE): every operation the router answers but the probes and documents. */
const RATE_LIMITED_AT =
  /^(GET \/flood-zone(\/map|\/report|\/jobs\/\{id\}(\/results)?|\/watches\/\{id\}(\/events)?)?|POST \/flood-zone(\/(batch|jobs|watches|watches\/\{id\}\/locations))?|DELETE \/flood-zone\/(jobs|watches)\/\{id\}(\/locations\/\{locationId\})?) /;
const ERROR_CODE = new RegExp(`\\b(${ERROR_CODES.join('|')})\\b`, 'g');
const OFFLINE_ENV = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

interface LinterRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a linter CLI to the end whatever its exit status (a failing lint exits 1). */
function runLinter(command: string, args: string[], cwd: string): Promise<LinterRun> {
  return new Promise((resolve) => {
    execFile(path.join(BIN, command), args, { cwd, env: OFFLINE_ENV, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

/** The linter's JSON report (Redocly prints it, Spectral writes it to a file), or a failure that prints all the linter said. */
function reportOf<T>(run: LinterRun, linter: string, reportFile?: string): T {
  try {
    return JSON.parse(reportFile ? readFileSync(path.join(workDir, reportFile), 'utf8') : run.stdout) as T;
  } catch {
    throw new Error(`${linter} wrote no JSON report (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}

interface RedoclyProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

interface SpectralProblem {
  code: string;
  message: string;
  path: string[];
  severity: number;
}

let stack: Stack;
let workDir: string;
let document: { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>> } & Record<string, unknown>;

/** An error envelope's example, or another document's (the readiness probe's 503). */
type ExampleBody = { statusCode?: number; code?: string; status?: string };

beforeAll(async () => {
  stack = await startStack();
  const response = await fetch(`${stack.url}/openapi.json`);
  expect(response.status).toBe(200);
  const text = await response.text();
  document = JSON.parse(text) as typeof document;
  workDir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  writeFileSync(path.join(workDir, 'openapi.json'), text);
  // Explicit configurations, so that no configuration file elsewhere changes the rules.
  writeFileSync(path.join(workDir, 'redocly.yaml'), 'extends:\n  - recommended\ntelemetry: off\n');
  writeFileSync(path.join(workDir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
});

afterAll(async () => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  await stack?.close();
});

describe('the OpenAPI document under the linters', () => {
  it("has no problem of any severity under Redocly's recommended rules", async () => {
    const run = await runLinter('redocly', ['lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json', '--max-problems', '10000'], workDir);
    const report = reportOf<{ totals: { errors: number; warnings: number }; problems: RedoclyProblem[] }>(run, 'Redocly');
    const lines = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(lines).toEqual([]);
    expect({ errors: report.totals.errors, warnings: report.totals.warnings, exit: run.code }).toEqual({ errors: 0, warnings: 0, exit: 0 });
  }, 60_000);

  it("has no problem of any severity under Spectral's spectral:oas ruleset", async () => {
    const run = await runLinter(
      'spectral',
      ['lint', 'openapi.json', '--ruleset', '.spectral.yaml', '--format', 'json', '--output', 'spectral.json', '--fail-severity', 'hint'],
      workDir,
    );
    const report = reportOf<SpectralProblem[]>(run, 'Spectral', 'spectral.json');
    expect(report.map((p) => `${p.code} (severity ${p.severity}) at ${p.path.join('.')}: ${p.message}`)).toEqual([]);
    // --fail-severity hint: even a hint would make Spectral exit 1 (a crash is 2).
    expect(run.code).toBe(0);
  }, 60_000);
});

describe('what the document says about every answer', () => {
  const responses = () =>
    Object.entries(document.paths).flatMap(([route, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        Object.entries(operation.responses).map(([status, response]) => ({
          at: `${method.toUpperCase()} ${route} ${status}`,
          status,
          headers: Object.keys(response.headers ?? {}),
        })),
      ),
    );

  it('needs no authentication and is served relative to its own origin', () => {
    expect({ security: document.security, servers: document.servers }).toEqual({
      security: [],
      servers: [{ url: '/', description: 'The origin serving this document' }],
    });
  });

  it('declares X-Request-Id on every response of every operation', () => {
    const all = responses();
    expect(all.length).toBeGreaterThan(10);
    expect(all.filter((r) => !r.headers.includes('X-Request-Id')).map((r) => r.at)).toEqual([]);
  });

  it('declares Retry-After on every 429 and 502, and no 405 (no operation answers one)', () => {
    const all = responses();
    expect(all.filter((r) => (r.status === '429' || r.status === '502') && !r.headers.includes('Retry-After')).map((r) => r.at)).toEqual([]);
    expect(all.filter((r) => ['429', '502'].includes(r.status)).map((r) => r.at)).toEqual(
      expect.arrayContaining(['GET /flood-zone 429', 'GET /flood-zone 502']),
    );
    expect(all.filter((r) => r.status === '405').map((r) => r.at)).toEqual([]);
  });

  it('names each operation for what it does, and fills its contact', () => {
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => (operation as { operationId?: string }).operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !/^[a-z][A-Za-z]+$/.test(id ?? ''))).toEqual([]);
    const served = Object.entries(document.paths).map(([route, item]) => [
      route,
      Object.fromEntries(Object.entries(item).map(([method, operation]) => [method, (operation as { operationId?: string }).operationId])),
    ]);
    expect(Object.fromEntries(served)).toEqual(SERVED);
    expect((document.info as { contact?: unknown }).contact).toEqual({ name: 'The operators of this deployment' });
  });

  it('declares only the operations the service serves: no HEAD, no preflight, no refused method', () => {
    expect(Object.keys(document.paths).sort()).toEqual(Object.keys(SERVED).sort());
    const declared = Object.entries(document.paths).flatMap(([route, item]) => Object.keys(item).map((method) => `${method} ${route}`));
    const served = Object.entries(SERVED).flatMap(([route, methods]) => Object.keys(methods).map((method) => `${method} ${route}`));
    expect(declared.sort()).toEqual(served.sort());
    expect(declared).toHaveLength(20);
  });

  /** Every error answer that has a body, with its media types. */
  const errorAnswers = () =>
    Object.entries(document.paths).flatMap(([route, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        Object.entries(
          operation.responses as Record<
            string,
            { description: string; content?: Record<string, { schema?: unknown; example?: ExampleBody; examples?: Record<string, { value: ExampleBody }> }> }
          >,
        )
          .filter(([status, response]) => Number(status) >= 400 && response.content)
          .map(([status, response]) => ({
            at: `${method.toUpperCase()} ${route} ${status}`,
            status: Number(status),
            description: response.description,
            content: response.content!,
          })),
      ),
    );
  const codesNamed = (description: string) => [...new Set([...description.matchAll(ERROR_CODE)].map((match) => match[1]))];

  it('gives every error answer one media type: the JSON envelope, or an HTML page for the report', () => {
    const byType = errorAnswers().map(({ at, content }) => ({ at, types: Object.keys(content) }));
    expect(byType.filter(({ types }) => types.join() !== 'application/json' && types.join() !== 'text/html')).toEqual([]);
    expect(byType.filter(({ types }) => types.join() === 'text/html').map(({ at }) => at)).toEqual(
      ['400', '404', '422', '429', '500', '502'].map((status) => `GET /flood-zone/report ${status}`),
    );
  });

  it('gives every JSON error answer an example of its own, with its status and a code the description names', () => {
    const errors = errorAnswers()
      .filter(({ content }) => content['application/json'])
      .map(({ at, status, description, content }) => {
        const media = content['application/json']!;
        const examples = media.example ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);
        return { at, status, description, examples };
      });
    expect(errors.length).toBeGreaterThan(40);
    for (const { at, status, description, examples } of errors) {
      expect({ at, count: examples.length > 0 }).toEqual({ at, count: true });
      // An error envelope's example carries its status and a code the description names; the readiness probe's 503 is its own document.
      for (const example of examples.filter((e) => 'code' in e)) {
        expect({ at, statusCode: example.statusCode, named: description.includes(example.code!) }).toEqual({ at, statusCode: status, named: true });
      }
    }
    const lookup404 = (document.paths['/flood-zone']!.get!.responses['404'] as { content: Record<string, { examples: Record<string, unknown> }> }).content[
      'application/json'
    ]!;
    expect(Object.keys(lookup404.examples)).toEqual(['ADDRESS_NOT_FOUND', 'AMBIGUOUS_ADDRESS']);
  });

  it("describes every HTML error of the report as the page of the envelope GET /flood-zone gives, naming each of that status's codes", () => {
    const pages = errorAnswers().filter(({ content }) => content['text/html']);
    expect(pages.length).toBe(6);
    const lookup = document.paths['/flood-zone']!.get!.responses as Record<string, { description: string }>;
    for (const { at, status, description, content } of pages) {
      const named = codesNamed(description);
      expect({ at, schema: content['text/html']!.schema, page: /HTML page/.test(description), named: named.length > 0 }).toEqual({
        at,
        schema: { type: 'string' },
        page: true,
        named: true,
      });
      // The report answers whatever GET /flood-zone answers for the same location, with the same code and message.
      const lookupCodes = codesNamed(lookup[String(status)]!.description);
      expect({ at, missing: lookupCodes.filter((code) => !named.includes(code)) }).toEqual({ at, missing: [] });
    }
  });

  it('declares the RateLimit-* headers on the rate-limited answers only, and on each of them but its 429', () => {
    const all = responses();
    const limited = all.filter((r) => r.headers.includes('RateLimit-Limit')).map((r) => r.at);
    expect(limited).toEqual(
      expect.arrayContaining([
        'GET /flood-zone 200',
        'GET /flood-zone 400',
        'POST /flood-zone/batch 200',
        'GET /flood-zone/map 200',
        'GET /flood-zone/report 200',
        'GET /flood-zone/report 400',
        'POST /flood-zone/jobs 202',
        'GET /flood-zone/jobs/{id} 200',
        'DELETE /flood-zone/jobs/{id} 202',
        'GET /flood-zone/jobs/{id} 503',
        'GET /flood-zone/jobs/{id}/results 200',
        'GET /flood-zone/jobs/{id}/results 406',
        'GET /flood-zone/jobs/{id}/results 409',
      ]),
    );
    expect(limited.filter((at) => !RATE_LIMITED_AT.test(at) || / 429$/.test(at))).toEqual([]);
    expect(all.filter((r) => RATE_LIMITED_AT.test(r.at) && !/ 429$/.test(r.at) && !r.headers.includes('RateLimit-Limit')).map((r) => r.at)).toEqual([]);
  });

  it('describes the shared headers once, with their types', () => {
    expect(document.components).toEqual(
      expect.objectContaining({
        headers: {
          'X-Request-Id': expect.objectContaining({ required: true, schema: { type: 'string', minLength: 1, maxLength: 128 } }),
          'Retry-After': expect.objectContaining({ required: true, schema: { type: 'integer', minimum: 0 } }),
          'RateLimit-Limit': expect.objectContaining({ schema: { type: 'integer', minimum: 1 } }),
          'RateLimit-Remaining': expect.objectContaining({ schema: { type: 'integer', minimum: 0 } }),
          'RateLimit-Reset': expect.objectContaining({ schema: { type: 'integer', minimum: 0 } }),
        },
      }),
    );
  });
});
