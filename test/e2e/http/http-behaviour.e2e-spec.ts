/**
 * The HTTP surface (docs/api.md): methods, unknown paths, HEAD, CORS, request ids, security headers, headers
 * that must not leak.
 */
import { demoPlace } from '../../emulators';
import { apiRequest, type ApiResponse } from '../../support/api-client';
import { NO_CACHE, Stack, expectErrorEnvelope, pointQuery, startStack } from '../../support/stack';

let stack: Stack;

beforeAll(async () => {
  // normal timeouts: only instant faults (resets, 5xx) are injected here, and a loaded machine must not turn a 200 into a 502
  stack = await startStack({ ...NO_CACHE, CIRCUIT_BREAKER_MIN_CALLS: '100000' });
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => stack.emulators.clearFaults());

const dc = demoPlace('dc-white-house-ae');
const KNOWN_PATHS = ['/flood-zone', '/health', '/health/ready', '/metrics', '/openapi.json', '/api-docs.html'];
/** A GET that answers 200 on each known path. */
const WORKING_GET: Record<string, string> = {
  '/flood-zone': pointQuery(dc),
  '/health': '/health',
  '/health/ready': '/health/ready',
  '/metrics': '/metrics',
  '/openapi.json': '/openapi.json',
  '/api-docs.html': '/api-docs.html',
};

const request = (path: string, init: RequestInit = {}) => apiRequest(stack.url, path, init);

describe('methods a known path does not answer', () => {
  /** What each path answers beyond GET, HEAD and OPTIONS: /flood-zone also takes a POST (the lookup with a footprint). */
  const POSTED = new Set(['/flood-zone']);
  const allowOf = (path: string) => (POSTED.has(path) ? 'GET, HEAD, POST, OPTIONS' : 'GET, HEAD, OPTIONS');
  const cases = KNOWN_PATHS.flatMap((path) =>
    ['POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => method !== 'POST' || !POSTED.has(path)).map((method) => [method, path] as const),
  );

  it.each(cases)('%s %s → 405 METHOD_NOT_ALLOWED with Allow naming what the path answers', async (method, path) => {
    const res = await request(path, { method });
    expectErrorEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toBe(allowOf(path));
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('POST /flood-zone with a query and a JSON body is its own 400: the lookup with a footprint reads no query parameters', async () => {
    const res = await request(pointQuery(dc), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"lat":1,"lon":2}' });
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    expect(res.body.error).toBe('Unknown parameter "lat": this endpoint reads no query parameters.');
  });

  it('POST /flood-zone with a malformed JSON body is its own 400', async () => {
    const res = await request('/flood-zone', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"lat":' });
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    expect(res.body.error).toBe('The JSON body is malformed at line 1, column 8: ValueExpected.');
  });

  it('a 405 makes no upstream call', async () => {
    stack.emulators.resetCalls();
    await request(pointQuery(dc), { method: 'DELETE' });
    expect(stack.emulators.nfhl.callCount() + stack.emulators.census.callCount()).toBe(0);
  });
});

describe('unknown paths', () => {
  it.each(['/', '/nope', '/flood-zones', '/flood-zone/extra', '/health/live', '/v1/flood-zone', '/openapi.yaml'])(
    'GET %s → 404 NOT_FOUND envelope',
    async (path) => {
      const res = await stack.get(path);
      expectErrorEnvelope(res, 404, 'NOT_FOUND');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    },
  );

  it.each(['POST', 'DELETE'])('%s /nope → 404 NOT_FOUND envelope', async (method) => {
    const res = await request('/nope', { method });
    expectErrorEnvelope(res, 404, 'NOT_FOUND');
  });
});

describe('HEAD', () => {
  it.each(KNOWN_PATHS)('HEAD %s → 200 with no body', async (path) => {
    const res = await request(WORKING_GET[path], { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('HEAD /flood-zone carries the headers of the GET (JSON, cacheable)', async () => {
    const res = await request(pointQuery(dc), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.text).toBe('');
  });
});

describe('CORS', () => {
  it.each(KNOWN_PATHS)('preflight OPTIONS %s → 204 with Access-Control-Allow-Origin: *', async (path) => {
    const res = await request(path, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods') ?? '').toMatch(/\bGET\b/);
    expect(res.headers.get('access-control-allow-credentials')).not.toBe('true');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.text).toBe('');
  });

  it('a preflight for a request header (X-Request-Id) is allowed', async () => {
    const res = await request('/flood-zone', {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-request-id' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect((res.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain('x-request-id');
  });

  const origin = { Origin: 'https://app.example.com' };
  const expectOpenCors = (res: ApiResponse) => {
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).not.toBe('true');
  };

  it('on a 200', async () => {
    const res = await stack.get(pointQuery(dc), origin);
    expect(res.status).toBe(200);
    expectOpenCors(res);
  });

  it('on a 400, 404, 422', async () => {
    const responses = await Promise.all([stack.get('/flood-zone', origin), stack.get('/nope', origin), stack.get('/flood-zone?lat=91&lon=0', origin)]);
    expect(responses.map((r) => r.status)).toEqual([400, 404, 422]);
    responses.forEach(expectOpenCors);
  });

  it('on a 502', async () => {
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'floodHazardZones' });
    const res = await stack.get(pointQuery(dc), origin);
    expectErrorEnvelope(res, 502, 'UPSTREAM_UNAVAILABLE');
    expectOpenCors(res);
  });

  it('on a 405', async () => {
    const res = await request('/health', { method: 'PUT', headers: origin });
    expect(res.status).toBe(405);
    expectOpenCors(res);
  });
});

describe('X-Request-Id', () => {
  it.each(Object.values(WORKING_GET))('generated on GET %s', async (path) => {
    const res = await stack.get(path);
    expect(res.status).toBe(200);
    expect((res.headers.get('x-request-id') ?? '').length).toBeGreaterThan(0);
  });

  it('generated ids differ between requests', async () => {
    const [a, b] = await Promise.all([stack.get('/health'), stack.get('/health')]);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it.each([
    ['a 200', pointQuery(dc), 200],
    ['a 400', '/flood-zone', 400],
    ['a 404', '/nope', 404],
    ['a 422', '/flood-zone?lat=0&lon=181', 422],
  ])('a sane id (abc-123) is echoed on %s, and is the envelope requestId', async (_what, path, status) => {
    const res = await stack.get(path, { 'X-Request-Id': 'abc-123' });
    expect(res.status).toBe(status);
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    if (status >= 400) expect(res.body.requestId).toBe('abc-123');
  });

  it('a sane id is echoed on a 405 and a 502', async () => {
    const notAllowed = await request('/flood-zone', { method: 'PUT', headers: { 'X-Request-Id': 'req.405:x@y_z' } });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.get('x-request-id')).toBe('req.405:x@y_z');
    expect(notAllowed.body.requestId).toBe('req.405:x@y_z');
    stack.emulators.nfhl.injectFault({ kind: 'reset', match: 'floodHazardZones' });
    const failed = await stack.get(pointQuery(dc), { 'X-Request-Id': 'abc-502' });
    expect(failed.status).toBe(502);
    expect(failed.headers.get('x-request-id')).toBe('abc-502');
    expect(failed.body.requestId).toBe('abc-502');
  });

  it('an id of exactly 128 characters is echoed', async () => {
    const id = 'a'.repeat(128);
    const res = await stack.get('/flood-zone', { 'X-Request-Id': id });
    expect(res.headers.get('x-request-id')).toBe(id);
    expect(res.body.requestId).toBe(id);
  });

  it.each([
    ['longer than 128 characters', 'a'.repeat(129)],
    ['with spaces', 'abc 123'],
    ['with a double quote', 'abc"123'],
    ['with a single quote', "abc'123"],
    ['with angle brackets', '<script>'],
  ])('an insane id (%s) is replaced by a generated one, also in the envelope', async (_what, id) => {
    const res = await stack.get('/flood-zone', { 'X-Request-Id': id });
    expect(res.status).toBe(400);
    const given = res.headers.get('x-request-id') ?? '';
    // A generated id is a UUID (which may itself contain "abc": compare the shape, not substrings).
    expect(given).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(given).not.toBe(id);
    expect(res.body.requestId).toBe(given);
  });

  it('on HEAD and OPTIONS responses too', async () => {
    const head = await request('/health', { method: 'HEAD', headers: { 'X-Request-Id': 'head-1' } });
    const options = await request('/health', {
      method: 'OPTIONS',
      headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET', 'X-Request-Id': 'opt-1' },
    });
    expect(head.headers.get('x-request-id')).toBe('head-1');
    expect(options.headers.get('x-request-id')).toBe('opt-1');
  });
});

describe('no X-Powered-By', () => {
  it('on any kind of response', async () => {
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 500, match: 'floodHazardZones', times: 2 });
    const responses = await Promise.all([
      stack.get(pointQuery(dc)),
      stack.get('/health'),
      stack.get('/openapi.json'),
      stack.get('/api-docs.html'),
      stack.get('/metrics'),
      stack.get('/flood-zone'),
      stack.get('/nope'),
      request('/health', { method: 'POST' }),
      request('/health', { method: 'OPTIONS', headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' } }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 204, 400, 404, 405, 502].sort());
    for (const res of responses) expect(res.headers.get('x-powered-by')).toBeNull();
  });
});

describe('headers a page of another origin may read', () => {
  const EXPOSED = ['X-Request-Id', 'ETag', 'X-Cache', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
  const exposed = (res: ApiResponse) => (res.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim());

  it('are named in Access-Control-Expose-Headers on every kind of answer', async () => {
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'floodHazardZones', times: 2 });
    const responses = await Promise.all([
      stack.get(pointQuery(dc)),
      stack.get('/health'),
      stack.get('/flood-zone'),
      stack.get('/nope'),
      stack.get('/flood-zone?lat=91&lon=0'),
      request('/health', { method: 'DELETE' }),
      request('/health', { method: 'OPTIONS', headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' } }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 204, 400, 404, 405, 422, 502].sort());
    for (const res of responses) expect(exposed(res)).toEqual(expect.arrayContaining(EXPOSED));
  });

  it('a preflight allows exactly the methods of the path', async () => {
    const res = await request('/flood-zone', { method: 'OPTIONS', headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
    expect(res.headers.get('access-control-max-age')).toBe('86400');
  });
});

describe('security headers', () => {
  /**
   * What every JSON answer over plain HTTP carries, whichever way it is answered (the helmet set, with a
   * JSON-only CSP): frame-ancestors and no X-Frame-Options beside it; no HSTS on plain HTTP.
   */
  const JSON_ANSWER_HEADERS = {
    'content-security-policy': "default-src 'none';frame-ancestors 'none'",
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'cross-origin',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': null,
    'x-content-type-options': 'nosniff',
    'x-frame-options': null,
    'x-permitted-cross-domain-policies': 'none',
    'access-control-allow-origin': '*',
  };
  const securityHeadersOf = (res: ApiResponse) => Object.fromEntries(Object.keys(JSON_ANSWER_HEADERS).map((name) => [name, res.headers.get(name)]));

  let cached: Stack;
  beforeAll(async () => {
    cached = await startStack();
  });
  afterAll(async () => {
    await cached?.close();
  });

  it('are the same on a lookup answered from the cache (one write) as on the first answer', async () => {
    const first = await apiRequest(cached.url, pointQuery(dc));
    const again = await apiRequest(cached.url, pointQuery(dc), { headers: { 'X-Request-Id': 'hit-1' } });
    expect([first.headers.get('x-cache'), again.headers.get('x-cache')]).toEqual(['MISS', 'HIT']);
    expect(securityHeadersOf(first)).toEqual(JSON_ANSWER_HEADERS);
    expect(securityHeadersOf(again)).toEqual(JSON_ANSWER_HEADERS);
    expect(again.headers.get('x-request-id')).toBe('hit-1');
    expect(again.text).toBe(first.text);
    const notModified = await apiRequest(cached.url, pointQuery(dc), { headers: { 'If-None-Match': String(again.headers.get('etag')) } });
    expect(notModified.status).toBe(304);
    expect(securityHeadersOf(notModified)).toEqual(JSON_ANSWER_HEADERS);
  });

  it.each([
    ['a 400', '/flood-zone?lat=abc&lon=1'],
    ['a 404', '/no-such-path'],
    ['/health', '/health'],
    ['/openapi.json', '/openapi.json'],
  ])('are on %s', async (_what, path) => {
    expect(securityHeadersOf(await apiRequest(cached.url, path))).toEqual(JSON_ANSWER_HEADERS);
  });

  it("the Swagger UI page gets a policy that lets it load its own scripts and styles, and nothing else's", async () => {
    const page = await apiRequest(cached.url, '/api-docs.html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect([page.headers.get('x-frame-options'), page.headers.get('strict-transport-security')]).toEqual([null, null]);
  });

  it('HSTS goes only on answers a trusted proxy says came over HTTPS, cached ones too', async () => {
    const proxied = await startStack({ TRUST_PROXY: 'true' });
    try {
      const overHttps = { headers: { 'X-Forwarded-Proto': 'https' } };
      const hsts = (res: ApiResponse) => [
        res.status,
        res.headers.get('x-cache'),
        res.headers.get('strict-transport-security'),
        res.headers.get('x-frame-options'),
      ];
      expect(hsts(await apiRequest(proxied.url, pointQuery(dc), overHttps))).toEqual([200, 'MISS', 'max-age=31536000; includeSubDomains', null]);
      expect(hsts(await apiRequest(proxied.url, pointQuery(dc), overHttps))).toEqual([200, 'HIT', 'max-age=31536000; includeSubDomains', null]);
      expect(hsts(await apiRequest(proxied.url, pointQuery(dc)))).toEqual([200, 'HIT', null, null]);
      expect(hsts(await apiRequest(proxied.url, '/api-docs.html', overHttps))).toEqual([200, null, 'max-age=31536000; includeSubDomains', null]);
      // An untrusted X-Forwarded-Proto (TRUST_PROXY=false) changes nothing.
      expect(hsts(await apiRequest(cached.url, '/health', overHttps))).toEqual([200, null, null, null]);
    } finally {
      await proxied.close();
    }
  });
});
