import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CENSUS_BATCH_MAX_ROWS, CensusGeocoderEmulator } from './census-emulator';
import { DEMO_ADDRESSES, DEMO_BLOCKS, DEMO_BUILDING_ADDRESSES, DEMO_MAP, DEMO_PLACES, DemoMap, demoPlace } from './demo-map';
import { demoStructure } from './structure-footprints';

type Json = Record<string, any>;

const STD = 'benchmark=Public_AR_Current&vintage=Current_Current&format=json';
const FIXTURES = path.join(__dirname, 'fixtures');

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
  const oneline = (address: string, extra = `&${STD}&layers=Counties`) => get(`/geographies/onelineaddress?address=${encodeURIComponent(address)}${extra}`);

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
    const both = (
      await get(`/geographies/coordinates?x=${dc.lon}&y=${dc.lat}&${STD}&layers=${encodeURIComponent('Counties,2020 Census ZIP Code Tabulation Areas')}`)
    ).json();
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

  describe('2020 census blocks', () => {
    /** A recorded one-line answer naming the 2020 block (fixtures/census/, Census2020 vintage): the record's fields, in order. */
    const RECORDED_BLOCK = (JSON.parse(fs.readFileSync(path.join(FIXTURES, 'pablotron-geographies-oneline-census2020.json'), 'utf8')) as Json).result
      .addressMatches[0].geographies['Census Blocks'][0];
    const blockAt = async (lon: number, lat: number) =>
      (await get(`/geographies/coordinates?x=${lon}&y=${lat}&${STD}&layers=${encodeURIComponent('2020 Census Blocks')}`)).json().result.geographies[
        '2020 Census Blocks'
      ];

    it("answers a building's interior point with its block, in the fields and spellings of a recorded block record", async () => {
      const { bbox } = demoStructure('houston-x-house-ae-street-point').feature;
      const [block] = await blockAt((bbox.xmin + bbox.xmax) / 2, (bbox.ymin + bbox.ymax) / 2);
      expect(Object.keys(block)).toEqual(Object.keys(RECORDED_BLOCK));
      expect(block).toMatchObject({ GEOID: '482015301001000', STATE: '48', COUNTY: '201', TRACT: '530100', BLOCK: '1000', BLKGRP: '1', NAME: 'Block 1000' });
      expect(block.INTPTLAT).toMatch(/^[+-]\d{2}\.\d{7}$/);
      expect(block.INTPTLON).toMatch(/^[+-]\d{3}\.\d{7}$/);
      const across = demoStructure('houston-across-the-street').feature.bbox;
      expect((await blockAt((across.xmin + across.xmax) / 2, (across.ymin + across.ymax) / 2)).map((b: Json) => b.GEOID)).toEqual([
        DEMO_BLOCKS.houston34thEast.geoid,
      ]);
    });

    it("puts an address on the street's centre line in the block of its own side, and the batch names the same block", async () => {
      const { address } = DEMO_BUILDING_ADDRESSES.houstonXHouse;
      const [match] = (await oneline(address, `&${STD}&layers=${encodeURIComponent('Counties,2020 Census Blocks')}`)).json().result.addressMatches;
      expect(match.geographies['2020 Census Blocks'].map((b: Json) => b.GEOID)).toEqual([DEMO_BLOCKS.houston34thWest.geoid]);
      const form = new FormData();
      form.append('addressFile', new Blob([`1,${address.replace(/,/g, '')},,,`], { type: 'text/csv' }), 'batch.csv');
      form.append('benchmark', 'Public_AR_Current');
      form.append('vintage', 'Current_Current');
      const rows = parse(await (await fetch(`${census.baseUrl}/geographies/addressbatch`, { method: 'POST', body: form })).text(), {
        relax_column_count: true,
      }) as string[][];
      expect(rows[0].slice(8)).toEqual(['48', '201', '530100', '1000']);
    });
  });

  it('names the demo tract of a point in the shape of a recorded Census Tracts element, by layer name or id, in one-line answers too', async () => {
    const houston = { lon: -95.39, lat: 29.763 };
    const r = (await get(`/geographies/coordinates?x=${houston.lon}&y=${houston.lat}&${STD}&layers=${encodeURIComponent('Counties,Census Tracts')}`)).json();
    expect(Object.keys(r.result.geographies)).toEqual(['Counties', 'Census Tracts']);
    expect(r.result.geographies['Census Tracts']).toEqual([
      expect.objectContaining({
        STATE: '48',
        COUNTY: '201',
        TRACT: '230988',
        GEOID: '48201230988',
        NAME: 'Census Tract 2309.88',
        MTFCC: 'G5020',
        LSADC: 'CT',
        FUNCSTAT: 'S',
      }),
    ]);
    const byId = (await get(`/geographies/coordinates?x=${houston.lon}&y=${houston.lat}&${STD}&layers=8`)).json();
    expect(byId.result.geographies['Census Tracts'][0].GEOID).toBe('48201230988');
    const dc = demoPlace('dc-white-house-ae');
    const oneLine = (
      await get(`/geographies/onelineaddress?address=${encodeURIComponent(dc.address!)}&${STD}&layers=${encodeURIComponent('Counties,Census Tracts')}`)
    ).json();
    expect(oneLine.result.addressMatches[0].geographies['Census Tracts'][0].GEOID).toBe('11001148444');
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
    expect((await get(`/geographies/onelineaddress?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&benchmark=4&vintage=4&format=json`)).status).toBe(
      200,
    );
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
    const body = (
      await get(`/locations/onelineaddress?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&benchmark=Public_AR_Current&format=json`)
    ).json();
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

  describe('batch geocoder (addressbatch)', () => {
    const BATCH_FIELDS = { benchmark: 'Public_AR_Current', vintage: 'Current_Current' };
    /** POSTs a batch as the real clients do: multipart with an ISO-8859-1 `addressFile` and the given fields. */
    const batch = async (
      file: string[][] | string,
      fields: Record<string, string> = BATCH_FIELDS,
      endpoint = 'geographies/addressbatch',
      base = census.baseUrl,
    ) => {
      const form = new FormData();
      const csv = typeof file === 'string' ? file : stringify(file);
      form.append('addressFile', new Blob([Buffer.from(csv, 'latin1')], { type: 'text/csv' }), 'batch.csv');
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      const res = await fetch(`${base}/${endpoint}`, { method: 'POST', body: form });
      const bytes = Buffer.from(await res.arrayBuffer());
      const text = bytes.toString('latin1');
      return {
        status: res.status,
        type: res.headers.get('content-type') ?? '',
        disposition: res.headers.get('content-disposition'),
        bytes,
        text,
        rows: () => parse(text, { relax_column_count: true }) as string[][],
      };
    };

    it('answers Match, No_Match and Tie rows in the real CSV format, in reverse input order', async () => {
      const r = await batch([
        ['1', DEMO_ADDRESSES.whiteHouseLoose, '', '', ''],
        ['2', DEMO_ADDRESSES.noMatch, '', '', ''],
        ['3', DEMO_ADDRESSES.ambiguous, '', '', ''],
        ['4', '1600 PENNSYLVANIA AVE NW', 'WASHINGTON', 'DC', '20500'],
      ]);
      expect(r.status).toBe(200);
      expect(r.type).toBe('text/plain');
      expect(r.disposition).toBe('attachment; filename=GeocodeResults.csv');
      expect(r.text).toBe(
        [
          '"4","1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500","Match","Exact","1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500","-77.03535,38.898754","76225813","L","11","001","148444","1000"',
          '"3","200 Main St, , , ","Tie"',
          '"2","999 Nowhere Blvd, Atlantis, ZZ 00000, , , ","No_Match"',
          '"1","1600 pennsylvania ave nw, washington dc, , , ","Match","Non_Exact","1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500","-77.03535,38.898754","76225813","L","11","001","148444","1000"',
          '',
        ].join('\n'),
      );
    });

    it('gives every demo address the point and county FIPS of its first one-line match', async () => {
      const places = DEMO_PLACES.filter((p) => p.address);
      const rows = (await batch(places.map((p, i) => [String(i), p.address as string, '', '', '']))).rows();
      expect(rows).toHaveLength(places.length);
      for (const [id, , kind, , , coordinates, , , state, county] of rows) {
        const place = places[Number(id)];
        const oneLine = (await oneline(place.address as string)).json().result.addressMatches as Json[];
        expect(kind).toBe(oneLine.length === 1 ? 'Match' : 'Tie');
        if (kind !== 'Match') continue;
        expect(coordinates).toBe(`${oneLine[0].coordinates.x},${oneLine[0].coordinates.y}`);
        expect(state === '' ? null : `${state}${county}`).toBe(oneLine[0].geographies.Counties[0]?.GEOID ?? null);
        expect(`${state}${county}`).toBe(place.expect.countyFips ?? '');
      }
    });

    it('answers a tie for the near-duplicate address too (no coordinates), as every address with several matches', async () => {
      expect((await batch([['a', DEMO_ADDRESSES.nearDuplicate, '', '', '']])).rows()).toEqual([['a', `${DEMO_ADDRESSES.nearDuplicate}, , , `, 'Tie']]);
    });

    it('answers locations/addressbatch without the geographies columns and without a vintage', async () => {
      const r = await batch([['7', DEMO_ADDRESSES.whiteHouse, '', '', '']], { benchmark: 'Public_AR_Current' }, 'locations/addressbatch');
      expect(r.status).toBe(200);
      expect(r.rows()).toEqual([
        [
          '7',
          `${DEMO_ADDRESSES.whiteHouse}, , , `,
          'Match',
          'Exact',
          '1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500',
          '-77.03535,38.898754',
          '76225813',
          'L',
        ],
      ]);
      expect(census.callCount({ endpoint: 'locations/addressbatch' })).toBe(1);
    });

    it('counts calls, logs the form fields as the call parameters, and counts rows per call', async () => {
      await batch([
        ['1', DEMO_ADDRESSES.whiteHouse, '', '', ''],
        ['2', DEMO_ADDRESSES.noMatch, '', '', ''],
      ]);
      await batch([['3', DEMO_ADDRESSES.ambiguous, '', '', '']]);
      expect(census.callCount({ endpoint: 'addressbatch' })).toBe(2);
      expect(census.calls[0]).toMatchObject({ method: 'POST', path: '/geocoder/geographies/addressbatch', query: BATCH_FIELDS });
      expect(census.batchRowsPerCall).toEqual([2, 1]);
      census.resetCalls();
      expect(census.batchRowsPerCall).toEqual([]);
    });

    it('rejects a missing or invalid benchmark or vintage, or a missing file, with HTTP 400 and an errors array', async () => {
      const rows = [['1', DEMO_ADDRESSES.whiteHouse, '', '', '']];
      const wrongFields: Array<Record<string, string>> = [
        { vintage: 'Current_Current' },
        { benchmark: 'Public_AR_Nope', vintage: 'Current_Current' },
        { benchmark: 'Public_AR_Current' },
      ];
      for (const fields of wrongFields) {
        const r = await batch(rows, fields);
        expect(r.status).toBe(400);
        expect(Array.isArray((JSON.parse(r.text) as Json).errors)).toBe(true);
      }
      const noFile = await fetch(`${census.baseUrl}/geographies/addressbatch`, { method: 'POST', body: new URLSearchParams(BATCH_FIELDS) });
      expect(noFile.status).toBe(400);
      expect(((await noFile.json()) as Json).errors).toEqual(['Address file must be provided']);
      expect(census.batchRowsPerCall).toEqual([]);
    });

    it(`refuses a file of more than ${CENSUS_BATCH_MAX_ROWS} rows with an HTML 400, and takes exactly that many`, async () => {
      const rows = (n: number) => Array.from({ length: n }, (_, i) => [String(i), DEMO_ADDRESSES.noMatch, '', '', '']);
      const over = await batch(rows(CENSUS_BATCH_MAX_ROWS + 1));
      expect(over.status).toBe(400);
      expect(over.type).toContain('text/html');
      expect(over.text).toContain(`The address file has ${CENSUS_BATCH_MAX_ROWS + 1} records; the limit is ${CENSUS_BATCH_MAX_ROWS}.`);
      const limit = await batch(rows(CENSUS_BATCH_MAX_ROWS));
      expect(limit.status).toBe(200);
      expect(limit.rows()).toHaveLength(CENSUS_BATCH_MAX_ROWS);
      expect(census.batchRowsPerCall).toEqual([CENSUS_BATCH_MAX_ROWS]);
    });

    it('fails with an HTML 400 on demand, then answers the same file', async () => {
      census.injectFault({ kind: 'html', status: 400, match: 'addressbatch', times: 1 });
      const rows = [['1', DEMO_ADDRESSES.whiteHouse, '', '', '']];
      const failed = await batch(rows);
      expect(failed.status).toBe(400);
      expect(failed.type).toContain('text/html');
      const retried = await batch(rows);
      expect(retried.status).toBe(200);
      expect(retried.rows()[0][2]).toBe('Match');
      expect(census.calls.map((c) => c.fault ?? null)).toEqual(['html', null]);
      expect(census.batchRowsPerCall).toEqual([1]);
    });

    it('reads the file and writes the answer in ISO-8859-1', async () => {
      const ponce = demoPlace('ponce-bfe-meters');
      const map: DemoMap = {
        ...DEMO_MAP,
        census: {
          ...DEMO_MAP.census,
          addresses: [
            ...DEMO_MAP.census.addresses,
            {
              spellings: ['100 Calle Peña, Ponce, PR 00730'],
              matches: [{ ...DEMO_MAP.census.addresses[0].matches[0], lat: ponce.lat, lon: ponce.lon, matchedAddress: '100 CALLE PEÑA, PONCE, PR, 00730' }],
            },
          ],
        },
      };
      const accented = await CensusGeocoderEmulator.start({ map });
      try {
        const r = await batch([['ñ1', '100 Calle Peña, Ponce, PR 00730', '', '', '']], BATCH_FIELDS, 'geographies/addressbatch', accented.baseUrl);
        expect(r.bytes.includes(Buffer.from('PEÑA', 'latin1'))).toBe(true);
        expect(r.bytes.includes(Buffer.from('PEÑA', 'utf8'))).toBe(false);
        expect(r.rows()[0].slice(0, 5)).toEqual(['ñ1', '100 Calle Peña, Ponce, PR 00730, , , ', 'Match', 'Exact', '100 CALLE PEÑA, PONCE, PR, 00730']);
        expect(r.rows()[0].slice(8, 10)).toEqual(['72', '113']);
      } finally {
        await accented.close();
      }
    });
  });
});
