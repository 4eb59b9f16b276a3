/**
 * Child process for the time-zone suite: the upstream emulators and the real app in a plain Node
 * process, whose time zone can be changed while it runs (Node applies an assignment to process.env.TZ
 * at once; Jest's sandboxed process.env cannot do that for the test process itself).
 *
 *   node -r ts-node/register/transpile-only test/e2e/support/tz-child.ts
 *
 * Prints {"url": ...} once started. Each stdin line is a time zone to switch to; the answer is one JSON
 * line {tz, localDayOfUtcMidnight} read back after the switch. Stops when stdin closes.
 */
import { createInterface } from 'node:readline';
import { startEmulators } from '../../emulators';
import { startApp } from '../../support/app-harness';

function zoneReport() {
  return {
    tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
    /** Local calendar day, in this process, of UTC midnight 2010-09-27 (proves the zone is in effect). */
    localDayOfUtcMidnight: new Date(Date.UTC(2010, 8, 27)).getDate(),
  };
}

async function main(): Promise<void> {
  const emulators = await startEmulators({ latencyMs: 0 });
  const app = await startApp({ ...emulators.env, CACHE_TTL_SECONDS: '0', GEOCODE_CACHE_TTL_SECONDS: '0' });
  process.stdout.write(`${JSON.stringify({ url: app.url, ...zoneReport() })}\n`);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    process.env.TZ = line.trim();
    process.stdout.write(`${JSON.stringify(zoneReport())}\n`);
  });
  lines.on('close', () => {
    void (async () => {
      await app.close();
      await emulators.close();
      process.exit(0);
    })();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`tz-child failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
