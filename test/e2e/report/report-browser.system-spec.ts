/// <reference lib="dom" />
/**
 * GET /flood-zone/report in a real browser (the headless Chromium that `npm ci` brings in @sparticuz/chromium, driven
 * by playwright-core), for demo places of every kind: the page renders under its own Content-Security-Policy with
 * nothing blocked and no console error, asks for nothing but itself, shows its map picture (inside it), says every value of
 * the JSON answer GET /flood-zone gives for the same parameters, and prints on exactly one page, Letter and A4. A
 * screenshot of one page goes to test/artifacts/ for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_BUILDING_ADDRESSES, DEMO_PLACES, demoPlace, type DemoPlace } from '../../emulators';
import { DEMO_STRUCTURES, demoStructure } from '../../emulators/structure-footprints';
import { launchChromium } from '../../support/browser';
import { startStack, type Stack } from '../../support/stack';

const SCREENSHOT = path.resolve(__dirname, '../../artifacts/report-houston-lomas.png');

/** What a page did while it was open. */
interface PageEvents {
  requests: string[];
  consoleErrors: string[];
  cspConsole: string[];
  pageErrors: string[];
  failedRequests: string[];
}

/** A report as the browser shows it. */
interface OpenedReport {
  page: Page;
  status: number | undefined;
  policy: string | undefined;
  text: string;
  jsonLink: string;
  events: PageEvents;
}

let stack: Stack;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchChromium();
  stack = await startStack();
  context = await browser.newContext({ viewport: { width: 1000, height: 1200 } });
  // Seen by the page itself from its start: every Content-Security-Policy violation.
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'}`));
  });
  // The browser runs in a single process: a context whose last page closes would end it.
  await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** Opens a report in a page of its own and waits until its picture has loaded (or failed). */
