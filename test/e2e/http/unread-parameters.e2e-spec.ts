/**
 * Every parameter of the map picture, the report page and the portfolio jobs is read or refused: a bracketed name
 * (`width[]`), a parameter of another endpoint (`include` on the picture) or one no endpoint reads (`format`) is a
 * 400 INVALID_PARAMETERS naming it, before any upstream call, never a silent default. GET /flood-zone and the batch
 * let other unknown names go (clients add cache busters), but refuse a bracketed one alike, with the same message.
 */
import { demoPlace } from '../../emulators';
import { Stack, expectErrorEnvelope, startStack } from '../../support/stack';

const dc = demoPlace('dc-white-house-ae');
const AT = `lat=${dc.lat}&lon=${dc.lon}`;
const JOB = '/flood-zone/jobs/3f2b9c1e-7a4d-4e8b-9c61-0d5e2a7b4f18';

const PICTURE_READS = 'this endpoint reads only address, lat, lon, buildId, width, height and span.';
const REPORT_READS = 'this endpoint reads only address, lat, lon, include, radius, buildId and span.';
const bracketed = (name: string, reads: string) => `a name with brackets is not ${name} (give ${name} once, without brackets); ${reads}`;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.emulators.resetCalls());

const upstreamCalls = () => stack.emulators.nfhl.callCount() + stack.emulators.basemap.callCount() + stack.emulators.census.callCount();

describe('GET /flood-zone/map', () => {
  it.each([
    ['width[]=300', `Unknown parameter "width[]": ${bracketed('width', PICTURE_READS)}`],
    ['width[a]=300', `Unknown parameter "width[a]": ${bracketed('width', PICTURE_READS)}`],
    ['span[]=1', `Unknown parameter "span[]": ${bracketed('span', PICTURE_READS)}`],
    ['format=jpeg', `Unknown parameter "format": ${PICTURE_READS}`],
    ['size=800x600', `Unknown parameter "size": ${PICTURE_READS}`],
    ['include=nearby', `Unknown parameter "include": ${PICTURE_READS}`],
    ['radius=300', `Unknown parameter "radius": ${PICTURE_READS}`],
    ['_=123', `Unknown parameter "_": ${PICTURE_READS}`],
  ])('%s → 400 INVALID_PARAMETERS naming it, and no upstream call', async (extra, message) => {
    const res = await stack.get(`/flood-zone/map?${AT}&${extra}`);
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    expect(res.body.error).toBe(message);
    expect(upstreamCalls()).toBe(0);
  });

  it('lat[] is named, not mistaken for a missing lat', async () => {
    const res = await stack.get(`/flood-zone/map?lat[]=${dc.lat}&lon=${dc.lon}`);
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    expect(res.body.error).toBe(`Unknown parameter "lat[]": ${bracketed('lat', PICTURE_READS)}`);
  });

  it('a picture already made is refused with an unread parameter all the same (the cached path reads the same rules)', async () => {
    const made = await stack.get(`/flood-zone/map?${AT}&width=300&height=200`);
    expect(made.status).toBe(200);
    const again = await stack.get(`/flood-zone/map?${AT}&width=300&height=200`);
    expect(again.headers.get('x-cache')).toBe('HIT');
    const refused = await stack.get(`/flood-zone/map?${AT}&width=300&height=200&format=jpeg`);
    expectErrorEnvelope(refused, 400, 'INVALID_PARAMETERS');
    expect(refused.body.error).toBe(`Unknown parameter "format": ${PICTURE_READS}`);
  });
});

