/**
 * `npm run docs:api`: writes docs/api.md, the API reference, from the service's OpenAPI document (exactly what
 * GET /openapi.json serves, built from the defaults: no environment variable leaks into the reference) and
 * from the configuration class src/config/app-config.ts. The mechanical parts (endpoints, parameters, bodies,
 * statuses, headers, schemas, variables) come from those two; the prose is scripts/api-reference.template.md
 * plus the variable descriptions below. test/e2e/contract/api-reference.e2e-spec.ts fails when the committed file
 * differs from what this renders from the running service.
 *
 *   node -r ts-node/register/transpile-only scripts/generate-api-reference.ts [output]
 */
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { UPSTREAM_REGISTRY } from '../src/common/upstream/upstream-registry';
import { AppConfig } from '../src/config/app-config';
import { HTTP_METHODS } from '../src/docs/openapi-document';
import { ENDPOINT_CATALOGUE, methodsAnswered } from '../src/health/service-description';
import { fetchOpenApiDocument } from './export-openapi';

const REPO_ROOT = path.resolve(__dirname, '..');
export const API_REFERENCE_PATH = path.join(REPO_ROOT, 'docs', 'api.md');
const TEMPLATE_PATH = path.join(__dirname, 'api-reference.template.md');

type Json = Record<string, any>;

/**
 * What each variable does, in the project's words (an upstream's base-URL variable: its registry entry's
 * description). A variable of AppConfig missing here stops the generator.
 */
