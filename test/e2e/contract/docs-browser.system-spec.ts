/// <reference lib="dom" />
/**
 * In a real browser (the headless Chromium that `npm ci` brings in @sparticuz/chromium, driven by playwright-core):
 * - GET /api-docs.html is a working Swagger UI over /openapi.json, under the app's own
 *   Content-Security-Policy (helmet). The page lists the operations, runs "Try it out" on GET /flood-zone for a
 *   demo place and shows the 200 answer. A screenshot goes to test/artifacts/api-docs.png.
 * - A page of another origin can call the API and read the headers it exposes (X-Request-Id, ETag, X-Cache,
 *   Retry-After), as browsers enforce CORS.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { demoPlace } from '../../emulators';
import { launchChromium } from '../../support/browser';
import { pointQuery, startStack, type Stack } from '../../support/stack';

const SCREENSHOT = path.resolve(__dirname, '../../artifacts/api-docs.png');
const PLACE = demoPlace('toa-baja-ae');

/** What the page reported while it was open. */
interface PageEvents {
  consoleErrors: string[];
  cspConsole: string[];
  pageErrors: string[];
  failedRequests: string[];
}

let stack: Stack | undefined;
let browser: Browser | undefined;
let page: Page;
const events: PageEvents = { consoleErrors: [], cspConsole: [], pageErrors: [], failedRequests: [] };

/** CSP violations as the page itself saw them (`securitypolicyviolation` events), collected from the start. */
async function cspViolationEvents(): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
}

beforeAll(async () => {
  browser = await launchChromium();
  stack = await startStack();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => {
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} (${e.sourceFile || 'document'}:${e.lineNumber})`);
    });
  });
  page.on('console', (message: ConsoleMessage) => {
    const text = message.text();
    if (/content[- ]security[- ]policy|Refused to (load|execute|apply|connect|frame)/i.test(text)) events.cspConsole.push(text);
    if (message.type() === 'error') events.consoleErrors.push(text);
  });
  page.on('pageerror', (error) => events.pageErrors.push(error.message));
  page.on('requestfailed', (request) => events.failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`));
});

let screenshotSaved = false;

/** The page as the browser drew it, from the top down to `height` pixels (the whole page when not given). */
async function saveScreenshot(height?: number): Promise<void> {
  mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
  const clip = height === undefined ? undefined : { x: 0, y: 0, width: page.viewportSize()!.width, height };
  await page.screenshot({ path: SCREENSHOT, fullPage: true, clip });
  screenshotSaved = true;
}

