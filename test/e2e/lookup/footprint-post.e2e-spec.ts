/**
 * POST /flood-zone against the emulators: the lookup with a caller's footprint. Its answer is GET /flood-zone's for
 * the same parameters; its parameters are checked by the GET rules in the GET order, then the footprint rule by rule
 * (400 INVALID_FOOTPRINT naming the rule); the body is JSON of at most 256 KiB.
 */
import CheapRuler from 'cheap-ruler';
import { DEMO_ADDRESSES, demoPlace } from '../../emulators';
import type { ApiResponse } from '../../support/api-client';
import { Stack, expectErrorEnvelope, startStack } from '../../support/stack';

type Position = [number, number];

const dc = demoPlace('dc-white-house-ae');
const ruler = new CheapRuler(dc.lat, 'meters');
/** A position `eastM`, `northM` metres from the demo point. */
const at = (eastM: number, northM: number) => ruler.offset([dc.lon, dc.lat], eastM, northM) as Position;
/** A closed rectangle `widthM` by `depthM` centred `eastM` east of the point. */
const rectangle = (widthM: number, depthM: number, eastM = 0): Position[] => {
  const [w, d] = [widthM / 2, depthM / 2];
  return [at(eastM - w, -d), at(eastM - w, d), at(eastM + w, d), at(eastM + w, -d), at(eastM - w, -d)];
};
/** The White House, about 52 by 26 m, around the point. */
const HOUSE = { type: 'Polygon', coordinates: [rectangle(52, 26)] };
const POINT = { lat: dc.lat, lon: dc.lon };
const MAX_BODY_BYTES = 256 * 1024;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function post(
  body: string | ReadableStream<Uint8Array>,
  headers: Record<string, string> = { 'content-type': 'application/json' },
  query = '',
): Promise<ApiResponse> {
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers, body, ...(typeof body === 'string' ? {} : { duplex: 'half' }) };
  const response = await fetch(`${stack.url}/flood-zone${query}`, init);
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: response.status, headers: response.headers, text, body: isJson ? JSON.parse(text) : undefined };
}

const postJson = (body: unknown) => post(JSON.stringify(body));

/** A POST answer less its building (the given footprint's, which the GET for the same parameters has not): the rest is the GET's. */
function withoutGivenBuilding(body: ApiResponse['body']): ApiResponse['body'] {
  expect(body.result.structure.match).toBe('given');
  return { ...body, result: { ...body.result, structure: null } };
}

function expectRefused(res: ApiResponse, status: number, code: string, message: string): void {
  expectErrorEnvelope(res, status, code);
  expect(res.body.error).toBe(message);
}

describe('answered as GET /flood-zone answers the same parameters', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['lat and lon', POINT, `lat=${dc.lat}&lon=${dc.lon}`],
    ['lat and lon as text', { lat: String(dc.lat), lon: String(dc.lon) }, `lat=${dc.lat}&lon=${dc.lon}`],
    ['an address', { address: DEMO_ADDRESSES.whiteHouse }, `address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}`],
    ['include and radius', { ...POINT, include: ['nearby', 'cbrs'], radius: 300 }, `lat=${dc.lat}&lon=${dc.lon}&include=nearby,cbrs&radius=300`],
    ['an empty include list', { ...POINT, include: [] }, `lat=${dc.lat}&lon=${dc.lon}`],
  ])('%s', async (_what, parameters, query) => {
    const get = await stack.get(`/flood-zone?${query}`);
    expect(get.status).toBe(200);
    const res = await postJson({ ...parameters, footprint: HOUSE });
    expect(res.status).toBe(200);
    expect(withoutGivenBuilding(res.body)).toEqual(get.body);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // Each answer is its body's own: not stored by HTTP caches, no entity tag.
    expect([res.headers.get('cache-control'), res.headers.get('etag')]).toEqual(['no-store', null]);
  });

  it('takes a Feature of a MultiPolygon, with properties, and a footprint the point lies outside of', async () => {
    const get = await stack.get(`/flood-zone?lat=${dc.lat}&lon=${dc.lon}`);
    const feature = {
      type: 'Feature',
      properties: { name: 'house and garage' },
      geometry: { type: 'MultiPolygon', coordinates: [[rectangle(20, 20, 100)], [rectangle(6, 6, 130)]] },
    };
    const res = await postJson({ ...POINT, footprint: feature });
    expect([res.status, withoutGivenBuilding(res.body)]).toEqual([200, get.body]);
  });

  it('a footprint with a hole, wound either way', async () => {
    const get = await stack.get(`/flood-zone?lat=${dc.lat}&lon=${dc.lon}`);
    for (const hole of [rectangle(20, 10), [...rectangle(20, 10)].reverse()]) {
      const res = await postJson({ ...POINT, footprint: { type: 'Polygon', coordinates: [rectangle(52, 26), hole] } });
      expect([res.status, withoutGivenBuilding(res.body)]).toEqual([200, get.body]);
    }
  });
});

