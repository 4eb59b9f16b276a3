/**
 * GET /flood-zone/report against the emulators: the page of a lookup (the answer GET /flood-zone gives, every part
 * asked for unless `include` says otherwise), its headers (HTML, its own Content-Security-Policy, caching as lookups),
 * and every error as an HTML page with the status, code and message of the JSON envelope GET /flood-zone gives for
 * the same request. In a browser: report-browser.e2e-spec.ts.
 */
import { entityTag } from '../../src/lookup/answer-cache';
import { DEMO_ADDRESSES, demoPlace } from '../emulators';
import { FAST_FAULTS, Stack, expectErrorEnvelope, startStack } from '../support/stack';
import { readerText } from '../support/page-text';

const REPORT_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const EVERY_PART = 'nearby,preliminary,cbrs,elevation';

interface Page {
  status: number;
  headers: Headers;
  html: string;
  /** What a reader sees: tags and style dropped, entities decoded, white space collapsed. */
  text: string;
}

async function fetchPage(stack: Stack, pathAndQuery: string, init: RequestInit = {}): Promise<Page> {
  const response = await fetch(`${stack.url}${pathAndQuery}`, init);
  const html = await response.text();
  return { status: response.status, headers: response.headers, html, text: readerText(html) };
}

/** An attribute of the page's elements, decoded (`&amp;` is `&`). */
const attributes = (html: string, name: 'src' | 'href') =>
  [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((match) => match[1]!.replace(/&amp;/g, '&'));
const jsonLinkOf = (page: Page) => attributes(page.html, 'href').find((href) => href.startsWith('/flood-zone?'));
const pictureOf = (page: Page) => attributes(page.html, 'src').find((src) => src.startsWith('/flood-zone/map?'));

/** An HTML error page, never cached, under the report's own policy, with its request id. */
function expectErrorPage(page: Page, status: number, code: string): void {
  expect({ status: page.status, headline: page.text.includes(`No report: ${status} ${code}`) }).toEqual({ status, headline: true });
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('content-security-policy')).toBe(REPORT_POLICY);
  expect(page.headers.get('x-request-id')).toMatch(/\S/);
  expect(page.text).toContain(`Request id ${page.headers.get('x-request-id')}`);
  expect(page.html).not.toMatch(/<script|\n\s+at |\.ts:\d+|node_modules/);
}

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => stack.emulators.clearFaults());

