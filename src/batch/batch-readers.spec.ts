import { Readable } from 'node:stream';
import { ApiError } from '../common/api-error';
import { CsvRecord } from './batch-row';
import { BodyNotes, csvLocationRows, noNotes, readCsvLocations } from './csv-locations';
import { jsonLocationRows, readJsonLocations } from './json-locations';

const csv = (text: string, maxRows = 10, notes = noNotes()) => readCsvLocations(Readable.from([Buffer.from(text)]), maxRows, notes);

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
  it('maps the usable columns in any case and order, keeps the others aside and leaves blank cells out', async () => {
    const notes = noNotes();
    expect(await csv('\uFEFFLat, notes ,ID,address,LON\r\n1.5,x,a,,2\r\n,,b,"1 Main St, Town",\r\n  ,,,,\r\n', 10, notes)).toEqual([
      new CsvRecord({ lat: '1.5', id: 'a', lon: '2' }, ['x']),
      new CsvRecord({ id: 'b', address: '1 Main St, Town' }, ['']),
      new CsvRecord({}, ['']),
    ]);
    expect(notes).toEqual<BodyNotes>({
      otherColumns: [' notes '],
      warnings: ['" notes " is not read as a location (id, address, lat or latitude, lon or longitude, lng, long).'],
    });
  });

  it.each([
    ['Loan ID,Address,Latitude,Longitude,Balance\nL1,,29.7,-95.3,"250,000"\n', { lat: '29.7', lon: '-95.3' }, ['L1', '250,000']],
    ['LATITUDE,lng\n29.7,-95.3\n', { lat: '29.7', lon: '-95.3' }, []],
    [' latitude , Long ,id\n29.7,-95.3,r1\n', { lat: '29.7', lon: '-95.3', id: 'r1' }, []],
  ])('reads the aliases of lat and lon (latitude; longitude, lng, long) in any case: %p', async (text, fields, otherCells) => {
    expect(await csv(text)).toEqual([new CsvRecord(fields, otherCells)]);
  });

  it("reads a footprint column's GeoJSON text as the row's footprint, a blank cell as none, and warns of no such column", async () => {
    const notes = noNotes();
    const geoJson = '{"type":"Polygon","coordinates":[[[-87.5873,45.09995],[-87.5873,45.10005],[-87.5872,45.10005],[-87.5872,45.09995],[-87.5873,45.09995]]]}';
    const text = `id,lat,lon,Footprint\nb1,45.1,-87.5873,"${geoJson.replace(/"/g, '""')}"\nb2,45.1,-87.5873,\n`;
    expect(await csv(text, 10, notes)).toEqual([
      new CsvRecord({ id: 'b1', lat: '45.1', lon: '-87.5873', footprint: geoJson }, []),
      new CsvRecord({ id: 'b2', lat: '45.1', lon: '-87.5873' }, []),
    ]);
    expect(notes).toEqual<BodyNotes>({ otherColumns: [], warnings: [] });
  });

  it('warns of every column it does not read, an unnamed one by its place', async () => {
    const notes = noNotes();
    await csv('Loan ID,Lattitude,lon,,address\n1,2,3,4,5\n', 10, notes);
    expect(notes).toEqual<BodyNotes>({
      otherColumns: ['Loan ID', 'Lattitude', ''],
      warnings: ['"Loan ID", "Lattitude", (unnamed column 4) are not read as a location (id, address, lat or latitude, lon or longitude, lng, long).'],
    });
  });

  it.each([
    ['', /empty/],
    ['name,town\nx,y\n', /line 1.*none of the columns/],
    ['name,footprint\nx,y\n', /line 1.*none of the columns/],
    ['id,lat,lon\n', /no rows/],
    ['id,lat\na,1\nb,"2\n\nc,3\n', /^The CSV body is malformed at line 3: a quoted field is never closed\.$/],
    ['id,lat\na,1\n\nb,"2"x\n', /^The CSV body is malformed at line 4: the quoted cell 2 goes on after its closing quote\.$/],
    [
      `id,lat\na,1\nb,x${'y'.repeat(5000)}"z\n`,
      /^The CSV body is malformed at line 3: a quote inside the unquoted cell 2, which starts "xyyyyyyyyyyyyyyyyyyy…"\.$/,
    ],
    ['lat,LAT\n1,2\n', /^The CSV header row \(line 1\) names lat twice \("lat" and "LAT"\); keep one\.$/],
    ['Latitude,lat,lon\n1,2,3\n', /^The CSV header row \(line 1\) names lat twice \("Latitude" and "lat"\); keep one\.$/],
    ['name,town\nx,y\n', /^The CSV header row \(line 1\) names none of the columns id, address, lat \(or latitude\), lon \(or longitude, lng, long\)\.$/],
  ])('%p is a 400 INVALID_BATCH saying where', async (text, message) => {
    const error = await failure(() => csv(text));
    expect([error.getStatus(), error.code]).toEqual([400, 'INVALID_BATCH']);
    expect(error.message).toMatch(message);
  });

  it('gives a record with more or fewer cells than the header a problem naming its line', async () => {
    const rows = await csv('id,lat,lon,note\na,1,2,x\n\n\nb,3,4,y,5\nc,"5\n6"\nd,7,8,z\n');
    expect(rows).toStrictEqual([
      new CsvRecord({ id: 'a', lat: '1', lon: '2' }, ['x']),
      new CsvRecord({ id: 'b', lat: '3', lon: '4' }, ['y'], 'Line 5 has 5 cells; the header row has 4.'),
      new CsvRecord({ id: 'c', lat: '5\n6' }, [''], 'Line 6 has 2 cells; the header row has 4.'),
      new CsvRecord({ id: 'd', lat: '7', lon: '8' }, ['z']),
    ]);
  });

  it('is a 413 BATCH_TOO_LARGE past maxRows rows', async () => {
    expect((await csv('lat,lon\n1,2\n3,4\n', 2)).length).toBe(2);
    const error = await failure(() => csv('lat,lon\n1,2\n3,4\n5,6\n', 2));
    expect([error.getStatus(), error.code]).toEqual([413, 'BATCH_TOO_LARGE']);
  });
});

