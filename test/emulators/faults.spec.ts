import * as http from 'node:http';
import { NfhlMapServerEmulator } from './arcgis-emulator';
import { CensusGeocoderEmulator, LAYER_ERROR_STATUS } from './census-emulator';
import { DEMO_ADDRESSES, demoPlace } from './demo-map';
import type { UpstreamEmulator } from './emulator-core';
import { startEmulators, type RunningEmulators } from './offline';

type Json = Record<string, any>;

const dc = demoPlace('dc-white-house-ae');
const Q = `geometry=${dc.lon},${dc.lat}&geometryType=esriGeometryPoint&inSR=4326&spatialRel=esriSpatialRelIntersects&outFields=FLD_ZONE&returnGeometry=false&f=json`;
const STD = 'benchmark=Public_AR_Current&vintage=Current_Current&format=json';

describe('fault injection', () => {
  let nfhl: NfhlMapServerEmulator;
  let census: CensusGeocoderEmulator;
  beforeAll(async () => {
    [nfhl, census] = await Promise.all([NfhlMapServerEmulator.start(), CensusGeocoderEmulator.start()]);
  });
  afterAll(async () => {
    await Promise.all([nfhl.close(), census.close()]);
  });
  beforeEach(() => {
    nfhl.clearFaults();
    census.clearFaults();
    nfhl.setLatency(0);
    census.setLatency(0);
    nfhl.resetCalls();
    census.resetCalls();
  });

  const zones = () => fetch(`${nfhl.baseUrl}/28/query?${Q}`);
  const coords = () => fetch(`${census.baseUrl}/geographies/coordinates?x=${dc.lon}&y=${dc.lat}&${STD}&layers=Counties,2`);
  const oneline = () => fetch(`${census.baseUrl}/geographies/onelineaddress?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&${STD}&layers=Counties`);

  it('delay: waits, then answers normally', async () => {
    nfhl.injectFault({ kind: 'delay', ms: 150, times: 1 });
    const t0 = Date.now();
    const r = await zones();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    expect(((await r.json()) as Json).features).toEqual([{ attributes: { FLD_ZONE: 'AE' } }]);
    const t1 = Date.now();
    await (await zones()).text();
    expect(Date.now() - t1).toBeLessThan(140);
  });

  it('reset: destroys the connection without an answer', async () => {
    nfhl.injectFault({ kind: 'reset', times: 1 });
    await expect(zones()).rejects.toThrow();
    expect((await zones()).status).toBe(200);
    expect(nfhl.callCount()).toBe(2);
    expect(nfhl.calls[0].fault).toBe('reset');
  });

  it('http-status: 5xx with an HTML body by default, or a given body; 4xx too', async () => {
    nfhl.injectFault({ kind: 'http-status', status: 503, times: 1 });
    const r = await zones();
    expect(r.status).toBe(503);
    expect(r.headers.get('content-type')).toContain('text/html');
    await r.text();
    nfhl.injectFault({ kind: 'http-status', status: 502, body: { message: 'bad gateway' }, times: 1 });
    const r2 = await zones();
    expect(r2.status).toBe(502);
    expect(await r2.json()).toEqual({ message: 'bad gateway' });
    census.injectFault({ kind: 'http-status', status: 429, body: 'slow down', times: 1 });
    const r3 = await coords();
    expect(r3.status).toBe(429);
    expect(await r3.text()).toBe('slow down');
  });

  it('html: an HTML error page, status 200 by default', async () => {
    nfhl.injectFault({ kind: 'html', times: 1 });
    const r = await zones();
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(await r.text()).toContain('<html');
    census.injectFault({ kind: 'html', status: 400, times: 1 });
    const c = await oneline();
    expect(c.status).toBe(400);
    expect(await c.text()).toContain('<html');
  });

  it('malformed-json: 200 application/json that does not parse', async () => {
    nfhl.injectFault({ kind: 'malformed-json', times: 1 });
    const r = await zones();
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    const text = await r.text();
    expect(() => JSON.parse(text)).toThrow();
    census.injectFault({ kind: 'malformed-json', times: 1 });
    const c = await (await oneline()).text();
    expect(() => JSON.parse(c)).toThrow();
  });

  it('arcgis-error: the error envelope inside HTTP 200', async () => {
    nfhl.injectFault({ kind: 'arcgis-error', times: 1 });
    const r = await zones();
    expect(r.status).toBe(200);
    const body = (await r.json()) as Json;
    expect(body).toEqual({ error: { code: 500, message: expect.any(String), details: [] } });
    nfhl.injectFault({ kind: 'arcgis-error', code: 400, message: 'Unable to complete operation.', details: ['x'], times: 1 });
    expect(await (await zones()).json()).toEqual({ error: { code: 400, message: 'Unable to complete operation.', details: ['x'] } });
  });

  it('errors-array: HTTP 400 with a top-level errors array', async () => {
    census.injectFault({ kind: 'errors-array', errors: ['Invalid Benchmark'], times: 1 });
    const r = await oneline();
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ errors: ['Invalid Benchmark'], status: '400' });
  });

  it('layer-error: a layer comes back as a status object inside a 200', async () => {
    census.injectFault({ kind: 'layer-error', layers: ['Counties'], times: 1 });
    const body = (await (await coords()).json()) as Json;
    expect(body.result.geographies.Counties).toEqual([{ status: LAYER_ERROR_STATUS }]);
    expect(body.result.geographies['2020 Census ZIP Code Tabulation Areas'][0].ZCTA5).toBe('20006');
    census.injectFault({ kind: 'layer-error', times: 1 });
    const m = ((await (await oneline()).json()) as Json).result.addressMatches[0];
    expect(m.geographies.Counties[0].status).toMatch(/^Layer query encountered an error/);
  });

  it('empty-object: 200 {}', async () => {
    census.injectFault({ kind: 'empty-object', times: 1 });
    const r = await coords();
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({});
  });

  it('times counts down per matching request; unlimited by default; clearFaults stops it', async () => {
    const f = nfhl.injectFault({ kind: 'http-status', status: 500, times: 2 });
    expect((await zones()).status).toBe(500);
    expect((await zones()).status).toBe(500);
    expect((await zones()).status).toBe(200);
    expect(f.hits).toBe(2);
    nfhl.injectFault({ kind: 'http-status', status: 500 });
    for (let i = 0; i < 4; i++) expect((await zones()).status).toBe(500);
    nfhl.clearFaults();
    expect((await zones()).status).toBe(200);
  });

  it('match restricts a fault to a layer id, a layer name, or an endpoint', async () => {
    nfhl.injectFault({ kind: 'arcgis-error', match: 28 });
    const panels = await fetch(`${nfhl.baseUrl}/3/query?${Q.replace('FLD_ZONE', 'FIRM_PAN')}`);
    expect(((await panels.json()) as Json).features).toHaveLength(1);
    expect(((await (await zones()).json()) as Json).error).toBeDefined();
    nfhl.clearFaults();
    nfhl.injectFault({ kind: 'arcgis-error', match: 'Flood Hazard Zones' });
    expect(((await (await zones()).json()) as Json).error).toBeDefined();
    nfhl.clearFaults();
    nfhl.injectFault({ kind: 'http-status', status: 503, match: 'root', times: 1 });
    expect((await fetch(`${nfhl.baseUrl}?f=json`)).status).toBe(503);
    expect((await zones()).status).toBe(200);

    census.injectFault({ kind: 'http-status', status: 500, match: 'onelineaddress' });
    expect((await coords()).status).toBe(200);
    expect((await oneline()).status).toBe(500);
    census.clearFaults();
    census.injectFault({ kind: 'empty-object', match: 'coordinates', times: 1 });
    expect(await (await oneline()).json()).toHaveProperty('result');
    expect(await (await coords()).json()).toEqual({});
  });

  it('a faulted fetch of a moved layer still matches by name', async () => {
    const moved = await NfhlMapServerEmulator.start({ layerIds: { floodHazardZones: 30 } });
    try {
      moved.injectFault({ kind: 'arcgis-error', match: 'floodHazardZones', times: 1 });
      const r = (await (await fetch(`${moved.baseUrl}/30/query?${Q}`)).json()) as Json;
      expect(r.error).toBeDefined();
    } finally {
      await moved.close();
    }
  });

  it('latency: setLatency delays every answer', async () => {
    census.setLatency(100);
    const t0 = Date.now();
    await (await coords()).text();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(90);
    census.setLatency(0);
  });
});