describe("the building is the given footprint, measured against FEMA's zones", () => {
  /** A closed `widthM` by `depthM` rectangle centred `eastM` east of [lon, lat]. */
  const drawnAt = ([lon, lat]: Position, widthM: number, depthM: number, eastM: number): Position[] => {
    const local = new CheapRuler(lat, 'meters');
    const corner = (east: number, north: number) => local.offset([lon, lat], eastM + east, north) as Position;
    const [w, d] = [widthM / 2, depthM / 2];
    return [corner(-w, -d), corner(-w, d), corner(w, d), corner(w, -d), corner(-w, -d)];
  };
  // Menominee, MI: the west edge of an AE polygon (BFE 584) lying inside a shaded X, at lon -87.587273.
  const MENOMINEE_EDGE: Position = [-87.587273, 45.1];

  it('a footprint drawn across an AE edge: the building in the SFHA by its share in the AE, and USA Structures not asked', async () => {
    stack.emulators.resetCalls();
    const footprint = { type: 'Polygon', coordinates: [drawnAt(MENOMINEE_EDGE, 20, 10, -5)] };
    const res = await postJson({ lat: 45.1, lon: -87.587333, footprint });
    expect(res.status).toBe(200);
    const { footprint: echoed, ...structure } = res.body.result.structure;
    expect(echoed).toEqual(footprint);
    // 5 m of its 20 m width lies east of the edge, in the AE
    expect(structure).toEqual({
      match: 'given',
      distanceM: 0,
      buildId: null,
      occupancy: null,
      primaryOccupancy: null,
      footprintAreaSqFt: 2153,
      heightM: null,
      imageDate: null,
      zones: [
        { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 584, areaSqFt: 540, sharePercent: 25.1 },
        {
          floodZone: 'X',
          zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD',
          inSpecialFloodHazardArea: false,
          staticBaseFloodElevationFt: null,
          areaSqFt: 1612,
          sharePercent: 74.9,
        },
      ],
      unmappedSharePercent: 0,
      buildingInSfha: true,
      highestBfeFt: 584,
      firmPanels: ['26109C0263D'],
      candidates: [],
      source: 'Footprint given by the caller',
      note: '25.1% of the given footprint lies in zone AE: a building any part of which is in the SFHA is in the SFHA.',
    });
    expect(stack.emulators.structures.callCount()).toBe(0);
  });

  it('a footprint partly off the map: whether the building is in the SFHA is unknown, never no', async () => {
    const footprint = { type: 'Polygon', coordinates: [drawnAt([-77.029579, 38.899], 20, 15, 0)] };
    const res = await postJson({ lat: 38.899, lon: -77.02965, footprint });
    expect(res.status).toBe(200);
    expect(res.body.result.structure).toMatchObject({ match: 'given', zones: [], unmappedSharePercent: 100, buildingInSfha: null });
  });

  it('an address with a footprint 1.5 km from where it is geocoded: refused once the address is found, before FEMA is asked', async () => {
    const geocoded = (await stack.get(`/flood-zone?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}`)).body.location;
    stack.emulators.resetCalls();
    const footprint = { type: 'Polygon', coordinates: [drawnAt([geocoded.lon, geocoded.lat], 20, 20, 1510)] };
    const res = await postJson({ address: DEMO_ADDRESSES.whiteHouse, footprint });
    expectRefused(
      res,
      400,
      'INVALID_FOOTPRINT',
      `footprint: it lies 1,500 m from the location (lat ${geocoded.lat}, lon ${geocoded.lon}); it must lie within 1,000 m of it (GeoJSON positions are [longitude, latitude], longitude first)`,
    );
    expect(stack.emulators.nfhl.callCount()).toBe(0);
  });
});

