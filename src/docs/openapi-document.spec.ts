import { Controller, Get, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { OpenAPIObject } from '@nestjs/swagger';
import { buildOpenApiDocument, declareSharedHeaders, toOpenApi31 } from './openapi-document';

const documentWith = (properties: Record<string, unknown>): OpenAPIObject =>
  ({ openapi: '3.0.0', info: { title: 't', version: '1.0.0' }, paths: {}, components: { schemas: { Thing: { type: 'object', properties } } } }) as OpenAPIObject;

const propertiesOf = (document: OpenAPIObject) =>
  (document.components?.schemas?.Thing as { properties: Record<string, unknown> }).properties;

describe('toOpenApi31', () => {
  it('declares OpenAPI 3.1.0', () => {
    expect(toOpenApi31(documentWith({})).openapi).toBe('3.1.0');
  });

  it.each([
    [{ type: 'string', nullable: true, description: 'd' }, { type: ['string', 'null'], description: 'd' }],
    [{ type: 'number', nullable: true }, { type: ['number', 'null'] }],
    [{ type: 'array', nullable: true, items: { type: 'string' } }, { type: ['array', 'null'], items: { type: 'string' } }],
    [{ type: 'string', enum: ['a', 'b'], nullable: true }, { type: ['string', 'null'], enum: ['a', 'b', null] }],
    [{ type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/X' }], description: 'd' }, { description: 'd', anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }] }],
    [{ $ref: '#/components/schemas/X', nullable: true }, { anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }] }],
    [{ type: 'string', nullable: false }, { type: 'string' }],
    [{ type: 'string' }, { type: 'string' }],
  ])('rewrites %j as %j', (input, expected) => {
    expect(propertiesOf(toOpenApi31(documentWith({ field: input }))).field).toEqual(expected);
  });

  it('leaves no nullable keyword anywhere, however deep', () => {
    const converted = toOpenApi31(documentWith({ outer: { type: 'object', properties: { inner: { type: 'string', nullable: true } } } }));
    expect(JSON.stringify(converted)).not.toContain('nullable');
  });
});

describe('declareSharedHeaders', () => {
  const documentWithResponses = (responses: Record<string, unknown>): OpenAPIObject =>
    ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/thing': { get: { responses }, post: { responses: { '201': { description: 'made' } } } } } }) as OpenAPIObject;
  const headersOf = (document: OpenAPIObject, method: 'get' | 'post', status: string) =>
    Object.keys((document.paths['/thing']![method]!.responses[status] as { headers: Record<string, unknown> }).headers);

  it('adds X-Request-Id to every response of every operation, Allow to a 405 and Retry-After to a 429 and a 502', () => {
    const document = documentWithResponses({ '200': { description: 'ok' }, '405': { description: 'm' }, '429': { description: 'r' }, '502': { description: 'u' } });
    declareSharedHeaders(document);
    expect({
      get200: headersOf(document, 'get', '200'),
      get405: headersOf(document, 'get', '405'),
      get429: headersOf(document, 'get', '429'),
      get502: headersOf(document, 'get', '502'),
      post201: headersOf(document, 'post', '201'),
    }).toEqual({
      get200: ['X-Request-Id'],
      get405: ['X-Request-Id', 'Allow'],
      get429: ['X-Request-Id', 'Retry-After'],
      get502: ['X-Request-Id', 'Retry-After'],
      post201: ['X-Request-Id'],
    });
    expect(document.paths['/thing']!.get!.responses['429']).toEqual({
      description: 'r',
      headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' }, 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
    });
    expect(Object.keys(document.components?.headers ?? {}).sort()).toEqual(['Allow', 'Retry-After', 'X-Request-Id']);
  });

  it('keeps a header a controller already declared, whatever its case', () => {
    const own = { description: 'seconds, from the limiter', schema: { type: 'integer' } };
    const document = documentWithResponses({ '429': { description: 'r', headers: { 'retry-after': own } } });
    declareSharedHeaders(document);
    expect((document.paths['/thing']!.get!.responses['429'] as { headers: unknown }).headers).toEqual({
      'retry-after': own,
      'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    });
  });
});

describe('buildOpenApiDocument', () => {
  @Controller('thing')
  class ThingController {
    @Get()
    read(): string {
      return 'thing';
    }
  }

  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [ThingController] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(async () => {
    await app.close();
  });

  it('says that no operation needs credentials, and serves relative to its own origin by default', () => {
    const document = buildOpenApiDocument(app);
    expect({ security: document.security, servers: document.servers }).toEqual({
      security: [],
      servers: [{ url: '/', description: 'The origin serving this document' }],
    });
  });

  it('names PUBLIC_BASE_URL as the server when it is set, without a trailing slash', () => {
    expect(buildOpenApiDocument(app, 'https://floods.example.org/api/').servers).toEqual([
      { url: 'https://floods.example.org/api', description: 'This deployment' },
    ]);
  });

  it('gives every operation, the document routes included, a description', () => {
    const operations = Object.entries(buildOpenApiDocument(app).paths).flatMap(([route, item]) =>
      Object.entries(item).map(([method, operation]) => ({ at: `${method} ${route}`, description: (operation as { description?: string }).description ?? '' })),
    );
    expect(operations.filter((o) => o.at !== 'get /thing' && o.description.trim() === '')).toEqual([]);
    expect(operations.map((o) => o.at).sort()).toEqual(['get /api-docs.html', 'get /openapi.json', 'get /thing']);
  });
});