describe('endless-body, on every emulator', () => {
  let emulators: RunningEmulators;
  beforeAll(async () => {
    emulators = await startEmulators({ latencyMs: 0 });
  });
  afterAll(async () => {
    await emulators.close();
  });

  /** Reads the answer until `enough` bytes have come, then closes the connection as a client that gives up. */
  const readThenGiveUp = (url: string, enough: number) =>
    new Promise<{ res: http.IncomingMessage; head: Buffer; read: number }>((resolve, reject) => {
      const req = http.get(url, (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          read += chunk.length;
          if (read >= enough) {
            req.destroy();
            resolve({ res, head: Buffer.concat(chunks).subarray(0, 16), read });
          }
        });
        res.on('end', () => reject(new Error(`the body ended after ${read} bytes`)));
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    });

  const x = Math.round(dc.lon * 111_320);
  const y = Math.round(dc.lat * 111_320);
  const picture = `bbox=${x - 300},${y - 200},${x + 300},${y + 200}&bboxSR=3857&imageSR=3857&size=600,400&format=png32&transparent=true&f=image`;
  const cases: Array<[string, (e: RunningEmulators) => UpstreamEmulator, (e: RunningEmulators) => string, string]> = [
    ['the NFHL query', (e) => e.nfhl, (e) => `${e.nfhl.baseUrl}/28/query?${Q}`, 'application/json'],
    ['the NFHL export (PNG)', (e) => e.nfhl, (e) => `${e.nfhl.exportUrl}?${picture}`, 'image/png'],
    ['the preliminary map', (e) => e.preliminary, (e) => `${e.preliminary.baseUrl}?f=json`, 'application/json'],
    ['the pending map', (e) => e.pending, (e) => `${e.pending.baseUrl}?f=json`, 'application/json'],
    ['CBRS', (e) => e.cbrs, (e) => `${e.cbrs.baseUrl}?f=json`, 'application/json'],
    ['the Census geocoder', (e) => e.census, (e) => `${e.census.baseUrl}/geographies/onelineaddress?address=x&${STD}`, 'application/json'],
    ['EPQS', (e) => e.elevation, (e) => `${e.elevation.baseUrl}/v1/json?x=${dc.lon}&y=${dc.lat}&wkid=4326&units=Feet`, 'application/json'],
    ['OpenFEMA', (e) => e.openfema, (e) => `${e.openfema.baseUrl}/v1/NfipCommunityStatusBook?%24top=10`, 'application/json'],
    ['the basemap export (PNG)', (e) => e.basemap, (e) => `${e.basemap.exportUrl}?${picture.replace('png32', 'png')}`, 'image/png'],
    ['USA Structures', (e) => e.structures, (e) => `${e.structures.layerQueryUrl}?${Q.replace('FLD_ZONE', 'OBJECTID')}`, 'application/json'],
  ];

  it.each(cases)('%s: the real answer begins, chunked, and goes on until the client gives up', async (_name, emulatorOf, urlOf, type) => {
    const emulator = emulatorOf(emulators);
    emulator.resetCalls();
    emulator.injectFault({ kind: 'endless-body', times: 1 });
    const enough = 3 * 1024 * 1024;
    const { res, head, read } = await readThenGiveUp(urlOf(emulators), enough);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(type);
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    if (type === 'image/png') expect(head.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    else expect(head.toString('utf8')).toMatch(/^\{"/);
    await emulator.endlessBodiesStopped();
    expect(emulator.calls).toHaveLength(1);
    expect(emulator.calls[0].fault).toBe('endless-body');
    expect(emulator.calls[0].bodyBytes).toBeGreaterThanOrEqual(read);
    // the next call answers whole
    expect((await fetch(urlOf(emulators))).headers.get('content-length')).not.toBeNull();
  });
});

describe('lifecycle', () => {
  it('supports keep-alive and closes with open keep-alive sockets', async () => {
    const emulators = await startEmulators({ latencyMs: 5 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const getOnce = () =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(`${emulators.nfhl.baseUrl}/28/query?${Q}`, { agent }, (res) => {
          sockets.add(req.socket);
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
      });
    expect(await getOnce()).toBe(200);
    expect(await getOnce()).toBe(200);
    expect(sockets.size).toBe(1); // the same connection was reused
    expect(emulators.env.NFHL_BASE_URL).toBe(emulators.nfhl.baseUrl);
    expect(emulators.env.GEOCODER_BASE_URL).toBe(emulators.census.baseUrl);
    await emulators.close(); // must not hang on the idle keep-alive socket
    agent.destroy();
  });

  it('starts on a given port', async () => {
    const probe = await CensusGeocoderEmulator.start();
    const port = probe.port;
    await probe.close();
    const fixed = await CensusGeocoderEmulator.start({ port });
    expect(fixed.baseUrl).toBe(`http://127.0.0.1:${port}/geocoder`);
    await fixed.close();
  });

  it('close() does not hang on a request stuck in a delay', async () => {
    const nfhl = await NfhlMapServerEmulator.start();
    nfhl.injectFault({ kind: 'delay', ms: 60_000 });
    const pending = fetch(`${nfhl.baseUrl}/28/query?${Q}`).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await nfhl.close();
    expect(await pending).toHaveProperty('message'); // fetch failed (socket closed)
  });
});
