import { HttpService } from '@nestjs/axios';
import axios from 'axios';
import { NfhlMapServerEmulator, demoPlace } from '../../../test/emulators';
import { upstreamUnderTest } from '../../../test/support/upstream-under-test';
import { UpstreamUnavailableError } from '../api-error';
import { attributeTypeProblem, type ArcGisFieldType } from './arcgis-layer';
import { ArcGisMapServer, layerNamed } from './arcgis-map-server';
import { UpstreamOutageError } from './resilient-upstream';
import { UPSTREAM_BY_NAME } from './upstream-registry';

/** Three zones overlap here: a server that sends one feature per answer pages three times. */
const overlap = demoPlace('menominee-overlap');
const FIELDS = ['FLD_ZONE', 'ZONE_SUBTY'];

/** A page of `bytes` bytes (JSON padded with spaces), one zone in it, saying more follow. */
function pageOf(bytes: number): string {
  const json = JSON.stringify({ features: [{ attributes: { FLD_ZONE: 'AE', ZONE_SUBTY: null } }], exceededTransferLimit: true });
  return json.padEnd(bytes, ' ');
}

describe('ArcGIS paging under the byte cap: every page of one query counts against the one cap', () => {
  let nfhl: NfhlMapServerEmulator;
  beforeAll(async () => {
    nfhl = await NfhlMapServerEmulator.start();
  });
  afterAll(async () => {
    await nfhl.close();
  });
  beforeEach(() => {
    nfhl.clearFaults();
    nfhl.resetCalls();
    nfhl.maxRecordCount = 1;
  });
  afterEach(() => jest.restoreAllMocks());

  /** The NFHL's zones layer read through an upstream whose byte cap is `capBytes`. */
  function zonesWithCap(capBytes: number) {
    jest.replaceProperty(UPSTREAM_BY_NAME.flood_data, 'bodyCapBytes', capBytes);
    const map = new ArcGisMapServer(new HttpService(axios.create()), upstreamUnderTest('flood_data'), nfhl.baseUrl, {
      zones: layerNamed('Flood Hazard Zones', 28),
    });
    return (deadline = AbortSignal.timeout(10_000)) => map.queryPoint<{ FLD_ZONE: string }>('zones', FIELDS, overlap, deadline);
  }
  const zoneQueries = () => nfhl.callsMatching({ endpoint: 'query', layerName: 'Flood Hazard Zones' });

  /** The bytes of each page the emulator answers the service's own queries with, asked again directly. */
  async function pageBytes(): Promise<number[]> {
    const asked = zoneQueries().map((call) => `${nfhl.baseUrl}/28/query?${new URLSearchParams(call.query).toString()}`);
    return Promise.all(asked.map(async (url) => (await (await fetch(url)).arrayBuffer()).byteLength));
  }

  it('reads the three pages whole under a cap that holds them all', async () => {
    const zones = await zonesWithCap(UPSTREAM_BY_NAME.flood_data.bodyCapBytes)();
    expect(zones.map((zone) => zone.FLD_ZONE).sort()).toEqual(['AE', 'VE', 'X']);
    expect(zoneQueries().map((call) => call.query.resultOffset)).toEqual([undefined, '1', '2']);
  });

  it('fails as an answer over the cap, not an outage and without a retry, when the pages together pass a cap each one fits', async () => {
    await zonesWithCap(UPSTREAM_BY_NAME.flood_data.bodyCapBytes)();
    const bytes = await pageBytes();
    expect(bytes).toHaveLength(3);
    // each page alone fits; the first two together do too, the third passes the cap
    const cap = bytes[0] + bytes[1] + Math.floor(bytes[2] / 2);
    expect(Math.max(...bytes)).toBeLessThan(cap);
    nfhl.resetCalls();
    const failure = zonesWithCap(cap)();
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.not.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'flood_data', reason: `an answer over its cap of ${cap} bytes (its pages together)` });
    expect(zoneQueries().map((call) => call.query.resultOffset)).toEqual([undefined, '1', '2']);
  });

  it('stops a server that pages on and on at the cap: pages under the cap each, read until their sum passes it', async () => {
    const page = 4096;
    nfhl.injectFault({ kind: 'http-status', status: 200, body: pageOf(page), contentType: 'application/json;charset=UTF-8', match: 'Flood Hazard Zones' });
    const failure = zonesWithCap(Math.floor(5.5 * page))();
    await expect(failure).rejects.toMatchObject({
      upstream: 'flood_data',
      reason: `an answer over its cap of ${Math.floor(5.5 * page)} bytes (its pages together)`,
    });
    // five pages read whole, the sixth cut
    expect(zoneQueries()).toHaveLength(6);
  });

  it('names the cap alone when the first page passes it', async () => {
    nfhl.injectFault({ kind: 'http-status', status: 200, body: pageOf(4096), contentType: 'application/json;charset=UTF-8', match: 'Flood Hazard Zones' });
    await expect(zonesWithCap(4000)()).rejects.toMatchObject({ upstream: 'flood_data', reason: 'an answer over its cap of 4000 bytes' });
    expect(zoneQueries()).toHaveLength(1);
  });
});

