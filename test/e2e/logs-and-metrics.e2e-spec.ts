import { demoPlace, RunningEmulators, startEmulators } from '../emulators';
import { BuiltService } from '../support/built-service';
import { sleep } from '../support/stack';

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

  it('exposes request, upstream, cache, circuit and process metrics', async () => {
    await fetch(`${service.url}/flood-zone?lat=${dc.lat}&lon=${dc.lon}`);
    await fetch(`${service.url}/flood-zone?lat=${dc.lat}&lon=${dc.lon}`);
    await fetch(`${service.url}/flood-zone?lat=500&lon=0`);
    const metrics = await fetch(`${service.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await metrics.text();
    expect(text).toMatch(/^http_requests_total\{route="\/flood-zone",method="GET",status="200"\} [1-9]\d*$/m);
    expect(text).toMatch(/^http_requests_total\{route="\/flood-zone",method="GET",status="422"\} 1$/m);
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
