/**
 * Lookups by address through the Census geocoder (emulated): the location of
 * the match, the query echo, no match and ambiguous matches (near-duplicates counting as one place are
 * tested on the use case: src/lookup/lookup.service.spec.ts).
 */
import { DEMO_ADDRESSES, DEMO_PLACES, demoPlace, type DemoPlace } from '../../emulators';
import {
  DEFAULT_GEOCODER_NAME,
  FLOOD_DATA_NAME,
  ISO_UTC_MS,
  LOCATION_KEYS,
  NO_CACHE,
  RESULT_KEYS,
  Stack,
  addressQuery,
  expectErrorEnvelope,
  expectedResult,
  startStack,
} from '../../support/stack';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ ...NO_CACHE });
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.emulators.resetCalls());

/** What the geocoder gives for an address: its first match. */
function firstMatch(address: string) {
  const entry = stack.emulators.census.lookupAddress(address);
  if (!entry) throw new Error(`the Census emulator does not know ${address}`);
  return entry.matches[0];
}

const placesWithAddress = DEMO_PLACES.filter((p): p is DemoPlace & { address: string } => typeof p.address === 'string');

describe('every demo address', () => {
  it('there are demo addresses for every coverage', () => {
    expect(new Set(placesWithAddress.map((p) => p.expect.coverage))).toEqual(new Set(['mapped', 'mapped_no_zone', 'unmapped']));
  });

  it.each(placesWithAddress.map((p) => [p.address, p] as const))('%s', async (address, place) => {
    const match = firstMatch(address);
    const res = await stack.get(addressQuery(address));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.location).sort()).toEqual(LOCATION_KEYS);
    expect(Object.keys(res.body.result).sort()).toEqual(RESULT_KEYS);
    expect(res.body.query).toStrictEqual({ address, lat: null, lon: null });
    expect(res.body.location).toStrictEqual({
      matchedAddress: match.matchedAddress,
      lat: place.lat,
      lon: place.lon,
      county: place.expect.county,
      countyFips: place.expect.countyFips,
      zip: match.addressComponents.zip,
      source: 'census_geocoder',
    });
    expect(res.body.location.matchedAddress).toBe(res.body.location.matchedAddress.toUpperCase());
    expect(res.body.result).toEqual(expectedResult(place));
    expect(res.body.source).toStrictEqual({
      floodData: FLOOD_DATA_NAME,
      floodService: stack.emulators.nfhl.baseUrl,
      geocoder: DEFAULT_GEOCODER_NAME,
    });
    expect(res.body.retrievedAt).toMatch(ISO_UTC_MS);
    // an address lookup needs no coordinates lookup: the match carries its county
    expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(1);
  });
});

describe('the example of docs/api.md (White House)', () => {
  const dc = demoPlace('dc-white-house-ae');

  it('zip is the postal ZIP of the match (20500), not the ZCTA of the point', async () => {
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse));
    expect(res.status).toBe(200);
    expect(res.body.location).toStrictEqual({
      matchedAddress: '1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500',
      lat: dc.lat,
      lon: dc.lon,
      county: 'District of Columbia',
      countyFips: '11001',
      zip: '20500',
      source: 'census_geocoder',
    });
    expect(dc.expect.zcta).not.toBe('20500');
  });

  it('a loosely spelled address (lower case, no ZIP) is echoed as given and finds the same place', async () => {
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouseLoose));
    expect(res.status).toBe(200);
    expect(res.body.query).toStrictEqual({ address: '1600 pennsylvania ave nw, washington dc', lat: null, lon: null });
    expect(res.body.location.matchedAddress).toBe('1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500');
    expect(res.body.result).toEqual(expectedResult(dc));
  });

  it('the echo is exactly what was sent: surrounding and inner whitespace kept', async () => {
    const sent = `  ${DEMO_ADDRESSES.whiteHouse.replace(' Ave ', '  Ave ')}   `;
    const res = await stack.get(addressQuery(sent));
    expect(res.status).toBe(200);
    expect(res.body.query).toStrictEqual({ address: sent, lat: null, lon: null });
    expect(res.body.location.matchedAddress).toBe('1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500');
  });

  it('+ in the query string is a space', async () => {
    const res = await stack.get(`/flood-zone?address=${DEMO_ADDRESSES.whiteHouse.replace(/ /g, '+').replace(/,/g, '%2C')}`);
    expect(res.status).toBe(200);
    expect(res.body.query.address).toBe(DEMO_ADDRESSES.whiteHouse);
  });
});

describe('no match', () => {
  it('→ 404 ADDRESS_NOT_FOUND, no flood query', async () => {
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.noMatch));
    expectErrorEnvelope(res, 404, 'ADDRESS_NOT_FOUND');
    expect(res.body).not.toHaveProperty('candidates');
    expect(stack.emulators.nfhl.callCount({ endpoint: 'query' })).toBe(0);
  });
});

describe('ambiguous address (matches more than 100 m apart)', () => {
  it('→ 404 AMBIGUOUS_ADDRESS with every match as a candidate, no flood query', async () => {
    const entry = stack.emulators.census.lookupAddress(DEMO_ADDRESSES.ambiguous)!;
    expect(entry.matches.length).toBeGreaterThan(1);
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.ambiguous));
    expectErrorEnvelope(res, 404, 'AMBIGUOUS_ADDRESS');
    expect(res.body.candidates).toStrictEqual(entry.matches.map((m) => ({ matchedAddress: m.matchedAddress, lat: m.lat, lon: m.lon })));
    expect(stack.emulators.nfhl.callCount({ endpoint: 'query' })).toBe(0);
  });

  it('each candidate, retried with its coordinates, is a 200', async () => {
    const entry = stack.emulators.census.lookupAddress(DEMO_ADDRESSES.ambiguous)!;
    for (const m of entry.matches) {
      const res = await stack.get(`/flood-zone?lat=${m.lat}&lon=${m.lon}`);
      expect(res.status).toBe(200);
      expect(res.body.location).toMatchObject({ lat: m.lat, lon: m.lon });
    }
  });
});
