import * as fs from 'node:fs';
import * as path from 'node:path';
import { EPQS_CALL_FAILED, EPQS_NO_DATA_VALUE, EpqsEmulator, EpqsPoint } from './epqs-emulator';

type Json = Record<string, any>;

const RECORDED = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'epqs-v1-answers.json'), 'utf8')) as {
  answers: Array<{ body: Json }>;
  badRequest: { status: number; body: string };
};
const [WITH_DATE] = RECORDED.answers;

/** The recorded point (Tacoma, WA) and its recorded answer. */
const TACOMA: EpqsPoint = { at: [-122.57539940320193, 47.258260494342196], valueFt: 13.34829010234212, resolution: 1, acquisitionDate: '3/1/2020' };
const CALL_FAILED: EpqsPoint = { at: [-95.0, 29.5], valueFt: 12, callFailed: true };
const NULL_VALUE: EpqsPoint = { at: [-95.1, 29.5], valueFt: null };
const NO_DATA: EpqsPoint = { at: [-95.2, 29.5], valueFt: EPQS_NO_DATA_VALUE };
const COARSE_NO_DATE: EpqsPoint = { at: [-95.3, 29.5], valueFt: 40.2, resolution: 10, acquisitionDate: null };
const SLOW: EpqsPoint = { at: [-95.4, 29.5], valueFt: 7.5, delayMs: 300 };