describe('attributeTypeProblem: each attribute of the type its layer declares', () => {
  const FIELDS: Record<string, ArcGisFieldType> = { FLD_ZONE: 'string', STATIC_BFE: 'double', OBJECTID: 'integer', EFF_DATE: 'date' };

  it.each<[string, Record<string, unknown>, string | null]>([
    ['every field of its type', { FLD_ZONE: 'AE', STATIC_BFE: 41.5, OBJECTID: 7, EFF_DATE: 1258502400000 }, null],
    ['null in any field ("no value")', { FLD_ZONE: null, STATIC_BFE: null, OBJECTID: null, EFF_DATE: null }, null],
    ['fields not asked (absent) or not declared', { OTHER: ['anything'] }, null],
    ['a date before 1970', { EFF_DATE: -86_400_000 }, null],
    ['a string field as an array', { FLD_ZONE: ['AE'] }, 'FLD_ZONE is an array where the layer declares text'],
    ['a string field as a number', { FLD_ZONE: 7 }, 'FLD_ZONE is a number where the layer declares text'],
    ['a string field as an object', { FLD_ZONE: { zone: 'AE' } }, 'FLD_ZONE is an object where the layer declares text'],
    ['a double as text', { STATIC_BFE: '41' }, 'STATIC_BFE is text where the layer declares a number'],
    ['a double as true', { STATIC_BFE: true }, 'STATIC_BFE is true/false where the layer declares a number'],
    [
      'a double past what JSON numbers hold (1e999 parses as Infinity)',
      { STATIC_BFE: Infinity },
      'STATIC_BFE is a number that is not finite where the layer declares a number',
    ],
    ['an integer with a fraction', { OBJECTID: 7.5 }, 'OBJECTID is a number with a fraction where the layer declares a whole number'],
    ['a date as text', { EFF_DATE: '2009-11-18' }, 'EFF_DATE is text where the layer declares a date (epoch milliseconds)'],
  ])('%s', (_case, attributes, problem) => {
    expect(attributeTypeProblem(attributes, FIELDS)).toBe(problem);
  });
});

describe("a layer's check: a feature whose attributes it finds wrong fails the query, at this place only", () => {
  let nfhl: NfhlMapServerEmulator;
  beforeAll(async () => {
    nfhl = await NfhlMapServerEmulator.start();
  });
  afterAll(async () => {
    await nfhl.close();
  });

  it('is an answer of the upstream it cannot use: not an outage, not retried, the layer and the problem named', async () => {
    const check = (attributes: Record<string, unknown>) => attributeTypeProblem(attributes, { FLD_ZONE: 'string' });
    const map = new ArcGisMapServer(new HttpService(axios.create()), upstreamUnderTest('flood_data'), nfhl.baseUrl, {
      zones: layerNamed('Flood Hazard Zones', 28, check),
    });
    const zones = () => map.queryPoint('zones', FIELDS, overlap, AbortSignal.timeout(10_000));
    expect(await zones()).toHaveLength(3);
    nfhl.injectFault({ kind: 'http-status', status: 200, body: { features: [{ attributes: { FLD_ZONE: ['AE'] } }] }, match: 'Flood Hazard Zones' });
    nfhl.resetCalls();
    const failure = zones();
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.not.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'flood_data', reason: 'layer zones: FLD_ZONE is an array where the layer declares text' });
    expect(nfhl.callsMatching({ endpoint: 'query' })).toHaveLength(1);
  });
});
