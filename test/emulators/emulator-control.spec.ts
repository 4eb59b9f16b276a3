/**
 * The control endpoint every emulator serves under /_emulator, raw POST bodies handed to the handlers, and
 * offline mode's EMULATOR_LATENCY_MS / EMULATOR_FAULTS / --latency-ms / --fault, all over real HTTP.
 */
import { NfhlMapServerEmulator } from './arcgis-emulator';
import { CensusGeocoderEmulator } from './census-emulator';
import { DEMO_ADDRESSES, demoPlace } from './demo-map';
import { Answer, CallRecord, jsonAnswer, parseFaults, RequestContext, UpstreamEmulator } from './emulator-core';
import { metersToDegrees, type Position } from './geometry';
import { applyOfflineControls } from './offline-controls';

type Json = Record<string, any>;

const dc = demoPlace('dc-white-house-ae');
const houston = demoPlace('houston-a');
const STD = 'benchmark=Public_AR_Current&vintage=Current_Current&format=json';
const pointQuery = (p: { lat: number; lon: number }, fields = 'FLD_ZONE') =>
  `geometry=${p.lon},${p.lat}&geometryType=esriGeometryPoint&inSR=4326&spatialRel=esriSpatialRelIntersects&outFields=${fields}&returnGeometry=false&f=json`;
/** A point `meters` north of `p`. */
const north = (p: { lat: number; lon: number }, meters: number) => ({ lat: p.lat + metersToDegrees(p.lat, meters).dLat, lon: p.lon });

async function control(emulator: UpstreamEmulator, method: string, route = '', body?: unknown): Promise<{ status: number; body: Json; allow: string | null }> {
  const res = await fetch(`${emulator.controlUrl}${route}`, {
    method,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
  });
  expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
  return { status: res.status, body: (await res.json()) as Json, allow: res.headers.get('allow') };
}

