/**
 * The operations endpoints (docs/api.md): GET /health, GET /health/ready, GET /openapi.json,
 * GET /api-docs.html and GET /metrics; and the endpoint catalogue of /health against every path it lists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoPlace } from '../../emulators';
import { rectangleFootprint } from '../../emulators/structure-footprints';
import { openApiProblems } from '../support/openapi-validate';
import { COMMUNITY_STATUS_FIELDS } from '../../../src/parts/nfip-status/nfip-status';
import { DisposableRedis } from '../../support/redis-server';
import { FAST_FAULTS, NO_CACHE, Stack, pointQuery, sleep, startStack } from '../../support/stack';

const packageJson = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { name: string; version: string };
const dc = demoPlace('dc-white-house-ae');
/** Every catalogued path, each method it serves (the first is the one it is mainly for) and the status of its success. */
const CATALOGUE: Record<string, Record<string, number>> = {
  '/flood-zone': { GET: 200, POST: 200 },
  '/flood-zone/batch': { POST: 200 },
  '/flood-zone/map': { GET: 200 },
  '/flood-zone/report': { GET: 200 },
  '/flood-zone/jobs': { POST: 202 },
  '/flood-zone/jobs/{id}': { GET: 200, DELETE: 202 },
  '/flood-zone/jobs/{id}/results': { GET: 200 },
  '/flood-zone/watches': { POST: 201 },
  '/flood-zone/watches/{id}': { GET: 200, DELETE: 200 },
  '/flood-zone/watches/{id}/locations': { POST: 202 },
  '/flood-zone/watches/{id}/locations/{locationId}': { DELETE: 204 },
  '/flood-zone/watches/{id}/events': { GET: 200 },
  '/mcp': { POST: 200 },
  '/health': { GET: 200 },
  '/health/ready': { GET: 200 },
  '/metrics': { GET: 200 },
  '/openapi.json': { GET: 200 },
  '/api-docs.html': { GET: 200 },
};
const REQUIRED_HEALTH_KEYS = ['name', 'status', 'version', 'description', 'endpoints', 'coverageHonesty', 'dataSource', 'docs', 'jobs'];
const OPTIONAL_HEALTH_KEYS = ['uptimeSeconds', 'upstreams'];

let stack: Stack;
/** A Redis of the suite's own, so that the job paths answer as they do in a deployment. */
let redis: DisposableRedis;

beforeAll(async () => {
  redis = await DisposableRedis.start();
  stack = await startStack({ ...NO_CACHE, JOBS_REDIS_URL: redis.url });
});
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
});
afterEach(() => stack.emulators.clearFaults());

