/**
 * POST /flood-zone/batch against the emulators. Every format in and out, each row equal
 * to GET /flood-zone for the same input (status and body), input order kept when later rows finish first,
 * every whole-request error, and a 10,000-row body.
 */
import { parse } from 'csv-parse/sync';
import { DEMO_ADDRESSES, DEMO_AREA_RECORDS, DEMO_PLACES, demoPlace, type DemoPlace } from '../../emulators';
import { Stack, expectErrorEnvelope, startStack } from '../../support/stack';
import type { ApiResponse } from '../../support/api-client';

const BATCH = '/flood-zone/batch';
const CSV_COLUMNS =
  'index,id,status,error_code,query_address,query_lat,query_lon,matched_address,lat,lon,county,county_fips,zip,coverage,flood_zone,' +
  'zone_subtype,in_sfha,risk_level,is_floodway,static_bfe_ft,estimated_bfe_ft,vertical_datum,depth_ft,firm_panel,firm_effective_date,' +
  'community_id,loma_count,nearest_sfha_m,map_change_status,map_change_zone,cbrs_status,building_match,building_in_sfha,building_sfha_share_percent,' +
  'building_zones,building_unmapped_share_percent,determination_basis,flood_insurance_available,nfip_program,flood_insurance_required,' +
  'flood_insurance_reason,nearby_letters,nfip_participating,crs_class,sfha_discount_percent,' +
  'ground_elevation_ft,ground_minus_bfe_ft,tract,area_claims,area_claims_outside_sfha_percent,area_flood_declarations,unavailable,retrieved_at';

interface BatchRow {
  index: number;
  id: string | null;
  status: number;
  body: any;
}

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => stack.emulators.clearFaults());

async function postBatch(body: string, contentType: string, { accept, query = '' }: { accept?: string; query?: string } = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (accept) headers.accept = accept;
  const response = await fetch(`${stack.url}${BATCH}${query}`, { method: 'POST', body, headers });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: response.status, headers: response.headers, text, body: isJson ? JSON.parse(text) : undefined };
}

const postJson = (locations: unknown, options?: { accept?: string; query?: string }) => postBatch(JSON.stringify({ locations }), 'application/json', options);

function ndjsonRows(res: ApiResponse): BatchRow[] {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
  expect(res.text.endsWith('\n')).toBe(true);
  return res.text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as BatchRow);
}

/** GET /flood-zone for the same input, under the batch's request id (which error envelopes carry). */
function getFor(query: string, requestId: string): Promise<ApiResponse> {
  return stack.get(`/flood-zone?${query}`, { 'x-request-id': requestId });
}

const at = (p: DemoPlace) => ({ lat: p.lat, lon: p.lon });
const withAddress = DEMO_PLACES.filter((p): p is DemoPlace & { address: string } => typeof p.address === 'string');

