import { CensusGeocoderEmulator } from './census-emulator';
import { DEMO_ADDRESSES, demoPlace } from './demo-map';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const STD = 'benchmark=Public_AR_Current&vintage=Current_Current&format=json';

describe('Census geocoder emulator', () => {
  let census: CensusGeocoderEmulator;
  beforeAll(async () => {
    census = await CensusGeocoderEmulator.start();
  });
  afterAll(async () => {
    await census.close();
  });
  beforeEach(() => {
    census.clearFaults();
    census.resetCalls();
  });

  const get = async (path: string) => {
    const res = await fetch(`${census.baseUrl}${path}`);
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type') ?? '', text, json: () => JSON.parse(text) as Json };
  };
  const oneline = (address: string, extra = `&${STD}&layers=Counties`) =>
    get(`/geographies/onelineaddress?address=${encodeURIComponent(address)}${extra}`);

  it('serves under /geocoder on loopback', () => {
    expect(census.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/geocoder$/);
  });

  it('matches an address case-, whitespace- and punctuation-insensitively, with county geographies', async () => {
    for (const spelling of [DEMO_ADDRESSES.whiteHouse, DEMO_ADDRESSES.whiteHouseLoose, '  1600   PENNSYLVANIA AVE. N.W.  WASHINGTON DC 20500 ']) {
      const r = await oneline(spelling);
      expect(r.status).toBe(200);
      const body = r.json();
      expect(body.result.input.address).toEqual({ address: spelling });
      expect(body.result.input.benchmark).toMatchObject({ benchmarkName: 'Public_AR_Current', id: '4' });
      expect(body.result.input.vintage).toMatchObject({ vintageName: 'Current_Current', id: '4' });
      expect(body.result.addressMatches).toHaveLength(1);
      const m = body.result.addressMatches[0];
      expect(m.matchedAddress).toBe('1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500');
      expect(m.coordinates).toEqual({ x: -77.03535, y: 38.898754 });
      expect(m.tigerLine).toEqual({ tigerLineId: '76225813', side: 'L' });
      expect(m.addressComponents).toMatchObject({ zip: '20500', city: 'WASHINGTON', state: 'DC', streetName: 'PENNSYLVANIA' });
      expect(Object.keys(m.geographies)).toEqual(['Counties']);
      expect(m.geographies.Counties[0]).toMatchObject({ NAME: 'District of Columbia', GEOID: '11001', STATE: '11', COUNTY: '001' });
    }
  });

  it('answers no match with HTTP 200 and an empty addressMatches', async () => {
    const r = await oneline(DEMO_ADDRESSES.noMatch);
    expect(r.status).toBe(200);
    expect(r.json().result.addressMatches).toEqual([]);
  });

  it('returns both matches of an ambiguous address and of a near-duplicate', async () => {
    const amb = (await oneline(DEMO_ADDRESSES.ambiguous)).json().result.addressMatches as Json[];
    expect(amb.map((m) => m.matchedAddress)).toEqual(['200 MAIN ST, HOUSTON, TX, 77002', '200 S MAIN AVE, RENTON, WA, 98057']);
    expect(amb.map((m) => m.geographies.Counties[0].NAME)).toEqual(['Harris County', 'King County']);
    const near = (await oneline(DEMO_ADDRESSES.nearDuplicate)).json().result.addressMatches as Json[];
    expect(near).toHaveLength(2);
    const ah = demoPlace('houston-ah');
    expect(near[0].coordinates).toEqual({ x: ah.lon, y: ah.lat });
  });

  it('resolves every demo place address to its point', async () => {
    const { DEMO_PLACES } = await import('./demo-map');
    for (const p of DEMO_PLACES.filter((x) => x.address)) {
      const m = (await oneline(p.address as string)).json().result.addressMatches[0];
      expect(m.coordinates).toEqual({ x: p.lon, y: p.lat });
      expect(m.geographies.Counties[0]?.GEOID ?? null).toBe(p.expect.countyFips);
    }
  });

  it('answers the coordinates lookup keyed by layer name, ZCTA only when asked', async () => {
    const dc = demoPlace('dc-white-house-ae');
    const both = (await get(`/geographies/coordinates?x=${dc.lon}&y=${dc.lat}&${STD}&layers=${encodeURIComponent('Counties,2020 Census ZIP Code Tabulation Areas')}`)).json();
    expect(both.result.input.location).toEqual({ x: dc.lon, y: dc.lat });
    expect(Object.keys(both.result.geographies)).toEqual(['Counties', '2020 Census ZIP Code Tabulation Areas']);
    const zcta = both.result.geographies['2020 Census ZIP Code Tabulation Areas'][0];
    expect(zcta).toMatchObject({ ZCTA5: '20006', GEOID: '20006', MTFCC: 'G6350', LSADC: 'Z5' });
    expect(zcta.STATE).toBeUndefined();
    const byId = (await get(`/geographies/coordinates?x=${dc.lon}&y=${dc.lat}&${STD}&layers=82,2`)).json();
    expect(Object.keys(byId.result.geographies)).toEqual(['Counties', '2020 Census ZIP Code Tabulation Areas']);
    const countiesOnly = (await get(`/geographies/coordinates?x=${dc.lon}&y=${dc.lat}&${STD}&layers=Counties`)).json();
    expect(Object.keys(countiesOnly.result.geographies)).toEqual(['Counties']);
    const defaults = (await get(`/geographies/coordinates?x=${dc.lon}&y=${dc.lat}&${STD}`)).json();
    expect(defaults.result.geographies.States[0]).toMatchObject({ STUSAB: 'DC', GEOID: '11' });
  });

  it('answers empty layers outside the US', async () => {
    const sea = demoPlace('outside-us-atlantic');
    const r = (await get(`/geographies/coordinates?x=${sea.lon}&y=${sea.lat}&${STD}&layers=Counties,2`)).json();
    expect(r.result.geographies).toEqual({ Counties: [], '2020 Census ZIP Code Tabulation Areas': [] });
  });

  it('rejects a missing or invalid benchmark or vintage with HTTP 400 and an errors array', async () => {
    const cases = [
      `/geographies/onelineaddress?address=x&vintage=Current_Current&format=json`,
      `/geographies/onelineaddress?address=x&benchmark=Public_AR_Nope&vintage=Current_Current&format=json`,
      `/geographies/onelineaddress?address=x&benchmark=Public_AR_Current&format=json`,
      `/geographies/coordinates?x=-77&y=38.9&benchmark=Public_AR_Current&vintage=Census2020_Census2020&format=json`,
      `/geographies/coordinates?x=abc&y=38.9&${STD}`,
      `/geographies/onelineaddress?address=&${STD}`,
    ];
    for (const path of cases) {
      const r = await get(path);
      expect(r.status).toBe(400);
      const body = r.json();
      expect(body.result).toBeUndefined();
      expect(Array.isArray(body.errors)).toBe(true);
      expect(body.errors[0]).toEqual(expect.any(String));
    }
    expect((await get(`/geographies/onelineaddress?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&benchmark=4&vintage=4&format=json`)).status).toBe(200);
  });

  it('answers HTML without format=json, and 404 HTML for unknown paths', async () => {
    const r = await get(`/geographies/onelineaddress?address=x&benchmark=Public_AR_Current&vintage=Current_Current`);
    expect(r.status).toBe(200);
    expect(r.type).toContain('text/html');
    const nf = await get('/nope');
    expect(nf.status).toBe(404);
    expect(nf.type).toContain('text/html');
  });

  it('answers locations/onelineaddress without geographies or vintage', async () => {
    const body = (await get(`/locations/onelineaddress?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&benchmark=Public_AR_Current&format=json`)).json();
    expect(body.result.input.vintage).toBeUndefined();
    expect(body.result.addressMatches[0].geographies).toBeUndefined();
    expect(body.result.addressMatches[0].matchedAddress).toBe('1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500');
  });

  it('serves the benchmarks and vintages lists', async () => {
    expect((await get('/benchmarks')).json().benchmarks.map((b: Json) => b.benchmarkName)).toContain('Public_AR_Current');
    expect((await get('/vintages?benchmark=4')).json().vintages.map((v: Json) => v.vintageName)).toContain('Current_Current');
  });

  it('counts calls by endpoint', async () => {
    await oneline(DEMO_ADDRESSES.whiteHouse);
    await get(`/geographies/coordinates?x=-77&y=38.9&${STD}`);
    await get(`/geographies/coordinates?x=-77&y=38.9&${STD}`);
    expect(census.callCount()).toBe(3);
    expect(census.callCount({ endpoint: 'onelineaddress' })).toBe(1);
    expect(census.callCount({ endpoint: 'coordinates' })).toBe(2);
    expect(census.calls[0].query.address).toBe(DEMO_ADDRESSES.whiteHouse);
  });
});
