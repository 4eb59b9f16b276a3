import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_VERSION, DOCS_PATH, SERVICE_DESCRIPTION } from '../health/service-description';

type Json = Record<string, unknown>;

/**
 * The OpenAPI 3.1.0 document of the whole interface. @nestjs/swagger writes 3.0 (`nullable: true`);
 * this rewrites nullability the 3.1 way (`type: [..., "null"]`) and adds the two document routes,
 * which SwaggerModule serves itself.
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
    .setLicense('MIT', 'https://opensource.org/licenses/MIT');
  if (publicBaseUrl) builder.addServer(publicBaseUrl.replace(/\/+$/, ''));
  const document = SwaggerModule.createDocument(app, builder.build());
  document.paths['/openapi.json'] = {
    get: {
      tags: ['operations'],
      summary: 'This OpenAPI 3.1 document',
      operationId: 'openApiDocument',
      responses: { '200': { description: 'OpenAPI 3.1.0 document', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  document.paths[DOCS_PATH] = {
    get: {
      tags: ['operations'],
      summary: 'Human-readable documentation (Swagger UI)',
      operationId: 'apiDocsPage',
      responses: { '200': { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
    },
  };
  return toOpenApi31(document);
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