describe("the GET's parameter rules, in the GET's order, before the footprint", () => {
  it.each<[string, number, string, Record<string, unknown> | string, string]>([
    ['no location', 400, 'INVALID_PARAMETERS', {}, 'Give an address, or both lat and lon.'],
    ['both kinds', 400, 'INVALID_PARAMETERS', { address: 'x', lat: 1, lon: 2 }, 'Give either address, or lat and lon, not both.'],
    ['an empty address', 400, 'INVALID_PARAMETERS', { address: '  ' }, 'address must not be empty'],
    ['an address that is no text', 400, 'INVALID_PARAMETERS', { address: 1600 }, 'address must be text'],
    ['an address given as a list', 400, 'INVALID_PARAMETERS', { address: ['a', 'b'] }, 'address must be text'],
    ['lat without lon', 400, 'INVALID_PARAMETERS', { lat: 1 }, 'lat and lon must be given together.'],
    ['lat as hex text', 400, 'INVALID_PARAMETERS', { lat: '0x1', lon: 2 }, 'lat must be a plain decimal number such as 38.8987, given once'],
    ['lat true', 400, 'INVALID_PARAMETERS', { lat: true, lon: 2 }, 'lat must be a plain decimal number such as 38.8987'],
    ['lat 91', 422, 'COORDINATES_OUT_OF_RANGE', { lat: 91, lon: 2 }, 'lat must be between -90 and 90'],
    // As written, as in a query string: a number JSON.parse rounds to 90 is beyond 90.
    ['lat 90.00000000000000001', 422, 'COORDINATES_OUT_OF_RANGE', '{"lat": 90.00000000000000001, "lon": 2}', 'lat must be between -90 and 90'],
    ['lon -180.5 as text', 422, 'COORDINATES_OUT_OF_RANGE', { lat: 1, lon: '-180.5' }, 'lon must be between -180 and 180'],
    [
      'an include item not listed',
      400,
      'INVALID_PARAMETERS',
      { ...POINT, include: ['flood'] },
      'include must be a list of some of nearby, preliminary, cbrs, elevation, structure, history, determination (lower case), such as ["nearby"]',
    ],
    [
      'include as text',
      400,
      'INVALID_PARAMETERS',
      { ...POINT, include: 'nearby' },
      'include must be a list of some of nearby, preliminary, cbrs, elevation, structure, history, determination (lower case), such as ["nearby"]',
    ],
    ['radius without nearby', 400, 'INVALID_PARAMETERS', { ...POINT, radius: 300 }, 'radius applies only with include=nearby'],
    ['a radius of 1.5', 400, 'INVALID_PARAMETERS', { ...POINT, include: ['nearby'], radius: 1.5 }, 'radius must be a whole number of metres (digits only)'],
    ['a radius of 5000', 422, 'RADIUS_OUT_OF_RANGE', { ...POINT, include: ['nearby'], radius: 5000 }, 'radius must be between 10 and 2000 metres'],
  ])('%s → %i %s', async (_what, status, code, parameters, message) => {
    const body =
      typeof parameters === 'string'
        ? parameters.replace(/}$/, `, "footprint": ${JSON.stringify({ type: 'Point' })}}`)
        : JSON.stringify({ ...parameters, footprint: { type: 'Point' } });
    expectRefused(await post(body), status, code, message);
  });

  it('a field the GET has no parameter for is refused, before anything else', async () => {
    expectRefused(
      await postJson({ lat: 100, lng: 2, footprint: HOUSE }),
      400,
      'INVALID_PARAMETERS',
      'Unknown field "lng": this endpoint reads only address, lat, lon, include, radius and footprint.',
    );
  });

  it('a query parameter is refused: the parameters are the body', async () => {
    expectRefused(
      await post(JSON.stringify({ ...POINT, footprint: HOUSE }), undefined, '?include=nearby'),
      400,
      'INVALID_PARAMETERS',
      'Unknown parameter "include": this endpoint reads no query parameters.',
    );
  });

  it('null is not given', async () => {
    const get = await stack.get(`/flood-zone?lat=${dc.lat}&lon=${dc.lon}`);
    const res = await postJson({ address: null, ...POINT, include: null, radius: null, footprint: HOUSE });
    expect([res.status, withoutGivenBuilding(res.body)]).toEqual([200, get.body]);
  });
});

