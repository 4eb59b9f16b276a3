import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_VERSION, DOCS_PATH, SERVICE_DESCRIPTION } from '../health/service-description';

type Json = Record<string, unknown>;

/** Headers the HTTP layer sets on answers whatever the controller, so no controller decorator declares them. */
const SHARED_HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description:
      "This request's id, also in its log line and in an error's `requestId`: the request's own `X-Request-Id` when it is 1 to 128 letters, digits or `._:@-`, generated otherwise.",
    schema: { type: 'string', minLength: 1, maxLength: 128 },
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
  Allow: { description: 'The methods the path answers, e.g. `GET, HEAD, OPTIONS`.', schema: { type: 'string' } },
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
        'Every error uses one JSON envelope with `error`, `statusCode`, `code` and `requestId`. Every response carries `X-Request-Id`; CORS is open.',
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
      operationId: 'openApiDocument',
      responses: { '200': { description: 'OpenAPI 3.1.0 document', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  document.paths[DOCS_PATH] = {
    get: {
      tags: ['operations'],
      summary: 'Human-readable documentation (Swagger UI)',
      description: 'Swagger UI over /openapi.json, served with its scripts and styles from this origin; "Try it out" calls this service.',
      operationId: 'apiDocsPage',
      responses: { '200': { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
    },
  };
  declareSharedHeaders(document);
  return toOpenApi31(document);
}

/** Adds the shared headers to every response that lacks them, as references to `components.headers`. */
export function declareSharedHeaders(document: OpenAPIObject): void {
  document.components = { ...document.components, headers: { ...document.components?.headers, ...SHARED_HEADERS } };
  for (const pathItem of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = (pathItem as Record<string, { responses?: Record<string, Json> } | undefined>)[method];
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        if (response.$ref !== undefined) continue;
        const headers = (response.headers ?? {}) as Json;
        const declared = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
        for (const name of ['X-Request-Id', ...(HEADERS_BY_STATUS[status] ?? [])]) {
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
