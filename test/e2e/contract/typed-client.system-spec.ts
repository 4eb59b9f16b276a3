/**
 * Client-side contract check: a client generated from the running service's /openapi.json alone can look
 * up a point, type-safely. openapi-typescript turns the document into `paths`/`components`
 * (test/client/generated/flood-zone-api.d.ts, git-ignored; scripts/generate-api-types.ts, run as a child
 * process because openapi-typescript needs ESM-only packages that Jest cannot require), the TypeScript compiler checks
 * test/client/lookup-client.ts against them with strict options (and rejects deliberately wrong usages),
 * and then that client performs a real lookup with openapi-fetch, and reads a finished portfolio job's results
 * (with a Redis of the suite's own) as the typed object.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';
import { demoPlace } from '../../emulators';
import { DisposableRedis } from '../../support/redis-server';
import { sleep, startStack, type Stack } from '../../support/stack';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const GENERATOR = path.join(REPO_ROOT, 'scripts', 'generate-api-types.ts');
const CLIENT_DIR = path.resolve(__dirname, '../../client');
const GENERATED = path.join(CLIENT_DIR, 'generated', 'flood-zone-api.d.ts');
const CLIENT = path.join(CLIENT_DIR, 'lookup-client.ts');
const PLACE = demoPlace('toa-baja-ae');

/** Strict, and checking the generated declarations and openapi-fetch's too (skipLibCheck would skip every .d.ts). */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  noImplicitReturns: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  exactOptionalPropertyTypes: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  skipLibCheck: false,
  skipDefaultLibCheck: true, // TypeScript's own lib.*.d.ts only
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Node16,
  moduleResolution: ts.ModuleResolutionKind.Node16,
  esModuleInterop: true,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
};

/** Parsed library and generated files, shared by the programs below (parsing lib.dom.d.ts dominates the cost). */
const sourceFileCache = new Map<string, ts.SourceFile | undefined>();

/**
 * Type-checks the client, plus any extra source files given in memory (placed beside the client, so they
 * import it and the generated types the same way). Returns the formatted diagnostics by file.
 */
