import { HttpService } from '@nestjs/axios';
import { ConfigService } from '@nestjs/config';
import axios from 'axios';
import { tractGeoidAt } from '../../../test/emulators/census-tracts';
import { demoPlace } from '../../../test/emulators/demo-map';
import type { Fault } from '../../../test/emulators/emulator-core';
import { DEMO_STRUCTURES, demoStructure } from '../../../test/emulators/structure-footprints';
import { StructuresFeatureServerEmulator, UNABLE_TO_PERFORM_QUERY, USA_STRUCTURES_BASE_PATH } from '../../../test/emulators/structures-emulator';
import { SOCKET_BUFFERS_BYTES, upstreamUnderTest } from '../../../test/support/upstream-under-test';
import { UpstreamUnavailableError } from '../../common/api-error';
import { UpstreamOutageError, UpstreamPolicyOptions } from '../../common/upstream/resilient-upstream';
import { UPSTREAM_BY_NAME } from '../../common/upstream/upstream-registry';
import type { AppConfig } from '../../config/app-config';
import type { GeoPoint } from '../../flood-hazard/flood-hazard.types';
import type { StructureFeature } from './structure.types';
import { StructuresClient } from './structures.client';

const FIELDS = [
  'BUILD_ID',
  'OCC_CLS',
  'PRIM_OCC',
  'PROP_ADDR',
  'PROP_CITY',
  'PROP_ZIP',
  'SQMETERS',
  'HEIGHT',
  'IMAGE_DATE',
  'SOURCE',
  'OUTBLDG',
  'CENSUSCODE',
  'FIPS',
];

const renton = demoPlace('renton-x-shaded');
const rentonPoint: GeoPoint = { lat: renton.lat, lon: renton.lon };

/** A demo building as the client returns it: the fields asked for, and its ring. */
function asReturned(id: string): StructureFeature {
  const { attributes, rings } = demoStructure(id).feature;
  return { attributes: Object.fromEntries(FIELDS.map((field) => [field, attributes[field]])) as never, rings: rings as number[][][] };
}

