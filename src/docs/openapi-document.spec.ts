import { Controller, Get, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { OpenAPIObject } from '@nestjs/swagger';
import { buildOpenApiDocument, declareErrorExamples, declareMalformedRequests, declareSharedHeaders, toOpenApi31 } from './openapi-document';

const documentWith = (properties: Record<string, unknown>): OpenAPIObject =>
  ({
    openapi: '3.0.0',
    info: { title: 't', version: '1.0.0' },
    paths: {},
    components: { schemas: { Thing: { type: 'object', properties } } },
  }) as OpenAPIObject;

const propertiesOf = (document: OpenAPIObject) => (document.components?.schemas?.Thing as { properties: Record<string, unknown> }).properties;

describe('toOpenApi31', () => {
  it('declares OpenAPI 3.1.0', () => {
    expect(toOpenApi31(documentWith({})).openapi).toBe('3.1.0');
  });

  it.each([
    [
      { type: 'string', nullable: true, description: 'd' },
      { type: ['string', 'null'], description: 'd' },
    ],
    [{ type: 'number', nullable: true }, { type: ['number', 'null'] }],
    [
      { type: 'array', nullable: true, items: { type: 'string' } },
      { type: ['array', 'null'], items: { type: 'string' } },
    ],
    [
      { type: 'string', enum: ['a', 'b'], nullable: true },
      { type: ['string', 'null'], enum: ['a', 'b', null] },
    ],
    [
      { type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/X' }], description: 'd' },
      { description: 'd', anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }] },
    ],
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
    ({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/thing': { get: { responses }, post: { responses: { '201': { description: 'made' } } } } },
    }) as OpenAPIObject;
  const headersOf = (document: OpenAPIObject, method: 'get' | 'post', status: string) =>
    Object.keys((document.paths['/thing']![method]!.responses[status] as { headers: Record<string, unknown> }).headers);

  it('adds X-Request-Id to every response of every operation and Retry-After to a 429 and a 502', () => {
    const document = documentWithResponses({
      '200': { description: 'ok' },
      '429': { description: 'r' },
      '502': { description: 'u' },
    });
    declareSharedHeaders(document);
    expect({
      get200: headersOf(document, 'get', '200'),
      get429: headersOf(document, 'get', '429'),
      get502: headersOf(document, 'get', '502'),
      post201: headersOf(document, 'post', '201'),
    }).toEqual({
      get200: ['X-Request-Id'],
      get429: ['X-Request-Id', 'Retry-After'],
      get502: ['X-Request-Id', 'Retry-After'],
      post201: ['X-Request-Id'],
    });
    expect(document.paths['/thing']!.get!.responses['429']).toEqual({
      description: 'r',
      headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' }, 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
    });
    // No Allow: no operation of the document answers 405 (a method a path does not serve is no operation of it).
    expect(Object.keys(document.components?.headers ?? {}).sort()).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'X-Request-Id',
    ]);
  });

  it('adds the RateLimit-* headers to the answers of the rate-limited operations, but not to their 429', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/flood-zone': {
          get: {
            operationId: 'lookupFloodZone',
            responses: { '200': { description: 'ok' }, '400': { description: 'b' }, '429': { description: 'r' } },
          },
        },
        '/health': { get: { operationId: 'getServiceStatus', responses: { '200': { description: 'ok' } } } },
      },
    } as unknown as OpenAPIObject;
    declareSharedHeaders(document);
    const headersAt = (route: string, status: string) => Object.keys((document.paths[route]!.get!.responses[status] as { headers: object }).headers);
    const limits = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
    expect({
      ok: headersAt('/flood-zone', '200'),
      bad: headersAt('/flood-zone', '400'),
      limited: headersAt('/flood-zone', '429'),
      probe: headersAt('/health', '200'),
    }).toEqual({
      ok: ['X-Request-Id', ...limits],
      bad: ['X-Request-Id', ...limits],
      limited: ['X-Request-Id', 'Retry-After'],
      probe: ['X-Request-Id'],
    });
  });

  it('gives each answer headers of its own when a controller gave several answers one headers object', () => {
    const policy = { 'Content-Security-Policy': { description: 'the page policy', schema: { type: 'string' } } };
    const document = documentWithResponses({ '400': { description: 'b', headers: policy }, '429': { description: 'r', headers: policy } });
    declareSharedHeaders(document);
    expect({ bad: headersOf(document, 'get', '400'), limited: headersOf(document, 'get', '429'), shared: Object.keys(policy) }).toEqual({
      bad: ['Content-Security-Policy', 'X-Request-Id'],
      limited: ['Content-Security-Policy', 'X-Request-Id', 'Retry-After'],
      shared: ['Content-Security-Policy'],
    });
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
    // Only what the service serves: HEAD, the preflight and the 405 of any other method are its behaviour, not operations.
    expect(operations.map((o) => o.at).sort()).toEqual(['get /api-docs.html', 'get /openapi.json', 'get /thing']);
  });

  it('fills the contact, with the documentation page of a deployment that has a public address', () => {
    expect(buildOpenApiDocument(app).info.contact).toEqual({ name: 'The operators of this deployment' });
    expect(buildOpenApiDocument(app, 'https://floods.example.org/api/').info.contact).toEqual({
      name: 'The operators of this deployment',
      url: 'https://floods.example.org/api/api-docs.html',
    });
  });
});

