/**
 * docs/api.md, the API reference, cannot drift: it must be exactly what scripts/generate-api-reference.ts renders
 * from the running service's /openapi.json and from AppConfig, name every configuration variable, and link only
 * inside the repository. The renderer itself is checked on a made-up document with every shape of schema the
 * service may grow (nested and nullable objects, arrays, enums, several media types).
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { AppConfig } from '../../../src/config/app-config';
import { HTTP_METHODS } from '../../../src/docs/openapi-document';
import { ENDPOINT_CATALOGUE, methodsAnswered } from '../../../src/health/service-description';
import { API_REFERENCE_PATH, configurationVariables, renderApiReference } from '../../../scripts/generate-api-reference';
import { startStack, type Stack } from '../../support/stack';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const TEMPLATE_PATH = path.join(REPO_ROOT, 'scripts', 'api-reference.template.md');

type Json = Record<string, any>;

/** The first line where two texts differ, to say what is stale without printing the whole file. */
function firstDifference(committed: string, generated: string): { line: number; committed?: string; generated?: string } | null {
  const a = committed.split('\n');
  const b = generated.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return { line: i + 1, committed: a[i], generated: b[i] };
  }
  return null;
}

describe('docs/api.md against the running service', () => {
  let stack: Stack;
  let document: Json;
  let committed: string;

  beforeAll(async () => {
    stack = await startStack();
    const response = await fetch(`${stack.url}/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as Json;
    committed = existsSync(API_REFERENCE_PATH) ? readFileSync(API_REFERENCE_PATH, 'utf8') : '';
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('is exactly what the generator renders from /openapi.json and AppConfig', () => {
    const generated = renderApiReference(document, configurationVariables());
    const fix = 'when it differs, run `npm run docs:api` and commit docs/api.md';
    expect({ file: 'docs/api.md', fix, firstDifference: firstDifference(committed, generated) }).toEqual({ file: 'docs/api.md', fix, firstDifference: null });
  });

  it('has a row for every variable of AppConfig, with its default', () => {
    const defaults = new AppConfig() as unknown as Record<string, unknown>;
    const validated = getMetadataStorage()
      .getTargetValidationMetadatas(AppConfig, '', true, false)
      .map((m) => m.propertyName);
    const names = [...new Set([...Object.keys(defaults), ...validated])];
    expect(names).toEqual(expect.arrayContaining(['PORT', 'PUBLIC_BASE_URL', 'REDIS_URL', 'LOG_LEVEL']));
    const configuration = committed.slice(committed.indexOf('\n## Configuration\n'));
    const missing = names.filter((name) => {
      const shown = defaults[name] === undefined ? '(unset)' : `\`${String(defaults[name])}\``;
      return !configuration.includes(`| \`${name}\` | ${shown} |`);
    });
    expect(missing).toEqual([]);
  });

  it('has a section for every operation and every schema', () => {
    const headings = new Set(committed.split('\n').filter((line) => line.startsWith('### ')));
    const operations = Object.entries(document.paths as Record<string, Json>).flatMap(([route, item]) =>
      Object.keys(item)
        .filter((key) => HTTP_METHODS.includes(key))
        .map((method) => `### ${method.toUpperCase()} ${route}`),
    );
    const schemas = Object.keys(document.components.schemas as Json).map((name) => `### ${name}`);
    expect(operations.sort()).toEqual([
      '### DELETE /flood-zone/jobs/{id}',
      '### DELETE /flood-zone/watches/{id}',
      '### DELETE /flood-zone/watches/{id}/locations/{locationId}',
      '### GET /api-docs.html',
      '### GET /flood-zone',
      '### GET /flood-zone/jobs/{id}',
      '### GET /flood-zone/jobs/{id}/results',
      '### GET /flood-zone/map',
      '### GET /flood-zone/report',
      '### GET /flood-zone/watches/{id}',
      '### GET /flood-zone/watches/{id}/events',
      '### GET /health',
      '### GET /health/ready',
      '### GET /metrics',
      '### GET /openapi.json',
      '### POST /flood-zone',
      '### POST /flood-zone/batch',
      '### POST /flood-zone/jobs',
      '### POST /flood-zone/watches',
      '### POST /flood-zone/watches/{id}/locations',
    ]);
    expect([...operations, ...schemas].filter((heading) => !headings.has(heading))).toEqual([]);
  });

  it("describes HEAD, the preflight and the 405 once, with each path's Allow, as no operation of the document", () => {
    const section = committed.slice(committed.indexOf('### Methods of every path'), committed.indexOf('\n## ', committed.indexOf('### Methods of every path')));
    expect(section).toContain('`405` `METHOD_NOT_ALLOWED`');
    const rows = Object.entries(ENDPOINT_CATALOGUE).map(([route, { methods }]) => `| \`${route}\` | \`${methodsAnswered(methods).join(', ')}\` |`);
    expect(rows.filter((row) => !section.includes(row))).toEqual([]);
    const endpoints = committed.slice(committed.indexOf('\n## Endpoints\n'), committed.indexOf('### Methods of every path'));
    expect(endpoints).not.toContain('| `405` |');
  });

  it('shows the headers every answer carries', () => {
    const lookup = committed.slice(committed.indexOf('### GET /flood-zone'), committed.indexOf('\n### ', committed.indexOf('### GET /flood-zone') + 1));
    expect(lookup).toMatch(/^\| `429` \|.*\| `X-Request-Id`, `Retry-After` \|$/m);
    expect(lookup).toMatch(/^\| `502` \|.*\| `X-Request-Id`, `Retry-After`, `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` \|$/m);
    expect(committed).toMatch(/^\| `X-Request-Id` \| string \| /m);
  });

  it.each([
    ['docs/api.md', API_REFERENCE_PATH],
    ['the template', TEMPLATE_PATH],
  ])('%s links only to places inside the repository', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
    /** A path, relative to docs/, that names no file of this repository. */
    const outsideRepository = (target: string) => {
      const resolved = path.resolve(path.dirname(API_REFERENCE_PATH), target);
      return !resolved.startsWith(`${REPO_ROOT}${path.sep}`) || !existsSync(resolved);
    };
    const outside = targets.filter((target) => {
      if (target.startsWith('#')) return false;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return true;
      return outsideRepository(target.split('#')[0]!);
    });
    expect(outside).toEqual([]);
    // A path that climbs out of docs/, even in plain text, must still name a file of this repository.
    const climbing = [...text.matchAll(/(?:\.\.\/)+[\w./-]+/g)].map((match) => match[0]);
    expect(climbing.filter(outsideRepository)).toEqual([]);
  });

  it('links every in-page anchor to a heading of the page', () => {
    const slug = (heading: string) =>
      heading
        .toLowerCase()
        .replace(/[^a-z0-9 _-]/g, '')
        .replace(/ /g, '-');
    const anchors = new Set(
      committed
        .split('\n')
        .filter((line) => /^#{1,6} /.test(line))
        .map((line) => slug(line.replace(/^#+ /, ''))),
    );
    const targets = [...committed.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]!);
    expect(targets.length).toBeGreaterThan(10);
    expect([...new Set(targets)].filter((target) => !anchors.has(target))).toEqual([]);
  });
});

describe('the reference renderer on any document', () => {
  const document: Json = {
    openapi: '3.1.0',
    info: { title: 'Made-up API', version: '9.9.9', description: 'For the renderer.' },
    servers: [{ url: '/' }],
    security: [],
    paths: {
      '/things/{id}': {
        parameters: [{ $ref: '#/components/parameters/Id' }],
        post: {
          summary: 'Make things',
          description: 'Many at once.',
          operationId: 'makeThings',
          parameters: [
            {
              name: 'include',
              in: 'query',
              required: false,
              description: 'Optional parts.',
              schema: { type: 'array', items: { type: 'string', enum: ['nearby', 'cbrs'] } },
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/ThingRequest' } },
              'text/csv': { schema: { type: 'string', description: 'A header row, then one row per thing.' } },
            },
          },
          responses: {
            '200': {
              description: 'Streamed in input order.',
              headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
              content: {
                'application/x-ndjson': { schema: { $ref: '#/components/schemas/Thing' } },
                'application/json': {
                  schema: { type: 'object', properties: { results: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } }, required: ['results'] },
                },
              },
            },
            '429': { description: 'BUSY.', headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } },
          },
        },
      },
    },
    components: {
      parameters: { Id: { name: 'id', in: 'path', required: true, description: 'The thing id.', schema: { type: 'string', maxLength: 128 } } },
      headers: {
        'X-Request-Id': { description: 'Request id.', schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds.', schema: { type: 'integer', minimum: 0 } },
      },
      schemas: {
        ThingRequest: {
          type: 'object',
          properties: {
            locations: {
              type: 'array',
              items: {
                type: 'object',
                properties: { id: { type: ['string', 'null'] }, lat: { anyOf: [{ type: 'number' }, { type: 'string' }] } },
                required: ['id'],
              },
            },
          },
          required: ['locations'],
        },
        Thing: {
          type: 'object',
          description: 'One answer.',
          properties: {
            status: { type: 'integer', enum: [200, 404] },
            zone: { type: ['string', 'null'], enum: ['AE', 'X', null], example: 'AE' },
            panel: { anyOf: [{ $ref: '#/components/schemas/Panel' }, { type: 'null' }], description: 'Or null.' },
            lomas: { type: ['array', 'null'], items: { $ref: '#/components/schemas/Panel' } },
            nearby: {
              type: 'object',
              properties: {
                distanceM: { type: 'number', minimum: 0 },
                zones: { type: 'array', items: { type: 'object', properties: { zone: { type: 'string' } } } },
              },
              required: ['distanceM'],
            },
            tally: { type: 'object', additionalProperties: { type: 'integer' } },
            seen: { type: 'string', format: 'date-time' },
          },
          required: ['status', 'zone'],
        },
        Panel: { type: 'object', properties: { effectiveDate: { type: ['string', 'null'], format: 'date' } } },
      },
    },
  };
  const variables = configurationVariables();
  let rendered: string;

  beforeAll(() => {
    rendered = renderApiReference(document, variables);
  });

  it('lists every operation with path-level and $ref parameters', () => {
    expect(rendered).toContain('| [POST /things/{id}](#post-thingsid) | Make things |');
    expect(rendered).toContain('### POST /things/{id}\n\n**Make things**\n\nMany at once.\n\nOperation id: `makeThings`.');
    expect(rendered).toContain('| `id` | path | string | required | The thing id. At most 128 characters. |');
    expect(rendered).toContain('| `include` | query | array of string | optional | Optional parts. One of `nearby`, `cbrs`. |');
  });

  it('shows a request body with several media types, inline or by reference', () => {
    expect(rendered).toContain(
      'Request body (required).\n\n`application/json`: Schema: [ThingRequest](#thingrequest).\n\n`text/csv`: Schema: string. A header row, then one row per thing.',
    );
  });

  it('shows several response media types, an inline response body field by field, and the headers by status', () => {
    expect(rendered).toContain('| `200` | Streamed in input order. | `application/x-ndjson`: [Thing](#thing)<br>`application/json`: object | `X-Request-Id` |');
    expect(rendered).toContain('| `429` | BUSY. |  | `Retry-After` |');
    expect(rendered).toContain('| `Retry-After` | `429` | integer | Seconds. At least 0. |');
    expect(rendered).toContain(
      '`200` `application/json` body. Schema: object.\n\n| field | type | required | description |\n|---|---|---|---|\n| `results` | array of [Thing](#thing) | required |  |',
    );
  });

  it('renders nullable types, nullable references, enums, formats, maps and nested objects and arrays', () => {
    const thing = rendered.slice(rendered.indexOf('### Thing\n'), rendered.indexOf('### ThingRequest'));
    expect(thing.split('\n').filter((line) => line.startsWith('| `'))).toEqual([
      '| `status` | integer | required | One of `200`, `404`. |',
      '| `zone` | string or null | required | One of `AE`, `X`, `null`. Example: `AE`. |',
      '| `panel` | [Panel](#panel) or null | optional | Or null. |',
      '| `lomas` | array of [Panel](#panel) or null | optional |  |',
      '| `nearby` | object | optional |  |',
      '| `nearby.distanceM` | number | required | At least 0. |',
      '| `nearby.zones` | array of object | optional |  |',
      '| `nearby.zones[].zone` | string | optional |  |',
      '| `tally` | object of integer by key | optional |  |',
      '| `seen` | string (date-time) | optional |  |',
    ]);
    expect(thing).toContain('One answer.');
    expect(rendered).toContain('| `effectiveDate` | string (date) or null | optional |  |');
    expect(rendered).toContain('| `locations[].id` | string or null | required |  |');
    expect(rendered).toContain('| `locations[].lat` | number or string | optional |  |');
  });

  it('fills the template with the document and the configuration, leaving no placeholder', () => {
    expect(rendered).toContain('# Made-up API reference');
    expect(rendered).toContain('Interface version `9.9.9`. For the renderer.');
    expect(rendered).not.toMatch(/\{\{\w+\}\}/);
    expect(rendered).toContain('| `PORT` | `3000` | must be an integer from 0 to 65535 | Port the HTTP server listens on. |');
  });

  it('refuses a configuration variable it has no description for, and a template placeholder it does not know', () => {
    expect(() => renderApiReference(document, [...variables, { name: 'NEW_SETTING', default: 1, accepted: [] }])).toThrow(/No description for NEW_SETTING/);
    expect(() => renderApiReference(document, variables, '{{nonsense}}')).toThrow(/Unknown placeholder \{\{nonsense\}\}/);
  });
});
