import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

/** Runs dist/main.js until it exits on its own; start-up failures must end it at once. */
function runService(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, '..', '..', 'dist', 'main.js')], {
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
    expect(run.stderr).toBe(
      `Cannot listen on 127.0.0.1:${port}: the address is already in use; stop the other process or set PORT/HOST.\n`,
    );
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/\n\s+at /);
  });

  it('names the variable and what it must be when the configuration is invalid, and exits 1', async () => {
    const run = await runService({ PORT: 'abc' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Invalid configuration: PORT="abc": must be an integer from 0 to 65535\n');
  });
});
