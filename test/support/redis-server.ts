/**
 * Real Redis servers for the shared-cache and rate-limit suites: the one on 127.0.0.1:6379 when it answers,
 * otherwise a redis-server of the tests' own. Without either the suites fail and say how to install Redis.
 */
import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const INSTALL_REDIS =
  'install Redis and run the tests again (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis), ' +
  'or start one on 127.0.0.1:6379';

/** A port nobody listens on: free now, closed again before use. */
export async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function redisCli(port: number, ...args: string[]): string {
  try {
    return execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`redis-cli is not installed: ${INSTALL_REDIS}`);
    throw error;
  }
}

/** Whether a Redis answers PING on 127.0.0.1:`port` (asked over a raw socket, so no client tool is needed). */
export function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (answers: boolean) => {
      socket.destroy();
      resolve(answers);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/** A Redis the suites share: 127.0.0.1:6379 when it answers, else a disposable redis-server (stopped by `close`). */
export interface SharedRedis {
  port: number;
  /** redis://127.0.0.1:PORT/DB */
  url(db: number): string;
  close(): Promise<void>;
}

export async function sharedRedis(): Promise<SharedRedis> {
  const own = (await redisAnswers(6379)) ? undefined : await DisposableRedis.start();
  const port = own?.port ?? 6379;
  return { port, url: (db) => `redis://127.0.0.1:${port}/${db}`, close: async () => own?.stop() };
}

/** A throwaway redis-server of our own, so a test can stop and restart it without touching anyone else's. */
export class DisposableRedis {
  private process?: ChildProcess;

  private constructor(readonly port: number) {}

  /** Fails, saying how to install Redis, when redis-server is not on PATH (the test's PATH: Jest copies process.env). */
  static async start(): Promise<DisposableRedis> {
    if ((spawnSync('redis-server', ['--version'], { stdio: 'ignore', env: process.env }).error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      throw new Error(`No Redis answers on 127.0.0.1:6379 and redis-server is not installed: ${INSTALL_REDIS}.`);
    }
    const redis = new DisposableRedis(await closedPort());
    await redis.resume();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async resume(): Promise<void> {
    const started = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore', env: process.env });
    this.process = started;
    let failure: Error | undefined;
    started.once('error', (error) => (failure = error));
    for (let attempt = 0; attempt < 100 && !failure && started.exitCode === null; attempt += 1) {
      if (await redisAnswers(this.port)) return;
      await sleep(50);
    }
    if (failure) throw new Error(`redis-server could not start: ${failure.message}`);
    throw new Error(`redis-server did not start on port ${this.port}`);
  }

  async stop(): Promise<void> {
    const running = this.process;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  }
}
