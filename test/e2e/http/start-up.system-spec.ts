import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { OpenFemaEmulator } from '../../emulators/openfema-emulator';
import { BuiltService } from '../../support/built-service';
import { closedPort } from '../../support/redis-server';
import { sleep } from '../../support/stack';

const ROOT = join(__dirname, '..', '..', '..');

/** Runs dist/main.js until it exits on its own; start-up failures must end it at once. */
function runService(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, '..', '..', '..', 'dist', 'main.js')], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`dist/main.js kept running; stderr: ${stderr}`));
    }, 20_000);
    child.once('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('start-up failures of dist/main.js', () => {
  let occupied: Server;
  let port: number;

  beforeAll(async () => {
    occupied = createServer();
    await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
    port = (occupied.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => occupied.close(() => resolve()));
  });

  it('says in one line that the port is in use, and exits 1', async () => {
    const run = await runService({ PORT: String(port), HOST: '127.0.0.1' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`Cannot listen on 127.0.0.1:${port}: the address is already in use; stop the other process or set PORT/HOST.\n`);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/\n\s+at /);
  });

  it('names the variable and what it must be when the configuration is invalid, and exits 1', async () => {
    const run = await runService({ PORT: 'abc' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Invalid configuration: PORT="abc": must be an integer from 0 to 65535\n');
  });
});

describe('upstreams unreachable at start-up', () => {
  let listening: Server;
  let service: BuiltService;
  let openfema: OpenFemaEmulator;
  let nfhlPort: number;
  let connections = 0;

  beforeAll(async () => {
    // every other upstream on a loopback port that accepts connections, so no outside host is ever contacted
    listening = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const open = `http://127.0.0.1:${(listening.address() as { port: number }).port}`;
    nfhlPort = await closedPort();
    // OpenFEMA answers (the Community Status Book is downloaded at start-up) on a host of its own
    openfema = await OpenFemaEmulator.start();
    service = await BuiltService.start({
      NFHL_BASE_URL: `http://127.0.0.1:${nfhlPort}/arcgis/rest/services/public/NFHL/MapServer`,
      PRELIMINARY_NFHL_BASE_URL: `${open}/arcgis/rest/services/PrelimPending/Prelim_NFHL/MapServer`,
      PENDING_NFHL_BASE_URL: `${open}/arcgis/rest/services/PrelimPending/Pending_NFHL/MapServer`,
      CBRS_BASE_URL: `${open}/arcgis/rest/services/CoastalBarrierResourcesSystem/MapServer`,
      GEOCODER_BASE_URL: `${open}/geocoder`,
      ELEVATION_BASE_URL: open,
      OPENFEMA_BASE_URL: openfema.baseUrl,
      BASEMAP_BASE_URL: `${open}/arcgis/rest/services/USGSTopo/MapServer`,
      STRUCTURES_BASE_URL: `${open}/FiaPA4ga0iQKduv3/arcgis/rest/services/USA_Structures_View/FeatureServer/0`,
    });
  }, 30_000);
  afterAll(async () => {
    await service?.stop();
    await openfema?.close();
    await new Promise<void>((resolve) => listening.close(() => resolve()));
  });

  const warnings = () => service.logs().filter((line) => line.level === 40 && line.context === 'StartUp');

  it('logs one warning naming the upstream and its host, and only for the unreachable one; readiness stays 200', async () => {
    // readiness never waits for the check (BuiltService.start returned on the first 200 of /health/ready)
    expect((await fetch(`${service.url}/health/ready`)).status).toBe(200);
    for (let waited = 0; warnings().length === 0 && waited < 5000; waited += 50) await sleep(50);
    const host = `127.0.0.1:${nfhlPort}`;
    expect(warnings().map((line) => line.msg)).toEqual([
      `upstream flood_data (${host}) unreachable at start-up: connect ECONNREFUSED ${host}; lookups will answer 502 until it is back`,
    ]);
    expect(warnings()[0]).toMatchObject({ upstream: 'flood_data', host, error: `connect ECONNREFUSED ${host}` });
    // the upstreams on the listening port share one check: one connection, nothing sent, no retry
    expect(connections).toBe(1);
  }, 15_000);

  it('/health names the state: unreachable, with the reason; the reachable ones are not called yet', async () => {
    for (let waited = 0; warnings().length === 0 && waited < 5000; waited += 50) await sleep(50);
    const { upstreams } = (await (await fetch(`${service.url}/health`)).json()) as { upstreams: Record<string, Record<string, unknown>> };
    const host = `127.0.0.1:${nfhlPort}`;
    expect(upstreams.flood_data).toStrictEqual({
      state: 'unreachable',
      circuit: 'closed',
      lastCall: 'none',
      lastCallAt: null,
      host,
      atStartUp: 'unreachable',
      startUpError: `connect ECONNREFUSED ${host}`,
    });
    for (const name of [
      'flood_data_preliminary',
      'flood_data_pending',
      'coastal_barrier',
      'geocoder',
      'geocoder_point',
      'elevation',
      'basemap',
      'structures',
    ]) {
      expect({ name, ...upstreams[name] }).toMatchObject({ name, state: 'not_called_yet', atStartUp: 'reachable', startUpError: null });
    }
  }, 15_000);

  it('the NFIP Community Status Book is downloaded in the background: openfema answering, no warning of its own', async () => {
    const openfemaNow = async () =>
      ((await (await fetch(`${service.url}/health`)).json()) as { upstreams: Record<string, Record<string, unknown>> }).upstreams.openfema;
    for (let waited = 0; (await openfemaNow()).lastCall !== 'ok' && waited < 5000; waited += 50) await sleep(50);
    expect(await openfemaNow()).toMatchObject({ state: 'answering', lastCall: 'ok', atStartUp: 'reachable', host: new URL(openfema.baseUrl).host });
    expect(openfema.callCount({ endpoint: 'NfipCommunityStatusBook' })).toBe(1);
    expect(service.logs().filter((line) => line.level === 40 && line.context === 'CommunityStatusBook')).toEqual([]);
  }, 15_000);
});

/** `npm run start:offline` without the build step: test/emulators/offline.ts through ts-node, as the script runs it. */
function startOffline(env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', join(ROOT, 'test', 'emulators', 'offline.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

const EPHEMERAL_EMULATOR_PORTS = {
  NFHL_EMULATOR_PORT: '0',
  PRELIMINARY_EMULATOR_PORT: '0',
  PENDING_EMULATOR_PORT: '0',
  CBRS_EMULATOR_PORT: '0',
  CENSUS_EMULATOR_PORT: '0',
  ELEVATION_EMULATOR_PORT: '0',
  OPENFEMA_EMULATOR_PORT: '0',
  BASEMAP_EMULATOR_PORT: '0',
  STRUCTURES_EMULATOR_PORT: '0',
};

/** Offline mode expected to refuse to start: its exit code and everything it printed (killed if it keeps running). */
async function offlineRefusal(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = startOffline(env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`offline mode kept running; stdout: ${stdout}`));
    }, 30_000);
    child.once('exit', (exitCode) => {
      clearTimeout(guard);
      resolve(exitCode);
    });
  });
  return { code, stdout, stderr };
}

