/**
 * Child process for the time-zone suite: the upstream emulators and the real app, in a process whose
 * TZ is whatever the parent set (Jest's sandboxed process.env cannot change the zone of its own
 * process). Prints one JSON line {url, tz, localDayOfUtcMidnight}, and stops when stdin closes.
 *
 *   node -r ts-node/register/transpile-only test/e2e/support/tz-child.ts
 */
import { startEmulators } from '../../emulators';
import { startApp } from '../../support/app-harness';

async function main(): Promise<void> {
  const emulators = await startEmulators({ latencyMs: 0 });
  const app = await startApp({ ...emulators.env, CACHE_TTL_SECONDS: '0', GEOCODE_CACHE_TTL_SECONDS: '0' });
  const report = {
    url: app.url,
    tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
    /** Local calendar day, in this process, of UTC midnight 2010-09-27 (proves the zone is in effect). */
    localDayOfUtcMidnight: new Date(Date.UTC(2010, 8, 27)).getDate(),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  const stop = async () => {
    await app.close();
    await emulators.close();
    process.exit(0);
  };
  process.stdin.on('end', () => void stop());
  process.stdin.on('close', () => void stop());
  process.stdin.resume();
}

main().catch((error: unknown) => {
  process.stderr.write(`tz-child failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