const VARIABLE_DESCRIPTIONS: Record<string, string> = {
  ...Object.fromEntries(UPSTREAM_REGISTRY.map((upstream) => [upstream.baseUrlVariable, upstream.description])),
  PORT: 'Port the HTTP server listens on.',
  HOST: 'Address the HTTP server listens on.',
  PUBLIC_BASE_URL: 'Absolute base URL of this deployment, written into `servers` of `/openapi.json`. Unset, the server there is `/`.',
  GEOCODER_BENCHMARK: 'Census geocoder benchmark: the release of address data matched against.',
  GEOCODER_VINTAGE: 'Census geocoder vintage: the release of geography (counties) for a matched point.',
  COMMUNITY_STATUS_REFRESH_HOURS:
    'Hours between downloads of the NFIP Community Status Book (loaded in the background at start-up; a failed download keeps the table already held; with REDIS_URL the replicas share one download per period).',
  HELD_POLYGONS_MAX_MB:
    "Memory (MiB) each process gives the NFHL features it holds for whole areas where a portfolio job's points are dense (one envelope query answering many rows: [batch-and-jobs.md](batch-and-jobs.md#portfolio-jobs)); the least recently used area goes first. `0`: every row's layers are asked point by point.",
  STRUCTURE_SEARCH_M:
    "How far from an address's point, in metres, a building is looked for with `include=structure` (a lat/lon is taken as the building's own point: only a footprint containing it is chosen).",
  POLYGON_WORKERS:
    "Worker threads for polygon work of more than 250 vertices (checking a footprint, measuring the zones, communities, letters and coastal barriers over it), started only when such a polygon comes and stopped after a minute idle; each may have 4 more tasks waiting, beyond which a caller's footprint is a `503` `POLYGONS_BUSY` with `Retry-After` and an upstream's polygon leaves its part unavailable ([upstream-time-and-budget.md](upstream-time-and-budget.md#polygon-work)).",
  POLYGON_DEADLINE_MS:
    "Time one polygon task may run in its worker thread (from its start, not its wait); past it the thread is stopped and replaced, a caller's footprint is a `400` `INVALID_FOOTPRINT` saying so, and an upstream's polygon leaves its part unavailable, never measured.",
  BATCH_MAX_LOCATIONS: 'Most rows in one `POST /flood-zone/batch` request; more is a `413` `BATCH_TOO_LARGE`.',
  BATCH_MAX_CONCURRENT: 'Batches running at once in one process; one more is a `429` `BATCH_BUSY` with `Retry-After`.',
  BATCH_UPLOAD_GRACE_MS:
    "How long any request body (a batch's, a job's…) may take to get going; after it, the upload must average 1 KiB/s over every 10 s, or the answer is a `408` (see Slow uploads; no batch slot is held meanwhile).",
  BATCH_ANSWER_STALL_MS: 'How long a batch waits for its client to read any of its answer before abandoning it and freeing its slot.',
  UPSTREAM_TIMEOUT_MS: 'Time allowed for one attempt of one upstream call.',
  UPSTREAM_RETRIES: 'Extra attempts after a transient failure (network error, timeout, 5xx, HTML page), with backoff and jitter.',
  LOOKUP_DEADLINE_MS: 'Time allowed for a whole lookup, retries included; past it the answer is a `502`.',
  CACHE_TTL_SECONDS: 'How long a flood result is kept; `0` disables the flood cache.',
  GEOCODE_CACHE_TTL_SECONDS: 'How long a geocoded address, and the county and ZIP of a point, are kept; `0` disables.',
  HISTORY_TTL_SECONDS:
    "How long an area's flood record (`include=history`: a census tract's NFIP claims and policies, a county's disaster declarations) is kept; `0` disables.",
  CACHE_MAX_ENTRIES: 'Most entries in the in-memory cache; the least recently used goes first.',
  STALE_IF_ERROR_SECONDS: 'When above `0`, a flood result that expired less than this long ago is served (`X-Cache: STALE`) if FEMA fails, instead of a `502`.',
  UPSTREAM_MAX_CONCURRENCY: 'Most calls in flight, and keep-alive sockets, per upstream service; more wait their turn.',
  SHUTDOWN_GRACE_MS:
    'After SIGTERM, readiness answers `503` at once and requests in flight finish; the process exits as soon as none is left, and within this. Above `LOOKUP_DEADLINE_MS`, so a lookup in flight is always answered.',
  CIRCUIT_BREAKER_FAILURE_RATE:
    'A circuit opens when at least this percentage of an upstream operation\'s calls failed as an outage (timeout, reset, 5xx, HTML page) within `CIRCUIT_BREAKER_WINDOW_MS`, over at least `CIRCUIT_BREAKER_MIN_CALLS` calls. An answer such as "no county here" is not a failure.',
  CIRCUIT_BREAKER_WINDOW_MS: 'The sliding window, in milliseconds, over which a circuit judges the failure rate.',
  CIRCUIT_BREAKER_MIN_CALLS: 'Calls the window must have seen before a circuit may open, so a few failures under low traffic never open it.',
  CIRCUIT_BREAKER_HALF_OPEN_MS: 'How long an open circuit fails fast (`502` with `Retry-After`) before it lets one trial call through.',
  REDIS_URL:
    'Redis shared by the instances for the cache and the rate-limit counts. A Redis outage or a hung Redis falls back to the in-memory cache and local counts, never to errors or waits (a Redis command gives up after 200 ms). Unset, everything stays in memory.',
  JOBS_REDIS_URL:
    'Redis holding the portfolio job queue (BullMQ) and job data (`/flood-zone/jobs`); unset, `REDIS_URL`. Give it persistence (`appendonly yes`) and `maxmemory-policy noeviction`: job data cannot be rebuilt. Neither set, the job endpoints answer `503` `JOBS_UNAVAILABLE` and nothing else changes.',
  JOB_MAX_LOCATIONS: 'Rows accepted in one portfolio job; more is a `413` `BATCH_TOO_LARGE` (a job body may also be at most 256 MiB).',
  JOB_WORKERS: 'Chunks of 1,000 rows this process answers at once; every replica takes chunks of every job.',
  JOB_UPSTREAM_RATE_PER_SECOND:
    "Calls per second per upstream service (NFHL, preliminary, pending, CBRS, Census, elevation) of all portfolio jobs on all replicas together, kept in the jobs' Redis (calls are spaced evenly at 90% of it). Interactive lookups do not count against it and keep their own half of each upstream.",
  JOB_TTL_HOURS: "How long a finished job's status and results are kept in Redis.",
  WATCH_SWEEP_INTERVAL_SECONDS:
    'How often the watches (`/flood-zone/watches`) ask FEMA what changed (a sweep, one replica at a time); only the locations inside what changed are answered again.',
  WATCH_LOOKBACK_DAYS: 'How far before the last sweep a change’s effective date is looked for: FEMA often publishes a change after its effective date.',
  WATCH_FULL_RECHECK_DAYS:
    'How often every location of a watch is answered again at the job budget, so that a change FEMA published without a date is still found.',
  WATCH_MAX_LOCATIONS: 'Locations in one watch; more is a `413` `BATCH_TOO_LARGE`.',
  WATCH_WEBHOOK_ALLOW_PRIVATE:
    'Let watch webhooks reach loopback, private, link-local and metadata addresses. For tests and private networks only: on a public deployment it lets anyone make the service call inside its network.',
  WATCH_WEBHOOK_ALLOW_HTTP: 'Let watch webhooks be plain `http://`. For tests and private networks only.',
  RATE_LIMIT_PER_MINUTE:
    'Requests per minute per client IP; over it, a `429` `RATE_LIMITED` with `Retry-After`. `0` disables. `/health`, `/health/ready` and `/metrics` are never limited.',
  TRUST_PROXY:
    'Take the client IP from `X-Forwarded-For` (behind a proxy or gateway), for rate limits and logs, and the protocol from `X-Forwarded-Proto` ' +
    '(answers over HTTPS then carry Strict-Transport-Security).',
  MCP_ENABLED:
    'Serve the Model Context Protocol at `POST /mcp` (Streamable HTTP, stateless), so that AI agents call the lookup, the determination, the map and the batch as tools; `false` makes `/mcp` a `404`.',
  LOG_LEVEL: 'Level of the JSON logs on stdout; at `info`, one line per request. Street addresses never appear at `info`.',
};

