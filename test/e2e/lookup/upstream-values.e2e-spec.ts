/**
 * Values from upstreams are checked like a caller's: a geocoder's point on the earth, NFHL's elevations and depths
 * within what a flood can be, every attribute of the type its layer declares. A value that is not is a fault of that
 * upstream, exactly as malformed JSON is (its 502, or its part null and named), never an answer and never cached:
 * once the upstream answers sensibly again, the same question is asked again and answered.
 */
import { DEMO_ADDRESSES, demoPlace, type Fault } from '../../emulators';
import type { ApiResponse } from '../../support/api-client';
import { Stack, addressQuery, expectErrorEnvelope, pointQuery, startStack } from '../../support/stack';

/** A point `metres` north of a demo place: a point of its own in the caches, in the same zone. */
function near(id: string, metres: number): { lat: number; lon: number } {
  const place = demoPlace(id);
  return { lat: Number((place.lat + metres * 0.00001).toFixed(6)), lon: place.lon };
}

const maxAgeOf = (res: ApiResponse) => Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1]);

/** An NFHL answer of one feature with these attributes (and this geometry), as FEMA's server writes one. */
const nfhlAnswer = (attributes: Record<string, unknown>, geometry?: Record<string, unknown>): Fault => ({
  kind: 'http-status',
  status: 200,
  body: { features: [{ attributes, ...(geometry ? { geometry } : {}) }] },
});

/** A zone at the point as the real layer answers it, but for what is overridden. */
const ZONE = {
  FLD_ZONE: 'AE',
  ZONE_SUBTY: null,
  SFHA_TF: 'T',
  STATIC_BFE: 41,
  DEPTH: -9999,
  V_DATUM: 'NAVD88',
  LEN_UNIT: 'Feet',
  DFIRM_ID: '48201C',
  FLD_AR_ID: '1',
};

let stack: Stack;
beforeAll(async () => {
  // caches on (the defaults): what must never be kept, would be
  stack = await startStack({ HELD_POLYGONS_MAX_MB: '0' });
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.emulators.resetCalls());
afterEach(() => stack.emulators.clearFaults());

describe('NFHL: a zone that is no zone is the lookup’s 502 flood_data, never "no zone here" or an answer', () => {
  it.each<[string, Record<string, unknown>, number]>([
    ['FLD_ZONE as an array', { ...ZONE, FLD_ZONE: ['AE'] }, 1],
    ['FLD_ZONE as a number', { ...ZONE, FLD_ZONE: 7 }, 2],
    ['ZONE_SUBTY as an object', { ...ZONE, ZONE_SUBTY: { subtype: 'FLOODWAY' } }, 3],
    ['STATIC_BFE 1e308 ft', { ...ZONE, STATIC_BFE: 1e308 }, 4],
    ['STATIC_BFE as text', { ...ZONE, STATIC_BFE: '41' }, 5],
    ['DEPTH -40 ft', { ...ZONE, FLD_ZONE: 'AO', DEPTH: -40 }, 6],
  ])('%s: 502, not cached, the next lookup asks FEMA again and answers', async (_case, attributes, metres) => {
    const place = near('dc-white-house-ae', metres);
    stack.emulators.nfhl.injectFault({ ...nfhlAnswer(attributes), match: 'Flood Hazard Zones' });
    const res = await stack.get(pointQuery(place));
    expectErrorEnvelope(res, 502, 'UPSTREAM_UNAVAILABLE');
    expect(res.body.upstream).toBe('flood_data');
    expect(res.headers.get('cache-control')).toBe('no-store');
    // an answer FEMA's server cannot give is not an outage: asked once, not retried
    expect(stack.emulators.nfhl.callCount({ layerName: 'Flood Hazard Zones' })).toBe(1);
    stack.emulators.clearFaults();
    const again = await stack.get(pointQuery(place));
    expect(again.status).toBe(200);
    expect(again.body.result.floodZone).toBe('AE');
    expect(stack.emulators.nfhl.callCount({ layerName: 'Flood Hazard Zones' })).toBe(2);
  });
});

describe('NFHL supplementary layers: a value that cannot be makes the part null and named, the rest answered', () => {
  it('a LOMA at latitude 95: lomas null and unavailable, cached at most 60 s', async () => {
    const place = near('houston-lomas', 1);
    const loma = {
      CASENUMBER: '20-06-1234A',
      DATEENDED: 1_600_000_000_000,
      OUTCOME: 'Removed',
      REVAL_STAT: null,
      PROJECTCATEGORY: 'LOMA',
      LAT: 95,
      LON: place.lon,
    };
    stack.emulators.nfhl.injectFault({ ...nfhlAnswer(loma, { x: place.lon, y: 95 }), match: 'LOMAs' });
    const res = await stack.get(pointQuery(place));
    expect(res.status).toBe(200);
    expect(res.body.result.lomas).toBeNull();
    expect(res.body.result.unavailable).toEqual(['lomas']);
    expect(maxAgeOf(res)).toBeLessThanOrEqual(60);
  });

  it('a BFE line at 1e308 ft: no estimated BFE from it, estimatedBaseFloodElevation null and unavailable', async () => {
    const place = near('houston-ah-one-bfe-line', 1);
    const line = { ELEV: 1e308, LEN_UNIT: 'Feet', V_DATUM: 'NAVD88', DFIRM_ID: '48201C' };
    stack.emulators.nfhl.injectFault({
      ...nfhlAnswer(line, {
        paths: [
          [
            [place.lon - 0.001, place.lat],
            [place.lon + 0.001, place.lat],
          ],
        ],
      }),
      match: 'Base Flood Elevations',
    });
    const res = await stack.get(pointQuery(place));
    expect(res.status).toBe(200);
    expect(res.body.result.floodZone).toBe('AH');
    expect(res.body.result.estimatedBaseFloodElevation).toBeNull();
    expect(res.body.result.unavailable).toEqual(['estimatedBaseFloodElevation']);
    expect(maxAgeOf(res)).toBeLessThanOrEqual(60);
  });
});

describe('the Census geocoder: a match off the earth is its 502, never a lookup there nor a cached address', () => {
  // each case its own address: the first is answered (and cached) once the fault clears
  it.each<[string, { x: unknown; y: unknown }, string, number]>([
    ['x -500', { x: -500, y: 38.8987 }, DEMO_ADDRESSES.whiteHouse, 38.9],
    ['y 95', { x: -95.4, y: 95 }, DEMO_ADDRESSES.nearDuplicate, 29.8],
  ])('%s: 502 geocoder; once the geocoder answers sensibly, it is asked again and the address answered', async (_case, coordinates, address, lat) => {
    const match = { matchedAddress: '1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500', coordinates, addressComponents: { zip: '20500' }, geographies: {} };
    stack.emulators.census.injectFault({ kind: 'http-status', status: 200, body: { result: { input: {}, addressMatches: [match] } }, match: 'onelineaddress' });
    const res = await stack.get(addressQuery(address));
    expectErrorEnvelope(res, 502, 'UPSTREAM_UNAVAILABLE');
    expect(res.body.upstream).toBe('geocoder');
    expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(1);
    // no flood data asked for a place that is not one
    expect(stack.emulators.nfhl.callCount({ endpoint: 'query' })).toBe(0);
    stack.emulators.clearFaults();
    const again = await stack.get(addressQuery(address));
    expect(again.status).toBe(200);
    expect(again.body.location.lat).toBeCloseTo(lat, 1);
    expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(2);
  });
});
