import type { ConfigService } from '@nestjs/config';
import { ApiError } from '../common/api-error';
import type { AppConfig } from '../config/app-config';
import { ServiceMetrics } from '../metrics/service-metrics';
import { PolygonWork } from '../parts/structure/polygon-work.client';
import { CsvRecord, readBatchRow, rowLookup } from './batch-row';

const options = { include: new Set<never>(), radiusM: 500 };

/** The polygon pool, whose threads a house's few vertices never reach: they are checked inline. */
const work = new PolygonWork({ get: () => 1000 } as unknown as ConfigService<AppConfig, true>, new ServiceMetrics());
afterAll(() => work.onModuleDestroy());

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

  describe('a footprint', () => {
    const ring = [
      [-87.5873, 45.09995],
      [-87.5873, 45.10005],
      [-87.5872, 45.10005],
      [-87.5872, 45.09995],
      [-87.5873, 45.09995],
    ];
    const polygon = { type: 'Polygon', coordinates: [ring] };

    it("reads a JSON row's footprint object as sent; its lookup is for that building, a Feature read as its geometry", async () => {
      const query = { kind: 'point', lat: 45.1, lon: -87.5873, ...options };
      const row = readBatchRow({ id: 'b1', lat: '45.1', lon: '-87.5873', footprint: polygon }, options);
      expect(row).toEqual({ id: 'b1', asked: { lat: '45.1', lon: '-87.5873' }, query, footprint: polygon });
      expect(await rowLookup(row, work)).toEqual({ ...query, footprint: polygon });
      const feature = { type: 'Feature', properties: { name: 'house' }, geometry: polygon };
      expect(await rowLookup(readBatchRow({ id: 'b1', lat: '45.1', lon: '-87.5873', footprint: feature }, options), work)).toEqual({
        ...query,
        footprint: polygon,
      });
      expect(await rowLookup(readBatchRow({ lat: '45.1', lon: '-87.5873', footprint: null }, options), work)).toEqual(query);
    });

    it("reads a CSV footprint cell's GeoJSON text as a JSON row's footprint", () => {
      const row = readBatchRow(new CsvRecord({ id: 'b2', address: '140 1st St, Menominee, MI', footprint: JSON.stringify(polygon) }, []), options);
      expect(row).toEqual({
        id: 'b2',
        asked: { address: '140 1st St, Menominee, MI' },
        query: { kind: 'address', address: '140 1st St, Menominee, MI', ...options },
        footprint: polygon,
      });
    });

    it("answers a CSV footprint cell that is not JSON with its row's 400 INVALID_FOOTPRINT", async () => {
      const row = readBatchRow(new CsvRecord({ id: 'b3', lat: '45.1', lon: '-87.5873', footprint: '{"type":"Polygon",' }, []), options);
      expect([row.id, row.asked, row.query, row.error?.getStatus(), row.error?.code, row.error?.message]).toEqual([
        'b3',
        { lat: '45.1', lon: '-87.5873' },
        undefined,
        400,
        'INVALID_FOOTPRINT',
        'footprint: the cell is not GeoJSON text (a Polygon, MultiPolygon, or a Feature of one, written as JSON)',
      ]);
      await expect(rowLookup(row, work)).rejects.toBe(row.error);
    });

    it.each([
      [
        new CsvRecord({ id: 'b3', lat: '45.1', lon: '-87.5873', footprint: '"POLYGON ((1 2, 3 4))"' }, []),
        'footprint: must be a GeoJSON Polygon, MultiPolygon, or a Feature of one; got text',
      ],
      [
        { id: 'b3', lat: '45.1', lon: '-87.5873', footprint: { type: 'Polygon', coordinates: [ring.slice(0, 4)] } },
        'footprint: ring 1 is not closed (its first and last positions differ)',
      ],
    ])("answers a footprint breaking a rule %# with its row's lookup refused 400 INVALID_FOOTPRINT, as POST /flood-zone words it", async (element, message) => {
      const refused = await rowLookup(readBatchRow(element, options), work).then(
        () => undefined,
        (error: unknown) => error as ApiError,
      );
      expect(refused).toBeInstanceOf(ApiError);
      expect([refused?.getStatus(), refused?.code, refused?.message]).toEqual([400, 'INVALID_FOOTPRINT', message]);
    });

    it('checks the location before the footprint', () => {
      expect(readBatchRow({ lat: '91', lon: '2', footprint: 'not GeoJSON' }, options).error?.code).toBe('COORDINATES_OUT_OF_RANGE');
    });
  });
});
