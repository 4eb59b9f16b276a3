import { CsvRecord, readBatchRow } from './batch-row';

const options = { include: new Set<never>(), radiusM: 500 };

describe('readBatchRow', () => {
  it('reads coordinates as GET parameters', () => {
    expect(readBatchRow({ id: 'r1', lat: '29.9', lon: '-90.1' }, options)).toEqual({
      id: 'r1',
      asked: { lat: '29.9', lon: '-90.1' },
      query: { kind: 'point', lat: 29.9, lon: -90.1, ...options },
    });
  });

  it('echoes a numeric id as its text and treats null as not given', () => {
    const row = readBatchRow({ id: 7, address: '1 Main St', lat: null, lon: null }, options);
    expect([row.id, row.query?.kind, row.error]).toEqual(['7', 'address', undefined]);
    expect(readBatchRow({ id: null, address: '1 Main St' }, options).id).toBeNull();
  });

  it.each([[5], ['text'], [null], [[1, 2]]])('answers an element %p that is not an object with a 400', (element) => {
    const row = readBatchRow(element, options);
    expect([row.id, row.error?.getStatus(), row.error?.code]).toEqual([null, 400, 'INVALID_PARAMETERS']);
  });

  it.each([[true], [{}], ['x'.repeat(129)]])('answers an id %p that is neither a short string nor a number with a 400', (id) => {
    const row = readBatchRow({ id, lat: '1', lon: '2' }, options);
    expect([row.id, row.error?.getStatus(), row.asked]).toEqual([null, 400, { lat: '1', lon: '2' }]);
  });

  it('applies the GET rules in their order: a row is its own 400 or 422', () => {
    expect(readBatchRow({ id: 'a' }, options).error?.getStatus()).toBe(400);
    expect(readBatchRow({ address: 'x', lat: '1' }, options).error?.getStatus()).toBe(400);
    expect(readBatchRow({ lat: '1e5', lon: '2' }, options).error?.getStatus()).toBe(400);
    expect(readBatchRow({ lat: true, lon: '2' }, options).error?.getStatus()).toBe(400);
    expect(readBatchRow({ lat: '90.5', lon: '2' }, options).error?.code).toBe('COORDINATES_OUT_OF_RANGE');
    expect(readBatchRow({ lat: '90.00000000000000001', lon: '2' }, options).error?.code).toBe('COORDINATES_OUT_OF_RANGE');
    expect(readBatchRow({ lat: Infinity, lon: '2' }, options).error?.getStatus()).toBe(400);
    expect(readBatchRow({ address: 12345 }, options).error?.getStatus()).toBe(400);
  });

  it('counts an address in characters: 200 emoji are an address, 201 are a 400 saying the limit', () => {
    expect(readBatchRow({ address: '\u{1F30A}'.repeat(200) }, options).query?.kind).toBe('address');
    const row = readBatchRow({ address: '\u{1F30A}'.repeat(201) }, options);
    expect([row.error?.getStatus(), row.error?.message]).toEqual([400, 'address must be at most 200 characters']);
  });

  it('reads a CSV record by its fields, its other cells left aside', () => {
    expect(readBatchRow(new CsvRecord({ id: 'r2', lat: '29.9', lon: '-90.1' }, ['L2', '1000']), options)).toEqual(
      readBatchRow({ id: 'r2', lat: '29.9', lon: '-90.1' }, options),
    );
  });

  it('answers a CSV record with a problem with its own 400, keeping the id and location it could read', () => {
    const row = readBatchRow(new CsvRecord({ id: 'r3', lat: '1', lon: '2' }, [], 'Line 4 has 4 cells; the header row has 3.'), options);
    expect(row).toEqual({ id: 'r3', asked: { lat: '1', lon: '2' }, error: expect.objectContaining({ code: 'INVALID_PARAMETERS' }) });
    expect([row.error?.getStatus(), row.error?.message]).toEqual([400, 'Line 4 has 4 cells; the header row has 3.']);
  });
});