describe('the footprint: 400 INVALID_FOOTPRINT naming the rule it breaks', () => {
  const [a, b, c, d] = rectangle(52, 26);
  const circle = (vertices: number, radiusM: number): Position[] => {
    const ring = Array.from({ length: vertices }, (_, i) => ruler.destination([dc.lon, dc.lat], radiusM, (360 * i) / vertices) as Position);
    return [...ring, ring[0]];
  };
  const polygon = (...rings: unknown[]) => ({ type: 'Polygon', coordinates: rings });

  it.each<[string, unknown, string]>([
    ['missing', undefined, 'footprint: must be a GeoJSON Polygon, MultiPolygon, or a Feature of one; got nothing'],
    [
      'a LineString',
      { type: 'LineString', coordinates: [a, b] },
      'footprint: must be a GeoJSON Polygon, MultiPolygon, or a Feature of one; got a "LineString"',
    ],
    [
      'a Feature of a Point',
      { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: a } },
      'footprint: must be a GeoJSON Polygon, MultiPolygon, or a Feature of one; got a Feature whose geometry is a "Point"',
    ],
    ['coordinates as text', polygon([a, b, c.map(String), d, a]), 'footprint: ring 1, position 3 is not [lon, lat]: two numbers (an altitude may follow)'],
    [
      'projected (Web Mercator metres)',
      polygon([
        [-8575601.4, 4706218.3],
        [-8575601.4, 4706248.3],
        [-8575551.4, 4706248.3],
        [-8575601.4, 4706218.3],
      ]),
      'footprint: ring 1, position 1 [-8575601.4, 4706218.3] is not lon/lat: give WGS84 degrees (longitude -180 to 180, latitude -90 to 90), not projected metres or feet',
    ],
    ['a ring not closed', polygon([a, b, c, d]), 'footprint: ring 1 is not closed (its first and last positions differ)'],
    ['a ring of 3 positions', polygon([a, b, a]), 'footprint: ring 1 has 3 positions; a ring needs at least 4 (3 corners, then the first again)'],
    ['2,001 vertices', polygon(circle(2001, 20)), 'footprint: it has 2,001 vertices; at most 2,000 are accepted'],
    [
      'a bow tie',
      polygon([a, c, b, d, a]),
      `footprint: its outline crosses itself near [${Number(dc.lon.toFixed(7))}, ${Number(dc.lat.toFixed(7))}]: a ring crosses itself, a hole its outer ring, or one polygon another (rings may touch only at a vertex they share)`,
    ],
    ['over 1 km²', polygon(rectangle(1100, 1000)), 'footprint: its area is 1,100,000 m²; at most 1,000,000 m² (1 km²) is accepted'],
    ['no area', polygon([a, b, a, a]), 'footprint: it encloses no area (less than 0.1 m²): its positions lie on one line, or in one place'],
    [
      '1.5 km from the point',
      polygon(rectangle(20, 20, 1510)),
      `footprint: it lies 1,500 m from the location (lat ${dc.lat}, lon ${dc.lon}); it must lie within 1,000 m of it (GeoJSON positions are [longitude, latitude], longitude first)`,
    ],
  ])('%s', async (_what, footprint, message) => {
    stack.emulators.resetCalls();
    expectRefused(await postJson({ ...POINT, footprint }), 400, 'INVALID_FOOTPRINT', message);
    // Refused before anything is asked of FEMA or the Census.
    expect(stack.emulators.nfhl.callCount() + stack.emulators.census.callCount()).toBe(0);
  });
});