describe('rows are answered exactly as GET /flood-zone answers them', () => {
  const [first, second, third] = DEMO_PLACES.filter((p) => !p.address);
  const addressed = withAddress[0];
  /** Each row with the GET query string that asks the same. */
  const cases: Array<{ row: unknown; get: string }> = [
    { row: { id: 'point', ...at(first) }, get: `lat=${first.lat}&lon=${first.lon}` },
    { row: { id: 'text', lat: String(second.lat), lon: String(second.lon) }, get: `lat=${second.lat}&lon=${second.lon}` },
    { row: { id: 42, address: addressed.address }, get: `address=${encodeURIComponent(addressed.address)}` },
    { row: { address: DEMO_ADDRESSES.whiteHouseLoose }, get: `address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouseLoose)}` },
    { row: { id: 'none', address: DEMO_ADDRESSES.noMatch }, get: `address=${encodeURIComponent(DEMO_ADDRESSES.noMatch)}` },
    { row: { id: 'tie', address: DEMO_ADDRESSES.ambiguous }, get: `address=${encodeURIComponent(DEMO_ADDRESSES.ambiguous)}` },
    { row: { id: 'near', address: DEMO_ADDRESSES.nearDuplicate }, get: `address=${encodeURIComponent(DEMO_ADDRESSES.nearDuplicate)}` },
    { row: { id: 'nothing' }, get: '' },
    { row: { id: 'both', address: 'x', lat: 1, lon: 2 }, get: 'address=x&lat=1&lon=2' },
    { row: { id: 'half', lat: 10 }, get: 'lat=10' },
    { row: { id: 'hex', lat: '0x10', lon: '5' }, get: 'lat=0x10&lon=5' },
    { row: { id: 'blank address', address: '   ' }, get: 'address=%20%20%20' },
    { row: { id: 'range', lat: 91, lon: third.lon }, get: `lat=91&lon=${third.lon}` },
    { row: { id: 'lon range', lat: '45', lon: '-180.5' }, get: 'lat=45&lon=-180.5' },
    { row: { id: 'tiny', lat: 1e-7, lon: third.lon }, get: `lat=0.0000001&lon=${third.lon}` },
  ];

  let rows: BatchRow[];
  let requestId: string;
  beforeAll(async () => {
    const res = await postJson(cases.map((c) => c.row));
    requestId = res.headers.get('x-request-id')!;
    rows = ndjsonRows(res);
  });

  it('gives one answer per row, in input order, echoing the ids (a number as its text, null when none)', () => {
    expect(rows.map((r) => r.index)).toEqual(cases.map((_, i) => i));
    expect(rows.map((r) => r.id)).toEqual(
      cases.map((c) => {
        const id = (c.row as { id?: unknown }).id;
        return id === undefined ? null : String(id);
      }),
    );
  });

  it.each(cases.map((c, i) => [i, c.get] as const))('row %i equals GET /flood-zone?%s (status and body)', async (i, query) => {
    const get = await getFor(query, requestId);
    expect({ status: rows[i].status, body: rows[i].body }).toEqual({ status: get.status, body: get.body });
  });

  it('covers 200, 400, 404 and 422 rows', () => {
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set([200, 400, 404, 422]));
    expect(rows.find((r) => r.id === 'tie')!.body.code).toBe('AMBIGUOUS_ADDRESS');
    expect(rows.find((r) => r.id === 'none')!.body.code).toBe('ADDRESS_NOT_FOUND');
  });

  it('applies include and radius to every row, as GET does', async () => {
    const place = demoPlace('houston-nearby-hazards');
    const res = await postJson([{ ...at(place) }, { address: addressed.address }], { query: '?include=nearby,cbrs&radius=300' });
    const id = res.headers.get('x-request-id')!;
    const [pointRow, addressRow] = ndjsonRows(res);
    const getPoint = await getFor(`lat=${place.lat}&lon=${place.lon}&include=nearby,cbrs&radius=300`, id);
    const getAddress = await getFor(`address=${encodeURIComponent(addressed.address)}&include=nearby,cbrs&radius=300`, id);
    expect(pointRow.body.result.nearby).not.toBeNull();
    expect(pointRow.body).toEqual(getPoint.body);
    expect(addressRow.body).toEqual(getAddress.body);
  });

  it('answers a row whose element is not an object, or whose id is unusable, with its own 400', async () => {
    const res = await postJson([5, { id: true, ...at(first) }, { id: 'x'.repeat(129), ...at(first) }, { id: 'x'.repeat(128), ...at(first) }]);
    const rows = ndjsonRows(res);
    expect(rows.map((r) => [r.status, r.id, r.body.code ?? null])).toEqual([
      [400, null, 'INVALID_PARAMETERS'],
      [400, null, 'INVALID_PARAMETERS'],
      [400, null, 'INVALID_PARAMETERS'],
      [200, 'x'.repeat(128), null],
    ]);
    expect(rows[0].body).toEqual(expect.objectContaining({ statusCode: 400, requestId: res.headers.get('x-request-id') }));
  });

  it("answers an upstream failure as that row's 502 and goes on with the rest", async () => {
    const failing = demoPlace('sacramento-d');
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 500, match: { near: [failing.lon, failing.lat] } });
    const res = await postJson([{ lat: failing.lat + 0.0001, lon: failing.lon }, at(first)]);
    const [failed, fine] = ndjsonRows(res);
    expect([failed.status, failed.body.code, failed.body.upstream]).toEqual([502, 'UPSTREAM_UNAVAILABLE', 'flood_data']);
    expect(fine.status).toBe(200);
  });
});