afterAll(async () => {
  // After a failure, the whole page shows where it stopped.
  if (page && !page.isClosed() && !screenshotSaved) await saveScreenshot().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

describe('Swagger UI at /api-docs.html in Chromium', () => {
  it('renders the document with GET /flood-zone and GET /health listed', async () => {
    const response = await page.goto(`${stack!.url}/api-docs.html`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

    await page.locator('#swagger-ui .information-container h1.title').waitFor({ timeout: 15_000 });
    await expect(page.locator('h1.title').innerText()).resolves.toContain('Flood Zone Lookup API');

    const operations = await page.locator('.opblock .opblock-summary').evaluateAll((summaries) =>
      summaries.map((s) => {
        const method = s.querySelector('.opblock-summary-method')?.textContent?.trim();
        const pathEl = s.querySelector('.opblock-summary-path');
        return `${method} ${pathEl?.getAttribute('data-path') ?? pathEl?.textContent?.trim()}`;
      }),
    );
    expect(operations).toEqual(expect.arrayContaining(['GET /flood-zone', 'POST /flood-zone', 'GET /health']));
  });

  it('runs "Try it out" on GET /flood-zone and shows the 200 answer for a demo place', async () => {
    const operation = page.locator('.opblock.opblock-get').filter({
      has: page.locator('.opblock-summary-path[data-path="/flood-zone"]'),
    });
    await expect(operation.count()).resolves.toBe(1);
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('button.try-out__btn', { hasText: 'Try it out' }).click();

    for (const [name, value] of [
      ['lat', PLACE.lat],
      ['lon', PLACE.lon],
    ] as const) {
      const row = operation.locator(`tr[data-param-name="${name}"][data-param-in="query"]`);
      if ((await row.count()) !== 1) {
        const documented = await operation
          .locator('tr[data-param-name]')
          .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-param-name')} (${r.getAttribute('data-param-in')})`));
        throw new Error(
          `Swagger UI shows no "${name}" query parameter for GET /flood-zone, so it cannot be tried out: ` +
            `/openapi.json documents only [${documented.join(', ')}] for that operation.`,
        );
      }
      await row.locator('input').fill(String(value));
    }
    // Swagger UI pre-fills every parameter that has an example; a point lookup must not also send `address`.
    const otherQueryInputs = operation.locator('tr[data-param-in="query"]:not([data-param-name="lat"]):not([data-param-name="lon"]) input');
    for (const input of await otherQueryInputs.all()) await input.fill('');
    await operation.locator('button.execute', { hasText: 'Execute' }).click();

    const live = operation.locator('.live-responses-table');
    const requestUrl = await operation.locator('.request-url pre').innerText({ timeout: 15_000 });
    expect(new URL(requestUrl).searchParams.get('lat')).toBe(String(PLACE.lat));
    expect(new URL(requestUrl).searchParams.get('lon')).toBe(String(PLACE.lon));

    const status = await live.locator('tbody .response .response-col_status').first().innerText();
    expect(status.trim()).toBe('200');
    const shownBody = await live.locator('.response-col_description pre').first().innerText();
    expect(shownBody).toContain(`"floodZone": "${PLACE.expect.floodZone}"`);
    expect(shownBody).toContain(`"inSpecialFloodHazardArea": ${PLACE.expect.inSpecialFloodHazardArea}`);
    expect(shownBody).toContain(`"panel": "${PLACE.expect.firmPanel!.panel}"`);
    const body = JSON.parse(shownBody);
    expect(body.result).toMatchObject({ coverage: 'mapped', floodZone: PLACE.expect.floodZone });

    // From the page title down to the end of the shown answer (the models below are left out).
    const bottom = await live
      .locator('.response-col_description pre')
      .first()
      .evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY);
    await saveScreenshot(Math.ceil(bottom) + 24);
    expect(existsSync(SCREENSHOT)).toBe(true);
  });

  /** The operation GET `path` opened, with "Try it out" pressed. */
  async function tryOut(path: string) {
    const operation = page.locator('.opblock.opblock-get').filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
    await expect(operation.count()).resolves.toBe(1);
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('button.try-out__btn', { hasText: 'Try it out' }).click();
    return operation;
  }

  it('runs "Try it out" on GET /flood-zone/map and shows the picture (a blob: image the page may load)', async () => {
    const operation = await tryOut('/flood-zone/map');
    for (const input of await operation.locator('tr[data-param-in="query"] input').all()) await input.fill('');
    await operation.locator('tr[data-param-name="lat"][data-param-in="query"] input').fill(String(PLACE.lat));
    await operation.locator('tr[data-param-name="lon"][data-param-in="query"] input').fill(String(PLACE.lon));
    await operation.locator('button.execute', { hasText: 'Execute' }).click();
    const status = await operation.locator('.live-responses-table tbody .response .response-col_status').first().innerText({ timeout: 30_000 });
    expect(status.trim()).toBe('200');
    const image = operation.locator('.live-responses-table .response-col_description img').first();
    await image.waitFor({ timeout: 15_000 });
    // A picture the browser loaded has its size; a blocked one has none.
    await page.waitForFunction((img) => (img as HTMLImageElement).complete, await image.elementHandle(), { timeout: 15_000 });
    const shown = await image.evaluate((img: HTMLImageElement) => ({ scheme: new URL(img.src).protocol, width: img.naturalWidth, height: img.naturalHeight }));
    expect(shown).toEqual({ scheme: 'blob:', width: 800, height: 600 });
    // the page's own blob: URLs, and no image of any other origin
    const policy = (await fetch(`${stack!.url}/api-docs.html`)).headers.get('content-security-policy') ?? '';
    expect(
      policy
        .split(';')
        .map((directive) => directive.trim())
        .find((directive) => directive.startsWith('img-src')),
    ).toBe("img-src 'self' data: blob:");
  });

  it("pre-fills the report's include with every opt-in part, the parts a report asks for when include is not given", async () => {
    const operation = await tryOut('/flood-zone/report');
    const include = operation.locator('tr[data-param-name="include"][data-param-in="query"] select');
    const chosen = await include.evaluate((select: HTMLSelectElement) => Array.from(select.selectedOptions, (option) => option.value));
    expect(chosen).toEqual(['nearby', 'preliminary', 'cbrs', 'elevation', 'structure', 'history', 'determination']);
  });

  it('runs under the Content-Security-Policy with nothing blocked and no script errors', async () => {
    const violations = await cspViolationEvents();
    expect({ cspConsole: events.cspConsole, cspViolations: violations }).toEqual({ cspConsole: [], cspViolations: [] });
    expect(events.pageErrors).toEqual([]);
    expect(events.failedRequests).toEqual([]);
    expect(events.consoleErrors).toEqual([]);
  });
});

/** A page of another origin (another loopback port) whose script calls the API, as a web app would. */
const CALLER_PAGE = `<!DOCTYPE html>
<html><head><title>caller</title></head><body><script>
  // What a script of this origin can see of an API answer: the status, the body and the named headers.
  window.callApi = async (url, headerNames) => {
    const response = await fetch(url, { cache: 'no-store' });
    const headers = {};
    for (const name of headerNames) headers[name] = response.headers.get(name);
    return { status: response.status, headers, body: await response.json() };
  };
</script></body></html>`;

interface CrossOriginAnswer {
  status: number;
  headers: Record<string, string | null>;
  body: Record<string, any>;
}

describe('the API called from a page of another origin', () => {
  let callerServer: Server;
  let callerOrigin: string;
  let caller: Page;

  beforeAll(async () => {
    callerServer = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(CALLER_PAGE);
    });
    await new Promise<void>((resolve) => callerServer.listen(0, '127.0.0.1', resolve));
    callerOrigin = `http://127.0.0.1:${(callerServer.address() as AddressInfo).port}`;
    caller = await browser!.newPage();
    await caller.goto(`${callerOrigin}/`);
  });
  afterAll(async () => {
    await caller?.close();
    await new Promise((resolve) => callerServer?.close(resolve));
  });

  const callApi = (pathAndQuery: string, headerNames: string[]): Promise<CrossOriginAnswer> =>
    caller.evaluate(([url, names]) => (window as unknown as { callApi: (u: string, n: string[]) => Promise<CrossOriginAnswer> }).callApi(url, names), [
      `${stack!.url}${pathAndQuery}`,
      headerNames,
    ] as const);

  it('is another origin than the API', () => {
    expect(new URL(callerOrigin).origin).not.toBe(new URL(stack!.url).origin);
  });

  it('reads X-Request-Id, ETag and X-Cache of a lookup (MISS, then HIT), the ETag a direct call gets', async () => {
    const place = demoPlace('houston-ae-floodway');
    const names = ['x-request-id', 'etag', 'x-cache', 'x-content-type-options'];
    const miss = await callApi(pointQuery(place), names);
    expect(miss.status).toBe(200);
    expect(miss.body.result.floodZone).toBe(place.expect.floodZone);
    expect(miss.headers['x-cache']).toBe('MISS');
    expect(miss.headers['x-request-id']).toMatch(/\S/);
    expect(miss.headers.etag).toMatch(/^"[^"]+"$/);

    const hit = await callApi(pointQuery(place), names);
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers['x-request-id']).toMatch(/\S/);
    expect(hit.headers['x-request-id']).not.toBe(miss.headers['x-request-id']);

    const direct = await fetch(`${stack!.url}${pointQuery(place)}`);
    expect(direct.status).toBe(200);
    expect(hit.headers.etag).toBe(direct.headers.get('etag'));
    expect(miss.headers.etag).toBe(direct.headers.get('etag'));
    // The browser really enforces CORS: a header the API sends but does not expose stays unreadable.
    expect(direct.headers.get('x-content-type-options')).toBe('nosniff');
    expect(hit.headers['x-content-type-options']).toBeNull();
  });

  it("reads a 400 answer's X-Request-Id, the one in its body", async () => {
    const bad = await callApi('/flood-zone?lat=abc&lon=-95.3', ['x-request-id']);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_PARAMETERS');
    expect(bad.headers['x-request-id']).toMatch(/\S/);
    expect(bad.headers['x-request-id']).toBe(bad.body.requestId);
  });

  it("reads a 502 answer's Retry-After and X-Request-Id while FEMA fails", async () => {
    const place = demoPlace('sacramento-d');
    stack!.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'Flood Hazard Zones' });
    try {
      const failed = await callApi(pointQuery(place), ['retry-after', 'x-request-id']);
      expect(failed.status).toBe(502);
      expect(failed.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstream: 'flood_data' });
      expect(failed.headers['retry-after']).toBe('5');
      expect(failed.headers['x-request-id']).toBe(failed.body.requestId);
    } finally {
      stack!.emulators.nfhl.clearFaults();
    }
  });
});