describe('USGS Elevation Point Query Service emulator', () => {
  let epqs: EpqsEmulator;
  beforeAll(async () => {
    epqs = await EpqsEmulator.start({ points: [TACOMA, CALL_FAILED, NULL_VALUE, NO_DATA, COARSE_NO_DATE, SLOW] });
  });
  afterAll(async () => {
    await epqs.close();
  });
  beforeEach(() => {
    epqs.clearFaults();
    epqs.resetCalls();
    epqs.setLatency(0);
  });

  const query = async ([lon, lat]: readonly number[], extra = '&wkid=4326&units=Feet&includeDate=true') => {
    const res = await fetch(`${epqs.baseUrl}/v1/json?x=${lon}&y=${lat}${extra}`);
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type') ?? '', text, json: () => JSON.parse(text) as Json };
  };

  it('serves /v1/json at the origin, like https://epqs.nationalmap.gov', () => {
    expect(epqs.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(epqs.baseUrl).toBe(epqs.origin);
  });

  it('answers the recorded point exactly as recorded, with the date asked for', async () => {
    const r = await query(TACOMA.at);
    expect(r.status).toBe(200);
    expect(r.type).toContain('application/json');
    expect(r.json()).toEqual(WITH_DATE.body);
  });

  it('leaves the date out unless includeDate=true', async () => {
    const r = await query(TACOMA.at, '&wkid=4326&units=Feet');
    expect(r.json()).toEqual({ ...WITH_DATE.body, attributes: undefined });
    expect('attributes' in r.json()).toBe(false);
  });

  it('answers in metres when asked', async () => {
    expect((await query(TACOMA.at, '&wkid=4326&units=Meters')).json().value).toBeCloseTo(13.34829010234212 * 0.3048, 10);
  });

  it('answers the nearest given point within 100 m, echoing the query point', async () => {
    const near = [TACOMA.at[0] + 0.0005, TACOMA.at[1]];
    const body = (await query(near)).json();
    expect(body.value).toBe(TACOMA.valueFt);
    expect(body.location).toEqual({ x: near[0], y: near[1], spatialReference: { wkid: 4326, latestWkid: 4326 } });
  });

  it("answers the service's no-data number far from every point", async () => {
    const body = (await query([-100, 40])).json();
    expect(body.value).toBe(-1000000);
    expect(body.resolution).toBe(1);
    expect('attributes' in body).toBe(false);
  });

  it('answers only the exact point with withinM 0', async () => {
    const exact = await EpqsEmulator.start({ points: [TACOMA], withinM: 0 });
    try {
      const r = await fetch(`${exact.baseUrl}/v1/json?x=${TACOMA.at[0]}&y=${TACOMA.at[1]}&wkid=4326&units=Feet&includeDate=true`);
      expect(((await r.json()) as Json).value).toBe(TACOMA.valueFt);
      const off = await fetch(`${exact.baseUrl}/v1/json?x=${TACOMA.at[0] + 0.00001}&y=${TACOMA.at[1]}&wkid=4326&units=Feet`);
      expect(((await off.json()) as Json).value).toBe(EPQS_NO_DATA_VALUE);
    } finally {
      await exact.close();
    }
  });

  it('answers the text "Call failed." with HTTP 200 where told', async () => {
    const r = await query(CALL_FAILED.at);
    expect(r.status).toBe(200);
    expect(r.type).toContain('text/plain');
    expect(r.text).toBe(EPQS_CALL_FAILED);
    expect(r.text).toBe('Call failed.');
  });

  it('answers value null and -1000000 where told', async () => {
    expect((await query(NULL_VALUE.at)).json().value).toBeNull();
    expect((await query(NO_DATA.at)).json().value).toBe(-1000000);
    expect((await query(NO_DATA.at, '&wkid=4326&units=Meters')).json().value).toBe(-1000000);
  });

  it('gives a point its own resolution, and no date when it has none', async () => {
    const body = (await query(COARSE_NO_DATE.at)).json();
    expect(body.value).toBe(40.2);
    expect(body.resolution).toBe(10);
    expect('attributes' in body).toBe(false);
  });

  it('answers a slow point late', async () => {
    const t0 = Date.now();
    expect((await query(SLOW.at)).json().value).toBe(7.5);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it('answers 400 text/plain as recorded for missing or unreadable coordinates and other spatial references', async () => {
    for (const url of ['/v1/json?y=29.5&wkid=4326', '/v1/json?x=abc&y=29.5', '/v1/json?x=-95&y=29.5&wkid=102100']) {
      const res = await fetch(`${epqs.baseUrl}${url}`);
      expect(res.status).toBe(RECORDED.badRequest.status);
      expect(res.headers.get('content-type')).toContain('text/plain');
      expect(await res.text()).toBe(RECORDED.badRequest.body);
    }
  });

  it('answers a 404 HTML page on any other path', async () => {
    const res = await fetch(`${epqs.baseUrl}/v1/xml?x=-95&y=29.5`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('404 Not Found');
  });

  it('logs every call with its endpoint and point', async () => {
    await query(TACOMA.at);
    await query([-100, 40]);
    expect(epqs.callCount({ endpoint: 'json' })).toBe(2);
    expect(epqs.calls.map((call) => call.point)).toEqual([TACOMA.at, [-100, 40]]);
  });

  it('lets a test replace its points', async () => {
    const other = await EpqsEmulator.start();
    try {
      const at = [-90, 35] as [number, number];
      const ask = async () => ((await (await fetch(`${other.baseUrl}/v1/json?x=${at[0]}&y=${at[1]}&wkid=4326`)).json()) as Json).value;
      expect(await ask()).toBe(EPQS_NO_DATA_VALUE);
      other.setPoints([{ at, valueFt: 301.5 }]);
      expect(await ask()).toBe(301.5);
    } finally {
      await other.close();
    }
  });

  describe('faults', () => {
    it('reset: no answer', async () => {
      epqs.injectFault({ kind: 'reset', times: 1 });
      await expect(query(TACOMA.at)).rejects.toThrow();
      expect((await query(TACOMA.at)).status).toBe(200);
      expect(epqs.calls.map((call) => call.fault)).toEqual(['reset', undefined]);
    });

    it('http-status: a 5xx HTML page by default', async () => {
      epqs.injectFault({ kind: 'http-status', status: 503, times: 1 });
      const r = await query(TACOMA.at);
      expect(r.status).toBe(503);
      expect(r.type).toContain('text/html');
    });

    it('html: an HTML page with 200', async () => {
      epqs.injectFault({ kind: 'html', times: 1 });
      const r = await query(TACOMA.at);
      expect(r.status).toBe(200);
      expect(r.text).toMatch(/^<!DOCTYPE html>/);
    });

    it('malformed-json: the real answer cut in half', async () => {
      epqs.injectFault({ kind: 'malformed-json', times: 1 });
      const r = await query(TACOMA.at);
      expect(r.status).toBe(200);
      expect(JSON.stringify(WITH_DATE.body).startsWith(r.text)).toBe(true);
      expect(() => r.json()).toThrow();
    });

    it('empty-object, arcgis-error and errors-array: the generic JSON bodies', async () => {
      epqs.injectFault({ kind: 'empty-object', times: 1 });
      expect((await query(TACOMA.at)).json()).toEqual({});
      epqs.injectFault({ kind: 'arcgis-error', times: 1 });
      expect((await query(TACOMA.at)).json()).toEqual({ error: { code: 500, message: 'Error performing query operation', details: [] } });
      epqs.injectFault({ kind: 'errors-array', times: 1 });
      const r = await query(TACOMA.at);
      expect(r.status).toBe(400);
      expect(r.json()).toEqual({ errors: ['Invalid benchmark'], status: '400' });
    });

    it('delay and a place: only queries near the place wait', async () => {
      epqs.injectFault({ kind: 'delay', ms: 250, match: { near: TACOMA.at, withinM: 50 } });
      const t0 = Date.now();
      await query(TACOMA.at);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
      await query([-100, 40]);
      expect(epqs.calls.map((call) => call.fault)).toEqual(['delay', undefined]);
    });

    it('is controlled over HTTP at /_emulator', async () => {
      const added = await fetch(epqs.controlUrl + '/faults', {
        method: 'POST',
        body: JSON.stringify({ kind: 'http-status', status: 502, match: 'json', times: 1 }),
      });
      expect(added.status).toBe(201);
      expect((await query(TACOMA.at)).status).toBe(502);
      expect((await query(TACOMA.at)).status).toBe(200);
      const status = (await (await fetch(epqs.controlUrl)).json()) as Json;
      expect(status).toMatchObject({ baseUrl: epqs.baseUrl, latencyMs: 0, faults: [], calls: { total: 2, byEndpoint: { json: 2 }, faulted: 1 } });
    });
  });
});