async function openReport(service: Stack, query: string): Promise<OpenedReport> {
  const page = await context.newPage();
  const events: PageEvents = { requests: [], consoleErrors: [], cspConsole: [], pageErrors: [], failedRequests: [] };
  page.on('request', (request) => events.requests.push(request.url()));
  page.on('console', (message) => {
    if (/content[- ]security[- ]policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text())) events.cspConsole.push(message.text());
    if (message.type() === 'error') events.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => events.pageErrors.push(error.message));
  page.on('requestfailed', (request) => events.failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`));
  const response = await page.goto(`${service.url}/flood-zone/report?${query}`);
  await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
  const jsonLink = await page.getByRole('link', { name: 'The same answer as JSON' }).getAttribute('href');
  return {
    page,
    status: response?.status(),
    policy: response?.headers()['content-security-policy'],
    text: await page.locator('body').innerText(),
    jsonLink: jsonLink ?? '',
    events,
  };
}

/** The pages of a PDF: its `/Type /Page` objects (the page tree's `/Type /Pages` is not one). */
const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length;

async function printedPages(page: Page): Promise<{ letter: number; a4: number }> {
  return { letter: pdfPages(await page.pdf({ format: 'Letter' })), a4: pdfPages(await page.pdf({ format: 'A4' })) };
}

const SFHA_WORDS: Record<string, string> = {
  true: 'Yes: in a Special Flood Hazard Area',
  false: 'No: outside the Special Flood Hazard Area',
  null: 'Unknown: FEMA gives no flood zone at this point',
};

const BUILDING_SFHA_WORDS: Record<string, string> = {
  true: 'Building: in the SFHA, ',
  false: 'Building: outside the SFHA, ',
  null: 'Building: SFHA status unknown, ',
};

/** Whether the answer's headline is the building's: one was found or given, or it could not be looked up. */
const buildingLeads = (result: Record<string, any>) =>
  result.structure ? !['none', 'ambiguous'].includes(result.structure.match) : result.unavailable.includes('structure');

/** Every value of a JSON answer that its page must say, as the answer writes it. */
function wordsOf(answer: Record<string, any>): string[] {
  const { result, location, source } = answer;
  const zone =
    result.coverage === 'mapped'
      ? `Zone ${result.floodZone}`
      : result.coverage === 'unmapped'
        ? 'No digital flood map here (unknown, not low risk)'
        : 'No flood zone at this exact point (unknown, not low risk)';
  const words: string[] = [
    // the building's answer first where there is one, then the point's, named so
    ...(buildingLeads(result)
      ? [BUILDING_SFHA_WORDS[String(result.structure?.buildingInSfha ?? null)]!, `At the address point: ${zone.charAt(0).toLowerCase()}${zone.slice(1)}`]
      : [zone]),
    SFHA_WORDS[String(result.inSpecialFloodHazardArea)]!,
    result.meaning,
    ...(location.matchedAddress ? [location.matchedAddress] : []),
    `${location.lat}, ${location.lon}`,
    source.floodData,
    source.geocoder,
    `${answer.retrievedAt.slice(0, 10)} ${answer.retrievedAt.slice(11, 19)} UTC`,
    answer.disclaimer,
    result.femaMapUrl,
  ];
  const add = (...values: unknown[]) => words.push(...values.filter((value) => value !== null && value !== undefined).map(String));
  add(location.county, location.zip, result.zoneSubtype, result.guidance);
  if (result.staticBaseFloodElevationFt !== null) add(`${result.staticBaseFloodElevationFt} ft ${result.verticalDatum ?? ''}`.trim());
  if (result.depthFt !== null) add(`${result.depthFt} ft`);
  const estimated = result.estimatedBaseFloodElevation;
  if (estimated) add(`${estimated.elevationFt} ft`, estimated.note, ...estimated.lines.map((line: any) => `${line.elevationFt} ft at ${line.distanceM} m`));
  if (result.firmPanel) add(result.firmPanel.panel, result.firmPanel.effectiveDate, result.firmPanel.panelType);
  if (result.community) add(result.community.name, result.community.communityId, result.community.nfip?.note, result.community.nfip?.asOf);
  const nfip = result.community?.nfip;
  if (nfip?.participating && typeof nfip.crsClass === 'number') add(`Community Rating System class ${nfip.crsClass}`);
  for (const lomr of result.lomrs ?? []) add(lomr.caseNumber, lomr.effectiveDate);
  for (const loma of result.lomas ?? [])
    add(loma.caseNumber, loma.category, loma.status.replace(/_/g, ' '), loma.outcome, loma.effectiveDate, `${loma.distanceM} m`);
  if (result.nearby) {
    for (const kind of ['sfha', 'floodway', 'moderate']) {
      const hazard = result.nearby[kind];
      const notFound = result.coverage === 'unmapped' ? 'Unknown: no digital flood map here' : `none within ${result.nearby.radiusM} m`;
      add(hazard ? `${hazard.distanceM} m` : notFound, hazard?.floodZone);
    }
  }
  if (result.mapChange) add(result.mapChange.note, result.mapChange.issuedDate, result.mapChange.floodZone);
  const barrier = result.coastalBarrier;
  if (barrier) add(barrier.note, barrier.unit, barrier.type, barrier.floodInsuranceProhibitionDate);
  const ground = result.groundElevation;
  if (ground) {
    add(ground.note, ground.acquisitionDate);
    if (ground.elevationFt !== null) add(`${ground.elevationFt} ft`);
    if (ground.comparedWith) add(`${Math.abs(ground.comparedWith.differenceFt)} ft`, `${ground.comparedWith.bfeFt} ft`);
  }
  const building = result.structure;
  if (building) {
    add(building.note, building.buildId);
    // the building's data credited wherever it is shown (CC BY 4.0)
    if (building.footprint && building.match !== 'given') add('Building footprint: FEMA/ORNL USA Structures (CC BY 4.0)');
    for (const zone of building.zones ?? []) add(`${zone.sharePercent.toFixed(1)}%`);
  }
  // The lender's form: section II's items and every note, the report's only words on insurance and lending.
  const form = result.determination;
  if (form) {
    add(form.community.name, form.community.number, form.community.state, form.map.panel, form.map.letterOfMapChange?.caseNumber, ...form.notes);
    if (form.floodZones?.length) add(form.floodZones.join(', '));
    const answer = (value: boolean | null) => (value === null ? 'Unknown' : value ? 'Yes' : 'No');
    add(`${form.basis === 'building' ? 'Building' : 'Point'} in the SFHA: ${answer(form.buildingInSfha)}`);
    add(`mandatory purchase requirement applies: ${answer(form.floodInsuranceRequired)}`);
  }
  // The area's flood record: whose it is, its tract, its count (never a withheld one), its policies' day, the newest declarations.
  const history = result.history;
  if (history) {
    const { count } = history.claims;
    add(
      history.note,
      history.area.geoid,
      history.policies.asOf,
      count === 0 ? 'No NFIP claims' : `${count === null ? 'Fewer than 10' : count.toLocaleString('en-US')} NFIP claim`,
    );
    add(
      ...history.declarations
        .slice(0, 1)
        .map((declaration: any) => `${declaration.title} (${declaration.declarationType}-${declaration.disasterNumber}, ${declaration.declarationDate})`),
    );
  }
  if (result.unavailable.length > 0) add('Could not be checked');
  return words;
}

/** The page says every value of the JSON answer of its own link, and its link is that of the same parameters. */
async function expectTheAnswer(report: OpenedReport, service: Stack): Promise<Record<string, any>> {
  expect(report.jsonLink).toMatch(/^\/flood-zone\?/);
  const json = await service.get(report.jsonLink);
  expect(json.status).toBe(200);
  const missing = wordsOf(json.body).filter((words) => !report.text.includes(words));
  expect({ link: report.jsonLink, missing }).toEqual({ link: report.jsonLink, missing: [] });
  return json.body;
}

/** Rendered with its picture, nothing blocked, nothing asked for but the page itself, no error. */
async function expectCleanRender(report: OpenedReport, service: Stack): Promise<void> {
  expect(report.status).toBe(200);
  expect(report.policy).toBe("default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  const picture = await report.page.evaluate(() => Array.from(document.images).map((image) => ({ width: image.naturalWidth, height: image.naturalHeight })));
  expect(picture).toEqual([{ width: 560, height: 360 }]);
  const violations = await report.page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
  const { requests, ...problems } = report.events;
  expect({ ...problems, cspViolations: violations }).toEqual({ consoleErrors: [], cspConsole: [], pageErrors: [], failedRequests: [], cspViolations: [] });
  // The picture is inside the page: the browser fetches nothing else, of any origin.
  const fetched = requests.filter((url) => !url.startsWith('data:'));
  expect(fetched.map((url) => `${new URL(url).origin}${new URL(url).pathname}`)).toEqual([`${new URL(service.url).origin}/flood-zone/report`]);
  expect(await report.page.evaluate(() => Array.from(document.images).map((image) => image.src.slice(0, 22)))).toEqual(['data:image/png;base64,']);
}

/** One place of each kind: parts found, estimated, coming, barred, compared, unmapped, without zone, overlapping. */
const SHOWN: Array<[string, (place: DemoPlace) => string]> = [
  ['houston-lomas', (place) => `address=${encodeURIComponent(place.address!)}`],
  ['dc-white-house-ae', (place) => `address=${encodeURIComponent(place.address!)}&include=nearby,cbrs`],
  ['franklin-bfe-bracketed', (place) => `lat=${place.lat}&lon=${place.lon}`],
  ['charleston-preliminary-into-sfha', (place) => `lat=${place.lat}&lon=${place.lon}&include=preliminary`],
  ['fernandina-cbrs-opa', (place) => `lat=${place.lat}&lon=${place.lon}`],
  ['norfolk-ground-below-bfe', (place) => `lat=${place.lat}&lon=${place.lon}&include=elevation`],
  ['houston-ae-floodway', (place) => `lat=${place.lat}&lon=${place.lon}&include=history`],
  ['houston-nearby-hazards', (place) => `lat=${place.lat}&lon=${place.lon}&radius=300`],
  ['lampasas-paper-only', (place) => `lat=${place.lat}&lon=${place.lon}`],
  ['houston-gap', (place) => `lat=${place.lat}&lon=${place.lon}`],
  ['menominee-overlap', (place) => `lat=${place.lat}&lon=${place.lon}&span=2000`],
  ['houston-ao', (place) => `lat=${place.lat}&lon=${place.lon}`],
];

describe('the report of a demo place in Chromium', () => {
  it.each(SHOWN)('%s: rendered with its picture, says the JSON answer, prints on one page', async (id, queryOf) => {
    const report = await openReport(stack, queryOf(demoPlace(id)));
    try {
      await expectCleanRender(report, stack);
      const answer = await expectTheAnswer(report, stack);
      if (answer.result.coverage !== 'mapped') expect(report.text.replace(/not low risk/g, '')).not.toMatch(/low[- ]risk/i);
      expect(await printedPages(report.page)).toEqual({ letter: 1, a4: 1 });
      if (id === 'houston-lomas') {
        mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
        await report.page.screenshot({ path: SCREENSHOT, fullPage: true });
      }
    } finally {
      await report.page.close();
    }
  });

  it('(the violation detector does see a blocked image of another origin)', async () => {
    const report = await openReport(stack, 'lat=29.7&lon=-95.43');
    try {
      await report.page.evaluate(() => {
        const image = document.createElement('img');
        image.src = 'http://192.0.2.1/picture.png';
        document.body.append(image);
      });
      await report.page.waitForFunction(() => (window as unknown as { __cspViolations: string[] }).__cspViolations.length > 0);
      expect(await report.page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([
        expect.stringMatching(/^img-src blocked http:\/\/192\.0\.2\.1\b/),
      ]);
    } finally {
      await report.page.close();
    }
  });
});

/** A point inside a demo building (the middle of its footprint's box): the building whose footprint contains it. */
function insideBuilding(id: string): string {
  const ring = demoStructure(id).feature.rings![0]!;
  const middle = (values: number[]) => ((Math.min(...values) + Math.max(...values)) / 2).toFixed(7);
  return `lat=${middle(ring.map(([, lat]) => lat!))}&lon=${middle(ring.map(([lon]) => lon!))}`;
}

describe("the report of a demo building in Chromium: the lender's form filled in for it", () => {
  it.each([
    // a house across the AE edge whose middle is in X: the point is outside the SFHA, the building in it
    ['menominee-straddles-ae-x', 'Building in the SFHA: Yes; mandatory purchase requirement applies: Unknown'],
    ['fernandina-cbrs-house', 'Building in the SFHA: Yes; mandatory purchase requirement applies: Unknown'],
    ['charleston-not-participating', 'Building in the SFHA: Yes; mandatory purchase requirement applies: No'],
    ['houston-floodway-house', 'Building in the SFHA: Yes; mandatory purchase requirement applies: Yes'],
  ])('%s: rendered with its picture, says the JSON answer and "%s", prints on one page', async (id, determination) => {
    const report = await openReport(stack, insideBuilding(id));
    try {
      await expectCleanRender(report, stack);
      const answer = await expectTheAnswer(report, stack);
      expect({ basis: answer.result.determination.basis, match: answer.result.structure.match }).toEqual({ basis: 'building', match: 'contains' });
      expect(report.text).toContain(`D. Determination: ${determination}`);
      expect(await printedPages(report.page)).toEqual({ letter: 1, a4: 1 });
    } finally {
      await report.page.close();
    }
  });

  it('the emergency-program place (its demo house stands on the point): the form for the building, its program said', async () => {
    const place = demoPlace('emergency-program-ae');
    const report = await openReport(stack, `lat=${place.lat}&lon=${place.lon}`);
    try {
      await expectCleanRender(report, stack);
      await expectTheAnswer(report, stack);
      expect(report.text).toContain('C. Federal flood insurance: Available: emergency program (limited amounts of cover)');
      expect(report.text).toContain('Flood hazard determination (SFHDF section II), for the building');
      expect(report.text).toContain('D. Determination: Building in the SFHA: Yes; mandatory purchase requirement applies: Yes');
      expect(await printedPages(report.page)).toEqual({ letter: 1, a4: 1 });
    } finally {
      await report.page.close();
    }
  });

  it('every demo building prints on one page, Letter and A4', async () => {
    const printed: Array<{ at: string; letter: number; a4: number }> = [];
    for (const building of DEMO_STRUCTURES) {
      const report = await openReport(stack, insideBuilding(building.id));
      try {
        printed.push({ at: building.id, ...(await printedPages(report.page)) });
      } finally {
        await report.page.close();
      }
    }
    expect(printed.filter(({ letter, a4 }) => letter !== 1 || a4 !== 1)).toEqual([]);
    expect(printed.length).toBe(DEMO_STRUCTURES.length);
  }, 120_000);
});

describe('the report leads with the building: looked at in Chromium', () => {
  const BANNER = '.verdict';
  const shots = (name: string) => path.resolve(__dirname, `../../artifacts/report-${name}.png`);

  it.each([
    [
      'the house across the AE edge whose middle is in X',
      'menominee-straddles-ae-x',
      () => insideBuilding('menominee-straddles-ae-x'),
      'Building: in the SFHA, AE over 40.1% of its footprint At the address point: zone X, outside the SFHA · Moderate risk',
    ],
    [
      'the house wholly in X whose address point is in AE',
      'houston-x-house-ae-street-point',
      () => `address=${encodeURIComponent(DEMO_BUILDING_ADDRESSES.houstonXHouse.address)}`,
      'Building: outside the SFHA, X unshaded over 100% of its footprint At the address point: zone AE, in the SFHA · High risk',
    ],
  ])(
    '%s: its banner says the building first, then the point; it credits the building data; one page; a screenshot to look at',
    async (_what, id, queryOf, banner) => {
      const report = await openReport(stack, queryOf());
      try {
        await expectCleanRender(report, stack);
        await expectTheAnswer(report, stack);
        expect((await report.page.locator(BANNER).innerText()).replace(/\s+/g, ' ').slice(0, banner.length)).toBe(banner);
        expect(await printedPages(report.page)).toEqual({ letter: 1, a4: 1 });
        mkdirSync(path.dirname(shots(id)), { recursive: true });
        await report.page.screenshot({ path: shots(id), fullPage: true });
      } finally {
        await report.page.close();
      }
    },
  );
});

describe('every demo place prints on one page', () => {
  it('by point, and by address where it has one, on Letter and on A4', async () => {
    const printed: Array<{ at: string; letter: number; a4: number }> = [];
    for (const place of DEMO_PLACES) {
      for (const query of [`lat=${place.lat}&lon=${place.lon}`, ...(place.address ? [`address=${encodeURIComponent(place.address)}`] : [])]) {
        const report = await openReport(stack, query);
        try {
          printed.push({ at: `${place.id} ${query.slice(0, 7)}`, ...(await printedPages(report.page)) });
        } finally {
          await report.page.close();
        }
      }
    }
    expect(printed.filter(({ letter, a4 }) => letter !== 1 || a4 !== 1)).toEqual([]);
    expect(printed.length).toBeGreaterThan(DEMO_PLACES.length);
  }, 300_000);
});

describe('a report whose parts could not be checked', () => {
  let failing: Stack;

  beforeAll(async () => {
    // Its own cache: the failed parts of the effective map are kept 60 s, so the JSON answer is the page's, retrieval time included.
    failing = await startStack();
  });
  afterAll(async () => {
    await failing?.close();
  });

  it('says each, renders cleanly and still prints on one page', async () => {
    const { nfhl, preliminary, pending, cbrs, elevation } = failing.emulators;
    for (const layer of ['LOMAs', 'LOMRs', 'Political Jurisdictions']) nfhl.injectFault({ kind: 'http-status', status: 503, match: layer });
    for (const service of [preliminary, pending, cbrs, elevation]) service.injectFault({ kind: 'reset' });
    const place = demoPlace('houston-lomas');
    const report = await openReport(failing, `address=${encodeURIComponent(place.address!)}`);
    try {
      const answer = await expectTheAnswer(report, failing);
      // The lender's form could not look up the NFIP status of a community it could not find: that is named too.
      expect(answer.result.unavailable).toEqual(['community', 'lomrs', 'lomas', 'mapChange', 'coastalBarrier', 'groundElevation']);
      expect(report.text.match(/Could not be checked/g)?.length).toBeGreaterThanOrEqual(answer.result.unavailable.length);
      expect(report.text).not.toMatch(/none filed|none in effect|None mapped|Not asked for/);
      await expectCleanRender(report, failing);
      expect(await printedPages(report.page)).toEqual({ letter: 1, a4: 1 });
    } finally {
      await report.page.close();
    }
  });
});
