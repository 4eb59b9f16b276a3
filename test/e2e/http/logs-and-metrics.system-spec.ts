import * as net from 'node:net';
import { demoPlace, RunningEmulators, startEmulators } from '../../emulators';
import { BuiltService } from '../../support/built-service';
import { sleep } from '../../support/stack';

const dc = demoPlace('dc-white-house-ae');

describe('structured logs and metrics of dist/main.js', () => {
  let emulators: RunningEmulators;
  let service: BuiltService;
  beforeAll(async () => {
    emulators = await startEmulators();
    service = await BuiltService.start({ ...emulators.env, LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await service.stop();
    await emulators.close();
  });

  it('writes one JSON line per request with id, method, route, status, duration, cache outcome and upstream timings', async () => {
    const answer = await fetch(`${service.url}/flood-zone?address=${encodeURIComponent(dc.address as string)}`, { headers: { 'X-Request-Id': 'log-test-1' } });
    expect(answer.status).toBe(200);
    await sleep(100);
    const lines = service.logs().filter((line) => line.reqId === 'log-test-1');
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line.req.method).toBe('GET');
    expect(line.route).toBe('/flood-zone');
    expect(line.res.statusCode).toBe(200);
    expect(typeof line.responseTime).toBe('number');
    expect(line.cache).toBe('MISS');
    expect(line.upstreamMs.geocoder).toHaveLength(1);
    expect(line.upstreamMs.flood_data.length).toBeGreaterThanOrEqual(4);
  });

  it('never logs a street address at info: only a short hash', async () => {
    const address = dc.address as string;
    await fetch(`${service.url}/flood-zone?address=${encodeURIComponent(address)}`, { headers: { 'X-Request-Id': 'log-test-2' } });
    await sleep(100);
    const everything = service.lines.join('\n');
    expect(everything).not.toMatch(/pennsylvania/i);
    const [line] = service.logs().filter((l) => l.reqId === 'log-test-2');
    expect(line.req.url).toMatch(/^\/flood-zone\?address=sha256%3A[0-9a-f]{12}$/);
    expect(line.cache).toBe('HIT');
  });

  it('never logs an address however its parameter name is spelled, nor from a batch or a failed lookup', async () => {
    const asked: Array<[string, string]> = [
      ['enc-1', '/flood-zone?addr%65ss=1600+Secretplace+Ave'],
      ['enc-2', '/flood-zone?%61ddress=1601%20Secretplace'],
      ['enc-3', '/flood-zone?ADDRESS=1602+Secretplace'],
      ['enc-4', '/flood-zone?address[]=1603+Secretplace'],
      ['enc-5', '/flood-zone?address%5B0%5D=1604+Secretplace'],
      ['enc-6', '/flood-zone?address+=1605+Secretplace'],
      ['enc-7', '/flood-zone?lat=1&address=1606+Secretplace'],
      ['enc-8', '/flood-zone?address=1607+Secretplace&Address=1608+Secretplace'],
      ['enc-9', '/flood-zone?x=1&%41ddr%45ss=1609+Secretplace&y=2'],
    ];
    for (const [id, path] of asked) await fetch(`${service.url}${path}`, { headers: { 'X-Request-Id': id } });
    await fetch(`${service.url}/flood-zone/batch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'enc-batch' },
      body: JSON.stringify({ locations: [{ address: '1610 Secretplace' }, { address: `1611 Secretplace${'\u0001'}` }] }),
    });
    emulators.census.injectFault({ kind: 'http-status', status: 500, match: 'onelineaddress', times: 10 });
    try {
      const failed = await fetch(`${service.url}/flood-zone?address=1612+Secretplace`, { headers: { 'X-Request-Id': 'enc-502' } });
      expect(failed.status).toBe(502);
    } finally {
      emulators.clearFaults();
    }
    await sleep(200);
    expect(service.lines.join('\n')).not.toMatch(/secretplace/i);
    const urlOf = (id: string) => service.logs().find((l) => l.reqId === id && l.req)?.req.url;
    expect(urlOf('enc-1')).toMatch(/^\/flood-zone\?addr%65ss=sha256%3A[0-9a-f]{12}$/);
    expect(urlOf('enc-8')).toMatch(/^\/flood-zone\?address=sha256%3A[0-9a-f]{12}&Address=sha256%3A[0-9a-f]{12}$/);
    expect(urlOf('enc-9')).toMatch(/^\/flood-zone\?x=1&%41ddr%45ss=sha256%3A[0-9a-f]{12}&y=2$/);
    for (const [id] of asked) expect(urlOf(id)).toMatch(/sha256%3A[0-9a-f]{12}/);
  });

  it('answers a batch body nested 10,000 deep with a 400 and logs no error or stack for it', async () => {
    const nested = await fetch(`${service.url}/flood-zone/batch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'log-nested' },
      body: `{"locations":[${'['.repeat(10_000)}`,
    });
    expect([nested.status, (await nested.json()).code]).toEqual([400, 'INVALID_BATCH']);
    await sleep(100);
    const lines = service.logs().filter((l) => l.reqId === 'log-nested');
    expect(lines.map((l) => [l.level, l.res?.statusCode, l.err])).toEqual([[30, 400, undefined]]);
    expect(service.lines.join('\n')).not.toMatch(/RangeError|call stack/);
  });

  it('logs 405s and preflights too, each once, with the path as route', async () => {
    const notAllowed = await fetch(`${service.url}/flood-zone`, { method: 'DELETE', headers: { 'X-Request-Id': 'log-405' } });
    const preflight = await fetch(`${service.url}/health`, {
      method: 'OPTIONS',
      headers: { 'X-Request-Id': 'log-options', Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' },
    });
    const missing = await fetch(`${service.url}/nope`, { headers: { 'X-Request-Id': 'log-404' } });
    expect([notAllowed.status, preflight.status, missing.status]).toEqual([405, 204, 404]);
    await sleep(100);
    const lineOf = (id: string) => {
      const lines = service.logs().filter((l) => l.reqId === id);
      expect(lines).toHaveLength(1);
      return lines[0];
    };
    expect(lineOf('log-405')).toEqual(expect.objectContaining({ route: '/flood-zone', res: { statusCode: 405 } }));
    expect(lineOf('log-405').req).toEqual(expect.objectContaining({ method: 'DELETE', url: '/flood-zone' }));
    expect(lineOf('log-options')).toEqual(expect.objectContaining({ route: '/health', res: { statusCode: 204 } }));
    expect(lineOf('log-404')).toEqual(expect.objectContaining({ route: null, res: { statusCode: 404 } }));
  });

  it('logs a cache hit served before the router like any other request', async () => {
    const url = `${service.url}/flood-zone?lat=${dc.lat}&lon=${dc.lon}&_=hit`;
    await fetch(url);
    const hit = await fetch(url, { headers: { 'X-Request-Id': 'log-hit' } });
    expect(hit.headers.get('x-cache')).toBe('HIT');
    await sleep(100);
    const lines = service.logs().filter((l) => l.reqId === 'log-hit');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual(expect.objectContaining({ route: '/flood-zone', cache: 'HIT', res: { statusCode: 200 }, upstreamMs: {} }));
    expect(typeof lines[0].responseTime).toBe('number');
  });

  it('logs what the HTTP parser refused, with the reason', async () => {
    const socket = net.connect(Number(new URL(service.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write('FROB / HTTP/1.1\r\nHost: x\r\n\r\n');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
    });
    const requestId = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).requestId;
    await sleep(100);
    const lines = service.logs().filter((l) => l.reqId === requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual(expect.objectContaining({ res: { statusCode: 400 }, reason: 'HPE_INVALID_METHOD' }));
  });

  it('carries the request id in application log lines written while serving the request', async () => {
    const place = demoPlace('renton-x-shaded');
    emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'floodHazardZones', times: 10 });
    try {
      const failed = await fetch(`${service.url}/flood-zone?lat=${place.lat}&lon=${place.lon}`, { headers: { 'X-Request-Id': 'log-502' } });
      expect(failed.status).toBe(502);
    } finally {
      emulators.clearFaults();
    }
    await sleep(100);
    const lines = service.logs().filter((l) => l.reqId === 'log-502');
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['upstream unavailable', expect.stringMatching(/^GET 502 \d+ms$/)]));
  });

  it('exposes request, upstream, cache, circuit and process metrics', async () => {
    await fetch(`${service.url}/flood-zone?lat=${dc.lat}&lon=${dc.lon}`);
    await fetch(`${service.url}/flood-zone?lat=${dc.lat}&lon=${dc.lon}`);
    // digits beyond the sixth decimal: another answer, the same cached flood result
    await fetch(`${service.url}/flood-zone?lat=${dc.lat}1&lon=${dc.lon}`);
    await fetch(`${service.url}/flood-zone`, { method: 'PUT' });
    await fetch(`${service.url}/metrics`, { method: 'OPTIONS', headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' } });
    await fetch(`${service.url}/flood-zone?lat=500&lon=0`);
    const metrics = await fetch(`${service.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await metrics.text();
    expect(text).toMatch(/^http_requests_total\{route="\/flood-zone",method="GET",status="200"\} [1-9]\d*$/m);
    expect(text).toMatch(/^http_requests_total\{route="\/flood-zone",method="GET",status="422"\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{route="\/flood-zone",method="PUT",status="405"\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{route="\/metrics",method="OPTIONS",status="204"\} 1$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.1",route="\/flood-zone",method="GET",status="200"\} \d+$/m);
    expect(text).toMatch(/^upstream_request_duration_seconds_count\{upstream="flood_data",outcome="success"\} [1-9]\d*$/m);
    expect(text).toMatch(/^upstream_request_duration_seconds_count\{upstream="geocoder",outcome="success"\} [1-9]\d*$/m);
    expect(text).toMatch(/^cache_lookups_total\{cache="flood",outcome="hit"\} [1-9]\d*$/m);
    expect(text).toMatch(/^cache_lookups_total\{cache="flood",outcome="miss"\} [1-9]\d*$/m);
    expect(text).toMatch(/^upstream_circuit_state\{upstream="flood_data"\} 0$/m);
    expect(text).toMatch(/^upstream_circuit_state\{upstream="geocoder"\} 0$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });
});
