import * as http from 'node:http';
import { readFixture } from './arcgis-emulator';
import { tractGeoidAt } from './census-tracts';
import { DEMO_BLOCKS, DEMO_BUILDING_ADDRESSES, DEMO_CBRS, DEMO_MAP, demoPlace, featuresAt } from './demo-map';
import { lonLatToWebMercator, polygonIntersectsPoint, shapeDistanceMeters, type Position, type Ring } from './geometry';
import { DEMO_STRUCTURES, demoStructure, groundAreaSquareMetres } from './structure-footprints';
import { type RunningEmulators, exampleUrls, startEmulators } from './offline';
import { StructuresFeatureServerEmulator, UNABLE_TO_PERFORM_QUERY, USA_STRUCTURES_BASE_PATH } from './structures-emulator';

type Json = Record<string, any>;

const renton = demoPlace('renton-x-shaded');
const houstonHouse = demoStructure('houston-x-house-ae-street-point');
const streetPoint = houstonHouse.streetPoint as Position;

/** A buffered point query in lon/lat, as the building part asks it. */
const around = ([lon, lat]: Position, distanceM: number, extra = '') =>
  `geometry=${lon},${lat}&geometryType=esriGeometryPoint&inSR=4326&spatialRel=esriSpatialRelIntersects` +
  `&distance=${distanceM}&units=esriSRUnit_Meter&outFields=*&returnGeometry=true&outSR=4326&f=json${extra}`;

const idsOf = (answer: Json): string[] =>
  (answer.features as Json[]).map((f) => DEMO_STRUCTURES.find((s) => s.feature.attributes.OBJECTID === f.attributes.OBJECTID)?.id ?? '?');

