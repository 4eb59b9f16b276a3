/**
 * GET /flood-zone/report against the emulators: the page of a lookup (the answer GET /flood-zone gives, every part
 * asked for unless `include` says otherwise), its headers (HTML, its own Content-Security-Policy, caching as lookups),
 * and every error as an HTML page with the status, code and message of the JSON envelope GET /flood-zone gives for
 * the same request. In a browser: report-browser.system-spec.ts.
 */
import { entityTag } from '../../../src/common/cached-entity';
import { DEMO_ADDRESSES, DEMO_AREA_RECORDS, DEMO_BUILDING_ADDRESSES, demoPlace } from '../../emulators';
import { demoStructure } from '../../emulators/structure-footprints';
import { FAST_FAULTS, Stack, expectErrorEnvelope, startStack } from '../../support/stack';
import { readerText } from '../../support/page-text';

const REPORT_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const EVERY_PART = 'nearby,preliminary,cbrs,elevation,structure,history,determination';

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
/** The PNG the page carries inside it (its one data: image). */
const pictureOf = (page: Page) => {
  const image = attributes(page.html, 'src').find((src) => src.startsWith('data:image/png;base64,'));
  return image === undefined ? undefined : Buffer.from(image.slice('data:image/png;base64,'.length), 'base64');
};
/** The picture GET /flood-zone/map gives for `query` at the report's size. */
const servedPicture = async (stack: Stack, query: string) =>
  Buffer.from(await (await fetch(`${stack.url}/flood-zone/map?${query}&width=560&height=360`)).arrayBuffer());
/** The page without its heading's date and id: what every copy of the same report shares. */
const unheaded = (page: Page) => page.html.replace(/<p class="stamp">.*?<\/p>/s, '');

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

