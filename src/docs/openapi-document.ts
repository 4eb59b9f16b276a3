import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from '../common/api-error';
import { API_VERSION, DOCS_PATH, SERVICE_DESCRIPTION } from '../health/service-description';

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

/** The headers of the answers a client may be rate limited on (RATE_LIMIT_PER_MINUTE): every status but 429. */
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
/** Every operation but the probes and documents. */
const RATE_LIMITED_OPERATIONS = new Set([
  'lookupFloodZone',
  'lookupFloodZoneWithFootprint',
  'screenBatch',
  'getFloodZoneMap',
  'getFloodZoneReport',
  'submitJob',
  'getJob',
  'cancelJob',
  'getJobResults',
  'createWatch',
  'getWatch',
  'stopWatch',
  'addWatchLocations',
  'removeWatchLocation',
  'getWatchEvents',
]);

/**
 * A sample message for each error code, shown as the example of every error answer whose description names the code,
 * so that each error status of each operation has its own example.
 */
const ERROR_EXAMPLES: Record<ErrorCode, string> = {
  INVALID_PARAMETERS: 'lat must be a plain decimal number such as 38.8987, given once',
  INVALID_FOOTPRINT: 'footprint: ring 1 is not closed (its first and last positions differ)',
  BAD_REQUEST: 'An HTTP/1.1 request must carry a Host header.',
  REQUEST_TIMEOUT: 'The request was not received in time.',
  REQUEST_HEADER_TOO_LARGE: 'The request line or headers are too large (at most 16 KiB together).',
  REQUEST_BODY_TOO_LARGE: 'The body holds at most 262144 bytes (256 KiB); a footprint of 2,000 vertices needs far less.',
  EXPECTATION_FAILED: 'Expect: bogus cannot be met; only 100-continue is supported.',
  ADDRESS_NOT_FOUND: 'The address could not be found by the Census geocoder. Check it, or give lat and lon.',
  AMBIGUOUS_ADDRESS: 'The address matches several places; retry with the lat and lon of the one you mean.',
  NOT_FOUND: 'No such path: GET /flood-zones. See /health for the endpoint catalogue.',
  METHOD_NOT_ALLOWED: 'Method PUT is not allowed on /flood-zone; use GET.',
  COORDINATES_OUT_OF_RANGE: 'lat must be between -90 and 90',
  RADIUS_OUT_OF_RANGE: 'radius must be between 10 and 2000 metres',
  BUILDING_NOT_FOUND:
    'No building 13001234 of USA Structures lies within 40 m of the location; the buildings within reach are listed in result.structure.candidates of an answer without buildId.',
  IMAGE_SIZE_OUT_OF_RANGE: 'width must be a whole number of pixels from 200 to 1600',
  RATE_LIMITED: 'Too many requests: at most 60 per minute from one client. Retry after 42 seconds.',
  INVALID_BATCH: 'The JSON body is malformed at line 1, column 14.',
  BATCH_TOO_LARGE: 'A batch holds at most 10000 locations.',
  UNSUPPORTED_MEDIA_TYPE: 'A batch is sent as application/json ({"locations": [...]}) or text/csv (a header row naming id, address, lat, lon), not text/plain.',
  NOT_ACCEPTABLE: 'The results are answered as application/x-ndjson, text/csv or application/json (by Accept), not text/html.',
  BATCH_BUSY: 'Too many batches are running; retry after 5 seconds.',
  POLYGONS_BUSY: 'Too many large footprints are being checked at once; retry after 1 second.',
  JOB_NOT_FOUND: 'No job 3f2b9c1e-7a4d-4e8b-9c61-0d5e2a7b4f18: it never existed, was cancelled and deleted, or its results expired.',
  JOB_NOT_FINISHED: 'Job 3f2b9c1e-7a4d-4e8b-9c61-0d5e2a7b4f18 is running (4000 of 250000 rows done); ask for its results once its status is completed.',
  INVALID_WATCH: 'locations[3].id: every watched location needs an id (the events name it).',
  WEBHOOK_URL_REFUSED: 'webhook.url is refused: its host resolves to 10.0.0.7, a private address',
  WATCH_NOT_FOUND: 'No watch 7c9e6679-7425-40de-944b-e07fc1f90ae7: it never existed, or it was stopped and deleted.',
  LOCATION_NOT_FOUND: 'Watch 7c9e6679-7425-40de-944b-e07fc1f90ae7 has no location "loan-000123".',
  JOBS_UNAVAILABLE: 'Portfolio jobs need a Redis: set JOBS_REDIS_URL (or REDIS_URL) to a redis:// URL and restart the service.',
  UPSTREAM_UNAVAILABLE: 'FEMA National Flood Hazard Layer is unavailable or returned an error; no answer can be given. Retry shortly.',
  INTERNAL_ERROR: 'Internal error. The request id identifies it in the logs.',
};
const ERROR_CODE_PATTERN = new RegExp(`\\b(${ERROR_CODES.join('|')})\\b`, 'g');

