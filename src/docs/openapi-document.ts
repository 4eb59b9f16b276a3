import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from '../common/api-error';
import { API_VERSION, DOCS_PATH, ENDPOINT_CATALOGUE, SERVICE_DESCRIPTION, methodsAnswered } from '../health/service-description';

type Json = Record<string, unknown>;

/** Headers the HTTP layer sets on answers whatever the controller, so no controller decorator declares them. */
const SHARED_HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    required: true,
    description:
      "This request's id, also in its log line and in an error's `requestId`: the request's own `X-Request-Id` when it is 1 to 128 letters, digits or `._:@-`, generated otherwise.",
    schema: { type: 'string', minLength: 1, maxLength: 128 },
  },
  'Retry-After': { required: true, description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
  Allow: { required: true, description: 'The methods the path answers, e.g. `GET, HEAD, OPTIONS`.', schema: { type: 'string' } },
  'RateLimit-Limit': {
    description: 'Where rate limiting is configured: requests allowed per client per minute (RATE_LIMIT_PER_MINUTE).',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: "Where rate limiting is configured: requests left in this client's current minute.",
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': { description: "Where rate limiting is configured: seconds until this client's minute ends.", schema: { type: 'integer', minimum: 0 } },
};

/** The headers of the answers a client may be rate limited on (RATE_LIMIT_PER_MINUTE): every status but 405 and 429. */
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
/** Every operation the router answers but the probes and documents (the edge answers preflights and 405s before any limit). */
const RATE_LIMITED_OPERATIONS = new Set([
  'lookupFloodZone',
  'headLookupFloodZone',
  'screenBatch',
  'getFloodZoneMap',
  'headGetFloodZoneMap',
  'getFloodZoneReport',
  'headGetFloodZoneReport',
  'submitJob',
  'getJob',
  'headGetJob',
  'cancelJob',
  'getJobResults',
  'headGetJobResults',
]);

/**
 * A sample message for each error code, shown as the example of every error answer whose description names the code,
 * so that each error status of each operation has its own example.
 */
const ERROR_EXAMPLES: Record<ErrorCode, string> = {
  INVALID_PARAMETERS: 'lat must be a plain decimal number such as 38.8987, given once',
  BAD_REQUEST: 'An HTTP/1.1 request must carry a Host header.',
  REQUEST_TIMEOUT: 'The request was not received in time.',
  REQUEST_HEADER_TOO_LARGE: 'The request line or headers are too large (at most 16 KiB together).',
  EXPECTATION_FAILED: 'Expect: bogus cannot be met; only 100-continue is supported.',
  ADDRESS_NOT_FOUND: 'The address could not be found by the Census geocoder. Check it, or give lat and lon.',
  AMBIGUOUS_ADDRESS: 'The address matches several places; retry with the lat and lon of the one you mean.',
  NOT_FOUND: 'No such path: GET /flood-zones. See /health for the endpoint catalogue.',
  METHOD_NOT_ALLOWED: 'Method PUT is not allowed on /flood-zone; use GET.',
  COORDINATES_OUT_OF_RANGE: 'lat must be between -90 and 90',
  RADIUS_OUT_OF_RANGE: 'radius must be between 10 and 2000 metres',
  IMAGE_SIZE_OUT_OF_RANGE: 'width must be a whole number of pixels from 200 to 1600',
  RATE_LIMITED: 'Too many requests: at most 60 per minute from one client. Retry after 42 seconds.',
  INVALID_BATCH: 'The JSON body is malformed at line 1, column 14.',
  BATCH_TOO_LARGE: 'A batch holds at most 10000 locations.',
  UNSUPPORTED_MEDIA_TYPE: 'A batch is sent as application/json ({"locations": [...]}) or text/csv (a header row naming id, address, lat, lon), not text/plain.',
  BATCH_BUSY: 'Too many batches are running; retry after 5 seconds.',
  JOB_NOT_FOUND: 'No job 3f2b9c1e-7a4d-4e8b-9c61-0d5e2a7b4f18: it never existed, was cancelled and deleted, or its results expired.',
  JOB_NOT_FINISHED: 'Job 3f2b9c1e-7a4d-4e8b-9c61-0d5e2a7b4f18 is running (4000 of 250000 rows done); ask for its results once its status is completed.',
  JOBS_UNAVAILABLE: 'Portfolio jobs need a Redis: set JOBS_REDIS_URL (or REDIS_URL) to a redis:// URL and restart the service.',
  UPSTREAM_UNAVAILABLE: 'FEMA National Flood Hazard Layer is unavailable or returned an error; no answer can be given. Retry shortly.',
  INTERNAL_ERROR: 'Internal error. The request id identifies it in the logs.',
};
const ERROR_CODE_PATTERN = new RegExp(`\\b(${ERROR_CODES.join('|')})\\b`, 'g');

/** OpenAPI's name of each method a path item can hold, as HTTP spells it. */
const METHOD_NAMES: Record<string, string> = {
  get: 'GET',
  head: 'HEAD',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  options: 'OPTIONS',
  trace: 'TRACE',
};

/** Beyond `X-Request-Id`, which every answer carries: the headers a status always comes with. */
const HEADERS_BY_STATUS: Record<string, string[]> = { '405': ['Allow'], '429': ['Retry-After'], '502': ['Retry-After'] };

/** The keys of an OpenAPI path item that hold operations, in the order a reader expects them. */
export const HTTP_METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

/**
 * The OpenAPI 3.1.0 document of the whole interface. @nestjs/swagger writes 3.0 (`nullable: true`);
 * this rewrites nullability the 3.1 way (`type: [..., "null"]`), adds the two document routes, which
 * SwaggerModule serves itself, and the headers every answer carries.
 *
 * `security: []` says that no operation needs credentials, and without PUBLIC_BASE_URL the server is
 * `/`: relative to wherever the document is served from, which is where the API is.
 */
export function buildOpenApiDocument(app: INestApplication, publicBaseUrl?: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Flood Zone Lookup API')
    .setDescription(
      `${SERVICE_DESCRIPTION}\n\nKeyless and stateless: no API key, no sign-up. Results are informational, not an official flood determination. ` +
        'Every error uses one JSON envelope with `error`, `statusCode`, `code` and `requestId`, but for the report page, whose errors are HTML pages ' +
        'saying the same. Every response carries `X-Request-Id`; CORS is open.',
    )
    .setVersion(API_VERSION)
    .addTag('flood zone', 'The lookup')
    .addTag('operations', 'Probes, metrics and documents')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer(publicBaseUrl ? publicBaseUrl.replace(/\/+$/, '') : '/', publicBaseUrl ? 'This deployment' : 'The origin serving this document');
  const document = SwaggerModule.createDocument(app, builder.build());
  document.security = [];
  document.paths['/openapi.json'] = {
    get: {
      tags: ['operations'],
      summary: 'This OpenAPI 3.1 document',
      description: 'The machine-readable description of every endpoint, parameter, answer and header, for client generators and linters.',
      operationId: 'getOpenApiDocument',
      responses: { '200': { description: 'OpenAPI 3.1.0 document', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  document.paths[DOCS_PATH] = {
    get: {
      tags: ['operations'],
      summary: 'Human-readable documentation (Swagger UI)',
      description: 'Swagger UI over /openapi.json, served with its scripts and styles from this origin; "Try it out" calls this service.',
      operationId: 'showApiDocs',
      responses: { '200': { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
    },
  };
  // Filled, not the empty object DocumentBuilder leaves: whoever runs a deployment answers for it, through its documentation.
  const base = publicBaseUrl?.replace(/\/+$/, '');
  document.info.contact = { name: 'The operators of this deployment', ...(base ? { url: `${base}${DOCS_PATH}` } : {}) };
  declareEveryMethod(document);
  declareSharedHeaders(document);
  declareErrorExamples(document);
  return toOpenApi31(document);
}

type Operation = { operationId?: string; tags?: string[]; summary?: string; description?: string; parameters?: unknown[]; responses: Record<string, Json> };
type PathItem = Record<string, Operation | undefined>;

const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * Every method of every catalogued path, so that a spec-driven gateway forwards each request to the service rather
 * than answering it itself: HEAD beside GET (the same answers without a body), OPTIONS (the CORS preflight, 204),
 * and each other method as the 405 the service gives, with its Allow header. The operations a path adds are named
 * after the one it is mainly for (the first of its methods), and take its path parameters.
 */
export function declareEveryMethod(document: OpenAPIObject): void {
  for (const [path, { methods }] of Object.entries(ENDPOINT_CATALOGUE)) {
    const pathItem = document.paths[path] as PathItem | undefined;
    const main = pathItem?.[methods[0].toLowerCase()];
    if (!pathItem || !main?.operationId) continue;
    const allowed = methodsAnswered(methods);
    const pathParameters = (main.parameters ?? []).filter((parameter) => (parameter as { in?: string }).in === 'path');
    const added = (key: string, operation: Omit<Operation, 'tags' | 'parameters'>): Operation => ({
      tags: main.tags,
      ...(pathParameters.length > 0 ? { parameters: pathParameters } : {}),
      ...operation,
      operationId: `${key}${capitalized(main.operationId!)}`,
    });
    const get = methods.includes('GET') ? pathItem.get : undefined;
    if (get?.operationId) {
      pathItem.head = {
        ...get,
        operationId: `head${capitalized(get.operationId)}`,
        summary: `${get.summary ?? ''} (headers only)`.trim(),
        description: `As GET ${path}, without the body.`,
        responses: Object.fromEntries(Object.entries(get.responses).map(([status, { content: _content, ...response }]) => [status, response])),
      };
    }
    pathItem.options = added('preflight', {
      summary: 'CORS preflight',
      description: `Open to every origin, without credentials; cached by the browser for a day. The methods ${path} answers: ${allowed.join(', ')}.`,
      responses: {
        '204': {
          description: 'No content.',
          headers: {
            'Access-Control-Allow-Methods': { required: true, description: `\`${allowed.join(', ')}\``, schema: { type: 'string', const: allowed.join(', ') } },
            'Access-Control-Max-Age': { description: 'Seconds the browser may cache this answer.', schema: { type: 'integer' } },
          },
        },
      },
    });
    for (const [key, name] of Object.entries(METHOD_NAMES)) {
      if (allowed.includes(name)) continue;
      pathItem[key] = added(`refuse${capitalized(key)}`, {
        summary: `${name} is not allowed`,
        description: `${path} answers ${allowed.join(', ')}; ${name} is a 405 with \`Allow: ${allowed.join(', ')}\`.`,
        responses: {
          '405': {
            description: 'METHOD_NOT_ALLOWED (with an Allow header).',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeDto' } } },
          },
        },
      });
    }
  }
}

/**
 * An example for each error answer, from the codes its description names (one as `example`, several as named
 * `examples`), so that a reader, a mock server and a generated client's tests each see what the service sends.
 */
export function declareErrorExamples(document: OpenAPIObject): void {
  for (const pathItem of Object.values(document.paths)) {
    for (const key of HTTP_METHODS) {
      const operation = (pathItem as PathItem)[key];
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
        if (Number(status) < 400 || !media || typeof response.description !== 'string') continue;
        const codes = [...new Set([...response.description.matchAll(ERROR_CODE_PATTERN)].map((match) => match[1] as ErrorCode))];
        const example = (code: ErrorCode) => ({
          error: ERROR_EXAMPLES[code],
          statusCode: Number(status),
          code,
          requestId: '6f1c2a9e-2b4d-4c1e-9a57-3f8e0d1b7c42',
          ...(code === 'UPSTREAM_UNAVAILABLE' ? { upstream: 'flood_data' } : {}),
          ...(code === 'AMBIGUOUS_ADDRESS'
            ? {
                candidates: [
                  { matchedAddress: '200 MAIN ST, HOUSTON, TX, 77002', lat: 29.7589, lon: -95.3632 },
                  { matchedAddress: '200 MAIN AVE S, RENTON, WA, 98057', lat: 47.4797, lon: -122.2079 },
                ],
              }
            : {}),
        });
        if (codes.length === 1) media.example = example(codes[0]);
        if (codes.length > 1) media.examples = Object.fromEntries(codes.map((code) => [code, { summary: code, value: example(code) }]));
      }
    }
  }
}

/** Adds the shared headers to every response that lacks them, as references to `components.headers`. */
export function declareSharedHeaders(document: OpenAPIObject): void {
  document.components = { ...document.components, headers: { ...document.components?.headers, ...SHARED_HEADERS } };
  for (const pathItem of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = (pathItem as Record<string, { operationId?: string; responses?: Record<string, Json> } | undefined>)[method];
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        if (response.$ref !== undefined) continue;
        // A copy: a controller may give several answers one headers object, and each status gets headers of its own.
        const headers = { ...(response.headers as Json | undefined) };
        const declared = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
        const rateLimited = RATE_LIMITED_OPERATIONS.has(operation?.operationId ?? '') && status !== '405' && status !== '429';
        for (const name of ['X-Request-Id', ...(HEADERS_BY_STATUS[status] ?? []), ...(rateLimited ? RATE_LIMIT_HEADERS : [])]) {
          if (!declared.has(name.toLowerCase())) headers[name] = { $ref: `#/components/headers/${name}` };
        }
        response.headers = headers;
      }
    }
  }
}

export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  const converted = rewriteNullable(document) as OpenAPIObject;
  converted.openapi = '3.1.0';
  return converted;
}

function rewriteNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteNullable);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node as Json).map(([key, value]) => [key, rewriteNullable(value)] as const);
  const schema: Json = Object.fromEntries(entries);
  if (schema.nullable !== true) {
    if (schema.nullable === false) delete schema.nullable;
    return schema;
  }
  delete schema.nullable;
  // A nullable reference: `$ref` or `allOf: [{$ref}]` becomes "that schema, or null".
  if (schema.$ref !== undefined || Array.isArray(schema.allOf)) {
    const { description, example, $ref, allOf } = schema;
    const referenced = $ref !== undefined ? { $ref } : (allOf as unknown[]).length === 1 ? (allOf as unknown[])[0] : { allOf };
    return { ...(description ? { description } : {}), ...(example !== undefined ? { example } : {}), anyOf: [referenced, { type: 'null' }] };
  }
  if (typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
  }
  return schema;
}