describe('control endpoint /_emulator', () => {
  let nfhl: NfhlMapServerEmulator;
  let census: CensusGeocoderEmulator;
  beforeAll(async () => {
    [nfhl, census] = await Promise.all([NfhlMapServerEmulator.start(), CensusGeocoderEmulator.start()]);
  });
  afterAll(async () => {
    await Promise.all([nfhl.close(), census.close()]);
  });
  beforeEach(() => {
    for (const e of [nfhl, census]) {
      e.clearFaults();
      e.setLatency(0);
      e.resetCalls();
    }
  });

  const zones = (p: { lat: number; lon: number } = dc) => fetch(`${nfhl.queryUrl('floodHazardZones')}?${pointQuery(p)}`);
  const panels = () => fetch(`${nfhl.queryUrl('firmPanels')}?${pointQuery(dc, 'FIRM_PAN')}`);
  const coords = (p: { lat: number; lon: number }) => fetch(`${census.baseUrl}/geographies/coordinates?x=${p.lon}&y=${p.lat}&${STD}&layers=Counties`);
  const oneline = () => fetch(`${census.baseUrl}/geographies/onelineaddress?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&${STD}&layers=Counties`);

  it('GET lists the base URL, latency, active faults and call counts, and is not itself counted', async () => {
    expect(nfhl.controlUrl).toBe(`${nfhl.origin}/_emulator`);
    expect(await control(nfhl, 'GET')).toEqual({
      status: 200,
      allow: null,
      body: { baseUrl: nfhl.baseUrl, latencyMs: 0, faults: [], calls: { total: 0, byEndpoint: {}, byLayer: {}, faulted: 0 } },
    });
    expect((await zones()).status).toBe(200);
    expect((await panels()).status).toBe(200);
    expect((await fetch(`${nfhl.baseUrl}?f=json`)).status).toBe(200);
    const { body } = await control(nfhl, 'GET');
    expect(body.calls).toEqual({ total: 3, byEndpoint: { query: 2, root: 1 }, byLayer: { 'Flood Hazard Zones': 1, 'FIRM Panels': 1 }, faulted: 0 });
    expect(nfhl.totalCalls).toBe(3);
    expect(nfhl.calls.map((c) => c.path)).not.toContain('/_emulator');
  });

  it('POST /faults sets a fault on a layer by name, DELETE /faults clears it, neither counted as a call', async () => {
    const added = await control(nfhl, 'POST', '/faults', { kind: 'http-status', status: 503, match: 'Flood Hazard Zones' });
    expect(added.status).toBe(201);
    expect(added.body.added).toEqual([{ kind: 'http-status', status: 503, match: 'Flood Hazard Zones', id: expect.any(Number), remaining: null, hits: 0 }]);

    const failed = await zones();
    expect(failed.status).toBe(503);
    expect(failed.headers.get('content-type')).toContain('text/html');
    expect((await panels()).status).toBe(200);
    const during = await control(nfhl, 'GET');
    expect(during.body.faults).toEqual([{ ...added.body.added[0], hits: 1 }]);
    expect(during.body.calls).toMatchObject({ total: 2, faulted: 1 });

    expect(await control(nfhl, 'DELETE', '/faults')).toEqual({ status: 200, allow: null, body: { cleared: 1 } });
    expect((await zones()).status).toBe(200);
    expect(nfhl.activeFaults).toEqual([]);
    expect(nfhl.totalCalls).toBe(3);
  });

  it('takes a list of faults by layer id and endpoint, counts `times` down, and removes one fault by id', async () => {
    const { status, body } = await control(nfhl, 'POST', '/faults', [
      { kind: 'arcgis-error', match: 28, times: 1 },
      { kind: 'http-status', status: 500, match: ['root'] },
    ]);
    expect(status).toBe(201);
    expect(body.added.map((f: Json) => [f.kind, f.remaining])).toEqual([
      ['arcgis-error', 1],
      ['http-status', null],
    ]);
    expect(((await (await zones()).json()) as Json).error).toEqual({ code: 500, message: 'Error performing query operation', details: [] });
    expect((await zones()).status).toBe(200);
    expect((await fetch(`${nfhl.baseUrl}?f=json`)).status).toBe(500);

    const rootFault = body.added[1].id as number;
    expect(await control(nfhl, 'DELETE', `/faults/${rootFault}`)).toMatchObject({ status: 200, body: { removed: [{ id: rootFault, hits: 1 }] } });
    expect((await fetch(`${nfhl.baseUrl}?f=json`)).status).toBe(200);
    expect(await control(nfhl, 'DELETE', `/faults/${rootFault}`)).toEqual({ status: 404, allow: null, body: { error: `no active fault ${rootFault}` } });
  });

  it('PUT /latency sets the latency of every answer; DELETE /calls resets the counts', async () => {
    expect(await control(census, 'PUT', '/latency', { ms: 150 })).toEqual({ status: 200, allow: null, body: { latencyMs: 150 } });
    expect(census.latency).toBe(150);
    expect((await control(census, 'GET')).body.latencyMs).toBe(150);
    expect((await oneline()).status).toBe(200);
    expect(await control(census, 'PUT', '/latency', { ms: 0 })).toEqual({ status: 200, allow: null, body: { latencyMs: 0 } });
    expect(census.totalCalls).toBe(1);
    expect(await control(census, 'DELETE', '/calls')).toEqual({ status: 200, allow: null, body: { calls: 0 } });
    expect((await control(census, 'GET')).body.calls).toEqual({ total: 0, byEndpoint: {}, byLayer: {}, faulted: 0 });
  });

  it('keeps the most calls held at once, counting a call until it is answered or its client leaves', async () => {
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    nfhl.injectFault({ kind: 'delay', ms: 60_000, match: 'Flood Hazard Zones' });
    const gone = new AbortController();
    const held = [dc, houston, north(dc, 500)].map((p) =>
      fetch(`${nfhl.queryUrl('floodHazardZones')}?${pointQuery(p)}`, { signal: gone.signal }).catch(() => 'left'),
    );
    await until(() => nfhl.callCount() === 3);
    expect((await panels()).status).toBe(200);
    expect(nfhl.peakConcurrentCalls).toBe(4);
    gone.abort();
    expect(await Promise.all(held)).toEqual(['left', 'left', 'left']);
    nfhl.clearFaults();
    // Once the held calls' clients have gone, none is held: the count starts again from nothing.
    await until(() => {
      nfhl.resetCalls();
      return nfhl.peakConcurrentCalls === 0;
    });
    expect((await zones()).status).toBe(200);
    expect((await panels()).status).toBe(200);
    expect(nfhl.peakConcurrentCalls).toBe(1);
  });

  it('answers what is wrong with a bad request, and changes nothing', async () => {
    const badKind = await control(nfhl, 'POST', '/faults', { kind: 'explode' });
    expect(badKind.status).toBe(400);
    expect(badKind.body.error).toBe(
      'the fault is not valid: kind must be equal to one of the allowed values (delay, reset, http-status, html, malformed-json, arcgis-error, errors-array, layer-error, empty-object, endless-body)',
    );
    const secondBad = await control(nfhl, 'POST', '/faults', [{ kind: 'reset' }, { kind: 'reset', colour: 'red' }]);
    expect(secondBad).toEqual({ status: 400, allow: null, body: { error: 'fault 2 is not valid: the fault must NOT have additional properties ("colour")' } });
    expect((await control(nfhl, 'POST', '/faults', { kind: 'delay', ms: -5 })).body.error).toBe('the fault is not valid: ms must be >= 0');
    expect(await control(nfhl, 'POST', '/faults', '{"kind":')).toEqual({ status: 400, allow: null, body: { error: 'the body must be JSON' } });
    expect(await control(nfhl, 'PUT', '/latency', { ms: -1 })).toEqual({
      status: 400,
      allow: null,
      body: { error: 'send {"ms": N} with N a number of milliseconds >= 0' },
    });
    expect(await control(nfhl, 'GET', '/faults')).toEqual({ status: 405, allow: 'POST, DELETE', body: { error: 'GET is not allowed on /_emulator/faults' } });
    expect(await control(nfhl, 'GET', '/nothing')).toEqual({
      status: 404,
      allow: null,
      body: { error: 'no control route /_emulator/nothing; see GET /_emulator' },
    });
    expect(nfhl.activeFaults).toEqual([]);
    expect(nfhl.latency).toBe(0);
    expect(nfhl.totalCalls).toBe(0);
  });

  it('NFHL: a `near` fault strikes queries at that place only (default within 50 m)', async () => {
    await control(nfhl, 'POST', '/faults', { kind: 'http-status', status: 503, match: { near: [dc.lon, dc.lat] } });
    expect((await zones(dc)).status).toBe(503);
    expect((await zones(north(dc, 30))).status).toBe(503);
    expect((await zones(north(dc, 80))).status).toBe(200);
    expect((await zones(houston)).status).toBe(200);
    expect(nfhl.calls.map((c) => c.point)).toEqual([
      [dc.lon, dc.lat],
      [dc.lon, north(dc, 30).lat],
      [dc.lon, north(dc, 80).lat],
      [houston.lon, houston.lat],
    ]);
  });

  it('NFHL: a `near` fault reads the point of a POST form and of a JSON or Web Mercator geometry', async () => {
    await control(nfhl, 'POST', '/faults', { kind: 'arcgis-error', match: { near: [houston.lon, houston.lat], withinM: 10 } });
    const post = await fetch(nfhl.queryUrl('floodHazardZones'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: pointQuery(houston),
    });
    expect(((await post.json()) as Json).error).toBeDefined();
    const geometry = encodeURIComponent(JSON.stringify({ x: houston.lon, y: houston.lat, spatialReference: { wkid: 4326 } }));
    const json = await fetch(
      `${nfhl.queryUrl('floodHazardZones')}?${pointQuery(dc)
        .replace(/geometry=[^&]*/, `geometry=${geometry}`)
        .replace('&inSR=4326', '')}`,
    );
    expect(((await json.json()) as Json).error).toBeDefined();
    const x = (houston.lon * Math.PI * 6378137) / 180;
    const y = 6378137 * Math.log(Math.tan(Math.PI / 4 + (houston.lat * Math.PI) / 360));
    const mercator = await fetch(
      `${nfhl.queryUrl('floodHazardZones')}?${pointQuery(dc)
        .replace(/geometry=[^&]*/, `geometry=${x},${y}`)
        .replace('inSR=4326', 'inSR=3857')}`,
    );
    expect(((await mercator.json()) as Json).error).toBeDefined();
    expect(((await (await zones(dc)).json()) as Json).features).toEqual([{ attributes: { FLD_ZONE: 'AE' } }]);
  });

  it('Census: a `near` fault strikes coordinate lookups at that place, not address lookups', async () => {
    await control(census, 'POST', '/faults', { kind: 'empty-object', match: { near: [dc.lon, dc.lat], withinM: 100 } });
    expect(await (await coords(dc)).json()).toEqual({});
    expect(await (await coords(north(dc, 150))).json()).toHaveProperty('result');
    expect(await (await oneline()).json()).toHaveProperty('result');
    expect(census.calls.map((c) => c.fault)).toEqual(['empty-object', undefined, undefined]);
  });
});