describe('the page of a point', () => {
  const place = demoPlace('houston-lomas');
  const query = `lat=${place.lat}&lon=${place.lon}`;
  let page: Page;

  beforeAll(async () => {
    page = await fetchPage(stack, `/flood-zone/report?${query}`);
  });

  it('is a 200 HTML page under its own Content-Security-Policy, one policy only', () => {
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(REPORT_POLICY);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('access-control-allow-origin')).toBe('*');
    expect(page.headers.get('x-request-id')).toMatch(/\S/);
    expect(page.html.startsWith('<!DOCTYPE html>')).toBe(true);
  });

  it('is cached as its lookup: MISS, max-age of the answer, a strong ETag of its bytes', () => {
    expect(page.headers.get('x-cache')).toBe('MISS');
    expect(page.headers.get('cache-control')).toMatch(/^public, max-age=(\d+)$/);
    expect(Number(/max-age=(\d+)/.exec(page.headers.get('cache-control')!)![1])).toBeGreaterThan(86_000);
    expect(page.headers.get('etag')).toBe(entityTag(page.html));
    expect(page.headers.get('content-length')).toBe(String(Buffer.byteLength(page.html)));
  });

  it('asks for every part when include is not given, and links to that JSON answer', async () => {
    expect(jsonLinkOf(page)).toBe(`/flood-zone?${query}&include=${EVERY_PART}`);
    const json = await stack.get(jsonLinkOf(page)!);
    expect(json.status).toBe(200);
    expect(json.body.result.nearby).not.toBeNull();
    expect(json.body.result.mapChange).not.toBeNull();
    expect(json.body.result.coastalBarrier).not.toBeNull();
    expect(json.body.result.groundElevation).not.toBeNull();
    expect(json.body.result.unavailable).toEqual([]);
    // the JSON answer was read from the cache the page filled
    expect(json.headers.get('x-cache')).toBe('HIT');
    const { result } = json.body;
    for (const words of [
      `Zone ${result.floodZone}`,
      result.firmPanel.panel,
      result.firmPanel.effectiveDate,
      `${result.staticBaseFloodElevationFt} ft ${result.verticalDatum}`,
      result.community.nfip.note,
      ...result.lomas.map((loma: { caseNumber: string }) => loma.caseNumber),
      result.mapChange.note,
      result.coastalBarrier.note,
      result.groundElevation.note,
      json.body.disclaimer,
    ]) {
      expect(page.text).toContain(words);
    }
  });

  it("links to FEMA's Map Service Center for the point and shows the picture of this service", async () => {
    expect(attributes(page.html, 'href')).toContain(`https://msc.fema.gov/portal/search?AddressQuery=${place.lat}%2C${place.lon}`);
    expect(pictureOf(page)).toBe(`/flood-zone/map?${query}&width=560&height=360&span=600`);
    const picture = await fetch(`${stack.url}${pictureOf(page)}`);
    expect({ status: picture.status, type: picture.headers.get('content-type') }).toEqual({ status: 200, type: 'image/png' });
  });

  it('loads nothing but its picture: no script, no other resource, no other origin', () => {
    expect(page.html).not.toMatch(/<script|<link|<iframe|<object|<embed|<form|<base|\son[a-z]+=|javascript:|url\(|@import/i);
    expect(attributes(page.html, 'src')).toEqual([pictureOf(page)]);
    expect(attributes(page.html, 'href').filter((href) => !href.startsWith('/') && !href.startsWith('https://msc.fema.gov/'))).toEqual([]);
  });

  it('a repeat is a HIT without any upstream call, the same bytes; If-None-Match gives 304', async () => {
    stack.emulators.resetCalls();
    const again = await fetchPage(stack, `/flood-zone/report?${query}`);
    expect({ status: again.status, cache: again.headers.get('x-cache'), etag: again.headers.get('etag') }).toEqual({
      status: 200,
      cache: 'HIT',
      etag: page.headers.get('etag'),
    });
    expect(again.html).toBe(page.html);
    expect(stack.emulators.nfhl.callCount() + stack.emulators.census.callCount() + stack.emulators.elevation.callCount()).toBe(0);

    const notModified = await fetchPage(stack, `/flood-zone/report?${query}`, { headers: { 'If-None-Match': page.headers.get('etag')! } });
    expect({ status: notModified.status, body: notModified.html, etag: notModified.headers.get('etag') }).toEqual({
      status: 304,
      body: '',
      etag: page.headers.get('etag'),
    });
  });

  it('HEAD: the headers of GET, no body', async () => {
    const head = await fetchPage(stack, `/flood-zone/report?${query}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.html).toBe('');
    expect(head.headers.get('etag')).toBe(page.headers.get('etag'));
    expect(head.headers.get('content-length')).toBe(page.headers.get('content-length'));
    expect(head.headers.get('content-security-policy')).toBe(REPORT_POLICY);
  });
});

describe('include, radius and span', () => {
  const place = demoPlace('houston-nearby-hazards');
  const at = `lat=${place.lat}&lon=${place.lon}`;

  it('include asks for those parts only; the others are said not asked for', async () => {
    const page = await fetchPage(stack, `/flood-zone/report?${at}&include=cbrs`);
    expect(page.status).toBe(200);
    expect(jsonLinkOf(page)).toBe(`/flood-zone?${at}&include=cbrs`);
    for (const item of ['nearby', 'preliminary', 'elevation']) expect(page.text).toContain(`Not asked for (add ${item} to include).`);
    expect(page.text).not.toContain('Not asked for (add cbrs to include).');
  });

  it('radius without include: nearby is asked for, so the radius applies (GET /flood-zone would need include=nearby)', async () => {
    const page = await fetchPage(stack, `/flood-zone/report?${at}&radius=800`);
    expect(page.status).toBe(200);
    expect(jsonLinkOf(page)).toBe(`/flood-zone?${at}&include=${EVERY_PART}&radius=800`);
    expect(page.text).toContain('Nearby flood hazards (within 800 m)');
  });

  it('span sets the picture', async () => {
    const page = await fetchPage(stack, `/flood-zone/report?${at}&span=1500`);
    expect(pictureOf(page)).toBe(`/flood-zone/map?${at}&width=560&height=360&span=1500`);
    expect(page.text).toContain('Flood zones around the point (1500 m across)');
  });
});

describe('the page of an address', () => {
  it("shows the match, links to the JSON answer by address and to the picture of the answer's point (not geocoded again)", async () => {
    const dc = demoPlace('dc-white-house-ae');
    stack.emulators.resetCalls();
    const page = await fetchPage(stack, `/flood-zone/report?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&include=nearby`);
    expect(page.status).toBe(200);
    expect(jsonLinkOf(page)).toBe(`/flood-zone?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&include=nearby`);
    const json = await stack.get(jsonLinkOf(page)!);
    expect(page.text).toContain(json.body.location.matchedAddress);
    expect(page.text).toContain(`Asked: ${DEMO_ADDRESSES.whiteHouse}`);
    expect(pictureOf(page)).toBe(`/flood-zone/map?lat=${dc.lat}&lon=${dc.lon}&width=560&height=360&span=600`);
    expect((await fetch(`${stack.url}${pictureOf(page)}`)).status).toBe(200);
    expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(1);
  });

  it('a point without a digital flood map is unknown, never low risk', async () => {
    const place = demoPlace('mount-vernon-unmapped');
    const page = await fetchPage(stack, `/flood-zone/report?lat=${place.lat}&lon=${place.lon}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('No digital flood map here (unknown, not low risk)');
    expect(page.text.replace(/not low risk/g, '')).not.toMatch(/low[- ]risk|minimal risk|zone X\b/i);
  });
});

describe('a part that fails: said on the page, never "none", and not kept long', () => {
  it('CBRS resets: could not be checked, max-age at most 60', async () => {
    const place = demoPlace('fernandina-cbrs-system-unit');
    stack.emulators.cbrs.injectFault({ kind: 'reset' });
    const page = await fetchPage(stack, `/flood-zone/report?lat=${place.lat}&lon=${place.lon}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      "Coastal Barrier Resources System Could not be checked: the U.S. Fish and Wildlife Service's Coastal Barrier Resources System map did not answer this time.",
    );
    expect(Number(/max-age=(\d+)/.exec(page.headers.get('cache-control')!)![1])).toBeLessThanOrEqual(60);
  });
});

describe('errors: an HTML page with the status, code and message of the JSON envelope', () => {
  const dc = demoPlace('dc-white-house-ae');
  const at = `lat=${dc.lat}&lon=${dc.lon}`;

  it.each([
    ['no location', '', 400],
    ['both kinds of location', `address=x&${at}`, 400],
    ['an address with a control character', 'address=a%07b', 400],
    ['only lat', `lat=${dc.lat}`, 400],
    ['a malformed lat', `lat=1e5&lon=${dc.lon}`, 400],
    ['lat out of range', `lat=90.5&lon=${dc.lon}`, 422],
    ['an unknown include item', `${at}&include=nearby,flood`, 400],
    ['include given twice', `${at}&include=nearby&include=cbrs`, 400],
    ['radius without nearby', `${at}&include=cbrs&radius=300`, 400],
    ['radius out of range', `${at}&include=nearby&radius=5000`, 422],
    ['an address the geocoder does not know', `address=${encodeURIComponent(DEMO_ADDRESSES.noMatch)}`, 404],
  ])('%s', async (_what, query, status) => {
    const json = await stack.get(`/flood-zone?${query}`);
    const page = await fetchPage(stack, `/flood-zone/report?${query}`);
    expectErrorEnvelope(json, status, json.body.code);
    expectErrorPage(page, status, json.body.code);
    expect(page.text).toContain(json.body.error);
  });

  it.each([
    ['span not a whole number', `${at}&span=600.5`, 400],
    ['span given twice', `${at}&span=600&span=700`, 400],
    ['span below 100 m', `${at}&span=99`, 422],
    ['span above 5000 m', `${at}&span=5001`, 422],
  ])('%s: as GET /flood-zone/map says it', async (_what, query, status) => {
    const json = await stack.get(`/flood-zone/map?${query}`);
    const page = await fetchPage(stack, `/flood-zone/report?${query}`);
    expectErrorEnvelope(json, status, status === 400 ? 'INVALID_PARAMETERS' : 'IMAGE_SIZE_OUT_OF_RANGE');
    expectErrorPage(page, status, json.body.code);
    expect(page.text).toContain(json.body.error);
  });

  it('the location is checked before span, as GET /flood-zone checks it', async () => {
    const page = await fetchPage(stack, `/flood-zone/report?lat=91&lon=0&span=5`);
    expectErrorPage(page, 422, 'COORDINATES_OUT_OF_RANGE');
  });

  it('an ambiguous address lists its matches, each linked to its own report', async () => {
    const query = `address=${encodeURIComponent(DEMO_ADDRESSES.ambiguous)}&include=cbrs`;
    const json = await stack.get(`/flood-zone?${query}`);
    const page = await fetchPage(stack, `/flood-zone/report?${query}`);
    expectErrorPage(page, 404, 'AMBIGUOUS_ADDRESS');
    expect(page.text).toContain(json.body.error);
    const reports = attributes(page.html, 'href').filter((href) => href.startsWith('/flood-zone/report?'));
    expect(reports).toEqual(json.body.candidates.map((c: { lat: number; lon: number }) => `/flood-zone/report?include=cbrs&lat=${c.lat}&lon=${c.lon}`));
    for (const candidate of json.body.candidates) expect(page.text).toContain(`${candidate.matchedAddress} (${candidate.lat}, ${candidate.lon})`);
    const chosen = await fetchPage(stack, reports[0]!);
    expect(chosen.status).toBe(200);
  });

  it('user input in the request never becomes markup', async () => {
    const page = await fetchPage(stack, `/flood-zone/report?address=${encodeURIComponent('<script>alert(1)</script>')}`);
    expectErrorPage(page, 404, 'ADDRESS_NOT_FOUND');
    expect(page.html).not.toContain('<script>');
  });

  it('HEAD of an error: its status and headers, no body', async () => {
    const head = await fetchPage(stack, '/flood-zone/report?lat=abc&lon=1', { method: 'HEAD' });
    expect({ status: head.status, type: head.headers.get('content-type'), body: head.html }).toEqual({
      status: 400,
      type: 'text/html; charset=utf-8',
      body: '',
    });
  });

  it('another method: the 405 envelope every path gives, with Allow', async () => {
    const refused = await fetch(`${stack.url}/flood-zone/report?${at}`, { method: 'POST' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(((await refused.json()) as { code: string }).code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('errors of the upstreams and of the rate limit', () => {
  let failing: Stack;
  const place = demoPlace('sacramento-d');
  const at = `lat=${place.lat}&lon=${place.lon}`;

  beforeAll(async () => {
    failing = await startStack({ ...FAST_FAULTS, RATE_LIMIT_PER_MINUTE: '6' });
  });
  afterAll(async () => {
    await failing?.close();
  });
  afterEach(() => failing.emulators.clearFaults());

  it.each([
    [
      'FEMA fails: 502 naming the flood data service',
      at,
      () => failing.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'Flood Hazard Zones' }),
    ],
    [
      'the geocoder fails: 502 naming the geocoder',
      `address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}`,
      () => failing.emulators.census.injectFault({ kind: 'http-status', status: 503 }),
    ],
  ])('%s, with Retry-After', async (_what, query, fault) => {
    fault();
    const json = await failing.get(`/flood-zone?${query}`);
    const page = await fetchPage(failing, `/flood-zone/report?${query}`);
    expectErrorEnvelope(json, 502, 'UPSTREAM_UNAVAILABLE');
    expectErrorPage(page, 502, 'UPSTREAM_UNAVAILABLE');
    expect(page.text).toContain(json.body.error);
    expect(page.text).toContain(`Service that failed: ${json.body.upstream}`);
    expect(page.headers.get('retry-after')).toBe('5');
    expect(page.headers.get('x-cache')).toBe('MISS');
  });

  it('over the rate limit: 429 with Retry-After, as the envelope says it', async () => {
    let page: Page | undefined;
    for (let i = 0; i < 10 && page?.status !== 429; i++) page = await fetchPage(failing, `/flood-zone/report?lat=abc&lon=0`);
    expectErrorPage(page!, 429, 'RATE_LIMITED');
    expect(page!.text).toMatch(/Too many requests: at most 6 per minute from one client\. Retry after \d+ seconds\./);
    expect(Number(page!.headers.get('retry-after'))).toBeGreaterThan(0);
    const json = await failing.get(`/flood-zone?lat=abc&lon=0`);
    expectErrorEnvelope(json, 429, 'RATE_LIMITED');
  });
});