export interface ConfigurationVariable {
  name: string;
  default: unknown;
  /** The validation messages, which say what the variable accepts. */
  accepted: string[];
}

/** Every variable AppConfig validates (the optional ones have no default, so only the metadata names them). */
export function configurationVariables(): ConfigurationVariable[] {
  const defaults = new AppConfig() as unknown as Record<string, unknown>;
  const metadata = getMetadataStorage().getTargetValidationMetadatas(AppConfig, '', true, false);
  const names = [...new Set([...metadata.map((m) => m.propertyName), ...Object.keys(defaults)])];
  return names.map((name) => ({
    name,
    default: defaults[name],
    accepted: [...new Set(metadata.filter((m) => m.propertyName === name && typeof m.message === 'string' && m.message).map((m) => m.message as string))],
  }));
}

/** One table cell: no line breaks, no column breaks. */
const cell = (text: unknown): string =>
  String(text ?? '')
    .trim()
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, '<br>');
const code = (value: unknown): string => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
const table = (head: string[], rows: string[][]): string =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)].join('\n');
/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
const refName = (ref: string): string =>
  decodeURIComponent(ref.split('/').pop() ?? ref)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');

/** Follows a local `$ref` (`#/components/...`); other nodes are returned as they are. */
function resolve(document: Json, node: Json | undefined): Json | undefined {
  if (!node || typeof node.$ref !== 'string' || !node.$ref.startsWith('#/')) return node;
  const target = node.$ref
    .slice(2)
    .split('/')
    .reduce((at: any, key: string) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  return resolve(document, target);
}

/** The type of a schema in words, linking named schemas. */
export function typeOf(schema: Json | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return schema.$ref.startsWith('#/components/schemas/') ? `[${name}](#${anchor(name)})` : name;
  }
  for (const [keyword, joiner] of [
    ['anyOf', ' or '],
    ['oneOf', ' or '],
    ['allOf', ' and '],
  ] as const) {
    if (Array.isArray(schema[keyword])) return (schema[keyword] as Json[]).map(typeOf).join(joiner);
  }
  if (schema.const !== undefined) return code(schema.const);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : [];
  if (types.length === 0) return 'any';
  return types
    .map((type) => {
      if (type === 'array') {
        const items = typeOf(schema.items);
        return `array of ${/ or | and /.test(items) ? `(${items})` : items}`;
      }
      if (type === 'object' && !schema.properties && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        return `object of ${typeOf(schema.additionalProperties)} by key`;
      }
      return schema.format && type !== 'null' ? `${type} (${schema.format})` : type;
    })
    .join(' or ');
}

