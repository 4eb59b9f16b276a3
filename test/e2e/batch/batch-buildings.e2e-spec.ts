/**
 * POST /flood-zone/batch with the building and the lender's form: include=structure,determination over the demo
 * buildings (test/emulators/structure-footprints.ts), and rows that bring their own footprint (a CSV column of
 * GeoJSON text, a JSON row's object), each answered as POST /flood-zone answers it, a bad footprint its row's 400.
 */
import { parse } from 'csv-parse/sync';
import { HOUSTON_FLOODWAY_HOUSE_ADDRESS, MENOMINEE_HOUSE_POINT, footprintAround } from './demo-building-rows';
import { demoPlace, demoStructure } from '../../emulators';
import { Stack, startStack } from '../../support/stack';

const BATCH = '/flood-zone/batch';

/** The building and form columns, after id, status and error_code. */
const COLUMNS = [
  'id',
  'status',
  'error_code',
  'building_match',
  'building_in_sfha',
  'building_sfha_share_percent',
  'building_zones',
  'building_unmapped_share_percent',
  'determination_basis',
  'flood_insurance_available',
  'nfip_program',
  'flood_insurance_required',
  'flood_insurance_reason',
  'nearby_letters',
];

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function post(body: string, contentType: string, accept: string, query = ''): Promise<{ status: number; text: string }> {
  const response = await fetch(`${stack.url}${BATCH}${query}`, { method: 'POST', body, headers: { 'content-type': contentType, accept } });
  return { status: response.status, text: await response.text() };
}

/** GeoJSON text in a CSV cell: quoted, its quotes doubled. */
const csvCell = (value: unknown) => `"${JSON.stringify(value).replace(/"/g, '""')}"`;

const { lat, lon } = MENOMINEE_HOUSE_POINT;
/** 10 m east of the AE polygon's west edge: wholly in AE 584. */
const inAe = footprintAround(10);
/** 20 m west of that edge: wholly in the shaded X around it. */
const inX = footprintAround(-20);
const charleston = demoPlace('charleston-pending-out-of-sfha');
const fernandina = demoPlace('fernandina-cbrs-system-unit');
const lomas = demoPlace('houston-lomas');
/** The middle of the DC building wholly off FEMA's zones (half beyond the digital map, half mapped with no zone). */
const offTheMap = (({ xmin, ymin, xmax, ymax }) => ({ lat: ((ymin + ymax) / 2).toFixed(6), lon: ((xmin + xmax) / 2).toFixed(6) }))(
  demoStructure('dc-partly-unmapped').feature.bbox,
);

describe('the building and the form in the CSV answer', () => {
  it('fills the building and form columns for the buildings found, and for the footprints given (two at one point, two answers)', async () => {
    const body =
      'id,lat,lon,address,footprint\n' +
      `straddles,${lat},${lon},,\n` +
      `floodway,,,"${HOUSTON_FLOODWAY_HOUSE_ADDRESS}",\n` +
      `given-ae,${lat},${lon},,${csvCell(inAe)}\n` +
      `given-x,${lat},${lon},,${csvCell({ type: 'Feature', properties: {}, geometry: inX })}\n` +
      `not-json,${lat},${lon},,"{""type"": ""Polygon"""\n` +
      `far,29.763,-95.39,,${csvCell(inAe)}\n` +
      `charleston,${charleston.lat},${charleston.lon},,\n` +
      `fernandina,${fernandina.lat},${fernandina.lon},,\n` +
      `off-the-map,${offTheMap.lat},${offTheMap.lon},,\n` +
      `lomas,${lomas.lat},${lomas.lon},,\n`;
    const res = await post(body, 'text/csv', 'text/csv', '?include=structure,determination');
    expect(res.status).toBe(200);
    const [header, ...rows] = parse(res.text) as string[][];
    expect(header.slice(header.indexOf('cbrs_status'), header.indexOf('nfip_participating'))).toEqual([
      'cbrs_status',
      'building_match',
      'building_in_sfha',
      'building_sfha_share_percent',
      'building_zones',
      'building_unmapped_share_percent',
      'determination_basis',
      'flood_insurance_available',
      'nfip_program',
      'flood_insurance_required',
      'flood_insurance_reason',
      'nearby_letters',
    ]);
    // Menominee is not in the demo Community Status Book (availability unknown); Houston participates; Charleston does
    // not; the Fernandina house is inside a CBRS unit, where availability turns on when it was built. The DC building
    // has no part on a flood zone: its share in the SFHA is unknown, an empty cell, never 0. No building stands at the
    // Houston point with the LOMAs: its valid LOMA 23 m away is a nearby letter, not the form's.
    expect(rows.map((row) => COLUMNS.map((name) => row[header.indexOf(name)]))).toEqual([
      ['straddles', '200', '', 'contains', 'true', '40.1', 'AE 40.1; X 59.9', '0', 'building', '', '', '', 'not_listed', ''],
      ['floodway', '200', '', 'contains', 'true', '100', 'AE 100.0', '0', 'building', 'true', 'regular', 'true', 'participating', ''],
      ['given-ae', '200', '', 'given', 'true', '100', 'AE 100.0', '0', 'building', '', '', '', 'not_listed', ''],
      ['given-x', '200', '', 'given', 'false', '0', 'X 100.0', '0', 'building', '', '', 'false', 'not_listed', ''],
      ['not-json', '400', 'INVALID_FOOTPRINT', '', '', '', '', '', '', '', '', '', '', ''],
      ['far', '400', 'INVALID_FOOTPRINT', '', '', '', '', '', '', '', '', '', '', ''],
      ['charleston', '200', '', 'contains', 'true', '100', 'AE 100.0', '0', 'building', 'false', '', 'false', 'not_participating', ''],
      ['fernandina', '200', '', 'contains', 'true', '100', 'VE 100.0', '0', 'building', '', 'regular', '', 'coastal_barrier', ''],
      ['off-the-map', '200', '', 'contains', '', '', '', '100', 'building', 'true', 'regular', '', 'participating', ''],
      ['lomas', '200', '', 'none', '', '', '', '', 'point', 'true', 'regular', 'true', 'participating', '15-06-1489A 2015-06-02 23.0 m'],
    ]);
  });

  it('leaves the building and form columns empty when neither is asked for and no footprint is given', async () => {
    const res = await post(`id,lat,lon\nstraddles,${lat},${lon}\n`, 'text/csv', 'text/csv');
    const [header, row] = parse(res.text) as string[][];
    expect(COLUMNS.map((name) => row[header.indexOf(name)])).toEqual(['straddles', '200', '', '', '', '', '', '', '', '', '', '', '', '']);
  });
});

