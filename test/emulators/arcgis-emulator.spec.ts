import { NfhlMapServerEmulator } from './arcgis-emulator';
import { demoPlace } from './demo-map';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

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
    const r = await get(`${nfhl.baseUrl}/28/query?geometry=${dc.lon},${dc.lat}&${POINT_QUERY}&outFields=FLD_ZONE,ZONE_SUBTY,SFHA_TF,STATIC_BFE,V_DATUM,LEN_UNIT,DEPTH&f=json`);
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
    const r = await get(`${nfhl.baseUrl}/3/query?geometry=${geometry}&geometryType=esriGeometryPoint&inSR=${encodeURIComponent('{"wkid":4326}')}&outFields=FIRM_PAN,PANEL,SUFFIX,EFF_DATE,PANEL_TYP&returnGeometry=false&f=json`);
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
      body: new URLSearchParams({ geometry: `${dc.lon},${dc.lat}`, geometryType: 'esriGeometryPoint', inSR: '4326', outFields: 'FLD_ZONE', returnGeometry: 'false', f: 'json' }),
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