function typeCheck(extraFiles: Record<string, string> = {}): Map<string, string[]> {
  const virtual = new Map(Object.entries(extraFiles).map(([name, text]) => [path.join(CLIENT_DIR, name), text]));
  const host = ts.createCompilerHost(COMPILER_OPTIONS, true);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, languageVersion, onError, shouldCreate) => {
    const text = virtual.get(file);
    if (text !== undefined) return ts.createSourceFile(file, text, languageVersion, true);
    if (file === CLIENT) return getSourceFile.call(host, file, languageVersion, onError, shouldCreate);
    if (!sourceFileCache.has(file)) sourceFileCache.set(file, getSourceFile.call(host, file, languageVersion, onError, shouldCreate));
    return sourceFileCache.get(file);
  };
  const program = ts.createProgram({ rootNames: [CLIENT, ...virtual.keys()], options: COMPILER_OPTIONS, host });
  const byFile = new Map<string, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file ? path.relative(REPO_ROOT, diagnostic.file.fileName) : '(options)';
    const where = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
    const text = `${where ? `${file}:${where.line + 1}:${where.character + 1} ` : `${file} `}TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    byFile.set(file, [...(byFile.get(file) ?? []), text]);
  }
  return byFile;
}

/** Wrong usages that the generated types must reject, each with the compiler error expected. */
const WRONG_USAGES: Array<{ name: string; code: number; message: string; source: string }> = [
  {
    name: 'reads a field the document does not define',
    code: 2339,
    message: "Property 'noSuchField' does not exist",
    source: `
      import { floodZoneClient } from './lookup-client';
      export async function wrong(baseUrl: string): Promise<unknown> {
        const { data } = await floodZoneClient(baseUrl).GET('/flood-zone', { params: { query: { lat: 1, lon: 2 } } });
        return data?.result.noSuchField;
      }`,
  },
  {
    // lat is a number or text (text the service reads by its plain-decimal rule), never anything else.
    name: 'passes lat as a boolean',
    code: 2322,
    message: "Type 'true' is not assignable to type 'string | number | undefined'",
    source: `
      import { floodZoneClient } from './lookup-client';
      export async function wrong(baseUrl: string): Promise<unknown> {
        const { data } = await floodZoneClient(baseUrl).GET('/flood-zone', { params: { query: { lat: true, lon: 2 } } });
        return data;
      }`,
  },
  {
    name: 'treats a nullable zone as always present',
    code: 2322,
    message: "Type 'string | null' is not assignable to type 'string'",
    source: `
      import type { FloodDetermination } from './lookup-client';
      export function wrong(result: FloodDetermination): string {
        const zone: string = result.floodZone;
        return zone;
      }`,
  },
  {
    name: 'counts LOMAs without checking that they are known (null when their query failed)',
    code: 18047,
    message: "'result.lomas' is possibly 'null'",
    source: `
      import type { FloodDetermination } from './lookup-client';
      export function wrong(result: FloodDetermination): number {
        return result.lomas.length;
      }`,
  },
  {
    name: 'asks for a part the document does not list',
    code: 2322,
    message: 'Type \'"flood"\' is not assignable to type',
    source: `
      import { lookupPoint } from './lookup-client';
      export const wrong = (baseUrl: string) => lookupPoint(baseUrl, 1, 2, ['flood']);`,
  },
  {
    name: 'calls a path the service does not have',
    code: 2345,
    message: 'Argument of type \'"/flood-zones"\' is not assignable',
    source: `
      import { floodZoneClient } from './lookup-client';
      export async function wrong(baseUrl: string): Promise<unknown> {
        return floodZoneClient(baseUrl).GET('/flood-zones', {});
      }`,
  },
];

/**
 * A GET on its own connection, closed afterwards. The type checks below block this process (which also runs
 * the app) for seconds; a connection left idle in the global fetch pool meanwhile is closed by the server's
 * keep-alive timer the moment the process wakes up, and openapi-fetch's request on it would fail with
 * ECONNRESET. So only the lookup itself uses the global fetch pool.
 */
function getWithoutKeepAlive(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

let stack: Stack;
/** A Redis of the suite's own, for the portfolio job. */
let redis: DisposableRedis;

beforeAll(async () => {
  redis = await DisposableRedis.start();
  stack = await startStack({ JOBS_REDIS_URL: redis.url });
});

afterAll(async () => {
  await stack?.close();
  await redis?.stop();
});

/** A portfolio job of the given points, submitted and waited for until it completed; its id. */
async function finishedJob(places: Array<{ id: string; lat: number; lon: number }>): Promise<string> {
  const submitted = await fetch(`${stack.url}/flood-zone/jobs`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ locations: places.map(({ id, lat, lon }) => ({ id, lat, lon })) }),
  });
  expect(submitted.status).toBe(202);
  const { id } = (await submitted.json()) as { id: string };
  let status = '';
  for (let attempt = 0; attempt < 300 && status !== 'completed'; attempt++) {
    if (attempt > 0) await sleep(100);
    status = ((await (await fetch(`${stack.url}/flood-zone/jobs/${id}`)).json()) as { status: string }).status;
  }
  expect(status).toBe('completed');
  return id;
}

describe('a typed client generated from /openapi.json', () => {
  let document: Record<string, any>;

  it('generates TypeScript types from the running service', async () => {
    const response = await getWithoutKeepAlive(`${stack.url}/openapi.json`);
    expect(response.status).toBe(200);
    document = JSON.parse(response.body) as Record<string, any>;
    expect(document.openapi).toBe('3.1.0');

    await promisify(execFile)(process.execPath, ['-r', 'ts-node/register/transpile-only', GENERATOR, `${stack.url}/openapi.json`, GENERATED], {
      cwd: REPO_ROOT,
      timeout: 30_000,
    });
    const source = readFileSync(GENERATED, 'utf8');
    expect(source).toContain('export interface paths');
    expect(source).toContain('"/flood-zone"');
  });

  it('documents the lookup parameters address, lat, lon, include, radius and buildId as query parameters', () => {
    const parameters = (document.paths['/flood-zone']?.get?.parameters ?? []) as Array<{
      name: string;
      in: string;
      schema?: { type?: unknown; anyOf?: Array<{ type: unknown }> };
    }>;
    const typeOf = ({ schema }: (typeof parameters)[number]) => schema?.type ?? schema?.anyOf?.map(({ type }) => type);
    const query = Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, typeOf(p)]));
    // A number or text: a validating gateway then forwards malformed text, which the service answers 400 itself.
    expect(query).toEqual({
      address: 'string',
      lat: ['number', 'string'],
      lon: ['number', 'string'],
      include: 'array',
      radius: ['integer', 'string'],
      buildId: 'string',
    });
  });

  it('declares include as an array of its parts (include=nearby,cbrs) and radius with no default a client would send', () => {
    const parameters = (document.paths['/flood-zone']?.get?.parameters ?? []) as Array<{
      name: string;
      style?: string;
      explode?: boolean;
      description?: string;
      schema: { items?: unknown };
    }>;
    const byName = Object.fromEntries(parameters.map((p) => [p.name, p]));
    expect({ style: byName.include!.style, explode: byName.include!.explode, items: byName.include!.schema.items }).toEqual({
      style: 'form',
      explode: false,
      items: { type: 'string', enum: ['nearby', 'preliminary', 'cbrs', 'elevation', 'structure', 'history', 'determination'] },
    });
    expect(byName.radius!.schema).toEqual({ anyOf: [{ type: 'integer', minimum: 10, maximum: 2000 }, { type: 'string' }] });
    expect(byName.radius!.description).toContain('500 when not given');
  });

  it('declares the NDJSON batch answer as the text stream it is, and JSON first for typed clients', () => {
    const content = document.paths['/flood-zone/batch'].post.responses['200'].content as Record<string, { schema: Record<string, unknown> }>;
    expect(Object.keys(content)).toEqual(['application/json', 'application/x-ndjson', 'text/csv']);
    expect(content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/BatchAnswerDto' });
    expect(content['application/x-ndjson']!.schema.type).toBe('string');
  });

  it('compiles the client with strict options and no diagnostics', () => {
    expect(typeCheck()).toEqual(new Map());
  });

  describe('rejects deliberately wrong usages', () => {
    const fileOf = (index: number) => `wrong-usage-${index}.ts`;
    let diagnostics: Map<string, string[]>;

    beforeAll(() => {
      // One program for all of them: each file is independent, and only its own diagnostics are read.
      diagnostics = typeCheck(Object.fromEntries(WRONG_USAGES.map((w, index) => [fileOf(index), w.source])));
    });

    it.each(WRONG_USAGES.map((w, index) => [w.name, w, index] as const))('a client that %s does not compile', (_name, wrong, index) => {
      const found = diagnostics.get(path.relative(REPO_ROOT, path.join(CLIENT_DIR, fileOf(index)))) ?? [];
      expect(found.length).toBeGreaterThan(0);
      expect(found.join('\n')).toContain(`TS${wrong.code}: ${wrong.message}`);
    });
  });

  it('sends include as one comma-separated parameter, which the service accepts', async () => {
    const { lookupPoint } = (await import('../../client/lookup-client')) as typeof import('../../client/lookup-client');
    const answer = await lookupPoint(stack.url, PLACE.lat, PLACE.lon, ['nearby', 'cbrs']);
    expect(answer.status).toBe(200);
    expect(answer.body.result.nearby).not.toBeNull();
    expect(answer.body.result.coastalBarrier).not.toBeNull();
    expect(answer.body.result.mapChange).toBeNull();
  });

  it('looks up a demo place through openapi-fetch and gets the typed contract answer', async () => {
    // Loaded now, after the types above were generated and checked (its type import is erased at run time).
    const { lookupPoint } = (await import('../../client/lookup-client')) as typeof import('../../client/lookup-client');
    const answer = await lookupPoint(stack.url, PLACE.lat, PLACE.lon);
    expect(answer.status).toBe(200);
    expect(answer.floodZone).toBe(PLACE.expect.floodZone);
    expect(answer.floodZone).toBe('AE');
    expect(answer.inSpecialFloodHazardArea).toBe(PLACE.expect.inSpecialFloodHazardArea);
    expect(answer.firmPanel).toBe(PLACE.expect.firmPanel!.panel);
    expect(answer.body.query).toEqual({ address: null, lat: PLACE.lat, lon: PLACE.lon });
    expect(answer.body.result.coverage).toBe('mapped');
  });

  it("reads a finished job's results through openapi-fetch as the typed object (Accept: application/json); another Accept is a 406", async () => {
    const id = await finishedJob([PLACE]);
    const { jobResults } = (await import('../../client/lookup-client')) as typeof import('../../client/lookup-client');
    const answer = await jobResults(stack.url, id, 'application/json');
    expect({
      status: answer.status,
      rows: answer.body?.results.map((row) => [row.index, row.id, row.status, 'result' in row.body ? row.body.result.floodZone : row.body.code]),
    }).toEqual({ status: 200, rows: [[0, PLACE.id, 200, PLACE.expect.floodZone]] });
    const refused = await jobResults(stack.url, id, 'text/html');
    expect({ status: refused.status, code: refused.error?.code, body: refused.body }).toEqual({ status: 406, code: 'NOT_ACCEPTABLE', body: undefined });
    expect(refused.error?.error).toBe('The results are answered as application/x-ndjson, text/csv or application/json (by Accept), not text/html.');
  });
});