describe('GET /health', () => {
  it('is the status document', async () => {
    const res = await stack.get('/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = res.body;
    for (const key of REQUIRED_HEALTH_KEYS) expect(doc).toHaveProperty(key);
    for (const key of Object.keys(doc)) expect([...REQUIRED_HEALTH_KEYS, ...OPTIONAL_HEALTH_KEYS]).toContain(key);
    expect(doc.name).toBe(packageJson.name);
    expect(doc.status).toBe('ok');
    expect(doc.version).toBe(packageJson.version);
    expect(typeof doc.description).toBe('string');
    expect(doc.description.trim().length).toBeGreaterThan(0);
    expect(doc.docs).toBe('/api-docs.html');
    expect(typeof doc.coverageHonesty).toBe('string');
    expect(doc.coverageHonesty).toMatch(/unmapped/);
    if ('uptimeSeconds' in doc) expect(doc.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it('endpoints: keyed by path, each with method (the first of its methods), methods and note; /flood-zone with params and examples', async () => {
    const { endpoints } = (await stack.get('/health')).body;
    expect(Object.keys(endpoints).sort()).toEqual(Object.keys(CATALOGUE).sort());
    for (const [path, entry] of Object.entries<Record<string, unknown>>(endpoints)) {
      expect(path.startsWith('/')).toBe(true);
      const methods = Object.keys(CATALOGUE[path]!);
      expect({ path, method: entry.method, methods: entry.methods }).toEqual({ path, method: methods[0], methods });
      expect(typeof entry.note).toBe('string');
      expect((entry.note as string).length).toBeGreaterThan(0);
    }
    const lookup = endpoints['/flood-zone'];
    expect(Object.keys(lookup.params).sort()).toEqual(['address', 'include', 'lat', 'lon', 'radius']);
    for (const description of Object.values(lookup.params)) {
      expect(typeof description).toBe('string');
      expect((description as string).length).toBeGreaterThan(0);
    }
    expect(Array.isArray(lookup.examples)).toBe(true);
    expect(lookup.examples.length).toBeGreaterThan(0);
  });

  it('every catalogued endpoint answers each of its methods: GET at each of its examples (else its path), POST a batch body (the lookup its footprint), a job path for a job', async () => {
    const { endpoints } = (await stack.get('/health')).body as { endpoints: Record<string, { methods: string[]; examples?: string[] }> };
    const batch = JSON.stringify({ locations: [{ id: 'dc', lat: dc.lat, lon: dc.lon }] });
    // A 52 m by 22 m footprint around the point.
    const footprint = { type: 'Polygon', coordinates: [rectangleFootprint([dc.lon, dc.lat], 52, 22)] };
    const lookup = JSON.stringify({ lat: dc.lat, lon: dc.lon, footprint });
    // An agent's first message over the Model Context Protocol.
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'health-and-docs', version: '1.0.0' } },
    });
    /** The catalogued path of each URL called with its ids filled in. */
    const paths = new Map<string, string>();
    const pathOf = (url: string) => paths.get(url) ?? url;
    const bodies: Record<string, string> = {
      '/flood-zone': lookup,
      '/mcp': initialize,
      '/flood-zone/watches/{id}/locations': JSON.stringify({ locations: [{ id: 'dc-too', lat: dc.lat, lon: dc.lon }] }),
    };
    const send = (method: string, url: string) =>
      fetch(
        `${stack.url}${url}`,
        method === 'POST'
          ? { method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: bodies[pathOf(url)] ?? batch }
          : { method },
      );
    // A finished job of the suite's own for the job paths.
    const submitted = await send('POST', '/flood-zone/jobs');
    expect(submitted.status).toBe(202);
    const { id } = (await submitted.json()) as { id: string };
    let status = '';
    for (let attempt = 0; attempt < 300 && status !== 'completed'; attempt++) {
      if (attempt > 0) await sleep(100);
      status = ((await (await send('GET', `/flood-zone/jobs/${id}`)).json()) as { status: string }).status;
    }
    expect(status).toBe('completed');
    // A watch of the suite's own for the watch paths (its location 'dc', from the batch body).
    const watched = await send('POST', '/flood-zone/watches');
    expect(watched.status).toBe(201);
    const watchId = ((await watched.json()) as { id: string }).id;
    const urlOf = (url: string) => {
      const filled = url.startsWith('/flood-zone/watches/') ? url.replace('{id}', watchId).replace('{locationId}', 'dc') : url.replace('{id}', id);
      paths.set(filled, url);
      return filled;
    };

    const calls = Object.entries(endpoints).flatMap(([path, entry]) =>
      entry.methods.map((method) => ({ path, method, urls: method === 'GET' ? (entry.examples ?? [path]) : [path] })),
    );
    // DELETE last: it deletes the job the others read (a watch's location before the watch).
    calls.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE') || (a.method === 'DELETE' ? b.path.length - a.path.length : 0));
    expect(calls.map(({ path, method }) => `${method} ${path}`).sort()).toEqual(
      Object.entries(CATALOGUE)
        .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
        .sort(),
    );
    for (const { path, method, urls } of calls) {
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) {
        expect({ url, underItsPath: url === path || url.startsWith(`${path}?`) }).toEqual({ url, underItsPath: true });
        const res = await send(method, urlOf(url));
        await res.arrayBuffer();
        expect({ method, url, status: res.status }).toEqual({ method, url, status: CATALOGUE[path]![method] });
      }
    }
  });

  it('every catalogued path refuses a method it does not name (PUT): 405 whose Allow names its methods, HEAD beside GET, and OPTIONS', async () => {
    const { endpoints } = (await stack.get('/health')).body as { endpoints: Record<string, { methods: string[] }> };
    for (const [path, { methods }] of Object.entries(endpoints)) {
      const res = await fetch(`${stack.url}${path.replace('{id}', '3f2b9c1e-7a4d-4e8b-9c61-0d5e2a7b4f18')}`, { method: 'PUT' });
      const allow = ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'].filter(
        (m) => methods.includes(m) || m === 'OPTIONS' || (m === 'HEAD' && methods.includes('GET')),
      );
      expect({ path, status: res.status, code: ((await res.json()) as { code: string }).code, allow: res.headers.get('allow') }).toEqual({
        path,
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        allow: allow.join(', '),
      });
    }
  });

  it('every /flood-zone example is a working relative URL (200 against the emulators)', async () => {
    const { examples } = (await stack.get('/health')).body.endpoints['/flood-zone'];
    for (const example of examples as string[]) {
      expect(example).toMatch(/^\/flood-zone\?/);
      const res = await stack.get(example);
      expect({ example, status: res.status }).toEqual({ example, status: 200 });
      expect(['mapped', 'mapped_no_zone', 'unmapped']).toContain(res.body.result.coverage);
    }
  });

  it("dataSource has the same shape and values as a lookup's source", async () => {
    const health = await stack.get('/health');
    const lookup = await stack.get(pointQuery(dc));
    expect(lookup.status).toBe(200);
    expect(health.body.dataSource).toStrictEqual(lookup.body.source);
    expect(health.body.dataSource.floodService).toBe(stack.emulators.nfhl.baseUrl);
  });

  it('upstreams: a circuit state per upstream operation', async () => {
    const { upstreams } = (await stack.get('/health')).body;
    expect(Object.keys(upstreams)).toEqual(expect.arrayContaining(['flood_data', 'geocoder', 'geocoder_point']));
    for (const state of Object.values<{ circuit: string }>(upstreams)) {
      expect(['closed', 'open', 'half_open', 'isolated']).toContain(state.circuit);
    }
  });

  it('makes no upstream call', async () => {
    stack.emulators.resetCalls();
    for (let i = 0; i < 3; i++) expect((await stack.get('/health')).status).toBe(200);
    expect((await stack.get('/health/ready')).status).toBe(200);
    expect(stack.emulators.nfhl.callCount()).toBe(0);
    expect(stack.emulators.census.callCount()).toBe(0);
  });

  it('answers 200 while both upstreams fail everything', async () => {
    stack.emulators.nfhl.injectFault({ kind: 'reset' });
    stack.emulators.census.injectFault({ kind: 'http-status', status: 503 });
    stack.emulators.resetCalls();
    const res = await stack.get('/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect((await stack.get('/health/ready')).status).toBe(200);
    expect(stack.emulators.nfhl.callCount() + stack.emulators.census.callCount()).toBe(0);
  });

  it('stays 200, status ok, with an open circuit (reported, information only)', async () => {
    const failing = await startStack({ ...FAST_FAULTS, CIRCUIT_BREAKER_MIN_CALLS: '2' });
    try {
      failing.emulators.nfhl.injectFault({ kind: 'http-status', status: 503 });
      for (let i = 0; i < 3; i++) expect((await failing.get(pointQuery(dc))).status).toBe(502);
      const res = await failing.get('/health');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('ok');
      expect(res.body.upstreams.flood_data.circuit).toBe('open');
      expect(res.body.upstreams.geocoder.circuit).toBe('closed');
    } finally {
      await failing.close();
    }
  });
});

