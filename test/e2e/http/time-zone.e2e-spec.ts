/**
 * NFHL dates are epoch milliseconds in UTC, rendered YYYY-MM-DD in UTC, and
 * retrievedAt is ISO 8601 UTC, whatever the server's time zone. The service (with its emulators) runs
 * in a child process whose TZ the suite switches (support/tz-child.ts). Every expected date is derived
 * in UTC from the demo map, so the suite also holds when the whole run is under another TZ (.ci runs
 * it under America/Chicago).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { DEMO_PLACES, demoPlace } from '../../emulators';
import { apiGet } from '../../support/api-client';
import { ISO_UTC_MS, pointQuery } from '../../support/stack';

const ROOT = resolve(__dirname, '..', '..', '..');

interface ZoneReport {
  tz: string;
  localDayOfUtcMidnight: number;
}

let child: ChildProcessWithoutNullStreams;
let lines: Interface;
let url: string;
let stderr = '';

const nextLine = () =>
  new Promise<Record<string, unknown>>((done, fail) => {
    const onExit = (code: number | null) => fail(new Error(`the server process exited (${code}): ${stderr}`));
    child.once('exit', onExit);
    lines.once('line', (line) => {
      child.off('exit', onExit);
      try {
        done(JSON.parse(line) as Record<string, unknown>);
      } catch {
        fail(new Error(`unexpected output from the server process: ${line}\n${stderr}`));
      }
    });
  });

async function switchZone(tz: string): Promise<ZoneReport> {
  const answer = nextLine();
  child.stdin.write(`${tz}\n`);
  return (await answer) as unknown as ZoneReport;
}

beforeAll(async () => {
  child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', join(__dirname, '..', 'support', 'tz-child.ts')], {
    cwd: ROOT,
    env: { ...process.env, TZ: 'UTC' },
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  lines = createInterface({ input: child.stdout });
  url = String((await nextLine()).url);
}, 60_000);

afterAll(async () => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.stdin.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
});

const datedPlaces = DEMO_PLACES.filter((p) => p.expect.firmPanel !== null || p.expect.lomrs.length > 0);

/** Time zones, with the local calendar day of UTC midnight 2010-09-27 there. */
describe.each([
  ['UTC', 27],
  ['America/Chicago', 26],
  ['Pacific/Pago_Pago', 26], // UTC-11
  ['Pacific/Kiritimati', 27], // UTC+14
])('server time zone %s', (tz, localDay) => {
  let zone: ZoneReport;

  beforeAll(async () => {
    zone = await switchZone(tz);
  });

  it('the zone really is in effect in the server process', () => {
    expect(zone.tz).toMatch(tz === 'UTC' ? /^(Etc\/)?UTC$/ : new RegExp(`^${tz}$`));
    expect(zone.localDayOfUtcMidnight).toBe(localDay);
  });

  it('the White House example: panel 11001C0019C effective 2010-09-27, LOMR 19-03-0123P effective 2020-02-14', async () => {
    const res = await apiGet(url, pointQuery(demoPlace('dc-white-house-ae')));
    expect(res.status).toBe(200);
    expect(res.body.result.firmPanel.effectiveDate).toBe('2010-09-27');
    expect(res.body.result.lomrs).toEqual([
      { caseNumber: '19-03-0123P', effectiveDate: '2020-02-14' },
      { caseNumber: '12-03-0456P', effectiveDate: '2012-06-01' },
    ]);
  });

  it('every demo panel and LOMR date is the UTC day of its NFHL epoch value; 9999-09-09 is null', async () => {
    for (const place of datedPlaces) {
      const res = await apiGet(url, pointQuery(place));
      expect(res.status).toBe(200);
      expect({ id: place.id, firmPanel: res.body.result.firmPanel, lomrs: res.body.result.lomrs }).toEqual({
        id: place.id,
        firmPanel: place.expect.firmPanel,
        lomrs: place.expect.lomrs,
      });
    }
    const placeholder = await apiGet(url, pointQuery(demoPlace('menominee-placeholder-panel-date')));
    expect(placeholder.body.result.firmPanel.effectiveDate).toBeNull();
  });

  it('retrievedAt is UTC with milliseconds and close to now', async () => {
    const before = Date.now();
    const res = await apiGet(url, pointQuery(demoPlace('toa-baja-ae')));
    expect(res.body.retrievedAt).toMatch(ISO_UTC_MS);
    const at = Date.parse(res.body.retrievedAt);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
  });
});