describe('StructuresClient against the USA Structures emulator', () => {
  let emulator: StructuresFeatureServerEmulator;
  beforeAll(async () => {
    emulator = await StructuresFeatureServerEmulator.start();
  });
  afterAll(async () => {
    await emulator.close();
  });
  beforeEach(() => {
    emulator.clearFaults();
    emulator.resetCalls();
    emulator.maxRecordCount = 2000;
    emulator.structures = DEMO_STRUCTURES;
  });

  function client(policy: Partial<UpstreamPolicyOptions> = {}, baseUrl = emulator.layerUrl) {
    const config = new ConfigService<AppConfig, true>({ STRUCTURES_BASE_URL: baseUrl });
    return new StructuresClient(new HttpService(axios.create()), upstreamUnderTest('structures', policy), config);
  }
  const deadline = (ms = 10_000) => AbortSignal.timeout(ms);
  const queries = () => emulator.callsMatching({ endpoint: 'query' });

  it("asks the layer's query for the buildings within the distance of the point, in lon/lat, with the fields the part reads", async () => {
    const buildings = await client().buildingsNear(rentonPoint, 30, deadline());
    expect(buildings).toEqual([asReturned('renton-main-house'), asReturned('renton-second-house')]);
    expect(queries().map((call) => [call.path, call.query])).toEqual([
      [
        `${USA_STRUCTURES_BASE_PATH}/0/query`,
        {
          geometry: `${renton.lon},${renton.lat}`,
          geometryType: 'esriGeometryPoint',
          inSR: '4326',
          distance: '30',
          units: 'esriSRUnit_Meter',
          spatialRel: 'esriSpatialRelIntersects',
          outFields: 'BUILD_ID,OCC_CLS,PRIM_OCC,PROP_ADDR,PROP_CITY,PROP_ZIP,SQMETERS,HEIGHT,IMAGE_DATE,SOURCE,OUTBLDG,CENSUSCODE,FIPS',
          returnGeometry: 'true',
          outSR: '4326',
          f: 'json',
        },
      ],
    ]);
    expect(emulator.callCount()).toBe(1);
  });

  it('returns the outbuilding with its OUTBLDG, the NGA footprint with its height and no address, as the layer has them', async () => {
    const sacramento = demoStructure('sacramento-house').feature.bbox;
    const atHouse = { lat: (sacramento.ymin + sacramento.ymax) / 2, lon: (sacramento.xmin + sacramento.xmax) / 2 };
    const [house, outbuilding] = await client().buildingsNear(atHouse, 20, deadline());
    expect([house, outbuilding]).toEqual([asReturned('sacramento-house'), asReturned('sacramento-outbuilding')]);
    expect([house.attributes.OUTBLDG, outbuilding.attributes.OUTBLDG, outbuilding.attributes.OCC_CLS]).toEqual([null, 'Yes', 'Unclassified']);
    // the building's tract and county, as the real layer gives them on every building
    expect([house.attributes.CENSUSCODE, house.attributes.FIPS]).toEqual([tractGeoidAt('06', '067', atHouse.lon, atHouse.lat), '06067']);
    const dc = demoStructure('dc-partly-unmapped').feature.bbox;
    const [building] = await client().buildingsNear({ lat: (dc.ymin + dc.ymax) / 2, lon: (dc.xmin + dc.xmax) / 2 }, 10, deadline());
    expect(building.attributes).toMatchObject({ PROP_ADDR: null, HEIGHT: 14.2, SOURCE: 'NGA', IMAGE_DATE: null, OUTBLDG: null });
  });

  it('answers no building where none is within reach', async () => {
    expect(await client().buildingsNear(rentonPoint, 7, deadline())).toEqual([]);
    expect(await client().buildingsNear({ lat: 40, lon: -100 }, 100, deadline())).toEqual([]);
  });

  it('accepts a layer URL with a trailing slash', async () => {
    expect(await client({}, `${emulator.layerUrl}/`).buildingsNear(rentonPoint, 10, deadline())).toEqual([asReturned('renton-main-house')]);
    expect(queries()[0].path).toBe(`${USA_STRUCTURES_BASE_PATH}/0/query`);
  });

  it('reads every page while the answer exceeds the transfer limit, asking each from its offset', async () => {
    emulator.maxRecordCount = 1;
    expect(await client().buildingsNear(rentonPoint, 30, deadline())).toEqual([asReturned('renton-main-house'), asReturned('renton-second-house')]);
    expect(queries().map((call) => call.query.resultOffset)).toEqual([undefined, '1']);
  });

  it('fails, without a retry, on a page that says it was cut yet holds nothing', async () => {
    emulator.injectFault({ kind: 'http-status', status: 200, body: { features: [], exceededTransferLimit: true } });
    const failure = client().buildingsNear(rentonPoint, 30, deadline());
    await expect(failure).rejects.not.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'structures', reason: 'buildings: exceededTransferLimit on an empty page' });
    expect(emulator.callCount()).toBe(1);
  });

  it("fails at this point only, without a retry, on ArcGIS Online's error in HTTP 200 (its answer to a query it cannot run)", async () => {
    emulator.injectFault({ kind: 'arcgis-error', ...UNABLE_TO_PERFORM_QUERY.error });
    const failure = client().buildingsNear(rentonPoint, 30, deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.not.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'structures', reason: 'ArcGIS error 400: ' });
    expect(emulator.callCount()).toBe(1);
  });

  it('fails as an outage, after its retry, on an ArcGIS 5xx error in HTTP 200', async () => {
    emulator.injectFault({ kind: 'arcgis-error', code: 503, message: 'Service unavailable' });
    const failure = client().buildingsNear(rentonPoint, 30, deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'structures', reason: 'ArcGIS error 503: Service unavailable' });
    expect(emulator.callCount()).toBe(2);
  });

  it('retries an outage once and returns the retry answer', async () => {
    emulator.injectFault({ kind: 'http-status', status: 503, times: 1 });
    expect(await client().buildingsNear(rentonPoint, 10, deadline())).toEqual([asReturned('renton-main-house')]);
    expect(emulator.callCount()).toBe(2);
  });

  it.each<[string, Fault, string]>([
    ['a 5xx', { kind: 'http-status', status: 502 }, 'HTTP 502'],
    ['an HTML page with 200', { kind: 'html' }, 'HTML page instead of JSON (HTTP 200)'],
    ['a reset connection', { kind: 'reset' }, 'network error (ECONNRESET)'],
  ])('fails as an outage on %s, after its retry', async (_case, fault, reason) => {
    emulator.injectFault(fault);
    const failure = client().buildingsNear(rentonPoint, 30, deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'structures', reason });
    expect(emulator.callCount()).toBe(2);
  });

  it('fails as an outage when an attempt outlives its timeout (a delayed answer), after its retry', async () => {
    emulator.injectFault({ kind: 'delay', ms: 1000 });
    const failure = client({ timeoutMs: 200 }).buildingsNear(rentonPoint, 30, deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'structures', reason: 'no answer within 200 ms' });
    expect(emulator.callCount()).toBe(2);
  });

  it('waits for a delayed answer within its timeout', async () => {
    emulator.injectFault({ kind: 'delay', ms: 300, times: 1 });
    expect(await client().buildingsNear(rentonPoint, 10, deadline())).toEqual([asReturned('renton-main-house')]);
    expect(emulator.callCount()).toBe(1);
  });

  it("stops at the lookup's deadline", async () => {
    emulator.injectFault({ kind: 'delay', ms: 1000 });
    const failure = client().buildingsNear(rentonPoint, 30, deadline(200));
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.toMatchObject({ upstream: 'structures', reason: 'no answer within the lookup deadline' });
    expect(emulator.callCount()).toBe(1);
  });

  it.each<[string, Fault, string]>([
    ['malformed JSON (a cut answer)', { kind: 'malformed-json' }, 'malformed JSON (HTTP 200)'],
    ['an empty JSON object', { kind: 'empty-object' }, 'buildings: answer without features'],
    ['a JSON array', { kind: 'http-status', status: 200, body: [] }, 'answer is not a JSON object'],
    [
      'a building without attributes',
      { kind: 'http-status', status: 200, body: { features: [{ geometry: { rings: [] } }] } },
      'buildings: feature without attributes',
    ],
    [
      'a building without geometry',
      { kind: 'http-status', status: 200, body: { features: [{ attributes: { BUILD_ID: 1 } }] } },
      'buildings: feature without geometry',
    ],
    [
      'a building without rings',
      { kind: 'http-status', status: 200, body: { features: [{ attributes: { BUILD_ID: 1 }, geometry: { x: 1, y: 2 } }] } },
      'rings: a feature without rings',
    ],
  ])('fails at this point only, without a retry, on %s', async (_case, fault, reason) => {
    emulator.injectFault(fault);
    const failure = client().buildingsNear(rentonPoint, 30, deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.not.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'structures', reason });
    expect(emulator.callCount()).toBe(1);
  });

  it('fails at this point only, without a retry, on an endless body, read no further than its byte cap', async () => {
    const cap = UPSTREAM_BY_NAME.structures.bodyCapBytes;
    emulator.injectFault({ kind: 'endless-body' });
    // an attempt timeout long enough that only the cap can end it (streaming 8 MiB may be slow on a busy machine)
    const failure = client({ timeoutMs: 50_000 }).buildingsNear(rentonPoint, 30, deadline(50_000));
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.not.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'structures', reason: `an answer over its cap of ${cap} bytes` });
    await emulator.endlessBodiesStopped();
    expect(emulator.callCount()).toBe(1);
    expect(emulator.calls[0].bodyBytes).toBeGreaterThan(cap);
    expect(emulator.calls[0].bodyBytes).toBeLessThan(cap + SOCKET_BUFFERS_BYTES);
  });

  it('fails fast once its circuit is open, without calling', async () => {
    const open = client({ retries: 0, breakerMinCalls: 2, breakerFailureRate: 50 });
    emulator.injectFault({ kind: 'http-status', status: 503 });
    for (let i = 0; i < 2; i += 1) await expect(open.buildingsNear(rentonPoint, 30, deadline())).rejects.toBeInstanceOf(UpstreamOutageError);
    emulator.clearFaults();
    const calls = emulator.callCount();
    await expect(open.buildingsNear(rentonPoint, 30, deadline())).rejects.toMatchObject({
      upstream: 'structures',
      reason: 'circuit open after an outage; not called',
    });
    expect(emulator.callCount()).toBe(calls);
  });
});