describe("GET /health upstreams: each upstream's state in words", () => {
  let own: Stack;
  const fema = demoPlace('dc-white-house-ae');
  const upstreamsNow = async () => (await own.get('/health')).body.upstreams as Record<string, Record<string, unknown>>;

  beforeAll(async () => {
    own = await startStack({ ...FAST_FAULTS });
  });
  afterAll(async () => {
    await own?.close();
  });

  it('before any lookup: not called yet, no start-up check (the app was not started by dist/main.js)', async () => {
    const upstreams = await upstreamsNow();
    expect(Object.keys(upstreams).sort()).toEqual([
      'basemap',
      'coastal_barrier',
      'elevation',
      'flood_data',
      'flood_data_pending',
      'flood_data_preliminary',
      'geocoder',
      'geocoder_point',
      'openfema',
      'structures',
    ]);
    expect(upstreams.flood_data).toStrictEqual({
      state: 'not_called_yet',
      circuit: 'closed',
      lastCall: 'none',
      lastCallAt: null,
      host: new URL(own.emulators.nfhl.baseUrl).host,
      atStartUp: 'not_checked',
      startUpError: null,
    });
    expect(upstreams.geocoder_point.host).toBe(new URL(own.emulators.census.baseUrl).host);
    // USA Structures, building footprints: a circuit of its own from start-up, at the emulator's host
    expect(upstreams.structures).toStrictEqual({
      state: 'not_called_yet',
      circuit: 'closed',
      lastCall: 'none',
      lastCallAt: null,
      host: new URL(own.emulators.structures.baseUrl).host,
      atStartUp: 'not_checked',
      startUpError: null,
    });
  });

  it('openfema: the NFIP Community Status Book is downloaded in the background from start-up, by %24-encoded pages', async () => {
    for (let waited = 0; (await upstreamsNow()).openfema.lastCall !== 'ok' && waited < 5000; waited += 50) await sleep(50);
    expect((await upstreamsNow()).openfema).toMatchObject({
      state: 'answering',
      circuit: 'closed',
      lastCall: 'ok',
      host: new URL(own.emulators.openfema.baseUrl).host,
    });
    // the demo table fits in one page of 10,000 rows
    expect(own.emulators.openfema.callsMatching({ endpoint: 'NfipCommunityStatusBook' }).map((call) => call.rawQuery)).toEqual([
      `%24select=${COMMUNITY_STATUS_FIELDS.join('%2C')}&%24top=10000&%24skip=0`,
    ]);
  });

  it('after a lookup that succeeded: answering, last call ok, when', async () => {
    const before = Date.now();
    expect((await own.get(pointQuery(fema))).status).toBe(200);
    const upstreams = await upstreamsNow();
    expect(upstreams.flood_data).toMatchObject({ state: 'answering', circuit: 'closed', lastCall: 'ok' });
    expect(Date.parse(upstreams.flood_data.lastCallAt as string)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(upstreams.flood_data.lastCallAt as string)).toBeLessThanOrEqual(Date.now());
    // the county of the point comes from the geocoder's coordinates lookup
    expect(upstreams.geocoder_point).toMatchObject({ state: 'answering', lastCall: 'ok' });
    // no include: the preliminary, pending and CBRS maps were never asked
    expect(upstreams.coastal_barrier).toMatchObject({ state: 'not_called_yet', lastCall: 'none', lastCallAt: null });
  });

  it('after a lookup that failed: failing, last call failed, while the circuit stays closed; answering again once FEMA is back', async () => {
    own.emulators.nfhl.injectFault({ kind: 'http-status', status: 503 });
    expect((await own.get(pointQuery(fema))).status).toBe(502);
    let upstreams = await upstreamsNow();
    expect(upstreams.flood_data).toMatchObject({ state: 'failing', circuit: 'closed', lastCall: 'failed' });
    expect(upstreams.geocoder_point).toMatchObject({ state: 'answering', lastCall: 'ok' });

    // slower than UPSTREAM_TIMEOUT_MS (300 ms)
    own.emulators.nfhl.clearFaults();
    own.emulators.nfhl.injectFault({ kind: 'delay', ms: 1000 });
    expect((await own.get(pointQuery(fema))).status).toBe(502);
    upstreams = await upstreamsNow();
    expect(upstreams.flood_data).toMatchObject({ state: 'failing', lastCall: 'timed_out' });

    own.emulators.nfhl.clearFaults();
    expect((await own.get(pointQuery(fema))).status).toBe(200);
    expect((await upstreamsNow()).flood_data).toMatchObject({ state: 'answering', lastCall: 'ok' });
  });
});