describe('StructuresFeatureServerEmulator: USA Structures as an ArcGIS Online hosted FeatureServer', () => {
  let emulator: StructuresFeatureServerEmulator;
  const get = async (query: string, path = '/0/query'): Promise<{ status: number; type: string; body: Json }> => {
    const res = await fetch(`${emulator.baseUrl}${path}?${query}`);
    return { status: res.status, type: res.headers.get('content-type') ?? '', body: (await res.json()) as Json };
  };

  beforeAll(async () => {
    emulator = await StructuresFeatureServerEmulator.start();
  });
  afterAll(() => emulator.close());
  beforeEach(() => {
    emulator.clearFaults();
    emulator.resetCalls();
    emulator.maxRecordCount = 2000;
  });

  describe('metadata', () => {
    it('serves the service root and the layer document of the fixtures, under the FEMA organisation path', async () => {
      expect(emulator.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/FiaPA4ga0iQKduv3\/arcgis\/rest\/services\/USA_Structures_View\/FeatureServer$/);
      expect(USA_STRUCTURES_BASE_PATH).toBe('/FiaPA4ga0iQKduv3/arcgis/rest/services/USA_Structures_View/FeatureServer');
      expect((await get('f=json', '')).body).toEqual(readFixture('structures/usa-structures-featureserver.json'));
      const layer = (await get('f=json', '/0')).body;
      expect(layer).toEqual(readFixture('structures/usa-structures-layer-0.json'));
      expect(layer).toMatchObject({ id: 0, name: 'USA_Structures_B', geometryType: 'esriGeometryPolygon', maxRecordCount: 2000, capabilities: 'Query' });
      expect(layer.advancedQueryCapabilities).toMatchObject({ supportsPagination: true, supportsQueryWithDistance: true });
      expect(layer.fields.map((f: Json) => f.name)).toEqual([
        'OBJECTID',
        'BUILD_ID',
        'OCC_CLS',
        'PRIM_OCC',
        'SEC_OCC',
        'PROP_ADDR',
        'PROP_CITY',
        'PROP_ST',
        'PROP_ZIP',
        'OUTBLDG',
        'HEIGHT',
        'SQMETERS',
        'SQFEET',
        'H_ADJ_ELEV',
        'L_ADJ_ELEV',
        'FIPS',
        'CENSUSCODE',
        'PROD_DATE',
        'SOURCE',
        'USNG',
        'LONGITUDE',
        'LATITUDE',
        'IMAGE_NAME',
        'IMAGE_DATE',
        'VAL_METHOD',
        'REMARKS',
        'UUID',
        'STATE_FIPS',
        'Shape__Area',
        'Shape__Length',
      ]);
      // The real recording's fields, their types and lengths, in its order (a layer document adds nullable and editable).
      const recorded = readFixture('structures/usa-structures-query-atlanta-2024.json');
      expect(layer.fields.map(({ nullable: _nullable, editable: _editable, ...asAnswered }: Json) => asAnswered)).toEqual(recorded.fields);
    });

    it('orders the layer document as a recorded ArcGIS Online hosted view layer does, with its query capabilities', async () => {
      const recorded = readFixture('structures/arcgis-online-hosted-view-layer.excerpt.json');
      const layer = (await get('f=json', '/0')).body;
      const order = recorded.memberOrder as string[];
      const positions = Object.keys(layer).map((key) => order.indexOf(key));
      expect(positions).not.toContain(-1);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(layer.advancedQueryCapabilities).toEqual(recorded.advancedQueryCapabilities);
      expect(Object.keys(layer.fields.find((f: Json) => f.name === 'PROP_ADDR'))).toEqual(Object.keys(recorded.stringField as Json));
    });

    it('follows a lowered maxRecordCount in both documents, and has no export operation', async () => {
      emulator.maxRecordCount = 3;
      expect((await get('f=json', '')).body.maxRecordCount).toBe(3);
      expect((await get('f=json', '/0')).body.maxRecordCount).toBe(3);
      const res = await fetch(`${emulator.baseUrl}/export?bbox=0,0,1,1&f=json`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
    });
  });

  describe('buffered point queries', () => {
    it('finds exactly the buildings within the distance, measured to each footprint, and their rings round-trip', async () => {
      // the Renton demo place is 7.52 m from the main house and 14.0 m from the second one
      const near = await get(around([renton.lon, renton.lat], 10));
      expect(near.status).toBe(200);
      expect(idsOf(near.body)).toEqual(['renton-main-house']);
      const wider = (await get(around([renton.lon, renton.lat], 15))).body;
      expect(idsOf(wider)).toEqual(['renton-main-house', 'renton-second-house']);
      for (const feature of wider.features as Json[]) {
        const structure = DEMO_STRUCTURES.find((s) => s.feature.attributes.OBJECTID === feature.attributes.OBJECTID);
        expect(feature.geometry).toEqual({ rings: structure?.feature.rings });
        expect(feature.attributes).toEqual(structure?.feature.attributes);
      }
      expect(wider.spatialReference).toEqual({ wkid: 4326, latestWkid: 4326 });
      expect((await get(around([renton.lon, renton.lat], 7))).body.features).toEqual([]);
    });

    it('measures from a street point outside the footprint to its nearest edge (36.41 m here), not to its centre', async () => {
      expect(shapeDistanceMeters(houstonHouse.feature, ...streetPoint)).toBeCloseTo(36.41, 2);
      expect(idsOf((await get(around(streetPoint, 36))).body)).toEqual(['houston-across-the-street']);
      expect(idsOf((await get(around(streetPoint, 36.5))).body)).toEqual(['houston-x-house-ae-street-point', 'houston-across-the-street']);
    });

    it('answers in the hosted shape of a recorded ArcGIS Online answer: its members in its order, its field entries', async () => {
      const recorded = readFixture('structures/arcgis-online-hosted-query.excerpt.json');
      emulator.maxRecordCount = 1;
      const answer = (await get(around([renton.lon, renton.lat], 30))).body;
      expect(Object.keys(answer)).toEqual(Object.keys(recorded));
      expect(answer).toMatchObject({
        objectIdFieldName: 'OBJECTID',
        uniqueIdField: { name: 'OBJECTID', isSystemMaintained: true },
        globalIdFieldName: '',
        geometryProperties: recorded.geometryProperties as Json,
        geometryType: 'esriGeometryPolygon',
        exceededTransferLimit: true,
      });
      const recordedFields = recorded.fields as Json[];
      const keysOf = (fields: Json[], name: string) => Object.keys(fields.find((f) => f.name === name) as Json);
      expect(keysOf(answer.fields, 'PROP_ADDR')).toEqual(keysOf(recordedFields, 'PARK_NAME'));
      expect(keysOf(answer.fields, 'SQMETERS')).toEqual(keysOf(recordedFields, 'Shape__Area'));
      expect(keysOf(answer.fields, 'OBJECTID')).toEqual(keysOf(recordedFields, 'FID'));
    });

    it("reads plain coordinates and answers in the layer's Web Mercator when inSR and outSR are not given", async () => {
      const house = demoStructure('fernandina-cbrs-house');
      const [x, y] = lonLatToWebMercator(-81.4626, 30.6697);
      const answer = (await get(`geometry=${x},${y}&geometryType=esriGeometryPoint&outFields=OBJECTID&f=json`)).body;
      expect(idsOf(answer)).toEqual(['fernandina-cbrs-house']);
      expect(answer.spatialReference).toEqual({ wkid: 102100, latestWkid: 3857 });
      const expected = (house.feature.rings as Ring[])[0].map(([lon, lat]) => lonLatToWebMercator(lon, lat));
      const [ring] = answer.features[0].geometry.rings as Position[][];
      ring.forEach((vertex, i) => {
        expect(vertex[0]).toBeCloseTo(expected[i][0], 6);
        expect(vertex[1]).toBeCloseTo(expected[i][1], 6);
      });
    });

    it('answers f=geojson as a FeatureCollection of lon/lat polygons (outer rings counter-clockwise, as GeoJSON has them)', async () => {
      const res = await get(around([renton.lon, renton.lat], 10).replace('f=json', 'f=geojson'));
      expect(res.type).toContain('application/geo+json');
      expect(res.body.type).toBe('FeatureCollection');
      const house = demoStructure('renton-main-house');
      expect(res.body.features).toEqual([
        {
          type: 'Feature',
          id: house.feature.attributes.OBJECTID,
          geometry: { type: 'Polygon', coordinates: [[...(house.feature.rings as Ring[])[0]].reverse()] },
          properties: house.feature.attributes,
        },
      ]);
    });
  });

  describe('envelope, where, outFields, counts and pages', () => {
    const sacramento = 'geometry=-121.5140,38.6395,-121.5120,38.6405&geometryType=esriGeometryEnvelope&inSR=4326&outSR=4326&f=json';

    it('finds the buildings an envelope touches, narrowed by an equality where and cut to outFields', async () => {
      expect(idsOf((await get(`${sacramento}&outFields=OBJECTID`)).body)).toEqual(['sacramento-house', 'sacramento-outbuilding']);
      const house = demoStructure('sacramento-house').feature.bbox;
      const tract = tractGeoidAt('06', '067', (house.xmin + house.xmax) / 2, (house.ymin + house.ymax) / 2);
      const sameBlock = (await get(`${sacramento}&where=${encodeURIComponent(`CENSUSCODE = '${tract}'`)}&outFields=PROP_ADDR,OUTBLDG&returnGeometry=false`))
        .body;
      expect(sameBlock.features).toEqual([{ attributes: { PROP_ADDR: null, OUTBLDG: null } }, { attributes: { PROP_ADDR: null, OUTBLDG: 'Yes' } }]);
      expect(sameBlock.fields.map((f: Json) => f.name)).toEqual(['PROP_ADDR', 'OUTBLDG']);
      const outbuildings = (await get(`where=${encodeURIComponent("OUTBLDG = 'Yes'")}&outFields=OBJECTID&returnGeometry=false&f=json`)).body;
      expect(idsOf(outbuildings)).toEqual(['sacramento-outbuilding']);
    });

    it('counts with returnCountOnly, whatever maxRecordCount is', async () => {
      emulator.maxRecordCount = 2;
      expect((await get('where=1=1&returnCountOnly=true&f=json')).body).toEqual({ count: DEMO_STRUCTURES.length });
      expect((await get(`where=${encodeURIComponent("CENSUSCODE = '53033025300'")}&returnCountOnly=true&f=json`)).body).toEqual({ count: 2 });
    });

    it('pages with resultOffset / resultRecordCount; exceededTransferLimit until the last page', async () => {
      emulator.maxRecordCount = 3;
      const seen: number[] = [];
      const flags: boolean[] = [];
      for (let offset = 0; offset < DEMO_STRUCTURES.length; offset += 3) {
        const page = (await get(`where=1=1&outFields=OBJECTID&returnGeometry=false&resultOffset=${offset}&f=json`)).body;
        seen.push(...(page.features as Json[]).map((f) => f.attributes.OBJECTID as number));
        flags.push(page.exceededTransferLimit === true);
      }
      expect(seen).toEqual(DEMO_STRUCTURES.map((s) => s.feature.attributes.OBJECTID));
      expect(flags).toEqual([true, true, true, true, false]);
      const two = (await get('where=1=1&outFields=OBJECTID&returnGeometry=false&resultOffset=11&resultRecordCount=2&f=json')).body;
      expect(two.features).toEqual([{ attributes: { OBJECTID: 12 } }, { attributes: { OBJECTID: 13 } }]);
      expect(two.exceededTransferLimit).toBeUndefined();
    });
  });

  describe('errors inside HTTP 200', () => {
    it.each([
      ['an unknown outFields name', 'where=1=1&outFields=NO_SUCH_FIELD&f=json'],
      ['a where it cannot read', `where=${encodeURIComponent('PROP_ADDR LIKE 1')}&f=json`],
      ['a malformed geometry', 'geometry=not-a-point&geometryType=esriGeometryPoint&f=json'],
      ['a negative distance', `${around([renton.lon, renton.lat], -5)}`],
      ['an unknown outSR', 'where=1=1&outSR=2263&f=json'],
      ['neither where nor geometry', 'outFields=*&f=json'],
    ])('%s: {"error":{"code":400,"message":"","details":["Unable to perform query. ..."]}}', async (_what, query) => {
      const res = await get(query);
      expect(res.status).toBe(200);
      expect(res.type).toContain('application/json');
      expect(res.body).toEqual(UNABLE_TO_PERFORM_QUERY);
      expect(res.body).toEqual({ error: { code: 400, message: '', details: ['Unable to perform query. Please check your parameters.'] } });
    });
  });

  describe('faults and call counts', () => {
    const query = () => fetch(`${emulator.layerQueryUrl}?${around([renton.lon, renton.lat], 30)}`);

    it('delay: waits, then answers normally', async () => {
      emulator.injectFault({ kind: 'delay', ms: 150, times: 1 });
      const t0 = Date.now();
      const res = await query();
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
      expect(idsOf((await res.json()) as Json)).toEqual(['renton-main-house', 'renton-second-house']);
    });

    it('reset: the connection closes without an answer, then the next call answers', async () => {
      emulator.injectFault({ kind: 'reset', times: 1 });
      await expect(query()).rejects.toThrow();
      expect((await query()).status).toBe(200);
      expect(emulator.calls.map((c) => c.fault)).toEqual(['reset', undefined]);
    });

    it('http-status: a 5xx with an HTML page', async () => {
      emulator.injectFault({ kind: 'http-status', status: 503, times: 1 });
      const res = await query();
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('503');
    });

    it('html: an HTML page in HTTP 200', async () => {
      emulator.injectFault({ kind: 'html', times: 1 });
      const res = await query();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('<html');
    });

    it('malformed-json: 200 application/json that does not parse', async () => {
      emulator.injectFault({ kind: 'malformed-json', times: 1 });
      const res = await query();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      const text = await res.text();
      expect(() => JSON.parse(text)).toThrow();
    });

    it("arcgis-error: ArcGIS Online's timeout answer in HTTP 200, for queries near one place only", async () => {
      emulator.injectFault({ kind: 'arcgis-error', ...UNABLE_TO_PERFORM_QUERY.error, match: { near: [renton.lon, renton.lat], withinM: 50 } });
      const res = await query();
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(UNABLE_TO_PERFORM_QUERY);
      expect(idsOf((await get(around(streetPoint, 45))).body)).toEqual(['houston-x-house-ae-street-point', 'houston-across-the-street']);
      expect(emulator.calls.map((c) => c.fault)).toEqual(['arcgis-error', undefined]);
    });

    it('endless-body: the first half of the real answer, then filler until the client gives up', async () => {
      emulator.injectFault({ kind: 'endless-body', times: 1 });
      const enough = 1024 * 1024;
      const { res, head, read } = await new Promise<{ res: http.IncomingMessage; head: string; read: number }>((resolve, reject) => {
        const req = http.get(`${emulator.layerQueryUrl}?${around([renton.lon, renton.lat], 30)}`, (answer) => {
          const chunks: Buffer[] = [];
          let total = 0;
          answer.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            total += chunk.length;
            if (total >= enough) {
              req.destroy();
              resolve({ res: answer, head: Buffer.concat(chunks).subarray(0, 21).toString('utf8'), read: total });
            }
          });
          answer.on('end', () => reject(new Error(`the body ended after ${total} bytes`)));
        });
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(head).toBe('{"objectIdFieldName":');
      await emulator.endlessBodiesStopped();
      expect(emulator.calls[0].fault).toBe('endless-body');
      expect(emulator.calls[0].bodyBytes).toBeGreaterThanOrEqual(read);
    });

    it('counts every call by endpoint and layer, with the point of each query', async () => {
      await get('f=json', '');
      await get('f=json', '/0');
      await get(around([renton.lon, renton.lat], 30));
      await get(around(streetPoint, 45));
      expect(emulator.queryCount()).toBe(2);
      expect(emulator.callCount({ endpoint: 'root' })).toBe(1);
      expect(emulator.callCount({ endpoint: 'layer', layerName: 'USA_Structures_B' })).toBe(1);
      expect(emulator.callsMatching({ endpoint: 'query' }).map((c) => c.point)).toEqual([[renton.lon, renton.lat], streetPoint]);
      const control = (await (await fetch(emulator.controlUrl)).json()) as Json;
      expect(control.calls).toEqual({ total: 4, byEndpoint: { root: 1, layer: 1, query: 2 }, byLayer: { USA_Structures_B: 3 }, faulted: 0 });
    });
  });
});

describe('DEMO_STRUCTURES against the demo flood map', () => {
  const zones = DEMO_MAP.nfhl.floodHazardZones;
  const zoneIdsAt = ([lon, lat]: Position) =>
    zones.filter((z) => polygonIntersectsPoint(z.rings as Ring[], lon, lat)).map((z) => z.attributes.OBJECTID as number);
  const cornersOf = (id: string) => (demoStructure(id).feature.rings as Ring[])[0].slice(0, 4);

  it('stand where their purpose says', () => {
    const wholly = (id: string, zoneIds: number[]) => cornersOf(id).forEach((corner) => expect(zoneIdsAt(corner)).toEqual(zoneIds));
    wholly('houston-x-house-ae-street-point', [6430134]);
    expect(zoneIdsAt(streetPoint)).toEqual([6430135]);
    wholly('houston-floodway-house', [6430101]);
    wholly('renton-main-house', [6430130]);
    wholly('renton-second-house', [6430130]);
    wholly('sacramento-house', [6430116]);
    wholly('sacramento-outbuilding', [6430116]);
    wholly('fernandina-cbrs-house', [6430149]);
    wholly('charleston-not-participating', [6430145]);
    wholly('willow-creek-emergency-program', [6430160]);
    // west corners in X shaded only, east corners in X shaded and the AE inside it
    expect(cornersOf('menominee-straddles-ae-x').map(zoneIdsAt)).toEqual([[6430121], [6430121], [6430121, 6430122], [6430121, 6430122]]);
    // no zone polygon under it; its east half is beyond the NFHL Availability polygon
    cornersOf('dc-partly-unmapped').forEach((corner) => expect(zoneIdsAt(corner)).toEqual([]));
    const availability = DEMO_MAP.nfhl.availability.filter((a) => a.attributes.OBJECTID === 3100)[0];
    expect(cornersOf('dc-partly-unmapped').map(([lon, lat]) => polygonIntersectsPoint(availability.rings as Ring[], lon, lat))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('straddle their edges in the shares their purpose says (the edges are meridians, the footprints upright rectangles)', () => {
    const eastOf = (id: string, edgeLon: number) => {
      const { xmin, xmax } = demoStructure(id).feature.bbox;
      return (xmax - edgeLon) / (xmax - xmin);
    };
    const polygon = (features: typeof zones, objectId: number) => features.filter((f) => f.attributes.OBJECTID === objectId)[0];
    expect(eastOf('menominee-straddles-ae-x', polygon(zones, 6430122).bbox.xmin)).toBeCloseTo(0.4, 2);
    expect(eastOf('dc-partly-unmapped', polygon(DEMO_MAP.nfhl.availability, 3100).bbox.xmax)).toBeCloseTo(0.5, 2);
  });

  it('stand inside CBRS unit FL-05 (the Fernandina house) and keep house sizes', () => {
    const units = (DEMO_CBRS.layers.find((l) => l.name === 'CBRS Units')?.features ?? []).filter((u) =>
      cornersOf('fernandina-cbrs-house').every(([lon, lat]) => polygonIntersectsPoint(u.rings as Ring[], lon, lat)),
    );
    expect(units.map((u) => u.attributes.Unit)).toEqual(['FL-05']);
    for (const s of DEMO_STRUCTURES) {
      const area = groundAreaSquareMetres((s.feature.rings as Ring[])[0]);
      expect(s.feature.attributes.SQMETERS).toBeCloseTo(area, 2);
      if (s.feature.attributes.OUTBLDG === null) {
        expect(area).toBeGreaterThanOrEqual(80);
        expect(area).toBeLessThanOrEqual(400);
      }
    }
  });

  it('have unique ids, OBJECTIDs, BUILD_IDs and UUIDs, and only NGA footprints carry a height', () => {
    const unique = (values: unknown[]) => new Set(values).size === values.length;
    expect(unique(DEMO_STRUCTURES.map((s) => s.id))).toBe(true);
    for (const field of ['OBJECTID', 'BUILD_ID', 'UUID']) expect(unique(DEMO_STRUCTURES.map((s) => s.feature.attributes[field]))).toBe(true);
    for (const s of DEMO_STRUCTURES) expect(s.feature.attributes.HEIGHT !== null).toBe(s.feature.attributes.SOURCE === 'NGA');
  });
});

describe('the demo buildings in startEmulators() and offline mode', () => {
  let emulators: RunningEmulators;
  beforeAll(async () => {
    emulators = await startEmulators({ latencyMs: 0 });
  });
  afterAll(async () => {
    await emulators.close();
  });

  const STD = 'benchmark=Public_AR_Current&vintage=Current_Current&format=json';
  const geocode = async (address: string): Promise<Json[]> =>
    ((await (await fetch(`${emulators.env.GEOCODER_BASE_URL}/locations/onelineaddress?address=${encodeURIComponent(address)}&${STD}`)).json()) as Json).result
      .addressMatches;
  /** The buildings within 40 m (STRUCTURE_SEARCH_M's default) of a point, asked as the service asks them, at the URL it is given. */
  const buildingsNear = async ([lon, lat]: Position, distanceM = 40): Promise<string[]> =>
    idsOf(
      (await (
        await fetch(
          `${emulators.env.STRUCTURES_BASE_URL}/query?geometry=${lon},${lat}&geometryType=esriGeometryPoint&inSR=4326&distance=${distanceM}` +
            '&units=esriSRUnit_Meter&spatialRel=esriSpatialRelIntersects&outFields=OBJECTID,PROP_ADDR&returnGeometry=true&outSR=4326&f=json',
        )
      ).json()) as Json,
    );
  const pointOf = (match: Json): Position => [match.coordinates.x, match.coordinates.y];

  it("geocodes the X house's address to its street point in the AE, in the X house's block, with a house across the street nearer", async () => {
    const [match, ...others] = await geocode(DEMO_BUILDING_ADDRESSES.houstonXHouse.address);
    expect(others).toEqual([]);
    expect(pointOf(match)).toEqual(streetPoint);
    expect(match.matchedAddress).toBe('5210 W 34TH ST, HOUSTON, TX, 77092');
    expect(match.addressComponents).toMatchObject({ preDirection: 'W', streetName: '34TH', suffixType: 'ST' });
    expect(await buildingsNear(streetPoint)).toEqual(['houston-x-house-ae-street-point', 'houston-across-the-street']);
    expect(houstonHouse.feature.attributes.PROP_ADDR).toBeNull();
    expect([houstonHouse.block.geoid, demoStructure('houston-across-the-street').block.geoid]).toEqual([
      DEMO_BLOCKS.houston34thWest.geoid,
      DEMO_BLOCKS.houston34thEast.geoid,
    ]);
    // the point answer there is AE, the house is wholly in X
    expect(featuresAt(DEMO_MAP.nfhl.floodHazardZones, ...streetPoint).map((z) => z.attributes.FLD_ZONE)).toEqual(['AE']);
  });

  it('geocodes the other addresses offline mode looks buildings up by to a point with their buildings within 40 m', async () => {
    const at = async (address: string) => buildingsNear(pointOf((await geocode(address))[0]));
    // inside the floodway house
    expect(await at('2100 Memorial Dr, Houston, TX 77007')).toEqual(['houston-floodway-house']);
    // two houses at one address, 7.52 m and 14.0 m away
    expect(await at('200 Mill Ave S, Renton, WA 98057')).toEqual(['renton-main-house', 'renton-second-house']);
    // inside the house, its outbuilding 13.48 m away
    expect(await at('2000 Natomas Park Dr, Sacramento, CA 95833')).toEqual(['sacramento-house', 'sacramento-outbuilding']);
  });

  it('offline mode looks every demo building up by a point inside it, and by its address where the Census emulator knows it', () => {
    const lines = exampleUrls('http://localhost:3000');
    for (const building of DEMO_STRUCTURES) {
      const at = lines.indexOf(lines.filter((line) => line.startsWith(`# building ${building.id}: `))[0]);
      expect({ id: building.id, comment: lines[at] }).toEqual({ id: building.id, comment: `# building ${building.id}: ${building.purpose}` });
      const query = new URLSearchParams(lines[at + 1].slice(lines[at + 1].indexOf('?') + 1, -1));
      expect(query.get('include')).toBe('structure');
      const inside = polygonIntersectsPoint(building.feature.rings as Ring[], Number(query.get('lon')), Number(query.get('lat')));
      expect({ id: building.id, inside }).toEqual({ id: building.id, inside: true });
    }
    const byAddress = lines.filter((line) => line.includes('address=') && line.endsWith("&include=structure'"));
    expect(byAddress.map((line) => decodeURIComponent(/address=([^&]+)/.exec(line)?.[1] ?? ''))).toEqual([
      '5210 W 34th St, Houston, TX 77092',
      '2100 Memorial Dr, Houston, TX 77007',
      '200 Mill Ave S, Renton, WA 98057',
      '2000 Natomas Park Dr, Sacramento, CA 95833',
    ]);
    // the buildings come before the map picture and report, which end the list
    expect(lines.findIndex((line) => line.startsWith('# houston-nearby-hazards as a map picture'))).toBe(lines.length - 3);
  });
});