/** Beyond `X-Request-Id`, which every answer carries: the headers a status always comes with. */
const HEADERS_BY_STATUS: Record<string, string[]> = { '429': ['Retry-After'], '502': ['Retry-After'] };

/** The keys of an OpenAPI path item that hold operations, in the order a reader expects them. */
export const HTTP_METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

/**
 * The OpenAPI 3.1.0 document of the whole interface. @nestjs/swagger writes 3.0 (`nullable: true`);
 * this rewrites nullability the 3.1 way (`type: [..., "null"]`), adds the two document routes, which
 * SwaggerModule serves itself, and the headers every answer carries.
 *
 * It declares only the operations the service serves, so that a generated client has a function for each and no
 * other. HEAD (GET without the body), the CORS preflight and the 405 with `Allow` of any other method are the
 * service's behaviour for every path alike, described once in docs/api.md rather than as an operation each.
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
        'saying the same. Every response carries `X-Request-Id`; CORS is open.\n\nAI agents get the same answers over the Model Context Protocol at ' +
        '`POST /mcp` (Streamable HTTP, stateless: tools `flood_zone`, `flood_determination`, `flood_map` and `flood_zone_batch`), which the ' +
        'protocol describes itself (`tools/list`, with each input schema and the output schema of each structured answer) rather than this document.',
    )
    .setVersion(API_VERSION)
    .addTag('flood zone', 'The lookup')
    .addTag('watches', 'Life of the loan: locations watched for changes of FEMA’s answer, with an event feed and a signed webhook')
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
  declareWatchWebhook(document);
  declareMalformedRequests(document);
  declareSharedHeaders(document);
  declareErrorExamples(document);
  return toOpenApi31(document);
}

type Operation = { operationId?: string; responses: Record<string, Json> };

/** The request the service sends a watch's webhook for each event (OpenAPI 3.1 `webhooks`): the event, signed by the Standard Webhooks scheme. */
export function declareWatchWebhook(document: OpenAPIObject): void {
  const header = (name: string, description: string, example: string) => ({
    name,
    in: 'header' as const,
    required: true,
    description,
    schema: { type: 'string' },
    example,
  });
  (document as OpenAPIObject & { webhooks?: Json }).webhooks = {
    watchEvent: {
      post: {
        tags: ['watches'],
        operationId: 'receiveWatchEvent',
        summary: "One event of a watch, POSTed to the watch's webhook URL",
        description:
          'Sent once per event, in order per watch, at least once (the same webhook-id when sent again), retried with exponential backoff (the first retry within a minute) ' +
          'for 3 days until the receiver answers 2xx. Verify the signature with a Standard Webhooks library and the secret shown when the watch was created (docs/webhooks.md).',
        parameters: [
          header('webhook-id', "The event's id (as its `id`): the same on every attempt.", '1764309600123-0'),
          header('webhook-timestamp', 'When this attempt was signed, in seconds since 1970.', '1764309603'),
          header(
            'webhook-signature',
            'v1, then the base64 HMAC-SHA256 of `id.timestamp.body` with the secret.',
            'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
          ),
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WatchEventDto' } } } },
        responses: { '200': { description: 'Any 2xx acknowledges the event; anything else (a redirect too) is a failure, retried.' } },
      },
    },
  };
}

/**
 * The edge answers a request that is not valid HTTP/1.1 (no Host header) before any route, so every operation can
 * answer it; declared where an operation has no 4xx of its own (the probes and documents), which a client would
 * otherwise take for an operation that never refuses a request.
 */
export function declareMalformedRequests(document: OpenAPIObject): void {
  for (const pathItem of Object.values(document.paths)) {
    for (const key of HTTP_METHODS) {
      const operation = (pathItem as Record<string, Operation | undefined>)[key];
      if (!operation || Object.keys(operation.responses).some((status) => status.startsWith('4'))) continue;
      operation.responses['400'] = {
        description: 'BAD_REQUEST: the request is not valid HTTP/1.1, such as one without a Host header; answered before any route.',
        // Content of its own: the examples are written into it afterwards, operation by operation.
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeDto' } } },
      };
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
      const operation = (pathItem as Record<string, Operation | undefined>)[key];
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
