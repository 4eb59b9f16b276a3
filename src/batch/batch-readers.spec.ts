import { Readable } from 'node:stream';
import { ApiError } from '../common/api-error';
import { readCsvLocations } from './csv-locations';
import { readJsonLocations } from './json-locations';

const csv = (text: string, maxRows = 10) => readCsvLocations(Readable.from([Buffer.from(text)]), maxRows);

async function failure(run: () => unknown): Promise<ApiError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('readCsvLocations', () => {
  it('maps the usable columns in any case and order, ignores the others and leaves blank cells out', async () => {
    expect(await csv('\uFEFFLat, notes ,ID,address,LON\r\n1.5,x,a,,2\r\n,,b,"1 Main St, Town",\r\n  ,,,,\r\n')).toEqual([
      { lat: '1.5', id: 'a', lon: '2' },
      { id: 'b', address: '1 Main St, Town' },
      {},
    ]);
  });

  it.each([
    ['', /empty/],
    ['name,town\nx,y\n', /line 1.*none of the columns/],
    ['id,lat,lon\n', /no rows/],
    ['id,lat\na,1\nb,2,3\n', /line 3/],
    ['lat,LAT\n1,2\n', /lat twice/],
  ])('%p is a 400 INVALID_BATCH saying where', async (text, message) => {
    const error = await failure(() => csv(text));
    expect([error.getStatus(), error.code]).toEqual([400, 'INVALID_BATCH']);
    expect(error.message).toMatch(message);
  });

  it('is a 413 BATCH_TOO_LARGE past maxRows rows', async () => {
    expect((await csv('lat,lon\n1,2\n3,4\n', 2)).length).toBe(2);
    const error = await failure(() => csv('lat,lon\n1,2\n3,4\n5,6\n', 2));
    expect([error.getStatus(), error.code]).toEqual([413, 'BATCH_TOO_LARGE']);
  });
});

describe('readJsonLocations', () => {
  const json = (text: string, maxRows = 10) => readJsonLocations(Buffer.from(text), maxRows);

  it('gives the elements of "locations" as sent', () => {
    expect(json('{"locations": [{"id": 1, "lat": 2, "lon": 3}, 5], "other": true}')).toEqual([{ id: 1, lat: 2, lon: 3 }, 5]);
  });

  it.each([
    ['{"locations": [\n  {"lat": 1},\n  {"lat": }\n]}', /line 3, column 11/],
    ['{"locations": [1, 2,]}', /line 1, column 21/],
    ['', /line 1, column 1/],
    ['{"places": []}', /"locations" array/],
    ['[]', /"locations" array/],
    ['{"locations": []}', /empty/],
  ])('%p is a 400 INVALID_BATCH saying where or what', async (text, message) => {
    const error = await failure(() => json(text));
    expect([error.getStatus(), error.code]).toEqual([400, 'INVALID_BATCH']);
    expect(error.message).toMatch(message);
  });

  it('is a 413 BATCH_TOO_LARGE past maxRows elements', async () => {
    const error = await failure(() => json('{"locations": [1, 2, 3]}', 2));
    expect([error.getStatus(), error.code]).toEqual([413, 'BATCH_TOO_LARGE']);
  });
});