/** A minimal emulator that answers what it was handed, to see the core's request handling from a handler. */
class EchoEmulator extends UpstreamEmulator {
  private constructor(private readonly forms: boolean) {
    super('/echo', {});
  }

  static async start(forms: boolean): Promise<EchoEmulator> {
    const emulator = new EchoEmulator(forms);
    await emulator.listen({});
    return emulator;
  }

  protected describe(): Pick<CallRecord, 'endpoint'> {
    return { endpoint: 'echo' };
  }

  protected answer(ctx: RequestContext): Answer {
    return jsonAnswer({ params: ctx.params, contentType: ctx.contentType ?? null, body: ctx.body?.toString('base64') ?? null });
  }

  protected htmlErrorPage(status: number): string {
    return `<html><body>${status}</body></html>`;
  }

  protected acceptsPostForm(): boolean {
    return this.forms;
  }

  protected queryPoint(params: Record<string, string>): Position | undefined {
    return params.at === undefined ? undefined : (params.at.split(',').map(Number) as Position);
  }
}

describe('request bodies handed to the handlers', () => {
  let forms: EchoEmulator;
  let raw: EchoEmulator;
  beforeAll(async () => {
    [forms, raw] = await Promise.all([EchoEmulator.start(true), EchoEmulator.start(false)]);
  });
  afterAll(async () => {
    await Promise.all([forms.close(), raw.close()]);
  });

  it('hands a multipart POST over as raw bytes with its Content-Type', async () => {
    const upload = new FormData();
    upload.append('benchmark', 'Public_AR_Current');
    upload.append('addressFile', new Blob([Buffer.from('1,1600 Pennsylvania Ave NW,Washington,DC,20500\n\u00e9\u0000')]), 'addresses.csv');
    const request = new Request(`${raw.baseUrl}/locations/addressbatch?x=1`, { method: 'POST', body: upload });
    const sent = Buffer.from(await request.clone().arrayBuffer());
    const echoed = (await (await fetch(request)).json()) as Json;
    expect(echoed.contentType).toBe(request.headers.get('content-type'));
    expect(echoed.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(Buffer.from(echoed.body, 'base64').equals(sent)).toBe(true);
    expect(echoed.params).toEqual({ x: '1' });
    expect((await (await fetch(`${forms.baseUrl}/x`, { method: 'POST', body: upload })).json()) as Json).toMatchObject({ params: {} });
  });

  it('parses urlencoded forms into params where the emulator accepts forms, and still hands over the body', async () => {
    const body = 'a=1&b=two%20words';
    const form = (await (
      await fetch(`${forms.baseUrl}/x?a=query`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body })
    ).json()) as Json;
    expect(form).toEqual({
      params: { a: 'query', b: 'two words' },
      contentType: 'application/x-www-form-urlencoded',
      body: Buffer.from(body).toString('base64'),
    });
    const notParsed = (await (
      await fetch(`${raw.baseUrl}/x`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body })
    ).json()) as Json;
    expect(notParsed.params).toEqual({});
    const get = (await (await fetch(`${forms.baseUrl}/x?a=1`)).json()) as Json;
    expect(get).toEqual({ params: { a: '1' }, contentType: null, body: null });
  });

  it('matches a `near` fault by the point the emulator reads from the request, and a list of places', async () => {
    forms.injectFault({ kind: 'http-status', status: 502, match: [{ near: [-77.0365, 38.8977], withinM: 20 }, 'nothing'] });
    expect((await fetch(`${forms.baseUrl}/x?at=-77.0365,38.8977`)).status).toBe(502);
    expect((await fetch(`${forms.baseUrl}/x?at=-77.0365,38.8979`)).status).toBe(200); // about 22 m north
    expect((await fetch(`${forms.baseUrl}/x`)).status).toBe(200);
    forms.clearFaults();
  });
});

