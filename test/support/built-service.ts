import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { closedPort } from './redis-server';
import { sleep } from './stack';

/** How long a start may take before the suite gives up on it: far beyond any start, even on a busy machine. */
const START_GUARD_MS = 180_000;

/** The production entry point, `node dist/main.js`, run as operators run it (built by `npm test`'s pretest). */
export class BuiltService {
  readonly lines: string[] = [];
  /** What it wrote to stderr, line by line: anything written there bypassed the structured log. */
  readonly errorLines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    readonly process: ChildProcess,
    readonly url: string,
  ) {
    const collect = (stream: NodeJS.ReadableStream | null, into: string[]) => {
      let buffered = '';
      stream?.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const complete = buffered.split('\n');
        buffered = complete.pop() ?? '';
        into.push(...complete.filter(Boolean));
      });
    };
    collect(process.stdout, this.lines);
    collect(process.stderr, this.errorLines);
    this.exited = new Promise((resolve) => process.once('exit', (code, signal) => resolve({ code, signal })));
  }

  static async start(env: Record<string, string>): Promise<BuiltService> {
    const port = await closedPort();
    const child = spawn(process.execPath, [join(__dirname, '..', '..', 'dist', 'main.js')], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new BuiltService(child, `http://127.0.0.1:${port}`);
    // Ready is the event waited for; the bound only keeps a service that never starts from hanging the suite (a
    // loaded machine can take many seconds to compile and start Nest).
    const giveUpAt = Date.now() + START_GUARD_MS;
    while (Date.now() < giveUpAt) {
      if (child.exitCode !== null) throw new Error(`dist/main.js exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${service.url}/health/ready`)).ok) return service;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    child.kill('SIGKILL');
    throw new Error('dist/main.js did not become ready');
  }

  /** Parsed JSON log lines. */
  logs(): Array<Record<string, any>> {
    return this.lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, any>];
      } catch {
        return [];
      }
    });
  }

  async stop(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGKILL');
    await this.exited;
  }
}