describe('readJsonLocations', () => {
  const json = (text: string, maxRows = 10) => readJsonLocations(Buffer.from(text), maxRows);

  it('gives the elements of "locations" as sent, numeric coordinates as plain decimal text', () => {
    expect(json('{"locations": [{"id": 1, "lat": 2, "lon": 3}, 5], "other": true}')).toEqual([{ id: 1, lat: '2', lon: '3' }, 5]);
    expect(json('{"locations": [{"lat": 29.90, "lon": -1.5e-7, "address": 12}, {"lat": [1.0], "lon": null}]}')).toEqual([
      { lat: '29.9', lon: '-0.00000015', address: 12 },
      { lat: [1], lon: null },
    ]);
  });

  it("keeps a row's footprint as sent: its positions stay numbers, only the row's own lat and lon become text", () => {
    const footprint = {
      type: 'Polygon',
      coordinates: [
        [
          [-87.5873, 45.1],
          [-87.5872, 45.1],
          [-87.5872, 45.10005],
          [-87.5873, 45.1],
        ],
      ],
    };
    expect(json(JSON.stringify({ locations: [{ lat: 45.1, lon: -87.5873, footprint }] }))).toEqual([{ lat: '45.1', lon: '-87.5873', footprint }]);
  });

  it("reads a coordinate that parses to the limit (±90, ±180) from the text it was written as, so GET's range check applies", () => {
    expect(json('{"locations": [{"lat": 90.00000000000000001, "lon": -180.0}, {"lat": -90, "lon": 1.8e2}, {"lat": 89.99999999999999999}]}')).toEqual([
      { lat: '90.00000000000000001', lon: '-180.0' },
      { lat: '-90', lon: '180' },
      { lat: '89.99999999999999999' },
    ]);
  });

  it('reads repeated keys as JSON.parse does: the last one wins', () => {
    expect(
      json('{"locations": [{"lat": 90.0, "lat": 2.50}], "locations": [{"lat": "x", "lon": 180.0000000000000001}, {"lat": 90.0, "lat": -90.000}]}'),
    ).toEqual([{ lat: 'x', lon: '180.0000000000000001' }, { lat: '-90.000' }]);
    expect(json('{"locations": [{"lat": 90.00000000000000001, "lat": 90.0}]}')).toEqual([{ lat: '90.0' }]);
  });

  it('leaves a coordinate beyond any number a number (which its row refuses)', () => {
    expect(json('{"locations": [{"lat": 1e999, "lon": 1e-401}]}')).toEqual([{ lat: Infinity, lon: '0' }]);
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

/** `text` cut into pieces of `size` bytes, as a body may arrive (a character may be cut in two). */
const pieces = (text: string, size: number) => {
  const bytes = Buffer.from(text);
  return Readable.from(Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size)));
};

describe('csvLocationRows: the rows one by one, as readCsvLocations gives them all', () => {
  it('gives the same rows, whatever pieces the body arrives in', async () => {
    const text = 'id,lat,lon,address\na,1,2,\n\nb,3,4,5,6\nc,"5\n6",,"Élysée, Paris"\n';
    const whole = await csv(text);
    const rows: unknown[] = [];
    for await (const row of csvLocationRows(pieces(text, 3), 10)) rows.push(row);
    expect(rows).toStrictEqual(whole);
    expect((rows[1] as CsvRecord).problem).toBe('Line 4 has 5 cells; the header row has 4.');
  });

  it('gives each row before the body has ended, and fails once it is past maxRows', async () => {
    const body = new Readable({ read: () => undefined });
    const rows = csvLocationRows(body, 2);
    // The parser holds back the last few bytes it has (a delimiter may go on in the next piece).
    body.push('lat,lon\n1,2\n3,4\n5,6\n7,8\n9,10\n11');
    expect((await rows.next()).value).toEqual(new CsvRecord({ lat: '1', lon: '2' }, []));
    expect((await rows.next()).value).toEqual(new CsvRecord({ lat: '3', lon: '4' }, []));
    const error = await failure(() => rows.next());
    expect([error.getStatus(), error.code]).toEqual([413, 'BATCH_TOO_LARGE']);
  });
});

describe('jsonLocationRows: the rows of a JSON body one by one, as readJsonLocations gives them all', () => {
  const rowsOf = async (text: string, size = 7) => {
    const rows: unknown[] = [];
    for await (const row of jsonLocationRows(pieces(text, size), 10)) rows.push(row);
    return rows;
  };

  it.each([
    '{"locations": [{"id": 1, "lat": 2, "lon": 3}, 5], "other": true}',
    '{"locations": [{"lat": 29.90, "lon": -1.5e-7, "address": 12}, {"lat": [1.0], "lon": null}]}',
    '{"locations": [{"lat": 90.00000000000000001, "lon": -180.0}, {"lat": -90, "lon": 1.8e2}, {"lat": 89.99999999999999999}]}',
    '{"locations": [{"lat": 90.0, "lat": -90.000, "lon": "x"}, {"lat": 90.00000000000000001, "lat": 90.0}]}',
    '{"locations": [{"lat": 1e999, "lon": 1e-401}]}',
    '\uFEFF{"before": {"locations": [1]}, "locations": [{"id": "é", "address": "1 Rue de l\'Église", "x": {"lat": 90.0}}, [{"lat": 1}], null, "s", true]}',
    `{"locations": [${'['.repeat(30)}${']'.repeat(30)}]}`,
    '{"locations": [{"lat": 45.1, "lon": -87.5873, "footprint": {"type": "Polygon", "coordinates": [[[-87.5873, 45.1], [-87.5872, 45.1], [-87.5872, 45.10005], [-87.5873, 45.1]]]}}]}',
  ])('%s', async (text) => {
    expect(await rowsOf(text)).toEqual(readJsonLocations(Buffer.from(text), 10));
  });

  it.each([
    ['{"locations": [\n  {"lat": 1},\n  {"lat": }\n]}', /^The JSON body is malformed at element 1 of "locations": expected a value\.$/],
    ['{"locations": [1, 2,]}', /at element 2 of "locations": unexpected token/],
    ['{"locations": [1] x', /after its "locations" array/],
    ['', /^The JSON body is malformed before its "locations" array: expected a value\.$/],
    ['{"places": []}', /^The JSON body must be an object with a "locations" array\.$/],
    ['[]', /"locations" array/],
    ['{"locations": {"0": {}}}', /"locations" array/],
    ['{"locations": []}', /empty/],
    ['{"locations": [1], "locations": [2]}', /"locations" twice/],
    [`{"locations": [${'['.repeat(31)}${']'.repeat(31)}]}`, /more than 32 levels deep \(at element 0 of "locations"\)/],
    [`{"other": ${'{"a": '.repeat(40)}1${'}'.repeat(40)}, "locations": [1]}`, /more than 32 levels deep \(before its "locations" array\)/],
  ])('%p is a 400 INVALID_BATCH saying where or what, in small pieces or whole', async (text, message) => {
    for (const size of [7, 1 << 20]) {
      const error = await failure(() => rowsOf(text, size));
      expect([error.getStatus(), error.code]).toEqual([400, 'INVALID_BATCH']);
      expect(error.message).toMatch(message);
    }
  });

  it('is a 413 BATCH_TOO_LARGE past maxRows elements, having given maxRows', async () => {
    const rows = jsonLocationRows(Readable.from([Buffer.from('{"locations": [1, 2, 3]}')]), 2);
    expect([(await rows.next()).value, (await rows.next()).value]).toEqual([1, 2]);
    const error = await failure(() => rows.next());
    expect([error.getStatus(), error.code]).toEqual([413, 'BATCH_TOO_LARGE']);
  });

  it("passes on the body's own failure (a 413 past the byte limit)", async () => {
    const body = new Readable({ read: () => undefined });
    const rows = jsonLocationRows(body, 10);
    body.push('{"locations": [1, ');
    body.destroy(new ApiError(413, 'BATCH_TOO_LARGE', 'too many bytes'));
    const error = await failure(async () => {
      for await (const _row of rows);
    });
    expect([error.getStatus(), error.code, error.message]).toEqual([413, 'BATCH_TOO_LARGE', 'too many bytes']);
  });
});
