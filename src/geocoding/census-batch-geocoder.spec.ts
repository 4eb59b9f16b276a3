import { HttpService } from '@nestjs/axios';
import { ConfigService } from '@nestjs/config';
import axios from 'axios';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CensusGeocoderEmulator } from '../../test/emulators/census-emulator';
import { DEMO_ADDRESSES, DEMO_MAP, DEMO_PLACES, DemoMap, demoPlace } from '../../test/emulators/demo-map';
import { SOCKET_BUFFERS_BYTES } from '../../test/support/upstream-under-test';
import { UpstreamUnavailableError } from '../common/api-error';
import { ResilientUpstream, UpstreamOutageError, UpstreamPolicyOptions } from '../common/upstream/resilient-upstream';
import { UPSTREAM_BY_NAME } from '../common/upstream/upstream-registry';
import type { AppConfig } from '../config/app-config';
import { BatchAddress, BatchGeocode, CENSUS_BATCH_CHUNK_ROWS, CensusBatchGeocoder } from './census-batch-geocoder';
import { CensusGeocoderClient } from './census-geocoder.client';

const POLICY: UpstreamPolicyOptions = {
  timeoutMs: 10_000,
  retries: 2,
  maxConcurrency: 4,
  breakerFailureRate: 100,
  breakerWindowMs: 10_000,
  breakerMinCalls: 1000,
  halfOpenAfterMs: 1000,
};
const FIXTURES = path.join(__dirname, '../../test/emulators/fixtures');
const never = new AbortController().signal;

/** The batch client and the one-line client against one emulator, with their own resilience policies. */
function clients(baseUrl: string, policy: Partial<UpstreamPolicyOptions> = {}) {
  const config = new ConfigService<AppConfig, true>({
    GEOCODER_BASE_URL: baseUrl,
    GEOCODER_BENCHMARK: 'Public_AR_Current',
    GEOCODER_VINTAGE: 'Current_Current',
  });
  const http = new HttpService(axios.create());
  const upstream = new ResilientUpstream('geocoder', { ...POLICY, ...policy });
  return { batch: new CensusBatchGeocoder(http, upstream, config), oneLine: new CensusGeocoderClient(http, upstream, config) };
}

const rowsOf = (addresses: string[]): BatchAddress[] => addresses.map((address, i) => ({ id: `r${i}`, address }));