describe('declareMalformedRequests', () => {
  const envelope = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeDto' } } };

  it("gives each operation that declares no 4xx of its own the edge's 400 BAD_REQUEST, and leaves the others as they are", () => {
    const lookup400 = { description: 'INVALID_PARAMETERS', content: envelope };
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/flood-zone': { get: { operationId: 'lookupFloodZone', responses: { '200': { description: 'ok' }, '400': lookup400 } } },
        '/health/ready': { get: { operationId: 'checkReadiness', responses: { '200': { description: 'ok' }, '503': { description: 'draining' } } } },
      },
    } as unknown as OpenAPIObject;
    declareMalformedRequests(document);
    const statuses = (route: string) => Object.keys(document.paths[route]!.get!.responses);
    expect({ lookup: statuses('/flood-zone'), ready: statuses('/health/ready') }).toEqual({ lookup: ['200', '400'], ready: ['200', '400', '503'] });
    expect(document.paths['/flood-zone']!.get!.responses['400']).toBe(lookup400);
    expect(document.paths['/health/ready']!.get!.responses['400']).toEqual({ description: expect.stringMatching(/^BAD_REQUEST: /), content: envelope });
  });
});

describe('declareErrorExamples', () => {
  const documentWithErrors = (responses: Record<string, unknown>) =>
    ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/flood-zone': { get: { responses } } } }) as unknown as OpenAPIObject;
  const media = (document: OpenAPIObject, status: string) =>
    (document.paths['/flood-zone']!.get!.responses[status] as unknown as { content: Record<string, Record<string, unknown>> }).content['application/json'];

  it('gives an error answer the example of the code its description names, with its status', () => {
    const document = documentWithErrors({
      '422': { description: 'COORDINATES_OUT_OF_RANGE: lat outside [-90, 90].', content: { 'application/json': { schema: {} } } },
    });
    declareErrorExamples(document);
    expect(media(document, '422')).toEqual({
      schema: {},
      example: { error: 'lat must be between -90 and 90', statusCode: 422, code: 'COORDINATES_OUT_OF_RANGE', requestId: expect.any(String) },
    });
  });

  it('names one example per code when the description names several, and leaves successes and bodiless answers alone', () => {
    const document = documentWithErrors({
      '200': { description: 'INVALID_PARAMETERS never', content: { 'application/json': { schema: {} } } },
      '304': { description: 'Not modified' },
      '404': { description: 'ADDRESS_NOT_FOUND, or AMBIGUOUS_ADDRESS with `candidates`.', content: { 'application/json': { schema: {} } } },
    });
    declareErrorExamples(document);
    const examples = media(document, '404')!.examples as Record<string, { value: { statusCode: number; code: string; candidates?: unknown[] } }>;
    expect(Object.keys(examples)).toEqual(['ADDRESS_NOT_FOUND', 'AMBIGUOUS_ADDRESS']);
    expect(examples.AMBIGUOUS_ADDRESS!.value.candidates).toHaveLength(2);
    expect(Object.values(examples).map((e) => e.value.statusCode)).toEqual([404, 404]);
    expect(media(document, '200')).toEqual({ schema: {} });
  });
});