describe('the body', () => {
  it.each<[string, string, string]>([
    ['malformed JSON', '{"lat": 1, "lon": }', 'The JSON body is malformed at line 1, column 19: ValueExpected.'],
    ['an empty body', '', 'The JSON body is malformed at line 1, column 1: ValueExpected.'],
    [
      'JSON nested too deep',
      `{"footprint": ${'['.repeat(40)}${']'.repeat(40)}}`,
      'The JSON body nests arrays and objects more than 32 levels deep (at line 1).',
    ],
    ['a JSON list', '[]', 'The JSON body must be an object: {"lat": …, "lon": …, "footprint": {…}}, or {"address": "…", "footprint": {…}}.'],
  ])('%s → 400 INVALID_PARAMETERS', async (_what, body, message) => {
    expectRefused(await post(body), 400, 'INVALID_PARAMETERS', message);
  });

  it.each<[string, Record<string, string>, string]>([
    ['text/plain', { 'content-type': 'text/plain' }, 'The body is sent as application/json, not text/plain.'],
    ['no Content-Type', {}, 'The body is sent as application/json, not without a Content-Type.'],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }, 'The body is sent as application/json, not application/x-www-form-urlencoded.'],
    ['gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'The body is sent uncompressed, not with Content-Encoding: gzip.'],
  ])('%s → 415 UNSUPPORTED_MEDIA_TYPE', async (_what, headers, message) => {
    const body = JSON.stringify({ ...POINT, footprint: HOUSE });
    // fetch sends a string as text/plain unless told otherwise: a Blob without a type sends no Content-Type.
    const res = await fetch(`${stack.url}/flood-zone`, { method: 'POST', headers, body: 'content-type' in headers ? body : new Blob([body]) });
    const text = await res.text();
    expectRefused({ status: res.status, headers: res.headers, text, body: JSON.parse(text) }, 415, 'UNSUPPORTED_MEDIA_TYPE', message);
  });

  /** A valid body padded with spaces (JSON whitespace) to exactly `bytes`. */
  const paddedTo = (bytes: number) => {
    const body = JSON.stringify({ ...POINT, footprint: HOUSE });
    return `${body}${' '.repeat(bytes - Buffer.byteLength(body))}`;
  };

  it('256 KiB is taken', async () => {
    const res = await post(paddedTo(MAX_BODY_BYTES));
    expect(res.status).toBe(200);
    expect(res.body.result.floodZone).toBe(dc.expect.floodZone);
  });

  it('one byte over 256 KiB is a 413 REQUEST_BODY_TOO_LARGE, told by its Content-Length', async () => {
    expectRefused(
      await post(paddedTo(MAX_BODY_BYTES + 1)),
      413,
      'REQUEST_BODY_TOO_LARGE',
      'The body holds at most 262144 bytes (256 KiB); a footprint of 2,000 vertices needs far less.',
    );
  });

  it('one byte over 256 KiB is a 413 REQUEST_BODY_TOO_LARGE, counted as it comes (chunked, no Content-Length)', async () => {
    const bytes = new TextEncoder().encode(paddedTo(MAX_BODY_BYTES + 1));
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 16 * 1024) controller.enqueue(bytes.slice(offset, offset + 16 * 1024));
        controller.close();
      },
    });
    expectRefused(
      await post(chunked),
      413,
      'REQUEST_BODY_TOO_LARGE',
      'The body holds at most 262144 bytes (256 KiB); a footprint of 2,000 vertices needs far less.',
    );
  });
});

describe('the path', () => {
  it('answers GET, HEAD, POST and the preflight; any other method is a 405 saying so', async () => {
    const res = await fetch(`${stack.url}/flood-zone`, { method: 'PUT' });
    expect([res.status, res.headers.get('allow'), ((await res.json()) as { error: string }).error]).toEqual([
      405,
      'GET, HEAD, POST, OPTIONS',
      'Method PUT is not allowed on /flood-zone; use GET or POST.',
    ]);
  });
});