describe('parseFaults', () => {
  it('takes one fault or a list, with every match form', () => {
    expect(parseFaults({ kind: 'reset' })).toEqual([{ kind: 'reset' }]);
    const list = [
      { kind: 'http-status', status: 503, match: 'Flood Hazard Zones', times: 2 },
      { kind: 'delay', ms: 100, match: [28, 'coordinates', { near: [-66.1, 18.4], withinM: 5 }] },
      { kind: 'layer-error', layers: ['Counties'], match: { near: [-66.1, 18.4] } },
    ];
    expect(parseFaults(list)).toEqual(list);
  });

  it('names what is wrong', () => {
    expect(() => parseFaults({ status: 503 })).toThrow("the fault is not valid: the fault must have required property 'kind'");
    expect(() => parseFaults([{ kind: 'reset', times: 0 }])).toThrow('fault 1 is not valid: times must be >= 1');
    expect(() => parseFaults({ kind: 'reset', match: { near: [1] } })).toThrow(/^the fault is not valid: match/);
  });
});

describe('offline controls from the environment and the command line', () => {
  let nfhl: NfhlMapServerEmulator;
  let census: CensusGeocoderEmulator;
  beforeEach(async () => {
    [nfhl, census] = await Promise.all([NfhlMapServerEmulator.start(), CensusGeocoderEmulator.start()]);
  });
  afterEach(async () => {
    await Promise.all([nfhl.close(), census.close()]);
  });

  it('applies EMULATOR_LATENCY_MS and EMULATOR_FAULTS keyed by emulator name', async () => {
    const applied = applyOfflineControls(
      { nfhl, census },
      {
        EMULATOR_LATENCY_MS: '120',
        EMULATOR_FAULTS: JSON.stringify({
          nfhl: { kind: 'http-status', status: 503, match: 'Flood Hazard Zones' },
          census: [{ kind: 'empty-object', match: 'coordinates', times: 1 }],
        }),
      },
      [],
    );
    expect(applied.latencyMs).toBe(120);
    expect(applied.faults.map((f) => [f.emulator, f.fault.kind])).toEqual([
      ['nfhl', 'http-status'],
      ['census', 'empty-object'],
    ]);
    expect(applied.summary).toEqual([
      'every emulator answers 120 ms late',
      'nfhl: fault #1 {"kind":"http-status","status":503,"match":"Flood Hazard Zones"}',
      'census: fault #1 {"kind":"empty-object","match":"coordinates","times":1}',
    ]);

    const [nfhlState, censusState] = await Promise.all([control(nfhl, 'GET'), control(census, 'GET')]);
    expect(nfhlState.body).toMatchObject({ latencyMs: 120, faults: [{ kind: 'http-status', status: 503, match: 'Flood Hazard Zones', remaining: null }] });
    expect(censusState.body).toMatchObject({ latencyMs: 120, faults: [{ kind: 'empty-object', match: 'coordinates', remaining: 1 }] });
    expect((await fetch(`${nfhl.queryUrl('floodHazardZones')}?${pointQuery(dc)}`)).status).toBe(503);
    expect(await (await fetch(`${census.baseUrl}/geographies/coordinates?x=${dc.lon}&y=${dc.lat}&${STD}`)).json()).toEqual({});
  });

  it('applies --latency-ms (over the environment) and repeated --fault, a list for every emulator', async () => {
    applyOfflineControls({ nfhl, census }, { EMULATOR_LATENCY_MS: '999', EMULATOR_FAULTS: '' }, [
      '--latency-ms',
      '40',
      '--fault',
      '[{"kind":"http-status","status":500,"match":"root","times":1}]',
      '--fault={"census":{"kind":"reset","match":"benchmarks"}}',
    ]);
    expect([nfhl.latency, census.latency]).toEqual([40, 40]);
    expect(nfhl.activeFaults.map((f) => [f.kind, f.match])).toEqual([['http-status', 'root']]);
    expect(census.activeFaults.map((f) => [f.kind, f.match])).toEqual([
      ['http-status', 'root'],
      ['reset', 'benchmarks'],
    ]);
    expect((await fetch(`${nfhl.baseUrl}?f=json`)).status).toBe(500);
    expect((await fetch(`${nfhl.baseUrl}?f=json`)).status).toBe(200);
    await expect(fetch(`${census.baseUrl}/benchmarks?format=json`)).rejects.toThrow();
  });

  it('leaves the emulators alone when nothing is set', () => {
    expect(applyOfflineControls({ nfhl, census }, {}, [])).toEqual({ latencyMs: undefined, faults: [], summary: [] });
    expect([nfhl.latency, census.latency, nfhl.activeFaults.length, census.activeFaults.length]).toEqual([0, 0, 0, 0]);
  });

  it('refuses a bad setting with a message that names it, before applying anything', () => {
    const apply =
      (env: NodeJS.ProcessEnv, argv: string[] = []) =>
      () =>
        applyOfflineControls({ nfhl, census }, env, argv);
    expect(apply({ EMULATOR_LATENCY_MS: 'fast' })).toThrow('EMULATOR_LATENCY_MS must be a whole number of milliseconds, got "fast"');
    expect(apply({}, ['--latency-ms', '-3'])).toThrow("Option '--latency-ms' argument is ambiguous");
    expect(apply({}, ['--latency-ms=1.5'])).toThrow('--latency-ms must be a whole number of milliseconds, got "1.5"');
    expect(apply({ EMULATOR_FAULTS: '{"kind":' })).toThrow(
      'EMULATOR_FAULTS must be JSON (a fault, a list of faults, or faults by emulator name), got {"kind":',
    );
    expect(apply({ EMULATOR_FAULTS: '{"fema":{"kind":"reset"}}' })).toThrow('EMULATOR_FAULTS names no emulator "fema": the emulators are nfhl, census');
    expect(apply({}, ['--fault', '{"nfhl":{"kind":"boom"}}'])).toThrow(
      /^--fault \(nfhl\): the fault is not valid: kind must be equal to one of the allowed values/,
    );
    expect(apply({}, ['--faults', '[]'])).toThrow("Unknown option '--faults'");
    expect(apply({ EMULATOR_LATENCY_MS: '10', EMULATOR_FAULTS: '[{"kind":"reset"},{"kind":"nope"}]' })).toThrow(/^EMULATOR_FAULTS: fault 2 is not valid/);
    expect([nfhl.latency, census.latency, nfhl.activeFaults.length, census.activeFaults.length]).toEqual([0, 0, 0, 0]);
  });
});