describe('GET /flood-zone: unknown names let go, bracketed ones refused as everywhere', () => {
  const LOOKUP_READS = 'this endpoint reads only address, lat, lon, include, radius and buildId.';

  it.each([
    [`lat[]=${dc.lat}&lon=${dc.lon}`, `Unknown parameter "lat[]": ${bracketed('lat', LOOKUP_READS)}`],
    [`lat]=${dc.lat}&lon=${dc.lon}`, `Unknown parameter "lat]": ${bracketed('lat', LOOKUP_READS)}`],
    [`lat%5B%5D=${dc.lat}&lon=${dc.lon}`, `Unknown parameter "lat[]": ${bracketed('lat', LOOKUP_READS)}`],
    [`address[]=1600+Pennsylvania+Ave`, `Unknown parameter "address[]": ${bracketed('address', LOOKUP_READS)}`],
    [`${AT}&include[]=nearby`, `Unknown parameter "include[]": ${bracketed('include', LOOKUP_READS)}`],
    [`${AT}&include=nearby&radius[]=300`, `Unknown parameter "radius[]": ${bracketed('radius', LOOKUP_READS)}`],
    [`${AT}&foo[]=1`, `Unknown parameter "foo[]": ${LOOKUP_READS}`],
  ])('%s → 400 INVALID_PARAMETERS naming it, and no upstream call', async (query, message) => {
    const res = await stack.get(`/flood-zone?${query}`);
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    expect(res.body.error).toBe(message);
    expect(upstreamCalls()).toBe(0);
  });

  it('an answer already cached is refused with a bracketed name all the same (the cached path reads the same rules)', async () => {
    expect((await stack.get(`/flood-zone?${AT}`)).status).toBe(200);
    expect((await stack.get(`/flood-zone?${AT}`)).headers.get('x-cache')).toBe('HIT');
    const refused = await stack.get(`/flood-zone?${AT}&include[]=nearby`);
    expectErrorEnvelope(refused, 400, 'INVALID_PARAMETERS');
    expect(refused.body.error).toBe(`Unknown parameter "include[]": ${bracketed('include', LOOKUP_READS)}`);
  });

  it('a cache buster is still let go', async () => {
    expect((await stack.get(`/flood-zone?${AT}&_=1700000000`)).status).toBe(200);
  });
});

describe('POST /flood-zone/batch', () => {
  const BATCH_READS = 'this endpoint reads only include and radius.';
  it.each([
    ['include[]=nearby', `Unknown parameter "include[]": ${bracketed('include', BATCH_READS)}`],
    ['include=nearby&radius[]=300', `Unknown parameter "radius[]": ${bracketed('radius', BATCH_READS)}`],
  ])('?%s → 400 INVALID_PARAMETERS naming it, and no upstream call', async (query, message) => {
    const response = await fetch(`${stack.url}/flood-zone/batch?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: `lat,lon\n${dc.lat},${dc.lon}\n`,
    });
    const body = (await response.json()) as { statusCode: number; code: string; error: string };
    expect({ status: response.status, code: body.code, error: body.error }).toEqual({ status: 400, code: 'INVALID_PARAMETERS', error: message });
    expect(upstreamCalls()).toBe(0);
  });
});

describe('GET /flood-zone/report', () => {
  it.each([
    ['include[]=nearby', `Unknown parameter "include[]": ${bracketed('include', REPORT_READS)}`],
    ['span[]=1', `Unknown parameter "span[]": ${bracketed('span', REPORT_READS)}`],
    ['width=300', `Unknown parameter "width": ${REPORT_READS}`],
    ['format=pdf', `Unknown parameter "format": ${REPORT_READS}`],
  ])('%s → a 400 INVALID_PARAMETERS page naming it, and no upstream call', async (extra, message) => {
    const res = await fetch(`${stack.url}/flood-zone/report?${AT}&${extra}`);
    const page = await res.text();
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page).toContain('400 INVALID_PARAMETERS');
    expect(page).toContain(message.replaceAll('"', '&quot;'));
    expect(upstreamCalls()).toBe(0);
  });
});

describe('/flood-zone/jobs', () => {
  it.each([
    ['POST', '/flood-zone/jobs?include[]=nearby', `Unknown parameter "include[]": ${bracketed('include', 'this endpoint reads only include and radius.')}`],
    [
      'POST',
      '/flood-zone/jobs?include=nearby&radius[]=300',
      `Unknown parameter "radius[]": ${bracketed('radius', 'this endpoint reads only include and radius.')}`,
    ],
    ['POST', '/flood-zone/jobs?format=csv', 'Unknown parameter "format": this endpoint reads only include and radius.'],
    ['GET', `${JOB}?verbose=1`, 'Unknown parameter "verbose": this endpoint reads no query parameters.'],
    ['GET', `${JOB}/results?format=csv`, 'Unknown parameter "format": this endpoint reads only columns.'],
    ['DELETE', `${JOB}?force=true`, 'Unknown parameter "force": this endpoint reads no query parameters.'],
  ])('%s %s → 400 INVALID_PARAMETERS naming it', async (method, path, message) => {
    const response = await fetch(`${stack.url}${path}`, {
      method,
      ...(method === 'POST' ? { headers: { 'content-type': 'text/csv' }, body: 'lat,lon\n1,2\n' } : {}),
    });
    const body = (await response.json()) as { statusCode: number; code: string; error: string };
    expect({ status: response.status, code: body.code, error: body.error }).toEqual({ status: 400, code: 'INVALID_PARAMETERS', error: message });
  });
});
