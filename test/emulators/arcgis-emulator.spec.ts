import { NfhlMapServerEmulator } from './arcgis-emulator';
import { ArcGisServiceEmulator, CBRS_SERVICE, PENDING_NFHL_SERVICE, PRELIMINARY_NFHL_SERVICE } from './arcgis-service-emulator';
import { DEMO_MAP, DEMO_PLACES, DemoMap, demoPlace } from './demo-map';
import { Position, Ring, Shape, bboxOfShape, lonLatToWebMercator, metersToDegrees, rectHole, rectRing } from './geometry';
import type { ArcGisFeature, ArcGisField, ArcGisServiceData } from './map-data';
import { RunningEmulators, exampleUrls, startEmulators } from './offline';

type Json = Record<string, any>;

const POINT_QUERY = 'geometryType=esriGeometryPoint&inSR=4326&spatialRel=esriSpatialRelIntersects&returnGeometry=false';

describe('NFHL MapServer emulator', () => {
  let nfhl: NfhlMapServerEmulator;
  const dc = demoPlace('dc-white-house-ae');

  beforeAll(async () => {
    nfhl = await NfhlMapServerEmulator.start();
  });
  afterAll(async () => {
    await nfhl.close();
  });
  beforeEach(() => {
    nfhl.clearFaults();
    nfhl.resetCalls();
  });

  const get = async (url: string): Promise<{ status: number; type: string; text: string; json: () => Json }> => {
    const res = await fetch(url);
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type') ?? '', text, json: () => JSON.parse(text) as Json };
  };

  it('serves on loopback under the real base path', () => {
    expect(nfhl.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/arcgis\/rest\/services\/public\/NFHL\/MapServer$/);
  });

  it('answers the root document with the real layer list', async () => {
    const r = await get(`${nfhl.baseUrl}?f=json`);
    expect(r.status).toBe(200);
    const layers = r.json().layers as Array<{ id: number; name: string }>;
    const byName = Object.fromEntries(layers.map((l) => [l.name, l.id]));
    expect(byName).toMatchObject({
      'NFHL Availability': 0,
      LOMRs: 1,
      'FIRM Panels': 3,
      'Political Jurisdictions': 22,
      'Flood Hazard Zones': 28,
    });
    expect((await get(`${nfhl.baseUrl}?f=pjson`)).json().layers).toHaveLength(layers.length);
  });

  it('answers a point query given as x,y with the real f=json shape', async () => {
    const r = await get(
      `${nfhl.baseUrl}/28/query?geometry=${dc.lon},${dc.lat}&${POINT_QUERY}&outFields=FLD_ZONE,ZONE_SUBTY,SFHA_TF,STATIC_BFE,V_DATUM,LEN_UNIT,DEPTH&f=json`,
    );
    expect(r.status).toBe(200);
    expect(r.type).toContain('application/json');
    const body = r.json();
    expect(Object.keys(body)).toEqual(['displayFieldName', 'fieldAliases', 'geometryType', 'spatialReference', 'fields', 'features']);
    expect(body.geometryType).toBe('esriGeometryPolygon');
    expect(body.fields.map((f: Json) => f.name)).toEqual(['FLD_ZONE', 'ZONE_SUBTY', 'SFHA_TF', 'STATIC_BFE', 'V_DATUM', 'LEN_UNIT', 'DEPTH']);
    expect(body.features).toEqual([
      { attributes: { FLD_ZONE: 'AE', ZONE_SUBTY: null, SFHA_TF: 'T', STATIC_BFE: 583, V_DATUM: 'NAVD88', LEN_UNIT: 'Feet', DEPTH: -9999 } },
    ]);
  });

  it('accepts JSON point geometry with a spatial reference', async () => {
    const geometry = encodeURIComponent(JSON.stringify({ x: dc.lon, y: dc.lat, spatialReference: { wkid: 4326 } }));
    const r = await get(
      `${nfhl.baseUrl}/3/query?geometry=${geometry}&geometryType=esriGeometryPoint&inSR=${encodeURIComponent('{"wkid":4326}')}&outFields=FIRM_PAN,PANEL,SUFFIX,EFF_DATE,PANEL_TYP&returnGeometry=false&f=json`,
    );
    expect(r.json().features).toEqual([
      { attributes: { FIRM_PAN: '11001C0019C', PANEL: '0019', SUFFIX: 'C', EFF_DATE: Date.UTC(2010, 8, 27), PANEL_TYP: 'Countywide, Panel Printed' } },
    ]);
  });

  it('returns nothing for swapped axes and an empty features array for no match', async () => {
    const swapped = await get(`${nfhl.baseUrl}/28/query?geometry=${dc.lat},${dc.lon}&${POINT_QUERY}&outFields=FLD_ZONE&f=json`);
    expect(swapped.status).toBe(200);
    expect(swapped.json().features).toEqual([]);
    const mv = demoPlace('mount-vernon-unmapped');
    for (const id of [0, 1, 3, 22, 28]) {
      expect((await get(`${nfhl.baseUrl}/${id}/query?geometry=${mv.lon},${mv.lat}&${POINT_QUERY}&outFields=*&f=json`)).json().features).toEqual([]);
    }
  });

  it('fails the whole query on an unknown outFields name, as the real server does (HTTP 200)', async () => {
    const r = await get(`${nfhl.baseUrl}/28/query?geometry=${dc.lon},${dc.lat}&${POINT_QUERY}&outFields=FLD_ZONE,EFF_DATE&f=json`);
    expect(r.status).toBe(200);
    expect(r.json()).toEqual({ error: { code: 400, message: 'Failed to execute query.', details: [] } });
  });

  it('returns every attribute for outFields=* and geometry when asked', async () => {
    const r = (await get(`${nfhl.baseUrl}/28/query?geometry=${dc.lon},${dc.lat}&outFields=*&returnGeometry=true&f=json`)).json();
    expect(Object.keys(r.features[0].attributes)).toContain('SHAPE.STArea()');
    expect(r.features[0].geometry.rings[0]).toHaveLength(5);
    const noGeom = (await get(`${nfhl.baseUrl}/28/query?geometry=${dc.lon},${dc.lat}&outFields=*&returnGeometry=false&f=json`)).json();
    expect(noGeom.features[0].geometry).toBeUndefined();
  });

  it('answers f=geojson with a FeatureCollection', async () => {
    const r = await get(`${nfhl.baseUrl}/1/query?geometry=${dc.lon},${dc.lat}&${POINT_QUERY}&outFields=CASE_NO,STATUS,EFF_DATE&f=geojson`);
    const body = r.json();
    expect(body.type).toBe('FeatureCollection');
    expect(body.features).toHaveLength(3);
    expect(body.features[0]).toMatchObject({ type: 'Feature', geometry: null, properties: { CASE_NO: '19-03-0123P', STATUS: 'Effective' } });
    const withGeom = (await get(`${nfhl.baseUrl}/1/query?geometry=${dc.lon},${dc.lat}&outFields=CASE_NO&f=geojson`)).json();
    expect(withGeom.features[0].geometry.type).toBe('Polygon');
  });

  it('answers HTML for a missing or unknown f, and 404 HTML for other paths', async () => {
    const missing = await get(`${nfhl.baseUrl}/28/query?geometry=${dc.lon},${dc.lat}&outFields=FLD_ZONE`);
    expect(missing.status).toBe(200);
    expect(missing.type).toContain('text/html');
    expect(missing.text).toContain('<html');
    expect((await get(`${nfhl.baseUrl}/28/query?geometry=${dc.lon},${dc.lat}&f=xml`)).type).toContain('text/html');
    expect((await get(nfhl.baseUrl)).type).toContain('text/html');
    const other = await get(`${nfhl.origin}/arcgis/rest/services/public/NFHL/FeatureServer/28/query?f=json`);
    expect(other.status).toBe(404);
    expect(other.type).toContain('text/html');
  });

  it('answers the ArcGIS error envelope in HTTP 200 for an unknown layer', async () => {
    const r = await get(`${nfhl.baseUrl}/99/query?geometry=${dc.lon},${dc.lat}&${POINT_QUERY}&outFields=*&f=json`);
    expect(r.status).toBe(200);
    expect(r.json().error).toMatchObject({ code: 400, message: 'Invalid or missing input parameters.' });
    expect((await get(`${nfhl.baseUrl}/99?f=json`)).json().error.code).toBe(400);
  });

  it('serves layer metadata with the real fields', async () => {
    const meta = (await get(`${nfhl.baseUrl}/28?f=json`)).json();
    expect(meta).toMatchObject({ id: 28, name: 'Flood Hazard Zones' });
    expect(meta.fields.map((f: Json) => f.name)).toEqual(expect.arrayContaining(['FLD_ZONE', 'ZONE_SUBTY', 'STATIC_BFE', 'V_DATUM', 'LEN_UNIT']));
    const panels = (await get(`${nfhl.baseUrl}/3?f=json`)).json();
    expect(panels.fields.find((f: Json) => f.name === 'EFF_DATE').type).toBe('esriFieldTypeDate');
  });

  it('supports where=1=1 and simple equality filters', async () => {
    const all = (await get(`${nfhl.baseUrl}/28/query?where=1%3D1&returnCountOnly=true&f=json`)).json();
    expect(all.count).toBeGreaterThan(20);
    const ve = (await get(`${nfhl.baseUrl}/28/query?where=${encodeURIComponent("FLD_ZONE = 'VE'")}&outFields=FLD_ZONE&returnGeometry=false&f=json`)).json();
    expect(ve.features.length).toBeGreaterThan(0);
    expect(ve.features.every((f: Json) => f.attributes.FLD_ZONE === 'VE')).toBe(true);
    expect((await get(`${nfhl.baseUrl}/28/query?where=${encodeURIComponent('NOPE = 1')}&f=json`)).json().error.message).toBe('Failed to execute query.');
  });

  it("compares a date field with standardized SQL's date and timestamp literals (UTC), and refuses any other date syntax", async () => {
    const panelsFrom = async (where: string) => {
      const answer = (await get(`${nfhl.baseUrl}/3/query?where=${encodeURIComponent(where)}&outFields=FIRM_PAN,EFF_DATE&returnGeometry=false&f=json`)).json();
      return answer.error ? answer.error.message : (answer.features as Json[]).map((f) => f.attributes.FIRM_PAN as string).sort();
    };
    const dated = DEMO_MAP.nfhl.firmPanels.filter((p) => typeof p.attributes.EFF_DATE === 'number');
    const day = dated[0].attributes.EFF_DATE as number;
    const onOrAfter = dated
      .filter((p) => (p.attributes.EFF_DATE as number) >= day)
      .map((p) => p.attributes.FIRM_PAN as string)
      .sort();
    const after = dated
      .filter((p) => (p.attributes.EFF_DATE as number) > day)
      .map((p) => p.attributes.FIRM_PAN as string)
      .sort();
    const iso = new Date(day).toISOString().slice(0, 10);
    expect(onOrAfter.length).toBeGreaterThan(after.length);
    expect(await panelsFrom(`EFF_DATE >= timestamp '${iso} 00:00:00'`)).toEqual(onOrAfter);
    expect(await panelsFrom(`EFF_DATE >= DATE '${iso}'`)).toEqual(onOrAfter);
    expect(await panelsFrom(`EFF_DATE > timestamp '${iso} 00:00:00'`)).toEqual(after);
    expect(await panelsFrom(`EFF_DATE >= timestamp '${iso} 00:00:01'`)).toEqual(after);
    expect(await panelsFrom(`(EFF_DATE = date '${iso}') AND DFIRM_ID IS NOT NULL`)).toEqual(
      dated
        .filter((p) => p.attributes.EFF_DATE === day)
        .map((p) => p.attributes.FIRM_PAN as string)
        .sort(),
    );
    // A database's own syntax, a day the calendar lacks, a text field compared with a date: the real server's failure.
    for (const refused of [`EFF_DATE >= '${iso}'`, `EFF_DATE >= {ts '${iso} 00:00:00'}`, "EFF_DATE >= date '2025-02-30'", `FIRM_PAN >= date '${iso}'`]) {
      expect(await panelsFrom(refused)).toBe('Failed to execute query.');
    }
  });

  it('finds both polygons of a seam and all three of an overlap', async () => {
    const seam = demoPlace('houston-seam');
    const s = (await get(`${nfhl.baseUrl}/28/query?geometry=${seam.lon},${seam.lat}&${POINT_QUERY}&outFields=FLD_ZONE,ZONE_SUBTY&f=json`)).json();
    expect(s.features.map((f: Json) => f.attributes.ZONE_SUBTY)).toEqual(['FLOODWAY', null]);
    const ov = demoPlace('menominee-overlap');
    const o = (await get(`${nfhl.baseUrl}/28/query?geometry=${ov.lon},${ov.lat}&${POINT_QUERY}&outFields=FLD_ZONE&f=json`)).json();
    expect(o.features.map((f: Json) => f.attributes.FLD_ZONE).sort()).toEqual(['AE', 'VE', 'X']);
  });

  it('accepts POST form queries', async () => {
    const res = await fetch(`${nfhl.baseUrl}/28/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        geometry: `${dc.lon},${dc.lat}`,
        geometryType: 'esriGeometryPoint',
        inSR: '4326',
        outFields: 'FLD_ZONE',
        returnGeometry: 'false',
        f: 'json',
      }),
    });
    expect(((await res.json()) as Json).features).toEqual([{ attributes: { FLD_ZONE: 'AE' } }]);
  });

  it('counts calls by layer and endpoint', async () => {
    await get(`${nfhl.baseUrl}?f=json`);
    await get(`${nfhl.baseUrl}/28/query?geometry=${dc.lon},${dc.lat}&${POINT_QUERY}&outFields=FLD_ZONE&f=json`);
    await get(`${nfhl.baseUrl}/28/query?geometry=${dc.lon},${dc.lat}&${POINT_QUERY}&outFields=FLD_ZONE&f=json`);
    await get(`${nfhl.baseUrl}/3/query?geometry=${dc.lon},${dc.lat}&${POINT_QUERY}&outFields=FIRM_PAN&f=json`);
    expect(nfhl.callCount()).toBe(4);
    expect(nfhl.callCount({ endpoint: 'root' })).toBe(1);
    expect(nfhl.callCount({ layerId: 28 })).toBe(2);
    expect(nfhl.callCount({ layerName: 'FIRM Panels' })).toBe(1);
    expect(nfhl.queryCount('floodHazardZones')).toBe(2);
    expect(nfhl.calls[1]).toMatchObject({ endpoint: 'query', layerId: 28, layerName: 'Flood Hazard Zones', query: { outFields: 'FLD_ZONE', f: 'json' } });
    expect(typeof nfhl.calls[1].at).toBe('number');
    nfhl.resetCalls();
    expect(nfhl.callCount()).toBe(0);
  });
});

describe('NFHL MapServer emulator with moved layer ids', () => {
  let nfhl: NfhlMapServerEmulator;
  beforeAll(async () => {
    nfhl = await NfhlMapServerEmulator.start({ layerIds: { floodHazardZones: 30, firmPanels: 5 } });
  });
  afterAll(async () => {
    await nfhl.close();
  });

  it('lists the layers at their new ids and serves them there', async () => {
    const root = (await (await fetch(`${nfhl.baseUrl}?f=json`)).json()) as Json;
    const byName = Object.fromEntries((root.layers as Json[]).map((l) => [l.name, l.id]));
    expect(byName['Flood Hazard Zones']).toBe(30);
    expect(byName['Alluvial Fans']).toBe(28); // swapped
    expect(byName['FIRM Panels']).toBe(5);
    expect(byName.PLSS).toBe(3);
    expect(nfhl.layerIds).toMatchObject({ floodHazardZones: 30, firmPanels: 5 });
    const dc = demoPlace('dc-white-house-ae');
    const q = (id: number, fields: string) =>
      fetch(`${nfhl.baseUrl}/${id}/query?geometry=${dc.lon},${dc.lat}&${POINT_QUERY}&outFields=${fields}&f=json`).then((r) => r.json() as Promise<Json>);
    expect((await q(30, 'FLD_ZONE')).features).toEqual([{ attributes: { FLD_ZONE: 'AE' } }]);
    expect((await q(28, 'FLD_ZONE')).error).toBeDefined(); // Alluvial Fans has no FLD_ZONE
    expect((await q(28, '*')).features).toEqual([]);
    expect((await q(5, 'FIRM_PAN')).features).toEqual([{ attributes: { FIRM_PAN: '11001C0019C' } }]);
    expect(nfhl.queryCount('floodHazardZones')).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Envelope, buffer and geometry queries, over a small map of our own (known geometry, known distances)
// ---------------------------------------------------------------------------------------------

const LAT0 = 30;
const LON0 = -90;
/** A position `east` / `north` metres from (LAT0, LON0). */
function offset(east: number, north: number): Position {
  const { dLon, dLat } = metersToDegrees(LAT0, 1);
  return [LON0 + east * dLon, LAT0 + north * dLat];
}
function feature(attributes: ArcGisFeature['attributes'], shape: Shape): ArcGisFeature {
  return { attributes, ...shape, bbox: bboxOfShape(shape) };
}
function square(centreEast: number, centreNorth: number, side: number): Ring {
  const [x0, y0] = offset(centreEast - side / 2, centreNorth - side / 2);
  const [x1, y1] = offset(centreEast + side / 2, centreNorth + side / 2);
  return rectRing(x0, y0, x1, y1);
}
function zone(oid: number, fldZone: string, rings: Ring[]): ArcGisFeature {
  return feature({ OBJECTID: oid, FLD_ZONE: fldZone, ZONE_SUBTY: null, SFHA_TF: fldZone === 'X' ? 'F' : 'T' }, { rings });
}
/** comma-joined envelope from two corners given in metres from the origin. */
function envelope(west: number, south: number, east: number, north: number): string {
  return [...offset(west, south), ...offset(east, north)].join(',');
}

// zones: A a 300 m square at the origin; B a 4 km square whose interior holds the test envelope far from its
// edges; C a 600 m square with a 300 m hole, 3 km north
const ZONE_A = zone(1, 'AE', [square(0, 0, 300)]);
const ZONE_B = zone(2, 'X', [square(10_000, 0, 4000)]);
const [hollowOuter, hollowInner] = [square(0, 3000, 600), square(0, 3000, 300)];
const ZONE_C = zone(3, 'VE', [hollowOuter, rectHole(hollowInner[0][0], hollowInner[0][1], hollowInner[2][0], hollowInner[2][1])]);
// a dense ring (a vertex every ~0.1 m along the south edge) to thin with maxAllowableOffset
const denseSouth: Position[] = Array.from({ length: 21 }, (_, i) => offset(-1000 + i * 0.1, -1000));
const ZONE_D = zone(4, 'A', [[...denseSouth, offset(-998, -998), offset(-1000, -998), denseSouth[0]].reverse()]);
// BFE lines: one crossing the test envelope with no vertex inside it, one far away
const LINE_CROSSING = feature(
  { OBJECTID: 11, DFIRM_ID: '22051C', ELEV: 12, LEN_UNIT: 'Feet', V_DATUM: 'NAVD88' },
  { paths: [[offset(-500, 200), offset(500, 200)]] },
);
const LINE_FAR = feature(
  { OBJECTID: 12, DFIRM_ID: '22051C', ELEV: 13, LEN_UNIT: 'Feet', V_DATUM: 'NAVD88' },
  { paths: [[offset(-500, 900), offset(0, 950), offset(500, 900)]] },
);
// LOMAs 40, 90 and 150 m north of a query point 1 km east of the origin
const QP = offset(1000, 0);
const loma = (oid: number, north: number, outcome: string): ArcGisFeature =>
  feature(
    { OBJECTID: oid, CASENUMBER: `15-10-00${oid}A`, OUTCOME: outcome, REVAL_STAT: null, DATEENDED: Date.UTC(2015, 5, 2) },
    { point: offset(1000, north) },
  );
const LOMAS = [loma(21, 40, 'Property out as shown'), loma(22, 90, 'Structure denied'), loma(23, 150, 'Multiple')];

const OWN_MAP: DemoMap = {
  ...DEMO_MAP,
  nfhl: { ...DEMO_MAP.nfhl, floodHazardZones: [ZONE_A, ZONE_B, ZONE_C, ZONE_D], bfeLines: [LINE_CROSSING, LINE_FAR], lomas: LOMAS },
};

const ENVELOPE_QUERY = 'geometryType=esriGeometryEnvelope&inSR=4326&spatialRel=esriSpatialRelIntersects';
const oids = (body: Json): number[] => (body.features as Json[]).map((f) => f.attributes.OBJECTID);
const fetchJson = async (url: string): Promise<Json> => (await (await fetch(url)).json()) as Json;

describe('ArcGIS query protocol: envelopes, buffers, geometry, paging', () => {
  let nfhl: NfhlMapServerEmulator;
  beforeAll(async () => {
    nfhl = await NfhlMapServerEmulator.start({ map: OWN_MAP });
  });
  afterAll(async () => {
    await nfhl.close();
  });
  const q = (layer: number, query: string) => fetchJson(`${nfhl.baseUrl}/${layer}/query?${query}&f=json`);

  it('lists layers 16 "Base Flood Elevations" and 34 "LOMAs" and serves their real fields', async () => {
    const root = await fetchJson(`${nfhl.baseUrl}?f=json`);
    const byId = Object.fromEntries((root.layers as Json[]).map((l) => [l.id, [l.name, l.geometryType]]));
    expect(byId[16]).toEqual(['Base Flood Elevations', 'esriGeometryPolyline']);
    expect(byId[34]).toEqual(['LOMAs', 'esriGeometryPoint']);
    const bfe = await fetchJson(`${nfhl.baseUrl}/16?f=json`);
    expect(bfe).toMatchObject({ id: 16, name: 'Base Flood Elevations', geometryType: 'esriGeometryPolyline', maxRecordCount: 2000 });
    expect((bfe.fields as Json[]).filter((f) => f.type !== 'esriFieldTypeGeometry').map((f) => f.name)).toEqual([
      'OBJECTID',
      'DFIRM_ID',
      'VERSION_ID',
      'BFE_LN_ID',
      'ELEV',
      'LEN_UNIT',
      'V_DATUM',
      'SOURCE_CIT',
      'SHAPE.STLength()',
      'GFID',
      'GlobalID',
    ]);
    const lomas = await fetchJson(`${nfhl.baseUrl}/34?f=json`);
    expect(lomas).toMatchObject({ id: 34, name: 'LOMAs', geometryType: 'esriGeometryPoint' });
    expect(lomas._excerpt_note).toBeUndefined();
    expect((lomas.fields as Json[]).filter((f) => f.type !== 'esriFieldTypeGeometry').map((f) => f.name)).toEqual([
      'OBJECTID',
      'CASENUMBER',
      'STATUS',
      'PROJECTNAME',
      'PROJECTCATEGORY',
      'DATEENDED',
      'DATEENDEDSTR',
      'CID',
      'COMMUNITYNAME',
      'DETERMINATIONTYPE',
      'LAT',
      'LON',
      'PDFHYPERLINKID',
      'REVAL_STAT',
      'LOTTYPE',
      'OUTCOME',
      'GlobalID',
    ]);
    expect((lomas.fields as Json[]).find((f) => f.name === 'DATEENDED')?.type).toBe('esriFieldTypeDate');
  });

  it('intersects an envelope with polygons: across an edge, wholly inside one, in a hole and across a hole', async () => {
    // over A's north-east corner only
    expect(oids(await q(28, `geometry=${envelope(100, 100, 200, 200)}&${ENVELOPE_QUERY}&outFields=OBJECTID`))).toEqual([1]);
    // wholly inside B, 2 km from its edges: no vertex, no edge of B is in the envelope
    expect(oids(await q(28, `geometry=${envelope(9900, -100, 10100, 100)}&${ENVELOPE_QUERY}&outFields=OBJECTID`))).toEqual([2]);
    // inside C's hole, then across the hole's edge
    expect(oids(await q(28, `geometry=${envelope(-50, 2950, 50, 3050)}&${ENVELOPE_QUERY}&outFields=OBJECTID`))).toEqual([]);
    expect(oids(await q(28, `geometry=${envelope(-50, 3100, 50, 3200)}&${ENVELOPE_QUERY}&outFields=OBJECTID`))).toEqual([3]);
    // between the squares
    expect(oids(await q(28, `geometry=${envelope(400, 400, 500, 500)}&${ENVELOPE_QUERY}&outFields=OBJECTID`))).toEqual([]);
  });

  it('accepts the JSON envelope form with inSR 4269 and a Web Mercator envelope', async () => {
    const [xmin, ymin] = offset(100, 100);
    const [xmax, ymax] = offset(200, 200);
    const json = encodeURIComponent(JSON.stringify({ xmin, ymin, xmax, ymax, spatialReference: { wkid: 4269 } }));
    expect(oids(await q(28, `geometry=${json}&geometryType=esriGeometryEnvelope&inSR=4269&outFields=OBJECTID`))).toEqual([1]);
    const merc = [...lonLatToWebMercator(xmin, ymin), ...lonLatToWebMercator(xmax, ymax)].join(',');
    expect(oids(await q(28, `geometry=${merc}&geometryType=esriGeometryEnvelope&inSR=102100&outFields=OBJECTID`))).toEqual([1]);
  });

  it('intersects an envelope with polylines by any crossing segment, and with points', async () => {
    // the crossing line has its vertices 500 m either side of this envelope
    expect(oids(await q(16, `geometry=${envelope(-50, 150, 50, 250)}&${ENVELOPE_QUERY}&outFields=OBJECTID`))).toEqual([11]);
    expect(oids(await q(16, `geometry=${envelope(-600, 100, 600, 1000)}&${ENVELOPE_QUERY}&outFields=OBJECTID`))).toEqual([11, 12]);
    expect(oids(await q(34, `geometry=${envelope(900, 0, 1100, 100)}&${ENVELOPE_QUERY}&outFields=OBJECTID`))).toEqual([21, 22]);
  });

  it('buffers a point by distance and units (metres, feet, kilometres), geodesically', async () => {
    const point = `geometry=${QP.join(',')}&geometryType=esriGeometryPoint&inSR=4326`;
    expect(oids(await q(34, `${point}&distance=100&units=esriSRUnit_Meter&outFields=OBJECTID`))).toEqual([21, 22]);
    expect(oids(await q(34, `${point}&distance=200&units=esriSRUnit_Meter&outFields=OBJECTID`))).toEqual([21, 22, 23]);
    expect(oids(await q(34, `${point}&distance=60&units=esriSRUnit_Meter&outFields=OBJECTID`))).toEqual([21]);
    expect(oids(await q(34, `${point}&distance=300&units=esriSRUnit_Foot&outFields=OBJECTID`))).toEqual([21, 22]); // 91.4 m
    expect(oids(await q(34, `${point}&distance=0.1&units=esriSRUnit_Kilometer&outFields=OBJECTID`))).toEqual([21, 22]);
    // polygon A's east edge is 850 m west of the query point; the crossing line 200 m north of the origin
    expect(oids(await q(28, `${point}&distance=840&units=esriSRUnit_Meter&outFields=OBJECTID`))).toEqual([]);
    expect(oids(await q(28, `${point}&distance=860&units=esriSRUnit_Meter&outFields=OBJECTID`))).toEqual([1]);
    const origin = `geometry=${offset(0, 0).join(',')}&geometryType=esriGeometryPoint&inSR=4326`;
    expect(oids(await q(16, `${origin}&distance=190&units=esriSRUnit_Meter&outFields=OBJECTID`))).toEqual([]);
    expect(oids(await q(16, `${origin}&distance=210&units=esriSRUnit_Meter&outFields=OBJECTID`))).toEqual([11]);
    // inside a polygon the distance is 0
    expect(oids(await q(28, `${origin}&distance=1&units=esriSRUnit_Meter&outFields=OBJECTID`))).toEqual([1]);
  });

  it('buffers by degrees when a geographic query gives no units, as ArcGIS does', async () => {
    const point = `geometry=${QP.join(',')}&geometryType=esriGeometryPoint&inSR=4326`;
    expect(oids(await q(34, `${point}&distance=0.001&outFields=OBJECTID`))).toEqual([21, 22]); // ~111 m of latitude
    expect(oids(await q(34, `${point}&distance=100&outFields=OBJECTID`))).toEqual([21, 22, 23]);
    expect((await q(34, `${point}&distance=100&units=esriSRUnit_Parsec&outFields=OBJECTID`)).error.code).toBe(400);
  });

  it('returns whole polygons (not clipped) as rings in outSR 4326, with the spatial reference', async () => {
    const body = await q(28, `geometry=${envelope(9900, -100, 10100, 100)}&${ENVELOPE_QUERY}&outFields=FLD_ZONE&returnGeometry=true&outSR=4326`);
    expect(body.spatialReference).toEqual({ wkid: 4326, latestWkid: 4326 });
    expect(body.features).toEqual([{ attributes: { FLD_ZONE: 'X' }, geometry: { rings: ZONE_B.rings } }]);
  });

  it('returns polylines as paths and points as x, y', async () => {
    const lines = await q(16, `geometry=${envelope(-50, 150, 50, 250)}&${ENVELOPE_QUERY}&outFields=ELEV&returnGeometry=true&outSR=4326`);
    expect(lines.geometryType).toBe('esriGeometryPolyline');
    expect(lines.features).toEqual([{ attributes: { ELEV: 12 }, geometry: { paths: LINE_CROSSING.paths } }]);
    const points = await q(34, `geometry=${envelope(900, 0, 1100, 50)}&${ENVELOPE_QUERY}&outFields=CASENUMBER&returnGeometry=true&outSR=4326`);
    expect(points.geometryType).toBe('esriGeometryPoint');
    const [x, y] = LOMAS[0].point as Position;
    expect(points.features).toEqual([{ attributes: { CASENUMBER: '15-10-0021A' }, geometry: { x, y } }]);
  });

  it('projects geometry to Web Mercator for outSR 102100 / 3857', async () => {
    for (const outSR of ['102100', '3857']) {
      const body = await q(34, `geometry=${envelope(900, 0, 1100, 50)}&${ENVELOPE_QUERY}&outFields=OBJECTID&returnGeometry=true&outSR=${outSR}`);
      expect(body.spatialReference).toEqual({ wkid: 102100, latestWkid: 3857 });
      const [x, y] = lonLatToWebMercator(...(LOMAS[0].point as Position));
      expect(body.features[0].geometry).toEqual({ x, y });
    }
  });

  it('rounds coordinates to geometryPrecision decimals', async () => {
    const body = await q(
      28,
      `geometry=${envelope(100, 100, 200, 200)}&${ENVELOPE_QUERY}&outFields=OBJECTID&returnGeometry=true&outSR=4326&geometryPrecision=6`,
    );
    const expected = (ZONE_A.rings as Ring[]).map((r) => r.map(([x, y]) => [Number(x.toFixed(6)), Number(y.toFixed(6))]));
    expect(body.features[0].geometry.rings).toEqual(expected);
    expect(expected[0][0]).not.toEqual((ZONE_A.rings as Ring[])[0][0]);
  });

  it('drops vertices closer than maxAllowableOffset, keeping the ring closed', async () => {
    const query = `geometry=${envelope(-1001, -1001, -997, -997)}&${ENVELOPE_QUERY}&outFields=OBJECTID&returnGeometry=true&outSR=4326`;
    const whole = (await q(28, query)).features[0].geometry.rings[0] as Position[];
    expect(whole).toHaveLength(24);
    const thinned = (await q(28, `${query}&maxAllowableOffset=0.00001`)).features[0].geometry.rings[0] as Position[];
    expect(thinned.length).toBeLessThan(10);
    expect(thinned.length).toBeGreaterThanOrEqual(4);
    expect(thinned[0]).toEqual(whole[0]);
    expect(thinned[thinned.length - 1]).toEqual(whole[whole.length - 1]);
  });

  it('answers f=geojson with LineString and Point geometry', async () => {
    const lines = await fetchJson(`${nfhl.baseUrl}/16/query?geometry=${envelope(-50, 150, 50, 250)}&${ENVELOPE_QUERY}&outFields=ELEV&f=geojson`);
    expect(lines.features[0].geometry).toEqual({ type: 'LineString', coordinates: (LINE_CROSSING.paths as Position[][])[0] });
    const points = await fetchJson(`${nfhl.baseUrl}/34/query?geometry=${envelope(900, 0, 1100, 50)}&${ENVELOPE_QUERY}&outFields=OBJECTID&f=geojson`);
    expect(points.features[0].geometry).toEqual({ type: 'Point', coordinates: LOMAS[0].point });
  });

  it('still fails the whole query on an unknown outFields name on the new layers', async () => {
    const body = await q(16, `geometry=${envelope(-50, 150, 50, 250)}&${ENVELOPE_QUERY}&outFields=ELEV,STATION`);
    expect(body).toEqual({ error: { code: 400, message: 'Failed to execute query.', details: [] } });
    expect(await q(34, `geometry=${envelope(900, 0, 1100, 50)}&${ENVELOPE_QUERY}&outFields=CASE_NO`)).toEqual(body);
  });

  it('refuses an unknown spatial reference and a buffered envelope', async () => {
    expect((await q(28, `geometry=${envelope(100, 100, 200, 200)}&${ENVELOPE_QUERY}&outFields=OBJECTID&returnGeometry=true&outSR=2263`)).error.code).toBe(400);
    expect((await q(28, `geometry=${envelope(100, 100, 200, 200)}&geometryType=esriGeometryEnvelope&inSR=2263&outFields=OBJECTID`)).error.code).toBe(400);
    expect((await q(28, `geometry=${envelope(100, 100, 200, 200)}&${ENVELOPE_QUERY}&distance=10&units=esriSRUnit_Meter`)).error.code).toBe(400);
  });
});

describe('ArcGIS query protocol: maxRecordCount paging and an upstream that ignores where', () => {
  let paged: NfhlMapServerEmulator;
  let careless: NfhlMapServerEmulator;
  beforeAll(async () => {
    [paged, careless] = await Promise.all([
      NfhlMapServerEmulator.start({ map: OWN_MAP, maxRecordCount: 2 }),
      NfhlMapServerEmulator.start({ map: OWN_MAP, ignoreWhere: true }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([paged.close(), careless.close()]);
  });

  it('answers at most maxRecordCount features with exceededTransferLimit, and pages with resultOffset', async () => {
    const page = (extra: string) => fetchJson(`${paged.baseUrl}/28/query?where=1%3D1&outFields=OBJECTID&returnGeometry=false${extra}&f=json`);
    const first = await page('');
    expect(oids(first)).toEqual([1, 2]);
    expect(first.exceededTransferLimit).toBe(true);
    const second = await page('&resultOffset=2');
    expect(oids(second)).toEqual([3, 4]);
    expect(second.exceededTransferLimit).toBeUndefined();
    const one = await page('&resultOffset=1&resultRecordCount=1');
    expect(oids(one)).toEqual([2]);
    expect(one.exceededTransferLimit).toBe(true);
    expect(oids(await page('&resultRecordCount=50'))).toEqual([1, 2]); // capped at maxRecordCount
    expect(oids(await page('&resultOffset=9'))).toEqual([]);
    expect((await page('&resultOffset=-1')).error.code).toBe(400);
  });

  it('flags a truncated GeoJSON answer too, and counts and ids ignore the limit', async () => {
    const geojson = await fetchJson(`${paged.baseUrl}/34/query?where=1%3D1&outFields=OBJECTID&f=geojson`);
    expect(geojson.features).toHaveLength(2);
    expect(geojson.properties).toEqual({ exceededTransferLimit: true });
    expect(await fetchJson(`${paged.baseUrl}/34/query?where=1%3D1&returnCountOnly=true&f=json`)).toEqual({ count: 3 });
    expect((await fetchJson(`${paged.baseUrl}/34/query?where=1%3D1&returnIdsOnly=true&f=json`)).objectIds).toEqual([21, 22, 23]);
  });

  it('reports its maxRecordCount in the root and layer metadata', async () => {
    expect((await fetchJson(`${paged.baseUrl}?f=json`)).maxRecordCount).toBe(2);
    expect((await fetchJson(`${paged.baseUrl}/28?f=json`)).maxRecordCount).toBe(2);
  });

  it('with ignoreWhere returns every feature in the geometry whatever the where clause', async () => {
    const where = encodeURIComponent("FLD_ZONE = 'AE'");
    const all = `geometry=${envelope(-1100, -3000, 10_100, 3500)}&${ENVELOPE_QUERY}&outFields=FLD_ZONE&returnGeometry=false`;
    const honest = await fetchJson(`${paged.baseUrl}/28/query?${all}&where=${where}&f=json`);
    expect(honest.features).toEqual([{ attributes: { FLD_ZONE: 'AE' } }]);
    const ignored = await fetchJson(`${careless.baseUrl}/28/query?${all}&where=${where}&f=json`);
    expect(ignored.features.map((f: Json) => f.attributes.FLD_ZONE)).toEqual(['AE', 'X', 'VE', 'A']);
    const unparsable = await fetchJson(`${careless.baseUrl}/28/query?${all}&where=${encodeURIComponent("FLD_ZONE IN ('AE')")}&f=json`);
    expect(unparsable.features).toHaveLength(4);
  });
});

// ---------------------------------------------------------------------------------------------
// The other MapServers: FEMA preliminary and pending maps, USFWS CBRS
// ---------------------------------------------------------------------------------------------

const AVAILABILITY_FIELDS: ArcGisField[] = [
  { name: 'OBJECTID', type: 'esriFieldTypeOID', alias: 'OBJECTID' },
  { name: 'DFIRM_ID', type: 'esriFieldTypeString', alias: 'DFIRM_ID', length: 6 },
  { name: 'PRELM_CODE', type: 'esriFieldTypeString', alias: 'PRELM_CODE', length: 32 },
  { name: 'PRELM_ISSUE_DATE', type: 'esriFieldTypeDate', alias: 'PRELM_ISSUE_DATE', length: 8 },
  { name: 'CREATE_DATE', type: 'esriFieldTypeDate', alias: 'CREATE_DATE', length: 8 },
  { name: 'SHAPE', type: 'esriFieldTypeGeometry', alias: 'SHAPE' },
];
const ZONE_FIELDS: ArcGisField[] = ['OBJECTID', 'FLD_ZONE', 'ZONE_SUBTY', 'SFHA_TF'].map((name) => ({
  name,
  type: name === 'OBJECTID' ? 'esriFieldTypeOID' : 'esriFieldTypeString',
  alias: name,
}));
function floodMapService(serviceName: string, prefix: string, zoneName: string): ArcGisServiceData {
  return {
    serviceName,
    layers: [
      {
        id: 0,
        name: `${prefix} Data Availability`,
        geometryType: 'esriGeometryPolygon',
        fields: AVAILABILITY_FIELDS,
        displayField: 'DFIRM_ID',
        features: [
          feature(
            { OBJECTID: 1, DFIRM_ID: '22051C', PRELM_CODE: 'P1', PRELM_ISSUE_DATE: 1747306800000, CREATE_DATE: 1747306800000 },
            { rings: [square(0, 0, 2000)] },
          ),
        ],
      },
      {
        id: 28,
        name: `${prefix} Flood Hazard Zones`,
        geometryType: 'esriGeometryPolygon',
        fields: ZONE_FIELDS,
        displayField: 'FLD_ZONE',
        features: [
          feature({ OBJECTID: 7, FLD_ZONE: zoneName, ZONE_SUBTY: null, SFHA_TF: 'T' }, { rings: [square(0, 0, 300)] }),
          feature({ OBJECTID: 8, FLD_ZONE: 'X', ZONE_SUBTY: null, SFHA_TF: 'F' }, { rings: [square(600, 0, 300)] }),
        ],
      },
    ],
  };
}
const CBRS_DATA: ArcGisServiceData = {
  serviceName: CBRS_SERVICE,
  layers: [
    {
      id: 0,
      name: 'CBRS Units',
      geometryType: 'esriGeometryPolygon',
      fields: ['OBJECTID', 'Unit', 'Name', 'Unit_Type'].map((name) => ({
        name,
        type: name === 'OBJECTID' ? 'esriFieldTypeOID' : 'esriFieldTypeString',
        alias: name,
      })),
      displayField: 'Unit',
      features: [feature({ OBJECTID: 1, Unit: 'FL-64P', Name: 'Demo Point', Unit_Type: 'Otherwise Protected Area' }, { rings: [square(0, 0, 300)] })],
    },
    {
      id: 1,
      name: 'CBRS Prohibitions',
      geometryType: 'esriGeometryPolygon',
      fields: [
        { name: 'OBJECTID', type: 'esriFieldTypeOID', alias: 'OBJECTID' },
        { name: 'Unit', type: 'esriFieldTypeString', alias: 'Unit' },
        { name: 'CBRS_Type', type: 'esriFieldTypeString', alias: 'CBRS_Type' },
        { name: 'FI_Date', type: 'esriFieldTypeString', alias: 'FI_Date' },
        { name: 'SU_Date', type: 'esriFieldTypeString', alias: 'SU_Date' },
      ],
      displayField: 'Unit',
      features: [
        feature({ OBJECTID: 1, Unit: 'FL-64P', CBRS_Type: 'Otherwise Protected Area', FI_Date: '11/16/1990', SU_Date: 'Null' }, { rings: [square(0, 0, 300)] }),
        feature(
          { OBJECTID: 2, Unit: 'FL-65', CBRS_Type: 'System Unit', FI_Date: Date.UTC(1982, 9, 18), SU_Date: '10/18/1982' },
          { rings: [square(1000, 0, 300)] },
        ),
      ],
    },
    {
      id: 2,
      name: 'CBRS Buffer Zone',
      geometryType: 'esriGeometryPolygon',
      fields: [{ name: 'OBJECTID', type: 'esriFieldTypeOID', alias: 'OBJECTID' }],
      displayField: 'OBJECTID',
      features: [feature({ OBJECTID: 1 }, { rings: [square(2000, 0, 300)] })],
    },
  ],
};

describe('FEMA preliminary and pending, and USFWS CBRS MapServer emulators', () => {
  let preliminary: ArcGisServiceEmulator;
  let pending: ArcGisServiceEmulator;
  let cbrs: ArcGisServiceEmulator;
  beforeAll(async () => {
    [preliminary, pending, cbrs] = await Promise.all([
      ArcGisServiceEmulator.start(floodMapService(PRELIMINARY_NFHL_SERVICE, 'Preliminary', 'AE')),
      ArcGisServiceEmulator.start(floodMapService(PENDING_NFHL_SERVICE, 'Pending', 'X'), { maxRecordCount: 1 }),
      ArcGisServiceEmulator.start(CBRS_DATA),
    ]);
  });
  afterAll(async () => {
    await Promise.all([preliminary.close(), pending.close(), cbrs.close()]);
  });
  const at = (east: number, north: number) => `geometry=${offset(east, north).join(',')}&${POINT_QUERY}`;
  const layerNames = async (e: ArcGisServiceEmulator) =>
    Object.fromEntries(((await fetchJson(`${e.baseUrl}?f=json`)).layers as Json[]).map((l) => [l.name, l.id]));

  it('serve under the real base paths', () => {
    expect(new URL(preliminary.baseUrl).pathname).toBe('/arcgis/rest/services/PrelimPending/Prelim_NFHL/MapServer');
    expect(new URL(pending.baseUrl).pathname).toBe('/arcgis/rest/services/PrelimPending/Pending_NFHL/MapServer');
    expect(new URL(cbrs.baseUrl).pathname).toBe('/arcgis/rest/services/CoastalBarrierResourcesSystem/MapServer');
  });

  it('list their layers by name in the root document, with metadata', async () => {
    expect(await layerNames(preliminary)).toEqual({ 'Preliminary Data Availability': 0, 'Preliminary Flood Hazard Zones': 28 });
    expect(await layerNames(pending)).toEqual({ 'Pending Data Availability': 0, 'Pending Flood Hazard Zones': 28 });
    expect(await layerNames(cbrs)).toEqual({ 'CBRS Units': 0, 'CBRS Prohibitions': 1, 'CBRS Buffer Zone': 2 });
    const meta = await fetchJson(`${preliminary.baseUrl}/0?f=json`);
    expect(meta).toMatchObject({ id: 0, name: 'Preliminary Data Availability', geometryType: 'esriGeometryPolygon', maxRecordCount: 2000 });
    expect((meta.fields as Json[]).map((f) => f.name)).toEqual(['OBJECTID', 'DFIRM_ID', 'PRELM_CODE', 'PRELM_ISSUE_DATE', 'CREATE_DATE', 'SHAPE']);
    expect((await fetchJson(`${pending.baseUrl}/28?f=json`)).maxRecordCount).toBe(1);
  });

  it('answer a point query on each service', async () => {
    const avail = await fetchJson(`${preliminary.baseUrl}/0/query?${at(0, 0)}&outFields=PRELM_ISSUE_DATE&f=json`);
    expect(avail.features).toEqual([{ attributes: { PRELM_ISSUE_DATE: 1747306800000 } }]);
    expect((await fetchJson(`${preliminary.baseUrl}/28/query?${at(0, 0)}&outFields=FLD_ZONE&f=json`)).features).toEqual([{ attributes: { FLD_ZONE: 'AE' } }]);
    expect((await fetchJson(`${pending.baseUrl}/28/query?${at(0, 0)}&outFields=FLD_ZONE,SFHA_TF&f=json`)).features).toEqual([
      { attributes: { FLD_ZONE: 'X', SFHA_TF: 'T' } },
    ]);
    expect((await fetchJson(`${pending.baseUrl}/28/query?${at(300, 0)}&outFields=FLD_ZONE&f=json`)).features).toEqual([]);
  });

  it('serve CBRS FI_Date as the data holds it (a date string or epoch ms)', async () => {
    const opa = await fetchJson(`${cbrs.baseUrl}/1/query?${at(0, 0)}&outFields=Unit,CBRS_Type,FI_Date&f=json`);
    expect(opa.features).toEqual([{ attributes: { Unit: 'FL-64P', CBRS_Type: 'Otherwise Protected Area', FI_Date: '11/16/1990' } }]);
    const unit = await fetchJson(`${cbrs.baseUrl}/1/query?${at(1000, 0)}&outFields=Unit,CBRS_Type,FI_Date&f=json`);
    expect(unit.features).toEqual([{ attributes: { Unit: 'FL-65', CBRS_Type: 'System Unit', FI_Date: Date.UTC(1982, 9, 18) } }]);
    expect((await fetchJson(`${cbrs.baseUrl}/2/query?${at(2000, 0)}&outFields=OBJECTID&f=json`)).features).toEqual([{ attributes: { OBJECTID: 1 } }]);
    expect(await fetchJson(`${cbrs.baseUrl}/1/query?${at(0, 0)}&outFields=Unit,Name&f=json`)).toEqual({
      error: { code: 400, message: 'Failed to execute query.', details: [] },
    });
  });

  it('page with maxRecordCount like every MapServer emulator', async () => {
    const q = `geometry=${envelope(-1000, -1000, 1000, 1000)}&${ENVELOPE_QUERY}&outFields=OBJECTID&returnGeometry=false&f=json`;
    const first = await fetchJson(`${pending.baseUrl}/28/query?${q}`);
    expect(first).toMatchObject({ features: [{ attributes: { OBJECTID: 7 } }], exceededTransferLimit: true });
    const second = await fetchJson(`${pending.baseUrl}/28/query?${q}&resultOffset=1`);
    expect(second.features).toEqual([{ attributes: { OBJECTID: 8 } }]);
    expect(second.exceededTransferLimit).toBeUndefined();
    expect((await fetchJson(`${preliminary.baseUrl}/28/query?${q}`)).features).toHaveLength(2);
  });

  it('inject faults by layer name and count calls per layer', async () => {
    cbrs.resetCalls();
    cbrs.injectFault({ kind: 'arcgis-error', match: 'CBRS Prohibitions', times: 1 });
    const failed = await fetchJson(`${cbrs.baseUrl}/1/query?${at(0, 0)}&outFields=Unit&f=json`);
    expect(failed.error).toEqual({ code: 500, message: 'Error performing query operation', details: [] });
    expect((await fetchJson(`${cbrs.baseUrl}/2/query?${at(0, 0)}&outFields=OBJECTID&f=json`)).features).toEqual([]);
    expect((await fetchJson(`${cbrs.baseUrl}/1/query?${at(0, 0)}&outFields=Unit&f=json`)).features).toEqual([{ attributes: { Unit: 'FL-64P' } }]);
    expect(cbrs.queryCount('CBRS Prohibitions')).toBe(2);
    expect(cbrs.queryCount('CBRS Buffer Zone')).toBe(1);
    expect(cbrs.callCount({ layerName: 'CBRS Prohibitions' })).toBe(2);
    expect(() => cbrs.queryCount('CBRS Nope')).toThrow('no layer');
  });
});

describe('startEmulators: every upstream', () => {
  let emulators: RunningEmulators;
  beforeAll(async () => {
    emulators = await startEmulators({ latencyMs: 0 });
  });
  afterAll(async () => {
    await emulators.close();
  });

  it('gives the service a base URL for each', () => {
    const { env } = emulators;
    expect(Object.keys(env).sort()).toEqual([
      'BASEMAP_BASE_URL',
      'CBRS_BASE_URL',
      'ELEVATION_BASE_URL',
      'GEOCODER_BASE_URL',
      'NFHL_BASE_URL',
      'OPENFEMA_BASE_URL',
      'PENDING_NFHL_BASE_URL',
      'PRELIMINARY_NFHL_BASE_URL',
      'STRUCTURES_BASE_URL',
    ]);
    expect(env.PRELIMINARY_NFHL_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/arcgis\/rest\/services\/PrelimPending\/Prelim_NFHL\/MapServer$/);
    expect(env.PENDING_NFHL_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/arcgis\/rest\/services\/PrelimPending\/Pending_NFHL\/MapServer$/);
    expect(env.CBRS_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/arcgis\/rest\/services\/CoastalBarrierResourcesSystem\/MapServer$/);
    expect(env.OPENFEMA_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/open$/);
    // the layer itself, not its FeatureServer
    expect(env.STRUCTURES_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/FiaPA4ga0iQKduv3\/arcgis\/rest\/services\/USA_Structures_View\/FeatureServer\/0$/);
    expect(env.STRUCTURES_BASE_URL).toBe(emulators.structures.layerUrl);
    expect(new Set(Object.values(env).map((u) => new URL(u).port)).size).toBe(Object.keys(env).length);
  });

  it('serves the demo preliminary, pending and CBRS maps under the real layer names', async () => {
    const names = async (url: string) => ((await fetchJson(`${url}?f=json`)).layers as Json[]).map((l) => l.name);
    expect(await names(emulators.env.PRELIMINARY_NFHL_BASE_URL)).toEqual(
      expect.arrayContaining(['Preliminary Data Availability', 'Preliminary Flood Hazard Zones']),
    );
    expect(await names(emulators.env.PENDING_NFHL_BASE_URL)).toEqual(expect.arrayContaining(['Pending Data Availability', 'Pending Flood Hazard Zones']));
    expect(await names(emulators.env.CBRS_BASE_URL)).toEqual(expect.arrayContaining(['CBRS Units', 'CBRS Prohibitions', 'CBRS Buffer Zone']));
  });

  it('clears faults and call logs of every emulator at once', async () => {
    const all = [emulators.nfhl, emulators.preliminary, emulators.pending, emulators.cbrs, emulators.census, emulators.openfema, emulators.structures];
    for (const e of all) {
      e.resetCalls();
      e.injectFault({ kind: 'reset' });
      await fetch(`${e.baseUrl}?f=json`).catch(() => undefined);
    }
    expect(all.map((e) => [e.activeFaults.length, e.callCount()])).toEqual(all.map(() => [1, 1]));
    emulators.clearFaults();
    emulators.resetCalls();
    expect(all.map((e) => [e.activeFaults.length, e.callCount()])).toEqual(all.map(() => [0, 0]));
  });

  it('prints include= examples for every map-change and CBRS status and every nearby case', () => {
    const lines = exampleUrls('http://localhost:3000');
    const shown = (item: string) => (p: (typeof DEMO_PLACES)[number]) =>
      lines.some((l) => l.includes(`lat=${p.lat}&lon=${p.lon}&`) && new RegExp(`include=[a-z,]*${item}`).test(l));
    const statuses = (item: string, status: (p: (typeof DEMO_PLACES)[number]) => string) => [...new Set(DEMO_PLACES.filter(shown(item)).map(status))].sort();
    expect(statuses('preliminary', (p) => p.expect.mapChange.status)).toEqual(['none', 'pending', 'preliminary']);
    expect(statuses('cbrs', (p) => p.expect.coastalBarrier.status)).toEqual(['buffer', 'inside', 'outside']);
    for (const p of DEMO_PLACES) {
      if (p.expect.mapChange.status !== 'none') expect(shown('preliminary')(p)).toBe(true);
      if (p.expect.coastalBarrier.status !== 'outside') expect(shown('cbrs')(p)).toBe(true);
      if (p.expect.nearby) expect(shown('nearby')(p)).toBe(true);
    }
  });
});
