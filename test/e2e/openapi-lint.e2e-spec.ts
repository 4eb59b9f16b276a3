/**
 * The OpenAPI document passes the linters client teams run, as the running service serves it: Redocly's
 * recommended rules with no error, and Spectral's `spectral:oas` ruleset with no problem at all. Both CLIs run
 * from node_modules/.bin on the exported document, offline (Redocly's telemetry and update check are off).
 * The only warnings allowed are Redocly's `operation-4xx-response` on operations that have no 4xx answer to
 * declare (probes and documents). The same document declares the headers every answer carries.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startStack, type Stack } from '../support/stack';

const BIN = path.resolve(__dirname, '../../node_modules/.bin');
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
  it("has no error under Redocly's recommended rules, and no warning but a missing 4xx on operations without one", async () => {
    const run = await runLinter('redocly', ['lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json', '--max-problems', '10000'], workDir);
    const report = reportOf<{ totals: { errors: number; warnings: number }; problems: RedoclyProblem[] }>(run, 'Redocly');
    const lines = (problems: RedoclyProblem[]) => problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);

    expect(lines(report.problems.filter((p) => p.severity === 'error'))).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(run.code).toBe(0);

    const unexpectedWarnings = report.problems.filter((p) => {
      if (p.ruleId !== 'operation-4xx-response') return true;
      const [, , route, method] = (p.location[0]?.pointer ?? '').split('/').map((part) => part.replace(/~1/g, '/'));
      return Object.keys(document.paths[route!]?.[method!]?.responses ?? { '4XX': {} }).some((status) => status.startsWith('4'));
    });
    expect(lines(unexpectedWarnings)).toEqual([]);
  });

  it("has no problem of any severity under Spectral's spectral:oas ruleset", async () => {
    const run = await runLinter(
      'spectral',
      ['lint', 'openapi.json', '--ruleset', '.spectral.yaml', '--format', 'json', '--output', 'spectral.json', '--fail-severity', 'hint'],
      workDir,
    );
    const problems = reportOf<SpectralProblem[]>(run, 'Spectral', 'spectral.json');
    expect(problems.map((p) => `${p.code} (severity ${p.severity}) at ${p.path.join('.')}: ${p.message}`)).toEqual([]);
    expect({ exit: run.code, output: run.code === 0 ? '' : `${run.stdout}\n${run.stderr}` }).toEqual({ exit: 0, output: '' });
  });
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

  it('declares Allow on every 405 and Retry-After on every 429 and 502', () => {
    const all = responses();
    const missing = [
      ...all.filter((r) => r.status === '405' && !r.headers.includes('Allow')),
      ...all.filter((r) => (r.status === '429' || r.status === '502') && !r.headers.includes('Retry-After')),
    ];
    expect(missing.map((r) => r.at)).toEqual([]);
    expect(all.filter((r) => ['405', '429', '502'].includes(r.status)).map((r) => r.at)).toEqual(
      expect.arrayContaining(['GET /flood-zone 405', 'GET /flood-zone 429', 'GET /flood-zone 502']),
    );
  });

  it('describes the shared headers once, with their types', () => {
    expect(document.components).toEqual(
      expect.objectContaining({
        headers: {
          'X-Request-Id': expect.objectContaining({ schema: { type: 'string', minLength: 1, maxLength: 128 } }),
          'Retry-After': expect.objectContaining({ schema: { type: 'integer', minimum: 0 } }),
          Allow: expect.objectContaining({ schema: { type: 'string' } }),
        },
      }),
    );
  });
});