describe('offline mode start-up (test/emulators/offline.ts)', () => {
  it('an emulator port already in use: one line naming the port, the emulator and the variable, exit 1', async () => {
    const occupied = createServer();
    await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
    const port = (occupied.address() as { port: number }).port;
    try {
      const { code, stdout, stderr } = await offlineRefusal({
        ...EPHEMERAL_EMULATOR_PORTS,
        CBRS_EMULATOR_PORT: String(port),
        PORT: String(await closedPort()),
      });
      expect(code).toBe(1);
      expect(stderr).toBe(
        `[offline] port ${port} is already in use: the USFWS CBRS MapServer emulator listens there; stop the other process or set CBRS_EMULATOR_PORT to a free port\n`,
      );
      expect(stdout).not.toMatch(/listening on|curl /);
    } finally {
      await new Promise<void>((resolve) => occupied.close(() => resolve()));
    }
  }, 40_000);

  it('the service port already in use (another process answering /health there): one line, exit 1, no "listening on"', async () => {
    // answers any request as a /health would, so only the port check can tell it from the service
    const occupied = createServer((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{"status":"ok"}'));
    await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
    const port = (occupied.address() as { port: number }).port;
    try {
      const { code, stdout, stderr } = await offlineRefusal({ ...EPHEMERAL_EMULATOR_PORTS, PORT: String(port) });
      expect(code).toBe(1);
      expect(stderr).toBe(`[offline] port ${port} is already in use: the service listens there; stop the other process or set PORT to a free port\n`);
      expect(stdout).toBe('');
    } finally {
      await new Promise<void>((resolve) => occupied.close(() => resolve()));
    }
  }, 40_000);

  it('prints "listening on" once the service answers /health, then the demo list', async () => {
    const port = await closedPort();
    const child = startOffline({ ...EPHEMERAL_EMULATOR_PORTS, PORT: String(port) });
    const lines: string[] = [];
    let buffered = '';
    let healthWhenListening: number | undefined;
    const listening = `[offline] listening on http://127.0.0.1:${port}`;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const guard = setTimeout(() => reject(new Error(`no demo list within 30 s; stdout: ${lines.join('\n')}`)), 30_000);
        child.stdout.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          const complete = buffered.split('\n');
          buffered = complete.pop() ?? '';
          for (const line of complete) {
            lines.push(line);
            // at the moment the line is printed, the service must already answer
            if (line === listening) void fetch(`http://127.0.0.1:${port}/health`).then((res) => (healthWhenListening = res.status));
            if (line.startsWith('[offline] fault walkthroughs:')) {
              clearTimeout(guard);
              resolve();
            }
          }
        });
      });
      const at = lines.indexOf(listening);
      const started = lines.findIndex((line) => line.includes('Nest application successfully started'));
      const firstCurl = lines.findIndex((line) => line.trimStart().startsWith('curl '));
      expect(at).toBeGreaterThan(started);
      expect(started).toBeGreaterThan(-1);
      expect(lines[at + 1]).toBe('[offline] try:');
      expect(firstCurl).toBeGreaterThan(at);
      expect(lines[at + 3]).toBe(`  curl 'http://127.0.0.1:${port}/flood-zone?lat=38.898754&lon=-77.03535'`);
      for (let waited = 0; healthWhenListening === undefined && waited < 5000; waited += 50) await sleep(50);
      expect(healthWhenListening).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 40_000);
});