/** A point inside a demo building (the middle of its footprint's box): the building whose footprint contains it. */
function inside(id: string): string {
  const ring = demoStructure(id).feature.rings![0]!;
  const middle = (values: number[]) => ((Math.min(...values) + Math.max(...values)) / 2).toFixed(7);
  return `lat=${middle(ring.map(([, lat]) => lat!))}&lon=${middle(ring.map(([lon]) => lon!))}`;
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

  it('is cached as its lookup: MISS, max-age of the answer, a weak ETag of its bytes apart from its date and id', () => {
    expect(page.headers.get('x-cache')).toBe('MISS');
    expect(page.headers.get('cache-control')).toMatch(/^public, max-age=(\d+)$/);
    expect(Number(/max-age=(\d+)/.exec(page.headers.get('cache-control')!)![1])).toBeGreaterThan(86_000);
    expect(unheaded(page)).not.toBe(page.html);
    expect(page.headers.get('etag')).toBe(`W/${entityTag(unheaded(page))}`);
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
    expect(json.body.result.history).not.toBeNull();
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

  it("links to FEMA's Map Service Center for the point and carries the picture of this service inside it", async () => {
    expect(attributes(page.html, 'href')).toContain(`https://msc.fema.gov/portal/search?AddressQuery=${place.lat}%2C${place.lon}`);
    expect(pictureOf(page)!.equals(await servedPicture(stack, `${query}&span=600`))).toBe(true);
  });

  it('loads nothing: no script, no resource, no other origin; its one image is a data: image', () => {
    expect(page.html).not.toMatch(/<script|<link|<iframe|<object|<embed|<form|<base|\son[a-z]+=|javascript:|url\(|@import/i);
    expect(attributes(page.html, 'src')).toEqual([`data:image/png;base64,${pictureOf(page)!.toString('base64')}`]);
    expect(attributes(page.html, 'href').filter((href) => !href.startsWith('/') && !href.startsWith('https://msc.fema.gov/'))).toEqual([]);
  });

  it('a repeat is a HIT without any upstream call, the same page but for its own date and id; If-None-Match gives 304', async () => {
    stack.emulators.resetCalls();
    const again = await fetchPage(stack, `/flood-zone/report?${query}`);
    expect({ status: again.status, cache: again.headers.get('x-cache'), etag: again.headers.get('etag') }).toEqual({
      status: 200,
      cache: 'HIT',
      etag: page.headers.get('etag'),
    });
    expect(unheaded(again)).toBe(unheaded(page));
    expect(again.text).toContain(`Report id ${again.headers.get('x-request-id')}`);
    expect(again.headers.get('x-request-id')).not.toBe(page.headers.get('x-request-id'));
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

  it("include asks for those parts and the lender's form (with the building it reads); the others are said not asked for", async () => {
    const page = await fetchPage(stack, `/flood-zone/report?${at}&include=cbrs`);
    expect(page.status).toBe(200);
    expect(jsonLinkOf(page)).toBe(`/flood-zone?${at}&include=cbrs,determination`);
    expect(page.text).not.toContain('Not asked for (add structure to include).');
    expect(page.text).not.toContain('Not asked for (add determination to include).');
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
    expect(pictureOf(page)!.equals(await servedPicture(stack, `${at}&span=1500`))).toBe(true);
    expect(page.text).toContain('Flood zones around the point (1500 m across)');
  });
});

describe('the page of an address', () => {
  it('shows the match, links to the JSON answer by address and carries the picture of the address (geocoded once for both)', async () => {
    stack.emulators.resetCalls();
    const page = await fetchPage(stack, `/flood-zone/report?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&include=nearby`);
    expect(page.status).toBe(200);
    expect(jsonLinkOf(page)).toBe(`/flood-zone?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&include=nearby,determination`);
    const json = await stack.get(jsonLinkOf(page)!);
    expect(page.text).toContain(json.body.location.matchedAddress);
    expect(page.text).toContain(`Asked: ${DEMO_ADDRESSES.whiteHouse}`);
    expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(1);
    expect(pictureOf(page)!.equals(await servedPicture(stack, `address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&span=600`))).toBe(true);
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

describe("insurance and lending: the lender's form, from the SFHA, the community and the coastal barrier together", () => {
  const reportOf = (at: string) => Promise.all([fetchPage(stack, `/flood-zone/report?${at}`), stack.get(`/flood-zone?${at}&include=determination`)]);
  const pointOf = (id: string) => `lat=${demoPlace(id).lat}&lon=${demoPlace(id).lon}`;
  const NOT_REQUIRED = /insurance is required|requires flood insurance/;

  it('in the SFHA of a community listed as not participating: no policy can be bought, the duty is a notice, never the purchase requirement', async () => {
    const [page, json] = await reportOf(pointOf('charleston-pending-out-of-sfha'));
    expect({ sfha: json.body.result.inSpecialFloodHazardArea, participating: json.body.result.community.nfip.participating }).toEqual({
      sfha: true,
      participating: false,
    });
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(NOT_REQUIRED);
    expect(page.text).toContain('C. Federal flood insurance: Not available: the community does not participate in the NFIP');
    expect(page.text).toContain('mandatory purchase requirement applies: No');
    expect(page.text).toContain('No NFIP policy can be bought here: the community does not participate in the program.');
    expect(page.text).toContain('must tell the borrower that federal disaster assistance may be unavailable');
  });

  it('a building in the SFHA of that community: the form is for the building, and still never the purchase requirement', async () => {
    const [page, json] = await reportOf(inside('charleston-not-participating'));
    expect(json.body.result.determination).toMatchObject({ basis: 'building', buildingInSfha: true, floodInsuranceRequired: false });
    expect(page.text).toContain('Flood hazard determination (SFHDF section II), for the building');
    expect(page.text).toContain(
      'B. NFIP data affecting the building: Map panel 45019C0514K, effective 2021-01-29; letter of map change: none found; flood zone AE',
    );
    expect(page.text).toContain('D. Determination: Building in the SFHA: Yes; mandatory purchase requirement applies: No');
    expect(page.text).not.toMatch(NOT_REQUIRED);
  });

  it("a house across the AE edge whose middle is in X: the point outside the SFHA, the building in it; the form says the building's", async () => {
    const [page, json] = await reportOf(inside('menominee-straddles-ae-x'));
    expect({ point: json.body.result.inSpecialFloodHazardArea, building: json.body.result.structure.buildingInSfha }).toEqual({ point: false, building: true });
    expect(page.text).toContain('No: outside the Special Flood Hazard Area (SFHA)');
    expect(page.text).toContain('flood zones AE, X');
    // City of Menominee is not in the demo Status Book: whether a policy can be bought is unknown, so is the requirement
    expect(page.text).toContain('D. Determination: Building in the SFHA: Yes; mandatory purchase requirement applies: Unknown');
    expect(page.text).not.toContain('Outside the SFHA federal law does not require flood insurance');
  });

  it('in the SFHA of a community the Status Book does not list: unknown, never required', async () => {
    const [page, json] = await reportOf(pointOf('menominee-ve'));
    expect({ sfha: json.body.result.inSpecialFloodHazardArea, listed: json.body.result.community.nfip.listed }).toEqual({ sfha: true, listed: false });
    expect(page.text).not.toMatch(NOT_REQUIRED);
    expect(page.text).toContain("C. Federal flood insurance: Unknown: the community is not in FEMA's Community Status Book");
    expect(page.text).toContain(
      "The community is not in FEMA's Community Status Book: whether federal flood insurance can be bought here, and so whether a lender must require it, is unknown.",
    );
  });

  it('inside a CBRS System Unit of a participating community: the form says the barrier and its date, and nothing is required', async () => {
    const [page, json] = await reportOf(inside('fernandina-cbrs-house'));
    expect(json.body.result.coastalBarrier).toMatchObject({ status: 'inside', unit: 'FL-05', floodInsuranceProhibitionDate: '1983-10-01' });
    expect(json.body.result.community.nfip.participating).toBe(true);
    expect(page.text).toContain(
      'C. Federal flood insurance: Only for some buildings: inside Coastal Barrier Resources System unit FL-05 (System Unit), designated 1983-10-01',
    );
    expect(page.text).toContain(
      "Part or all of the building's footprint lies inside Coastal Barrier Resources System unit FL-05 (System Unit): federal flood insurance is " +
        'available only for a building built before 1983-10-01',
    );
    expect(page.text).toContain('D. Determination: Building in the SFHA: Yes; mandatory purchase requirement applies: Unknown');
    expect(page.text).not.toMatch(NOT_REQUIRED);
  });

  it('in the SFHA of a participating community outside any barrier: required, and every note of the form said', async () => {
    const [page, json] = await reportOf(pointOf('houston-lomas'));
    expect({
      sfha: json.body.result.inSpecialFloodHazardArea,
      participating: json.body.result.community.nfip.participating,
      cbrs: json.body.result.coastalBarrier.status,
    }).toEqual({
      sfha: true,
      participating: true,
      cbrs: 'outside',
    });
    expect(page.text).toContain('C. Federal flood insurance: Available: regular program');
    expect(page.text).toContain(`mandatory purchase requirement applies: Yes ${json.body.result.determination.notes.join(' ')}`);
    expect(page.text).toContain('Flood insurance is required for a loan on a building here from a federally regulated or insured lender');
  });

  it("in the SFHA of a community in the NFIP's emergency program: required, and the limited cover said", async () => {
    const [page, json] = await reportOf(pointOf('emergency-program-ae'));
    expect(json.body.result.community.nfip).toMatchObject({ participating: true, program: 'emergency', floodInsuranceAvailable: true });
    expect(page.text).toContain('C. Federal flood insurance: Available: emergency program (limited amounts of cover)');
    expect(page.text).toContain('Flood insurance is required for a loan on a building here from a federally regulated or insured lender');
    expect(page.text).toContain("The community is in the NFIP's emergency program: policies there cover only limited amounts.");
  });
});

describe('the banner leads with the building, then names the point "at the address point"', () => {
  /** The banner as a reader sees it. */
  const bannerOf = (page: Page) => readerText(/<section class="verdict[^"]*">([\s\S]*?)<\/section>/.exec(page.html)![1]!).trim();
  const sourcesOf = (page: Page) => /Sources and dates (.*?) The same answer as JSON/.exec(page.text)![1]!;

  it('the house across the AE edge whose middle is in X: "Building: in the SFHA", then the point outside it; the building data credited', async () => {
    const at = inside('menominee-straddles-ae-x');
    const [page, json] = await Promise.all([fetchPage(stack, `/flood-zone/report?${at}`), stack.get(`/flood-zone?${at}&include=structure`)]);
    const { structure, inSpecialFloodHazardArea, floodZone } = json.body.result;
    expect({ point: [floodZone, inSpecialFloodHazardArea], building: structure.buildingInSfha, ae: structure.zones[0] }).toEqual({
      point: ['X', false],
      building: true,
      ae: expect.objectContaining({ floodZone: 'AE', sharePercent: 40.1 }),
    });
    expect(bannerOf(page)).toMatch(/^Building: in the SFHA, AE over 40\.1% of its footprint At the address point: zone X, outside the SFHA · Moderate risk /);
    expect(page.html).toContain('<section class="verdict risk-high">');
    expect(sourcesOf(page)).toContain('Building footprint: FEMA/ORNL USA Structures (CC BY 4.0), from imagery of 2019-08-02');
  });

  it('the reverse, by address: the address point in AE, the house 36 m from it wholly in X', async () => {
    const at = `address=${encodeURIComponent(DEMO_BUILDING_ADDRESSES.houstonXHouse.address)}`;
    const [page, json] = await Promise.all([fetchPage(stack, `/flood-zone/report?${at}`), stack.get(`/flood-zone?${at}&include=determination`)]);
    const { structure, inSpecialFloodHazardArea, floodZone, determination } = json.body.result;
    expect({ point: [floodZone, inSpecialFloodHazardArea], match: structure.match, building: structure.buildingInSfha, basis: determination.basis }).toEqual({
      point: ['AE', true],
      match: 'nearest',
      building: false,
      basis: 'building',
    });
    expect(bannerOf(page)).toMatch(
      /^Building: outside the SFHA, X unshaded over 100% of its footprint At the address point: zone AE, in the SFHA · High risk /,
    );
    expect(page.text).toContain('D. Determination: Building in the SFHA: No');
  });

  it('a building wholly off the digital map: unknown first, and its zones on the form unknown, never "none"', async () => {
    const page = await fetchPage(stack, `/flood-zone/report?${inside('dc-partly-unmapped')}`);
    expect(page.status).toBe(200);
    expect(bannerOf(page)).toMatch(/^Building: SFHA status unknown, unmapped over 100% of its footprint At the address point: /);
    expect(page.text).toContain("flood zone unknown: FEMA's map gives none over the building");
    expect(page.text).not.toMatch(/flood zones? none/i);
  });

  it('USA Structures fails: the banner says the building is unknown, never the point\'s "no"', async () => {
    const at = inside('renton-main-house');
    stack.emulators.structures.injectFault({ kind: 'http-status', status: 503 });
    const page = await fetchPage(stack, `/flood-zone/report?${at}`);
    expect(page.status).toBe(200);
    expect(bannerOf(page)).toMatch(
      /^Building: SFHA status unknown, FEMA's building footprints did not answer this time At the address point: zone X, outside the SFHA · Moderate risk /,
    );
    expect(page.html).toContain('<section class="verdict risk-unknown">');
    expect(sourcesOf(page)).not.toContain('USA Structures');
  });
});

describe('a point without a digital flood map: nearby hazards and map changes are unknown, never "none"', () => {
  const place = demoPlace('lampasas-paper-only');
  const at = `lat=${place.lat}&lon=${place.lon}`;

  it('the page says unknown: no digital flood map here', async () => {
    const page = await fetchPage(stack, `/flood-zone/report?${at}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/none within/);
    expect(page.text).not.toContain('the effective map is the current one');
    expect(page.text).toContain('Nearest SFHA Unknown: no digital flood map here');
    expect(page.text).toContain('Coming map changes Unknown: no digital flood map here');
  });

  it('the JSON notes say it too, and the SFHA change is unknown', async () => {
    const json = await stack.get(`/flood-zone?${at}&include=nearby,preliminary`);
    expect(json.status).toBe(200);
    const { nearby, mapChange, coverage } = json.body.result;
    expect(coverage).toBe('unmapped');
    expect(nearby).toEqual({
      radiusM: 500,
      sfha: null,
      floodway: null,
      moderate: null,
      note: "No digital flood map here: FEMA's National Flood Hazard Layer does not cover the point, so a hazard may lie within 500 m unseen (a null entry is unknown, not none).",
    });
    expect(mapChange).toMatchObject({
      status: 'none',
      sfhaChange: 'unknown',
      note: 'No digital flood map here, and no preliminary or pending FEMA flood map covers this location either: whether its flood zone will change is unknown.',
    });
  });

  it('at a mapped point a null nearby entry is none within the radius', async () => {
    const houston = demoPlace('houston-nearby-hazards');
    const json = await stack.get(`/flood-zone?lat=${houston.lat}&lon=${houston.lon}&include=nearby&radius=300`);
    expect(json.body.result.nearby.note).toBe("Distances to FEMA's digital flood map; a null entry means none of that kind lies within 300 m.");
  });
});

describe('a document: its picture inside it, its date and id at the top', () => {
  it('the picture is a data: PNG, the very picture GET /flood-zone/map draws; the page loads nothing', async () => {
    const place = demoPlace('houston-nearby-inside-ae');
    const at = `lat=${place.lat}&lon=${place.lon}`;
    const page = await fetchPage(stack, `/flood-zone/report?${at}`);
    expect(page.status).toBe(200);
    const sources = attributes(page.html, 'src');
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    const embedded = Buffer.from(sources[0]!.slice('data:image/png;base64,'.length), 'base64');
    const served = Buffer.from(await (await fetch(`${stack.url}/flood-zone/map?${at}&width=560&height=360&span=600`)).arrayBuffer());
    expect(embedded.equals(served)).toBe(true);
    expect({ width: embedded.readUInt32BE(16), height: embedded.readUInt32BE(20) }).toEqual({ width: 560, height: 360 });
    expect(page.headers.get('content-security-policy')).toBe(REPORT_POLICY);
  });

  it('heads the page with the report date and the report id (the request id)', async () => {
    const place = demoPlace('houston-nearby-inside-ae');
    const before = new Date();
    const page = await fetchPage(stack, `/flood-zone/report?lat=${place.lat}&lon=${place.lon}`);
    const id = page.headers.get('x-request-id')!;
    const stamp = /^ Flood zone report Report date (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC · Report id (\S+) /.exec(page.text);
    expect(stamp?.[2]).toBe(id);
    const madeAt = Date.parse(`${stamp![1]!.replace(' ', 'T')}Z`);
    expect(madeAt).toBeGreaterThanOrEqual(Math.floor(before.getTime() / 1000) * 1000);
    expect(madeAt).toBeLessThanOrEqual(Date.now());
    // a given id is the page's id
    const named = await fetchPage(stack, `/flood-zone/report?lat=${place.lat}&lon=${place.lon}`, { headers: { 'X-Request-Id': 'loan-4711' } });
    expect(named.text).toContain('Report id loan-4711');
  });

  it("an export failure is said in words in the picture's place; the page is still 200 with every other part, and not kept long", async () => {
    const place = demoPlace('houston-ao');
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'export' });
    const page = await fetchPage(stack, `/flood-zone/report?lat=${place.lat}&lon=${place.lon}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toMatch(/<img/);
    expect(page.text).toContain(
      "No map picture: FEMA's National Flood Hazard Layer could not draw the flood zones this time. Every other part of this report was checked; retry shortly for the picture.",
    );
    expect(page.text).not.toContain('Flood zones around the point (600 m across), from');
    const json = await stack.get(`/flood-zone?lat=${place.lat}&lon=${place.lon}&include=${EVERY_PART}`);
    expect(page.text).toContain(`Zone ${json.body.result.floodZone}`);
    expect(page.text).toContain(json.body.result.firmPanel.panel);
    expect(Number(/max-age=(\d+)/.exec(page.headers.get('cache-control')!)![1])).toBeLessThanOrEqual(60);
  });

  it("shows the area's flood record with its claims by year drawn inside the page, and says when OpenFEMA did not answer", async () => {
    const houston = demoPlace('houston-ae-floodway');
    const page = await fetchPage(stack, `/flood-zone/report?lat=${houston.lat}&lon=${houston.lon}&include=history`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Flood record of the area');
    expect(page.text).toContain(
      `214 NFIP claims in census tract ${DEMO_AREA_RECORDS.houston.tract}, 1978 to 2017, 42.1% outside the SFHA, about $12.8 million paid.`,
    );
    expect(page.text).toContain('Most: Hurricane Harvey (2017) 160; Tropical Storm Allison (2001) 40');
    expect(page.text).toContain('not at this property');
    expect(page.html).toMatch(/<svg\s+class="claims-chart"\s+role="img"\s+aria-label="NFIP claims in the tract by year of loss, 1978 to 2017"/);
    expect(page.html.match(/<rect\s/g)).toHaveLength(4);

    // A tract of its own (4 km north), never asked before: the record of a tract is kept once answered.
    stack.emulators.openfema.injectFault({ kind: 'http-status', status: 500, match: 'NfipClaims' });
    const failed = await fetchPage(stack, `/flood-zone/report?lat=${houston.lat + 0.04}&lon=${houston.lon}&include=history`);
    expect(failed.status).toBe(200);
    expect(failed.text).toContain("Could not be checked: FEMA's OpenFEMA (NFIP claims, policies and disaster declarations) did not answer this time.");
    expect(failed.html).not.toContain('claims-chart');
    stack.emulators.openfema.clearFaults();
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
