import type { OpenAPIObject } from '@nestjs/swagger';
import { toOpenApi31 } from './openapi-document';

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
