import { demoPlace, RunningEmulators, startEmulators } from '../emulators';
import { BuiltService } from '../support/built-service';
import { sleep } from '../support/stack';

const dc = demoPlace('dc-white-house-ae');

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
      const signalledAt = Date.now();
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

      const { code } = await service.exited;
      expect(code).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(5000);
      await expect(fetch(`${service.url}/health`)).rejects.toThrow();
    } finally {
      await service.stop();
    }
  });

  it('exits at once when nothing is in flight', async () => {
    const service = await BuiltService.start({ ...emulators.env, SHUTDOWN_GRACE_MS: '10000', LOG_LEVEL: 'warn' });
    const signalledAt = Date.now();
    service.process.kill('SIGTERM');
    const { code } = await service.exited;
    expect(code).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(2000);
  });

  it('does not wait past SHUTDOWN_GRACE_MS for a lookup that never ends', async () => {
    const service = await BuiltService.start({ ...emulators.env, SHUTDOWN_GRACE_MS: '1500', UPSTREAM_TIMEOUT_MS: '60000', LOOKUP_DEADLINE_MS: '60000', LOG_LEVEL: 'warn' });
    try {
      emulators.nfhl.injectFault({ kind: 'delay', ms: 30000, match: 'Flood Hazard Zones' });
      const stuck = fetch(`${service.url}/flood-zone?lat=${dc.lat}&lon=${dc.lon}`).catch((error: unknown) => error);
      await sleep(200);
      const signalledAt = Date.now();
      service.process.kill('SIGTERM');
      await service.exited;
      expect(Date.now() - signalledAt).toBeLessThan(2500);
      await stuck;
    } finally {
      emulators.clearFaults();
      await service.stop();
    }
  });
});