describe('the cache shared with GET', () => {
  it('answers a later GET of a batch row from the cache: no upstream call, X-Cache HIT, the same body', async () => {
    const address = '1600 Pennsylvania Ave. N.W., Washington, D.C. 20500';
    const [row] = ndjsonRows(await postJson([{ address }]));
    expect(row.status).toBe(200);
    stack.emulators.resetCalls();
    const get = await stack.get(`/flood-zone?address=${encodeURIComponent(address)}`);
    expect(get.headers.get('x-cache')).toBe('HIT');
    expect(get.body).toEqual(row.body);
    expect(stack.emulators.census.callCount() + stack.emulators.nfhl.callCount()).toBe(0);
  });
});

describe('formats in and out', () => {
  const [a, b] = DEMO_PLACES.filter((p) => !p.address);
  const addressed = withAddress[1] ?? withAddress[0];

  it('reads CSV (header in any case and order, other columns ignored, blank cells not given) and writes NDJSON', async () => {
    const csv = `Lon,notes,ID,Address,LAT\r\n${a.lon},"hello, world",r1,,${a.lat}\r\n,,r2,"${addressed.address}",\r\n,,r3,,\r\n`;
    const rows = ndjsonRows(await postBatch(csv, 'text/csv; charset=utf-8'));
    const viaJson = ndjsonRows(await postJson([{ id: 'r1', lat: String(a.lat), lon: String(a.lon) }, { id: 'r2', address: addressed.address }, { id: 'r3' }]));
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      ['r1', 200],
      ['r2', 200],
      ['r3', 400],
    ]);
    expect(rows.map((r) => r.body.query ?? r.body.code)).toEqual(viaJson.map((r) => r.body.query ?? r.body.code));
  });

  it('writes JSON {"results": [...]} with the same rows as NDJSON', async () => {
    const locations = [at(a), { id: 'x', lat: 95, lon: 0 }, { address: addressed.address }];
    const json = await postJson(locations, { accept: 'application/json' });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const ndjson = ndjsonRows(await postJson(locations, { accept: '*/*' }));
    const requestIds = (rows: BatchRow[]) => rows.map((r) => ({ ...r, body: { ...r.body, requestId: undefined } }));
    expect(requestIds(json.body.results)).toEqual(requestIds(ndjson));
  });

  it('writes NDJSON without an Accept header', async () => {
    const res = await fetch(`${stack.url}${BATCH}`, {
      method: 'POST',
      body: JSON.stringify({ locations: [at(a)] }),
      headers: { 'content-type': 'application/json', accept: '' },
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(JSON.parse((await res.text()).trim()).status).toBe(200);
  });

  it('writes CSV with the documented columns, booleans as words, nulls empty, and error rows with their query only', async () => {
    const res = await postBatch(`id,lat,lon,address\nok,${b.lat},${b.lon},\nbad,91,${b.lon},\nnone,,,"${DEMO_ADDRESSES.noMatch}"\n`, 'text/csv', {
      accept: 'text/csv',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ok, bad, none, end] = res.text.split('\n');
    expect(header).toBe(CSV_COLUMNS);
    expect(end).toBe('');
    const get = await stack.get(`/flood-zone?lat=${b.lat}&lon=${b.lon}`);
    const r = get.body.result;
    const cells = (value: unknown) => (value === null || value === undefined ? '' : String(value));
    const expected = [
      '0',
      'ok',
      '200',
      '',
      '',
      String(b.lat),
      String(b.lon),
      '',
      String(b.lat),
      String(b.lon),
      get.body.location.county,
      get.body.location.countyFips,
      get.body.location.zip,
      r.coverage,
      r.floodZone,
      r.zoneSubtype,
      r.inSpecialFloodHazardArea,
      r.riskLevel,
      r.isFloodway,
      r.staticBaseFloodElevationFt,
      r.estimatedBaseFloodElevation?.elevationFt,
      r.verticalDatum,
      r.depthFt,
      r.firmPanel?.panel,
      r.firmPanel?.effectiveDate,
      r.community?.communityId,
      r.lomas.length,
      '',
      '',
      '',
      '',
      ...Array(11).fill(''),
      r.community?.nfip?.participating,
      r.community?.nfip?.crsClass,
      r.community?.nfip?.sfhaDiscountPercent,
      '',
      '',
      // The area's flood record, not asked for.
      ...Array(4).fill(''),
      r.unavailable.join(';'),
      get.body.retrievedAt,
    ].map(cells);
    expect(ok.split(',')).toEqual(expected);
    expect(ok).toMatch(/,(true|false),/);
    const empties = Array(46).fill('');
    expect(bad.split(',')).toEqual(['1', 'bad', '422', 'COORDINATES_OUT_OF_RANGE', '', '91', String(b.lon), ...empties]);
    expect(none).toBe(['2', 'none', '404', 'ADDRESS_NOT_FOUND', `"${DEMO_ADDRESSES.noMatch}"`, '', '', ...empties].join(','));
  });
});

describe('the NFIP and ground elevation columns', () => {
  it("fill with the community's NFIP standing and, with include=elevation, the ground and its difference from the BFE", async () => {
    const houston = demoPlace('houston-ah-one-bfe-line');
    const dc = demoPlace('dc-white-house-ae');
    stack.emulators.elevation.setPoints([
      { at: [houston.lon, houston.lat], valueFt: 44.5, resolution: 1 },
      { at: [dc.lon, dc.lat], valueFt: 590.04, resolution: 1 },
    ]);
    const body = `id,lat,lon\nhouston,${houston.lat},${houston.lon}\ndc,${dc.lat},${dc.lon}\nbad,91,0\n`;
    const res = await postBatch(body, 'text/csv', { accept: 'text/csv', query: '?include=elevation' });
    expect(res.status).toBe(200);
    const [header, ...rows] = parse(res.text) as string[][];
    const columns = [
      'id',
      'community_id',
      'nfip_participating',
      'crs_class',
      'sfha_discount_percent',
      'ground_elevation_ft',
      'ground_minus_bfe_ft',
      'unavailable',
    ];
    const pick = (row: string[]) => columns.map((name) => row[header.indexOf(name)]);
    // Houston: CRS class 5 (25% in the SFHA); 44.5 ft ground, 2.5 ft under the estimated 47 ft BFE. DC: CRS class 10
    // (no class, no discount); 590 ft ground, 7 ft over the static 583 ft BFE.
    expect(rows.map(pick)).toEqual([
      ['houston', '480296', 'true', '5', '25', '44.5', '-2.5', ''],
      ['dc', '110001', 'true', '', '', '590', '7', ''],
      ['bad', '', '', '', '', '', '', ''],
    ]);
    const get = await stack.get(`/flood-zone?lat=${houston.lat}&lon=${houston.lon}&include=elevation`);
    expect(get.body.result.groundElevation).toMatchObject({ elevationFt: 44.5, comparedWith: { bfe: 'estimated', bfeFt: 47, differenceFt: -2.5 } });
    expect(get.body.result.community.nfip).toMatchObject({ participating: true, crsClass: 5, sfhaDiscountPercent: 25 });
  });

  it('stay empty for the ground without include=elevation', async () => {
    const houston = demoPlace('houston-ah-one-bfe-line');
    const res = await postBatch(`lat,lon\n${houston.lat},${houston.lon}\n`, 'text/csv', { accept: 'text/csv' });
    const [header, row] = parse(res.text) as string[][];
    expect(['nfip_participating', 'crs_class', 'ground_elevation_ft', 'ground_minus_bfe_ft'].map((name) => row[header.indexOf(name)])).toEqual([
      'true',
      '5',
      '',
      '',
    ]);
  });
});

describe("CSV columns of the area's flood record", () => {
  it("give the tract, its claims (a withheld count as <10), the share outside the SFHA and the county's flood declarations, OpenFEMA asked once per tract and county", async () => {
    const houston = demoPlace('houston-ae-floodway');
    const sacramento = demoPlace('sacramento-ar');
    stack.emulators.resetCalls();
    const body =
      'id,lat,lon\n' +
      `h1,${houston.lat},${houston.lon}\nh2,${houston.lat},${houston.lon + 0.000002}\ns,${sacramento.lat},${sacramento.lon}\nh3,${houston.lat},${houston.lon - 0.000002}\n`;
    const res = await postBatch(body, 'text/csv', { accept: 'text/csv', query: '?include=history' });
    expect(res.status).toBe(200);
    const [header, ...rows] = parse(res.text) as string[][];
    const columns = ['id', 'tract', 'area_claims', 'area_claims_outside_sfha_percent', 'area_flood_declarations', 'unavailable'];
    const pick = (row: string[]) => columns.map((name) => row[header.indexOf(name)]);
    expect(rows.map(pick)).toEqual([
      ['h1', DEMO_AREA_RECORDS.houston.tract, '214', '42.1', '5', ''],
      ['h2', DEMO_AREA_RECORDS.houston.tract, '214', '42.1', '5', ''],
      ['s', DEMO_AREA_RECORDS.sacramento.tract, '<10', '', '2', ''],
      ['h3', DEMO_AREA_RECORDS.houston.tract, '214', '42.1', '5', ''],
    ]);
    expect(stack.emulators.openfema.callCount({ endpoint: 'NfipClaims' })).toBe(2);
    expect(stack.emulators.openfema.callCount({ endpoint: 'NfipPolicies' })).toBe(2);
    expect(stack.emulators.openfema.callCount({ endpoint: 'DisasterDeclarationsSummaries' })).toBe(2);
  });
});

describe('order is input order even when later rows finish first', () => {
  it('holds rows back behind a slow first row', async () => {
    const [slow, ...quick] = DEMO_PLACES.filter((p) => !p.address).slice(0, 6);
    // Points a little off the places (about 1 m), so that no earlier answer is in the cache.
    const delay = stack.emulators.nfhl.injectFault({ kind: 'delay', ms: 1500, match: { near: [slow.lon, slow.lat], withinM: 5 } });
    const locations = [slow, ...quick].map((p, i) => ({ id: i === 0 ? 'slow' : `quick-${i}`, lat: p.lat + 0.00001, lon: p.lon }));
    const rows = ndjsonRows(await postJson(locations));
    expect(delay.hits).toBeGreaterThan(0);
    expect(rows.map((r) => [r.index, r.id, r.status])).toEqual(locations.map((l, i) => [i, l.id, 200]));
  });
});

describe('whole-request errors', () => {
  const place = DEMO_PLACES[0];

  it.each([
    ['malformed JSON, naming the line', '{"locations": [\n  {"lat": 1, "lon": 2},\n  {"lat": }\n]}', /line 3/],
    ['no locations array', '{"places": []}', /locations/],
    ['locations not an array', '{"locations": {"lat": 1}}', /locations/],
    ['an empty locations array', '{"locations": []}', /empty/],
    ['a JSON array body', '[{"lat": 1, "lon": 2}]', /locations/],
  ])('JSON: %s is a 400 INVALID_BATCH', async (_what, body, message) => {
    const res = await postBatch(body, 'application/json');
    expectErrorEnvelope(res, 400, 'INVALID_BATCH');
    expect(res.body.error).toMatch(message);
  });

  it.each([
    ['no usable column', 'name,city\nx,y\n', /line 1/],
    ['a header row only', 'id,lat,lon\n', /no rows/],
    ['an empty body', '', /empty/],
    ['an unclosed quote', `id,address\na,"1 Main St\n`, /line/],
    ['a usable column named twice', 'lat,lon,LAT\n1,2,3\n', /lat twice/],
  ])('CSV: %s is a 400 INVALID_BATCH', async (_what, body, message) => {
    const res = await postBatch(body, 'text/csv');
    expectErrorEnvelope(res, 400, 'INVALID_BATCH');
    expect(res.body.error).toMatch(message);
  });

  it('more than BATCH_MAX_LOCATIONS rows is a 413 BATCH_TOO_LARGE, JSON or CSV', async () => {
    const json = await postJson(Array.from({ length: 10_001 }, () => at(place)));
    expectErrorEnvelope(json, 413, 'BATCH_TOO_LARGE');
    const csv = await postBatch(`lat,lon\n${`${place.lat},${place.lon}\n`.repeat(10_001)}`, 'text/csv');
    expectErrorEnvelope(csv, 413, 'BATCH_TOO_LARGE');
  });

  it('a body over 10 MiB is a 413 BATCH_TOO_LARGE, JSON or CSV', async () => {
    const padding = 'x'.repeat(10 * 1024 * 1024);
    const json = await postBatch(`{"locations": [{"lat": 1, "lon": 2, "note": "${padding}"}]}`, 'application/json');
    expectErrorEnvelope(json, 413, 'BATCH_TOO_LARGE');
    const csv = await postBatch(`lat,lon,note\n1,2,${padding}\n`, 'text/csv');
    expectErrorEnvelope(csv, 413, 'BATCH_TOO_LARGE');
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])('a %s body is a 415 UNSUPPORTED_MEDIA_TYPE', async (type) => {
    expectErrorEnvelope(await postBatch('lat,lon\n1,2\n', type), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('a body without Content-Type is a 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await fetch(`${stack.url}${BATCH}`, { method: 'POST', body: new Uint8Array(Buffer.from('{"locations":[]}')) });
    expect(res.status).toBe(415);
    expect((await res.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it.each([
    ['?include=bogus', 400, 'INVALID_PARAMETERS'],
    ['?include=', 400, 'INVALID_PARAMETERS'],
    ['?radius=300', 400, 'INVALID_PARAMETERS'],
    ['?include=nearby&radius=5', 422, 'RADIUS_OUT_OF_RANGE'],
  ])("%s is the whole request's %i %s", async (query, status, code) => {
    expectErrorEnvelope(await postJson([at(place)], { query }), status, code);
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('%s is a 405 with Allow: POST, OPTIONS', async (method) => {
    const res = await fetch(`${stack.url}${BATCH}`, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await res.json()).code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers a CORS preflight allowing POST', async () => {
    const res = await fetch(`${stack.url}${BATCH}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('size', () => {
  it('accepts a 10,000-row body (under 10 MiB), JSON and CSV, and answers every row in order', async () => {
    const places = DEMO_PLACES.filter((p) => !p.address).slice(0, 20);
    const locations = Array.from({ length: 10_000 }, (_, i) => ({ id: `row-${i}`, ...at(places[i % places.length]) }));
    const rows = ndjsonRows(await postJson(locations));
    expect(rows.length).toBe(10_000);
    expect(rows.every((r, i) => r.index === i && r.id === `row-${i}` && r.status === 200)).toBe(true);

    const csv = await postBatch(`id,lat,lon\n${locations.map((l) => `${l.id},${l.lat},${l.lon}`).join('\n')}\n`, 'text/csv', { accept: 'text/csv' });
    const lines = csv.text.trim().split('\n');
    expect(lines.length).toBe(10_001);
    expect(lines[10_000].startsWith('9999,row-9999,200,')).toBe(true);
  }, 60_000);
});