describe('CensusBatchGeocoder against the Census emulator', () => {
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

  it('posts the addresses as a multipart CSV with the configured benchmark and vintage', async () => {
    const answers = await clients(census.baseUrl).batch.geocodeBatch(rowsOf([DEMO_ADDRESSES.whiteHouse]), never);
    expect(census.callCount()).toBe(1);
    expect(census.calls[0]).toMatchObject({
      method: 'POST',
      path: '/geocoder/geographies/addressbatch',
      endpoint: 'addressbatch',
      query: { benchmark: 'Public_AR_Current', vintage: 'Current_Current' },
    });
    expect(answers.get('r0')).toEqual({
      kind: 'match',
      match: {
        matchedAddress: '1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500',
        lat: 38.898754,
        lon: -77.03535,
        county: 'District of Columbia',
        countyFips: '11001',
        zip: '20500',
        // state, county, tract and block columns: the address's 2020 census block, in its demo tract
        block: '110011484441000',
        // The tract column with the county: the point's demo tract.
        tract: '11001148444',
      },
    });
  });

  it('answers a match exactly as the one-line geocoder first match, for every demo address', async () => {
    const { batch, oneLine } = clients(census.baseUrl);
    const addresses = [...DEMO_PLACES.flatMap((p) => (p.address ? [p.address] : [])), DEMO_ADDRESSES.whiteHouseLoose];
    const answers = await batch.geocodeBatch(rowsOf(addresses), never);
    expect(census.callCount({ endpoint: 'addressbatch' })).toBe(1);
    for (const [i, address] of addresses.entries()) {
      const matches = await oneLine.geocodeAddress(address, never);
      const expected: BatchGeocode = matches.length === 1 ? { kind: 'match', match: matches[0] } : { kind: 'tie' };
      expect({ address, answer: answers.get(`r${i}`) }).toEqual({ address, answer: expected });
    }
    const puertoRico = answers.get(`r${addresses.indexOf(demoPlace('toa-baja-ae').address as string)}`);
    expect(puertoRico).toMatchObject({ kind: 'match', match: { county: 'Toa Baja Municipio', countyFips: '72137' } });
  });

  it('joins the rows back by id: No_Match and Tie rows as such, whatever the answer order', async () => {
    const rows: BatchAddress[] = [
      { id: 'first', address: DEMO_ADDRESSES.noMatch },
      { id: 'second', address: DEMO_ADDRESSES.ambiguous },
      { id: 'third', address: DEMO_ADDRESSES.whiteHouse },
      { id: 'with "quotes", and commas', address: DEMO_ADDRESSES.nearDuplicate },
    ];
    const answers = await clients(census.baseUrl).batch.geocodeBatch(rows, never);
    expect([...answers.keys()]).toEqual(rows.map((r) => r.id));
    expect(answers.get('first')).toEqual({ kind: 'no_match' });
    expect(answers.get('second')).toEqual({ kind: 'tie' });
    expect(answers.get('third')).toMatchObject({ kind: 'match', match: { countyFips: '11001' } });
    expect(answers.get('with "quotes", and commas')).toEqual({ kind: 'tie' });
  });

  it(`sends 2,500 rows as 3 calls of at most ${CENSUS_BATCH_CHUNK_ROWS} rows and answers every row`, async () => {
    const cycle = [DEMO_ADDRESSES.whiteHouse, DEMO_ADDRESSES.noMatch, DEMO_ADDRESSES.ambiguous];
    const rows = rowsOf(Array.from({ length: 2500 }, (_, i) => cycle[i % 3]));
    const answers = await clients(census.baseUrl).batch.geocodeBatch(rows, never);
    expect(census.callCount({ endpoint: 'addressbatch' })).toBe(3);
    expect([...census.batchRowsPerCall].sort((a, b) => a - b)).toEqual([500, 1000, 1000]);
    expect(answers.size).toBe(2500);
    const kinds = rows.map((r) => answers.get(r.id)?.kind);
    expect(kinds).toEqual(rows.map((_, i) => ['match', 'no_match', 'tie'][i % 3]));
  });

  it('retries a call answered with an HTML 400', async () => {
    census.injectFault({ kind: 'html', status: 400, match: 'addressbatch', times: 1 });
    const answers = await clients(census.baseUrl).batch.geocodeBatch(rowsOf([DEMO_ADDRESSES.whiteHouse]), never);
    expect(answers.get('r0')?.kind).toBe('match');
    expect(census.calls.map((c) => c.fault ?? null)).toEqual(['html', null]);
  });

  it('reports every row of a failed chunk as failed, and answers the other chunks', async () => {
    census.injectFault({ kind: 'http-status', status: 503, match: 'addressbatch', times: 1 });
    const rows = rowsOf(Array.from({ length: 1500 }, () => DEMO_ADDRESSES.whiteHouse));
    const answers = await clients(census.baseUrl, { retries: 0 }).batch.geocodeBatch(rows, never);
    expect(census.callCount({ endpoint: 'addressbatch' })).toBe(2);
    const failed = rows.filter((r) => answers.get(r.id)?.kind === 'failed').map((r) => r.id);
    const chunks = [rows.slice(0, 1000), rows.slice(1000)].map((chunk) => chunk.map((r) => r.id));
    expect(chunks).toContainEqual(failed);
    expect(answers.size).toBe(1500);
    for (const r of rows) if (!failed.includes(r.id)) expect(answers.get(r.id)?.kind).toBe('match');
    expect(census.batchRowsPerCall).toEqual([1500 - failed.length]);
  });

  it('reports every row failed when the answer never ends: read no further than the byte cap, and not asked again', async () => {
    census.injectFault({ kind: 'endless-body', match: 'addressbatch' });
    const rows = rowsOf([DEMO_ADDRESSES.whiteHouse, DEMO_ADDRESSES.noMatch]);
    // an attempt timeout long enough that only the cap can end the read, however busy the machine
    const answers = await clients(census.baseUrl, { timeoutMs: 50_000 }).batch.geocodeBatch(rows, never);
    expect([...answers.values()]).toEqual([{ kind: 'failed' }, { kind: 'failed' }]);
    await census.endlessBodiesStopped();
    expect(census.callCount()).toBe(1);
    expect(census.calls[0].bodyBytes).toBeGreaterThan(UPSTREAM_BY_NAME.geocoder.bodyCapBytes);
    expect(census.calls[0].bodyBytes).toBeLessThan(UPSTREAM_BY_NAME.geocoder.bodyCapBytes + SOCKET_BUFFERS_BYTES);
  });

  it('reports rows failed when the geocoder keeps failing, and sends nothing once the deadline has passed', async () => {
    census.injectFault({ kind: 'html', status: 400, match: 'addressbatch' });
    const rows = rowsOf([DEMO_ADDRESSES.whiteHouse, DEMO_ADDRESSES.noMatch]);
    const failing = await clients(census.baseUrl).batch.geocodeBatch(rows, never);
    expect([...failing.values()]).toEqual([{ kind: 'failed' }, { kind: 'failed' }]);
    expect(census.callCount()).toBe(3);
    census.clearFaults();
    census.resetCalls();
    const late = await clients(census.baseUrl).batch.geocodeBatch(rows, AbortSignal.abort());
    expect([...late.values()]).toEqual([{ kind: 'failed' }, { kind: 'failed' }]);
    expect(census.callCount()).toBe(0);
  });

  it('reads the real recorded answers: FIPS columns, county names from the table, ZIP from the matched address', async () => {
    census.injectFault({
      kind: 'http-status',
      status: 200,
      contentType: 'text/plain',
      body: fs.readFileSync(path.join(FIXTURES, 'pablotron-batch-geographies-4-4.csv'), 'latin1'),
    });
    const rows = ['2022', '2020', '2010', '2000', 'id'].map((id) => ({ id, address: `address ${id}` }));
    const answers = await clients(census.baseUrl).batch.geocodeBatch(rows, never);
    expect(answers.get('2022')).toEqual({
      kind: 'match',
      match: {
        matchedAddress: '2525 BUCKELEW DR, FALLS CHURCH, VA, 22046',
        lat: 38.88701745800006,
        lon: -77.19902346399994,
        county: 'Fairfax County',
        countyFips: '51059',
        zip: '22046',
        block: '510594714011007',
        // As the recorded one-line answer for this address names it (its Census Tracts GEOID).
        tract: '51059471401',
      },
    });
    expect(answers.get('2000')).toMatchObject({ kind: 'match', match: { county: 'Benton County', countyFips: '41003', zip: '97330' } });
    expect(answers.get('2010')).toMatchObject({ kind: 'match', match: { matchedAddress: '3444 GALLOWS RD, ANNANDALE, VA, 22003', zip: '22003' } });
    expect(answers.get('id')).toEqual({ kind: 'no_match' });

    census.clearFaults();
    census.injectFault({
      kind: 'http-status',
      status: 200,
      contentType: 'text/plain',
      body: fs.readFileSync(path.join(FIXTURES, 'fitnr-address-batch-1.csv'), 'latin1'),
    });
    const fitnr = await clients(census.baseUrl).batch.geocodeBatch(
      ['1', '2', '3'].map((id) => ({ id, address: `address ${id}` })),
      never,
    );
    expect(fitnr.get('3')).toMatchObject({
      kind: 'match',
      match: { county: 'New York County', countyFips: '36061', zip: '10003', lon: -73.98658, lat: 40.738323 },
    });
    expect(fitnr.get('1')).toEqual({ kind: 'no_match' });
    expect(fitnr.get('2')).toEqual({ kind: 'no_match' });
  });

  it('leaves the county name null for a FIPS code the table does not know, and a row the answer lacks failed', async () => {
    census.injectFault({
      kind: 'http-status',
      status: 200,
      contentType: 'text/plain',
      body: '"new","1 Main St, , , ","Match","Exact","1 MAIN ST, SOMEWHERE, ZZ, 99999","-100.5,40.25","1","L","99","999","000100","1000"\n',
    });
    const answers = await clients(census.baseUrl).batch.geocodeBatch(
      [
        { id: 'new', address: '1 Main St' },
        { id: 'lost', address: '2 Main St' },
      ],
      never,
    );
    expect(answers.get('new')).toEqual({
      kind: 'match',
      match: {
        matchedAddress: '1 MAIN ST, SOMEWHERE, ZZ, 99999',
        lat: 40.25,
        lon: -100.5,
        county: null,
        countyFips: '99999',
        zip: '99999',
        block: '999990001001000',
        tract: '99999000100',
      },
    });
    expect(answers.get('lost')).toEqual({ kind: 'failed' });
  });

  it('leaves a match whose coordinates are off the earth failed, as one without coordinates: the one-line geocoder is asked for it', async () => {
    const row = (id: string, coordinates: string) =>
      `"${id}","1 Main St, , , ","Match","Exact","1 MAIN ST, WASHINGTON, DC, 20500","${coordinates}","1","L","11","001","006202","1031"\n`;
    census.injectFault({
      kind: 'http-status',
      status: 200,
      contentType: 'text/plain',
      body: row('west', '-500,38.9') + row('north', '-77.03,95') + row('edge', '-180,-90') + row('fine', '-77.03,38.9'),
    });
    const answers = await clients(census.baseUrl).batch.geocodeBatch(
      ['west', 'north', 'edge', 'fine'].map((id) => ({ id, address: id })),
      never,
    );
    expect(answers.get('west')).toEqual({ kind: 'failed' });
    expect(answers.get('north')).toEqual({ kind: 'failed' });
    expect(answers.get('edge')).toMatchObject({ kind: 'match', match: { lat: -90, lon: -180 } });
    expect(answers.get('fine')).toMatchObject({ kind: 'match', match: { lat: 38.9, lon: -77.03 } });
  });

  it.each([
    ['x -500', { x: -500, y: 38.9 }],
    ['y 95', { x: -77.03, y: 95 }],
    ['x as text off the earth', { x: '181', y: 38.9 }],
  ])('fails a one-line answer whose match has %s, not an outage and without a retry', async (_case, coordinates) => {
    const match = { matchedAddress: '1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500', coordinates, addressComponents: { zip: '20500' }, geographies: {} };
    census.injectFault({ kind: 'http-status', status: 200, body: { result: { input: {}, addressMatches: [match] } }, match: 'onelineaddress' });
    const failure = clients(census.baseUrl).oneLine.geocodeAddress(DEMO_ADDRESSES.whiteHouse, never);
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.not.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({
      upstream: 'geocoder',
      reason: 'address match with coordinates off the earth (lat -90 to 90, lon -180 to 180)',
    });
    expect(census.callCount({ endpoint: 'onelineaddress' })).toBe(1);
  });

  it('decodes an accented matched address from ISO-8859-1, and leaves addresses it cannot send to the one-line endpoint', async () => {
    const ponce = demoPlace('ponce-bfe-meters');
    const whiteHouse = DEMO_MAP.census.addresses[0].matches[0];
    const map: DemoMap = {
      ...DEMO_MAP,
      census: {
        ...DEMO_MAP.census,
        addresses: [
          ...DEMO_MAP.census.addresses,
          {
            spellings: ['100 Calle Peña, Ponce, PR 00730'],
            matches: [
              {
                ...whiteHouse,
                lat: ponce.lat,
                lon: ponce.lon,
                matchedAddress: '100 CALLE PEÑA, PONCE, PR, 00730',
                addressComponents: { ...whiteHouse.addressComponents, streetName: 'PEÑA', city: 'PONCE', state: 'PR', zip: '00730' },
              },
            ],
          },
        ],
      },
    };
    const accented = await CensusGeocoderEmulator.start({ map });
    try {
      const { batch, oneLine } = clients(accented.baseUrl);
      const answers = await batch.geocodeBatch(rowsOf(['100 Calle Peña, Ponce, PR 00730', '100 Calle Peña 🏠, Ponce, PR 00730']), never);
      expect(answers.get('r0')).toEqual({
        kind: 'match',
        match: {
          matchedAddress: '100 CALLE PEÑA, PONCE, PR, 00730',
          lat: ponce.lat,
          lon: ponce.lon,
          county: 'Ponce Municipio',
          countyFips: '72113',
          zip: '00730',
          block: '721136694001000',
          tract: '72113669400',
        },
      });
      expect(answers.get('r0')).toEqual({ kind: 'match', match: (await oneLine.geocodeAddress('100 Calle Peña, Ponce, PR 00730', never))[0] });
      expect(answers.get('r1')).toEqual({ kind: 'failed' });
      expect(accented.batchRowsPerCall).toEqual([1]);
    } finally {
      await accented.close();
    }
  });
});