describe('GET /health/ready', () => {
  it('→ 200 {"status":"ok"}', async () => {
    const res = await stack.get('/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ status: 'ok' });
  });
});

describe('start-up never waits for the NFIP Community Status Book', () => {
  it('OpenFEMA answering nothing: the app is ready and answers lookups while the download waits; shutdown does not wait for it', async () => {
    const slow = await startStack({ ...NO_CACHE, LOOKUP_DEADLINE_MS: '1500' }, { openfema: { latencyMs: 60_000 } });
    try {
      expect((await slow.get('/health/ready')).status).toBe(200);
      // the first lookup waits for the download no longer than its deadline, then answers without the NFIP status
      const lookup = await slow.get(pointQuery(dc));
      expect(lookup.status).toBe(200);
      expect(lookup.body.result.community.nfip).toBeNull();
      expect(lookup.body.result.unavailable).toEqual(['nfipStatus']);
      // the download is under way, unanswered
      expect(slow.emulators.openfema.callCount({ endpoint: 'NfipCommunityStatusBook' })).toBe(1);
    } finally {
      await slow.close();
    }
  }, 20_000);
});

describe('GET /openapi.json', () => {
  let doc: Record<string, any>;

  beforeAll(async () => {
    const res = await stack.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = res.body;
  });

  it('is OpenAPI 3.1.0 describing interface version 1.0.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
  });

  it('is a valid OpenAPI document (swagger-parser)', async () => {
    expect(await openApiProblems(doc)).toBeNull();
  });

  it('(the validator does reject a broken copy)', async () => {
    const broken = structuredClone(doc);
    broken.paths['/flood-zone'].get.responses = { '200': { content: 'not an object' } };
    expect(await openApiProblems(broken)).toEqual(expect.any(String));
  });

  it('documents every catalogued path, and each method it serves with a success answer', async () => {
    const { endpoints: catalogued } = (await stack.get('/health')).body as { endpoints: Record<string, { methods: string[] }> };
    // /mcp describes its tools over its own protocol (tools/list), not in OpenAPI.
    const endpoints = Object.fromEntries(Object.entries(catalogued).filter(([path]) => path !== '/mcp'));
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(endpoints).sort());
    for (const [path, { methods }] of Object.entries(endpoints)) {
      for (const method of methods) {
        const statuses = Object.keys(doc.paths[path]?.[method.toLowerCase()]?.responses ?? {});
        expect({ path, method, success: statuses.some((status) => status.startsWith('2')) }).toEqual({ path, method, success: true });
      }
    }
  });

  it('/flood-zone: query parameters address, lat and lon', () => {
    const parameters: Array<{ name: string; in: string }> = doc.paths['/flood-zone'].get.parameters ?? [];
    const query = parameters.filter((p) => p.in === 'query').map((p) => p.name);
    expect(query).toEqual(expect.arrayContaining(['address', 'lat', 'lon']));
  });

  it('/flood-zone: responses 200, 400, 404, 422 and 502', () => {
    expect(Object.keys(doc.paths['/flood-zone'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '422', '502']));
  });

  it('has no `nullable` keyword anywhere (3.1 uses type arrays)', () => {
    const found: string[] = [];
    const walk = (node: unknown, path: string, parentKey: string | null) => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}/${i}`, null));
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        // a property *named* "nullable" inside `properties` would be legitimate
        if (key === 'nullable' && parentKey !== 'properties') found.push(`${path}/${key}`);
        walk(value, `${path}/${key}`, key);
      }
    };
    walk(doc, '#', null);
    expect(found).toEqual([]);
  });

  it('nullable fields of the lookup result use type arrays with "null"', () => {
    const resolve = (schema: Record<string, any>): Record<string, any> => {
      if (schema.$ref) {
        const target = (schema.$ref as string)
          .replace(/^#\//, '')
          .split('/')
          .reduce((node: any, part) => node[part], doc);
        return resolve(target);
      }
      if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && !schema.type) return resolve(schema.allOf[0]);
      return schema;
    };
    const lookup = resolve(doc.paths['/flood-zone'].get.responses['200'].content['application/json'].schema);
    const result = resolve(lookup.properties.result);
    for (const field of ['floodZone', 'zoneSubtype', 'inSpecialFloodHazardArea', 'staticBaseFloodElevationFt', 'guidance']) {
      expect({ field, type: result.properties[field].type }).toEqual({ field, type: expect.arrayContaining(['null']) });
    }
    const location = resolve(lookup.properties.location);
    for (const field of ['matchedAddress', 'county', 'countyFips', 'zip']) {
      expect({ field, type: location.properties[field].type }).toEqual({ field, type: expect.arrayContaining(['null']) });
    }
    // firmPanel, community and lomrs may be null too (unmapped places, failed parts)
    for (const field of ['firmPanel', 'community', 'lomrs']) {
      const schema = result.properties[field];
      const allowsNull =
        (Array.isArray(schema.type) && schema.type.includes('null') && !schema.allOf && !schema.$ref) ||
        (Array.isArray(schema.anyOf ?? schema.oneOf) && (schema.anyOf ?? schema.oneOf).some((s: { type?: unknown }) => s.type === 'null'));
      expect({ field, allowsNull }).toEqual({ field, allowsNull: true });
    }
  });
});

describe('GET /api-docs.html', () => {
  it('→ 200 HTML, the Swagger UI', async () => {
    const res = await stack.get('/api-docs.html');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/swagger/i);
  });
});

describe('GET /metrics', () => {
  it('→ 200 Prometheus text with request metrics', async () => {
    await stack.get(pointQuery(dc));
    const res = await stack.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^# HELP /m);
    expect(res.text).toMatch(/^# TYPE \S+ histogram$/m);
  });
});