/** The schema's own description, then what it accepts, in words. */
function describe(schema: Json | undefined, extra: Array<string | undefined> = []): string {
  if (!schema) return extra.filter(Boolean).join(' ');
  const enums = schema.enum ?? (Array.isArray(schema.items?.enum) ? schema.items.enum : undefined);
  const facts = [
    schema.description,
    ...extra,
    schema.deprecated ? 'Deprecated.' : undefined,
    Array.isArray(enums) ? `One of ${enums.map(code).join(', ')}.` : undefined,
    schema.minimum !== undefined ? `At least ${schema.minimum}.` : undefined,
    schema.exclusiveMinimum !== undefined ? `Above ${schema.exclusiveMinimum}.` : undefined,
    schema.maximum !== undefined ? `At most ${schema.maximum}.` : undefined,
    schema.exclusiveMaximum !== undefined ? `Below ${schema.exclusiveMaximum}.` : undefined,
    schema.minLength !== undefined ? `At least ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}.` : undefined,
    schema.maxLength !== undefined ? `At most ${schema.maxLength} characters.` : undefined,
    schema.pattern !== undefined ? `Matches ${code(schema.pattern)}.` : undefined,
    schema.minItems !== undefined ? `At least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}.` : undefined,
    schema.maxItems !== undefined ? `At most ${schema.maxItems} items.` : undefined,
    schema.default !== undefined ? `Default ${code(schema.default)}.` : undefined,
    schema.example !== undefined ? `Example: ${code(schema.example)}.` : undefined,
    Array.isArray(schema.examples) && schema.examples.length > 0 ? `Example: ${code(schema.examples[0])}.` : undefined,
  ];
  return facts
    .filter((fact): fact is string => typeof fact === 'string' && fact.trim() !== '')
    .map((fact) => (/[.!?:)`]$/.test(fact.trim()) ? fact.trim() : `${fact.trim()}.`))
    .join(' ');
}

/** The inline object a schema holds, looking through arrays and nullable wrappers (named schemas have their own section). */
function inlineObject(schema: Json | undefined): { schema: Json; suffix: string } | undefined {
  if (!schema || schema.$ref) return undefined;
  if (schema.properties) return { schema, suffix: '' };
  const items = schema.items as Json | undefined;
  if (items) {
    const inner = inlineObject(items);
    return inner && { schema: inner.schema, suffix: `[]${inner.suffix}` };
  }
  const variants = ((schema.anyOf ?? schema.oneOf ?? schema.allOf ?? []) as Json[]).filter((v) => v.type !== 'null');
  return variants.length === 1 ? inlineObject(variants[0]) : undefined;
}

/** One row per field, nested inline objects (and arrays of them) flattened as `a.b` and `a[].b`. */
function fieldRows(schema: Json, prefix = ''): string[][] {
  const required = new Set<string>(schema.required ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, Json>).flatMap(([name, property]) => {
    const field = `${prefix}${name}`;
    const nested = inlineObject(property);
    return [
      [code(field), typeOf(property), required.has(name) ? 'required' : 'optional', describe(property)],
      ...(nested ? fieldRows(nested.schema, `${field}${nested.suffix}.`) : []),
    ];
  });
}

/** A body's schema: a link for a named schema, or its fields when it is declared inline. */
function bodyOf(schema: Json | undefined): string {
  const nested = inlineObject(schema);
  if (!nested) return `Schema: ${typeOf(schema)}.${schema?.description ? ` ${describe(schema)}` : ''}`;
  const head = nested.suffix ? `Schema: ${typeOf(schema)}, each item:` : 'Schema: object.';
  return `${[head, describe({ ...schema, type: undefined })].filter(Boolean).join(' ')}\n\n${table(['field', 'type', 'required', 'description'], fieldRows(nested.schema))}`;
}

function mediaTypes(content: Record<string, Json> | undefined): string {
  return Object.entries(content ?? {})
    .map(([mediaType, media]) => `${code(mediaType)}: ${typeOf(media.schema)}`)
    .join('<br>');
}

function renderOperation(document: Json, route: string, method: string, operation: Json, pathItem: Json): string {
  const parts = [
    `### ${method.toUpperCase()} ${route}`,
    [operation.summary && `**${operation.summary.trim()}**`, operation.description].filter(Boolean).join('\n\n'),
  ];
  if (operation.deprecated) parts.push('Deprecated.');
  if (operation.operationId) parts.push(`Operation id: ${code(operation.operationId)}.`);

  const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((p: Json) => resolve(document, p) as Json);
  if (parameters.length > 0) {
    parts.push(
      `Parameters:\n\n${table(
        ['name', 'in', 'type', 'required', 'description'],
        parameters.map((p) => [
          code(p.name),
          p.in,
          typeOf(p.schema),
          p.required ? 'required' : 'optional',
          describe(p.schema, [p.description, p.deprecated ? 'Deprecated.' : undefined]),
        ]),
      )}`,
    );
  }

  const requestBody = resolve(document, operation.requestBody);
  if (requestBody) {
    const intro = [`Request body (${requestBody.required ? 'required' : 'optional'}).`, requestBody.description].filter(Boolean).join(' ');
    const bodies = Object.entries((requestBody.content ?? {}) as Record<string, Json>).map(
      ([mediaType, media]) => `${code(mediaType)}: ${bodyOf(media.schema)}`,
    );
    parts.push([intro, ...bodies].join('\n\n'));
  }

  const responses = Object.entries((operation.responses ?? {}) as Record<string, Json>).map(
    ([status, response]) => [status, resolve(document, response) ?? {}] as const,
  );
  parts.push(
    `Responses:\n\n${table(
      ['status', 'description', 'body', 'headers'],
      responses.map(([status, response]) => [
        code(status),
        response.description ?? '',
        mediaTypes(response.content),
        Object.keys(response.headers ?? {})
          .map(code)
          .join(', '),
      ]),
    )}`,
  );

  // The same header may be declared on several statuses: one row per distinct declaration.
  const headers = new Map<string, { statuses: string[]; header: Json }>();
  for (const [status, response] of responses) {
    for (const [name, declared] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const header = resolve(document, declared) ?? {};
      const key = `${name}\n${JSON.stringify(header)}`;
      headers.set(key, { statuses: [...(headers.get(key)?.statuses ?? []), status], header });
    }
  }
  const headerRows = [...headers.entries()]
    .filter(([key]) => !key.startsWith('X-Request-Id\n'))
    .map(([key, { statuses, header }]) => [
      code(key.split('\n')[0]),
      statuses.map(code).join(', '),
      typeOf(header.schema),
      describe(header.schema, [header.description]),
    ]);
  if (headerRows.length > 0) parts.push(`Response headers (besides \`X-Request-Id\`):\n\n${table(['header', 'with', 'type', 'description'], headerRows)}`);

  for (const [status, response] of responses) {
    for (const [mediaType, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
      if (inlineObject(media.schema)) parts.push(`\`${status}\` ${code(mediaType)} body. ${bodyOf(media.schema)}`);
    }
  }
  return parts.filter(Boolean).join('\n\n');
}

function renderEndpoints(document: Json): string {
  const operations = Object.entries((document.paths ?? {}) as Record<string, Json>).flatMap(([route, pathItem]) =>
    HTTP_METHODS.filter((method) => pathItem[method]).map((method) => ({ route, method, operation: pathItem[method] as Json, pathItem })),
  );
  const overview = table(
    ['endpoint', 'what'],
    operations.map(({ route, method, operation }) => [`[${method.toUpperCase()} ${route}](#${anchor(`${method} ${route}`)})`, operation.summary ?? '']),
  );
  return [overview, ...operations.map(({ route, method, operation, pathItem }) => renderOperation(document, route, method, operation, pathItem))].join('\n\n');
}

/** What each path answers, as its `Allow` and its preflight say: from the catalogue the service routes by, not from the document. */
const renderMethods = (): string =>
  table(
    ['path', 'answers (`Allow`)'],
    Object.entries(ENDPOINT_CATALOGUE).map(([route, { methods }]) => [code(route), code(methodsAnswered(methods).join(', '))]),
  );

function renderHeaders(document: Json): string {
  const headers = Object.entries((document.components?.headers ?? {}) as Record<string, Json>);
  return table(
    ['header', 'type', 'description'],
    headers.map(([name, header]) => [
      code(name),
      typeOf(resolve(document, header)?.schema),
      describe(resolve(document, header)?.schema, [resolve(document, header)?.description]),
    ]),
  );
}

function renderSchemas(document: Json): string {
  const schemas = Object.entries((document.components?.schemas ?? {}) as Record<string, Json>).sort(([a], [b]) => a.localeCompare(b));
  return schemas
    .map(([name, schema]) => {
      const rows = fieldRows(inlineObject(schema)?.schema ?? {});
      const summary = inlineObject(schema) ? describe({ ...schema, type: undefined }) : `${typeOf(schema)}. ${describe(schema)}`.trim();
      return [`### ${name}`, summary, rows.length > 0 ? table(['field', 'type', 'required', 'description'], rows) : ''].filter(Boolean).join('\n\n');
    })
    .join('\n\n');
}

function renderConfiguration(variables: ConfigurationVariable[]): string {
  const undescribed = variables.filter((v) => !VARIABLE_DESCRIPTIONS[v.name]).map((v) => v.name);
  if (undescribed.length > 0)
    throw new Error(`No description for ${undescribed.join(', ')}: add it to VARIABLE_DESCRIPTIONS in scripts/generate-api-reference.ts`);
  const stale = Object.keys(VARIABLE_DESCRIPTIONS).filter((name) => !variables.some((v) => v.name === name));
  if (stale.length > 0) throw new Error(`${stale.join(', ')} no longer in AppConfig: remove from VARIABLE_DESCRIPTIONS in scripts/generate-api-reference.ts`);
  return table(
    ['variable', 'default', 'accepted', 'description'],
    variables.map((v) => [code(v.name), v.default === undefined ? '(unset)' : code(v.default), v.accepted.join('; '), VARIABLE_DESCRIPTIONS[v.name]]),
  );
}

/** docs/api.md for an OpenAPI 3.x document and the configuration variables. */
export function renderApiReference(document: Json, variables: ConfigurationVariable[], template = readFileSync(TEMPLATE_PATH, 'utf8')): string {
  const sections: Record<string, () => string> = {
    notice: () =>
      '<!-- Generated by scripts/generate-api-reference.ts (npm run docs:api) from /openapi.json and src/config/app-config.ts. Do not edit: change the sources and regenerate. -->',
    title: () => document.info?.title ?? 'API',
    version: () => code(document.info?.version ?? ''),
    description: () => document.info?.description ?? '',
    servers: () =>
      (document.servers ?? []).map((s: Json) => `${code(s.url)}${s.description ? ` (${s.description.toLowerCase()})` : ''}`).join(', ') || 'absent',
    endpoints: () => renderEndpoints(document),
    methods: renderMethods,
    headers: () => renderHeaders(document),
    schemas: () => renderSchemas(document),
    configuration: () => renderConfiguration(variables),
  };
  const rendered = template.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => {
    const section = sections[name];
    if (!section) throw new Error(`Unknown placeholder ${placeholder} in the template`);
    return section();
  });
  // Trailing spaces and runs of blank lines from empty parts would differ between editors: normalise them.
  return `${rendered
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

async function main(): Promise<void> {
  const target = path.resolve(process.cwd(), process.argv[2] ?? API_REFERENCE_PATH);
  const document = (await fetchOpenApiDocument({})) as Json;
  writeFileSync(target, renderApiReference(document, configurationVariables()));
  process.stdout.write(`API reference written to ${path.relative(process.cwd(), target) || target}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