describe('rows with a footprint, as POST /flood-zone answers them', () => {
  interface Row {
    index: number;
    id: string | null;
    status: number;
    body: any;
  }
  const postJson = async (locations: unknown[]): Promise<Row[]> => {
    const res = await post(JSON.stringify({ locations }), 'application/json', 'application/json');
    expect(res.status).toBe(200);
    return (JSON.parse(res.text) as { results: Row[] }).results;
  };
  const postFootprint = async (body: unknown) => {
    const response = await fetch(`${stack.url}/flood-zone`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return { status: response.status, body: (await response.json()) as any };
  };

  it("answers a JSON row's footprint for that building (include=structure implied), each row with its own footprint", async () => {
    const [ae, x, plain] = await postJson([
      { id: 'ae', lat, lon, footprint: inAe },
      { id: 'x', lat, lon, footprint: inX },
      { id: 'plain', lat, lon, footprint: null },
    ]);
    expect([ae.status, x.status, plain.status]).toEqual([200, 200, 200]);
    expect(ae.body).toEqual((await postFootprint({ lat, lon, footprint: inAe })).body);
    expect(x.body).toEqual((await postFootprint({ lat, lon, footprint: inX })).body);
    expect([ae.body.result.structure.match, ae.body.result.structure.buildingInSfha, ae.body.result.structure.footprintAreaSqFt]).toEqual(['given', true, 387]);
    expect([x.body.result.structure.match, x.body.result.structure.buildingInSfha]).toEqual(['given', false]);
    expect(plain.body.result.structure).toBeNull();
  });

  it("answers a footprint breaking a rule, or lying too far, with its row's 400 INVALID_FOOTPRINT in POST /flood-zone's words; the rest go on", async () => {
    const open = { type: 'Polygon', coordinates: [inAe.coordinates[0].slice(0, 4)] };
    const rows = await postJson([
      { id: 'open', lat, lon, footprint: open },
      { id: 'point', lat, lon, footprint: { type: 'Point', coordinates: [lon, lat] } },
      { id: 'far', lat: 29.763, lon: -95.39, footprint: inAe },
      { id: 'fine', lat, lon, footprint: inAe },
    ]);
    const expected = await Promise.all([
      postFootprint({ lat, lon, footprint: open }),
      postFootprint({ lat, lon, footprint: { type: 'Point', coordinates: [lon, lat] } }),
      postFootprint({ lat: 29.763, lon: -95.39, footprint: inAe }),
    ]);
    expect(rows.map(({ id, status, body }) => [id, status, body.code ?? null, body.error ?? null])).toEqual([
      ['open', 400, 'INVALID_FOOTPRINT', 'footprint: ring 1 is not closed (its first and last positions differ)'],
      ['point', 400, 'INVALID_FOOTPRINT', 'footprint: must be a GeoJSON Polygon, MultiPolygon, or a Feature of one; got a "Point"'],
      ['far', 400, 'INVALID_FOOTPRINT', expected[2].body.error],
      ['fine', 200, null, null],
    ]);
    expect(expected.map(({ status, body }) => [status, body.error])).toEqual(rows.slice(0, 3).map(({ status, body }) => [status, body.error]));
    expect(expected[2].body.error).toMatch(/^footprint: it lies more than 10 km from the location \(lat 29\.763, lon -95\.39\)/);
  });

  it('reads a CSV footprint cell that is not JSON as a 400 INVALID_FOOTPRINT saying so', async () => {
    const res = await post(`id,lat,lon,footprint\nbad,${lat},${lon},POLYGON ((1 2))\n`, 'text/csv', 'application/json');
    const [row] = (JSON.parse(res.text) as { results: Row[] }).results;
    expect([row.status, row.body.code, row.body.error]).toEqual([
      400,
      'INVALID_FOOTPRINT',
      'footprint: the cell is not GeoJSON text (a Polygon, MultiPolygon, or a Feature of one, written as JSON)',
    ]);
  });
});
