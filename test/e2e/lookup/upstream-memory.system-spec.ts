/**
 * A replica's memory under upstream bodies that never end: the built service (`node dist/main.js`, run
 * `npm run build` first) against the emulators' `endless-body`. Its peak resident memory is read from the
 * kernel (VmHWM in /proc/PID/status, reset through clear_refs), so no sampling and no timing: whatever
 * happened in between, the peak is what it was.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { demoPlace, startEmulators, type RunningEmulators } from '../../emulators';
import { BuiltService } from '../../support/built-service';
import { pointQuery } from '../../support/stack';

const MB = 1024 * 1024;
/** How far above idle a replica's resident memory may rise while upstream bodies never end. */
const GROWTH_LIMIT_BYTES = 100 * MB;

/** A field of /proc/PID/status in bytes: VmRSS (resident now), VmHWM (resident at its peak). */
function residentBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const kB = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kB === undefined) throw new Error(`no ${field} for process ${pid}`);
  return Number(kB) * 1024;
}

/** Starts the peak (VmHWM) again from what is resident now. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

const ENV = { LOG_LEVEL: 'silent', UPSTREAM_TIMEOUT_MS: '10000', LOOKUP_DEADLINE_MS: '25000' };
const dc = demoPlace('dc-white-house-ae');
/** The parts missing from the answer of a lookup. */
const unavailableAt = async (url: string): Promise<string[]> => ((await (await fetch(url)).json()) as { result: { unavailable: string[] } }).result.unavailable;
const mapAt = (metres: number) => `/flood-zone/map?lat=${(dc.lat + metres * 0.00001).toFixed(6)}&lon=${dc.lon}`;

describe('resident memory while upstream bodies never end', () => {
  let emulators: RunningEmulators;
  const services: BuiltService[] = [];
  beforeAll(async () => {
    emulators = await startEmulators({ latencyMs: 0 });
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await emulators?.close();
  });
  beforeEach(() => {
    emulators.clearFaults();
    emulators.resetCalls();
  });
  const start = async () => {
    const service = await BuiltService.start({ ...emulators.env, ...ENV });
    services.push(service);
    return service;
  };

  it('three cold maps whose FEMA export never ends: three 502s, the peak within 100 MB of idle', async () => {
    const service = await start();
    const pid = service.process.pid as number;
    // idle once warm: a few pictures drawn (the image library loaded, its caches filled)
    for (let i = 1; i <= 3; i += 1) expect((await fetch(`${service.url}${mapAt(i)}`)).status).toBe(200);
    const idle = residentBytes(pid, 'VmRSS');
    resetPeak(pid);
    emulators.resetCalls();
    emulators.nfhl.injectFault({ kind: 'endless-body', match: 'export' });
    const statuses = await Promise.all([10, 11, 12].map(async (metres) => (await fetch(`${service.url}${mapAt(metres)}`)).status));
    expect(statuses).toEqual([502, 502, 502]);
    await emulators.nfhl.endlessBodiesStopped();
    const exports = emulators.nfhl.callsMatching({ endpoint: 'export' });
    expect(exports.length).toBeGreaterThanOrEqual(3);
    expect(exports.every((call) => call.fault === 'endless-body')).toBe(true);
    expect(residentBytes(pid, 'VmHWM') - idle).toBeLessThan(GROWTH_LIMIT_BYTES);
  });

  it('a Community Status Book page that never ends at start-up: the peak within 100 MB of a start-up that loads the table', async () => {
    const houston = pointQuery(demoPlace('houston-a'));
    const whole = await start();
    expect(await unavailableAt(`${whole.url}${houston}`)).toEqual([]);
    const peakLoaded = residentBytes(whole.process.pid as number, 'VmHWM');

    emulators.openfema.injectFault({ kind: 'endless-body' });
    const cut = await start();
    // the first lookup after start-up waits for the download: once it answers, the download has failed
    expect(await unavailableAt(`${cut.url}${houston}`)).toEqual(['nfipStatus']);
    await emulators.openfema.endlessBodiesStopped();
    expect(residentBytes(cut.process.pid as number, 'VmHWM') - peakLoaded).toBeLessThan(GROWTH_LIMIT_BYTES);
  });
});
