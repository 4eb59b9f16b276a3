import { demoPlace, RunningEmulators, startEmulators } from '../../emulators';
import { BuiltService } from '../../support/built-service';
import { chunkedAnswer, openRaw, postHead } from '../../support/raw-connection';
import { expectErrorEnvelope, sleep } from '../../support/stack';

const dc = demoPlace('dc-white-house-ae');
const BATCH = '/flood-zone/batch';

describe('graceful shutdown of dist/main.js on SIGTERM', () => {
  let emulators: RunningEmulators;
  beforeAll(async () => {
    emulators = await startEmulators();
  });
  afterAll(() => emulators.close());

  it('turns readiness 503 at once, finishes the lookup in flight, then exits within SHUTDOWN_GRACE_MS', async () => {
    const service = await BuiltService.start({ ...emulators.env, SHUTDOWN_GRACE_MS: '5000', LOG_LEVEL: 'warn' });
    try {
      emulators.nfhl.injectFault({ kind: 'delay', ms: 1500, match: 'Flood Hazard Zones' });
      const slow = fetch(`${service.url}/flood-zone?lat=${dc.lat}&lon=${dc.lon}`);
      await sleep(300);
      service.process.kill('SIGTERM');
      await sleep(50);

      const ready = await fetch(`${service.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'shutting_down' });
      const liveness = await fetch(`${service.url}/health`);
      expect(liveness.status).toBe(200);

      const inFlight = await slow;
      expect(inFlight.status).toBe(200);
      expect(((await inFlight.json()) as { result: { floodZone: string } }).result.floodZone).toBe('AE');

      // Past the grace the process exits with code 1: a 0 says it stopped within it.
      const { code } = await service.exited;
      expect(code).toBe(0);
      await expect(fetch(`${service.url}/health`)).rejects.toThrow();
    } finally {
      await service.stop();
    }
  });

  it('cuts a batch in flight: no row starts after SIGTERM, the rows under way are written whole, the answer is aborted (never closed as complete), the cut is logged, exit 0', async () => {
    // A grace period long enough for the rows under way to finish, far too short for the whole batch.
    const running = 16;
    const service = await BuiltService.start({ ...emulators.env, SHUTDOWN_GRACE_MS: '20000', UPSTREAM_MAX_CONCURRENCY: String(running), LOG_LEVEL: 'warn' });
    const rows = 300;
    const body = JSON.stringify({ locations: Array.from({ length: rows }, (_, i) => ({ lat: dc.lat + i * 0.00001, lon: dc.lon })) });
    try {
      // Every upstream call slow: the batch would take far longer than the grace period.
      emulators.nfhl.setLatency(200);
      emulators.nfhl.resetCalls();
      const raw = await openRaw(service.url, postHead(BATCH, 'application/json', Buffer.byteLength(body)) + body);
      // The fetch client's batch asks other points (0.001° east), so each batch's own zone queries can be counted.
      const fetchedBody = JSON.stringify({ locations: Array.from({ length: rows }, (_, i) => ({ lat: dc.lat + i * 0.00001, lon: dc.lon + 0.001 })) });
      const fetched = fetch(`${service.url}${BATCH}`, { method: 'POST', body: fetchedBody, headers: { 'content-type': 'application/json' } });
      while (!raw.received().includes('"index":0')) await sleep(50);
      // Read to its end: an error for a cut answer, the text for a complete one.
      const fetchedAnswer = (await fetched).text().catch((error: unknown) => error);
      const sentBeforeSigterm = raw.received().toString('latin1').split('"index":').length - 1;
      service.process.kill('SIGTERM');

      const { code } = await service.exited;
      expect(code).toBe(0);
      await raw.closed;
      expect(await fetchedAnswer).toEqual(new TypeError('terminated'));

      const answer = chunkedAnswer(raw.received());
      expect(answer.status).toBe(200);
      expect(answer.headers.get('transfer-encoding')).toBe('chunked');
      expect(answer.complete).toBe(false);
      expect(answer.body.endsWith('\n')).toBe(true);
      const written = answer.body
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { index: number; status: number });
      expect(written.length).toBeGreaterThan(0);
      expect(written.length).toBeLessThan(rows);
      expect(written.map((row) => row.index)).toEqual(written.map((_, i) => i));
      expect(written.every((row) => row.status === 200)).toBe(true);
      // Every row under way was finished and written: one zone query per row sent.
      const zoneQueriesOfRaw = emulators.nfhl.callCount(
        (call) => call.endpoint === 'query' && call.layerName === 'Flood Hazard Zones' && call.point?.[0] === dc.lon,
      );
      expect(zoneQueriesOfRaw).toBe(written.length);
      // At most the rows a batch runs at once were under way when SIGTERM came, and none started after it. The
      // client counts what it has received just before the signal leaves, and rows go on finishing (and the next
      // ones starting) until the process handles it: twice the running rows allows for that; without the stop,
      // rows go on starting until the grace period ends (79 more in a run without it).
      expect(written.length - sentBeforeSigterm).toBeLessThanOrEqual(2 * running);

      const cut = service.logs().find((line) => line.requestId === answer.headers.get('x-request-id') && /^batch cut short/.test(line.msg));
      expect(cut).toEqual(expect.objectContaining({ level: 40, msg: 'batch cut short: the service is shutting down', rowsSent: written.length, rows }));
    } finally {
      emulators.nfhl.setLatency(0);
      await service.stop();
    }
  });

  it('turns away a batch that arrives while draining: 429 BATCH_BUSY with Retry-After', async () => {
    const service = await BuiltService.start({ ...emulators.env, SHUTDOWN_GRACE_MS: '5000', LOG_LEVEL: 'warn' });
    try {
      emulators.nfhl.injectFault({ kind: 'delay', ms: 1500, match: 'Flood Hazard Zones' });
      const slow = fetch(`${service.url}/flood-zone?lat=${dc.lat}&lon=${dc.lon}`);
      await sleep(300);
      service.process.kill('SIGTERM');
      await sleep(50);

      const late = await fetch(`${service.url}${BATCH}`, {
        method: 'POST',
        body: JSON.stringify({ locations: [{ lat: dc.lat, lon: dc.lon }] }),
        headers: { 'content-type': 'application/json' },
      });
      const text = await late.text();
      expectErrorEnvelope({ status: late.status, headers: late.headers, text, body: JSON.parse(text) }, 429, 'BATCH_BUSY');
      expect(late.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(text).error).toBe('This instance is shutting down and starts no new batch; retry in a few seconds.');

      expect((await slow).status).toBe(200);
      expect((await service.exited).code).toBe(0);
    } finally {
      emulators.clearFaults();
      await service.stop();
    }
  });

  it('exits at once when nothing is in flight', async () => {
    // A grace longer than the test may run: had the process waited for it, the test would not end.
    const service = await BuiltService.start({ ...emulators.env, SHUTDOWN_GRACE_MS: '600000', LOG_LEVEL: 'warn' });
    service.process.kill('SIGTERM');
    const { code } = await service.exited;
    expect(code).toBe(0);
  });

  it('does not wait past SHUTDOWN_GRACE_MS for a lookup that never ends', async () => {
    const service = await BuiltService.start({
      ...emulators.env,
      SHUTDOWN_GRACE_MS: '1500',
      UPSTREAM_TIMEOUT_MS: '60000',
      LOOKUP_DEADLINE_MS: '60000',
      LOG_LEVEL: 'warn',
    });
    try {
      emulators.nfhl.injectFault({ kind: 'delay', ms: 30000, match: 'Flood Hazard Zones' });
      const stuck = fetch(`${service.url}/flood-zone?lat=${dc.lat}&lon=${dc.lon}`).catch((error: unknown) => error);
      await sleep(200);
      service.process.kill('SIGTERM');
      // Code 1: cut at the grace, not left to wait out the 30 s lookup (which would end in code 0).
      expect(await service.exited).toEqual({ code: 1, signal: null });
      await stuck;
    } finally {
      emulators.clearFaults();
      await service.stop();
    }
  });
});
