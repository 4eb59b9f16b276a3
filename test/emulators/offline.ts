/**
 * Offline mode: `npm run start:offline` (= `npm run build && node -r ts-node/register/transpile-only test/emulators/offline.ts`).
 *
 * Starts both upstream emulators on fixed ports (NFHL 4010, Census 4020; override with NFHL_EMULATOR_PORT /
 * CENSUS_EMULATOR_PORT), then runs the built service (`node dist/main.js`) with NFHL_BASE_URL and
 * GEOCODER_BASE_URL pointed at them (every other variable passed through), prints example URLs for every
 * demo coverage case, forwards SIGINT/SIGTERM to the service and exits with it.
 *
 * `startEmulators()` is exported for tests and benchmarks.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { NfhlEmulatorOptions, NfhlMapServerEmulator } from './arcgis-emulator';
import { CensusEmulatorOptions, CensusGeocoderEmulator } from './census-emulator';
import { DEMO_ADDRESSES, DEMO_PLACES } from './demo-map';

export interface StartEmulatorsOptions {
  nfhl?: NfhlEmulatorOptions;
  census?: CensusEmulatorOptions;
  /** Applied to both unless set per emulator. */
  latencyMs?: number;
}

export interface RunningEmulators {
  nfhl: NfhlMapServerEmulator;
  census: CensusGeocoderEmulator;
  /** The environment the service needs to use them. */
  env: { NFHL_BASE_URL: string; GEOCODER_BASE_URL: string };
  clearFaults(): void;
  resetCalls(): void;
  close(): Promise<void>;
}

export async function startEmulators(options: StartEmulatorsOptions = {}): Promise<RunningEmulators> {
  const [nfhl, census] = await Promise.all([
    NfhlMapServerEmulator.start({ latencyMs: options.latencyMs, ...options.nfhl }),
    CensusGeocoderEmulator.start({ latencyMs: options.latencyMs, ...options.census }),
  ]);
  return {
    nfhl,
    census,
    env: { NFHL_BASE_URL: nfhl.baseUrl, GEOCODER_BASE_URL: census.baseUrl },
    clearFaults() {
      nfhl.clearFaults();
      census.clearFaults();
    },
    resetCalls() {
      nfhl.resetCalls();
      census.resetCalls();
    },
    async close() {
      await Promise.all([nfhl.close(), census.close()]);
    },
  };
}

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    console.error(`${name} must be a port number, got "${raw}"`);
    process.exit(1);
  }
  return n;
}

/** Example lookup URLs for the demo places (and the special addresses). */
export function exampleUrls(serviceBase: string): string[] {
  const lines: string[] = [];
  for (const p of DEMO_PLACES) {
    const e = p.expect;
    const what = e.coverage === 'mapped' ? `${e.coverage} ${e.floodZone}${e.zoneSubtype ? ` (${e.zoneSubtype})` : ''}` : e.coverage;
    lines.push(`# ${p.id}: ${what}`);
    lines.push(`curl '${serviceBase}/flood-zone?lat=${p.lat}&lon=${p.lon}'`);
    if (p.address) lines.push(`curl '${serviceBase}/flood-zone?address=${encodeURIComponent(p.address)}'`);
  }
  lines.push('# address with no match (404 ADDRESS_NOT_FOUND)');
  lines.push(`curl '${serviceBase}/flood-zone?address=${encodeURIComponent(DEMO_ADDRESSES.noMatch)}'`);
  lines.push('# ambiguous address, matches > 100 m apart (404 AMBIGUOUS_ADDRESS)');
  lines.push(`curl '${serviceBase}/flood-zone?address=${encodeURIComponent(DEMO_ADDRESSES.ambiguous)}'`);
  return lines;
}

async function main(): Promise<void> {
  const emulators = await startEmulators({
    nfhl: { port: portFromEnv('NFHL_EMULATOR_PORT', 4010) },
    census: { port: portFromEnv('CENSUS_EMULATOR_PORT', 4020) },
  });
  const servicePort = process.env.PORT || '3000';
  const serviceBase = `http://localhost:${servicePort}`;
  console.log(`[offline] NFHL MapServer emulator: ${emulators.nfhl.baseUrl}`);
  console.log(`[offline] Census geocoder emulator: ${emulators.census.baseUrl}`);
  console.log(`[offline] starting the service on ${serviceBase} (node dist/main.js)`);
  console.log(['[offline] try:', ...exampleUrls(serviceBase)].join('\n  '));

  const root = path.resolve(__dirname, '..', '..');
  const child = spawn(process.execPath, [path.join(root, 'dist', 'main.js')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...emulators.env },
  });
  const forward = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  process.on('SIGINT', () => forward('SIGINT'));
  process.on('SIGTERM', () => forward('SIGTERM'));
  child.on('error', async (err) => {
    console.error(`[offline] could not start the service: ${err.message}`);
    await emulators.close();
    process.exit(1);
  });
  child.on('exit', async (code, signal) => {
    await emulators.close();
    process.exit(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : 15) : 0));
  });
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error('[offline] failed:', err);
    process.exit(1);
  });
}
