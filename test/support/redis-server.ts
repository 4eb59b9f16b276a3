/**
 * Real Redis servers for the shared-cache and rate-limit suites: always a redis-server of the tests' own on
 * a free port, so the tests never read, write or empty anyone else's Redis (such as one on 127.0.0.1:6379).
 * Without redis-server installed the suites fail and say how to install it.
 */
import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const INSTALL_REDIS = 'install Redis and run the tests again (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis)';

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
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`redis-cli is not installed: ${INSTALL_REDIS}`, { cause: error });
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

/** A throwaway redis-server of our own, so a test can stop and restart it without touching anyone else's. */
export class DisposableRedis {
  private process?: ChildProcess;

  private constructor(readonly port: number) {}

  /**
   * On `port`, or else a free one. Fails, saying how to install Redis, when redis-server is not on PATH (the
   * test's PATH: Jest copies process.env).
   */
  static async start(port?: number): Promise<DisposableRedis> {
    if ((spawnSync('redis-server', ['--version'], { stdio: 'ignore', env: process.env }).error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      throw new Error(`redis-server is not installed: ${INSTALL_REDIS}.`);
    }
    const redis = new DisposableRedis(port ?? (await closedPort()));
    await redis.resume();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async resume(): Promise<void> {
    const started = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
      env: process.env,
    });
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

  /** Freezes the server (SIGSTOP): connections stay open but nothing answers, like a hung Redis. */
  freeze(): void {
    this.process?.kill('SIGSTOP');
  }

  /** Lets a frozen server answer again (SIGCONT), with every key it had. */
  thaw(): void {
    this.process?.kill('SIGCONT');
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

/** A redis-server of the test's own with the settings the compose file gives Redis: it survives a restart. */
export class PersistentRedis {
  private process?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'jobs-redis-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<PersistentRedis> {
    const redis = new PersistentRedis(await closedPort());
    await redis.resume();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async resume(): Promise<void> {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      '--appendonly',
      'yes',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
    ];
    this.process = spawn('redis-server', args, { stdio: 'ignore', env: process.env });
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await redisAnswers(this.port)) return;
      await sleep(50);
    }
    throw new Error('redis-server did not start');
  }

  /** A clean stop (SHUTDOWN writes the append-only file out), as an orchestrator restarting Redis does. */
  async restart(downMs: number): Promise<void> {
    const stopped = new Promise((resolve) => this.process!.once('exit', resolve));
    redisCli(this.port, 'shutdown');
    await stopped;
    await sleep(downMs);
    await this.resume();
  }

  async stop(): Promise<void> {
    const running = this.process;
    if (running && running.exitCode === null) {
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A key someone else keeps in the Redis on 127.0.0.1:6379 (one started for the purpose when none runs there),
 * in each database the suites once emptied there (0, 7, 8): a suite checks it never touched them.
 */
export class BystanderKeys {
  private static readonly DATABASES = ['0', '7', '8'];

  private constructor(
    /** This plant's own key: other suites plant theirs in the same databases at the same time. */
    readonly key: string,
    private readonly own?: DisposableRedis,
  ) {}

  static async plant(): Promise<BystanderKeys> {
    const own = (await redisAnswers(6379)) ? undefined : await DisposableRedis.start(6379);
    const bystander = new BystanderKeys(`someone-else:${randomUUID()}`, own);
    for (const db of BystanderKeys.DATABASES) redisCli(6379, '-n', db, 'set', bystander.key, `kept in ${db}`);
    return bystander;
  }

  /** The databases where the key is still there with its value. */
  survivors(): string[] {
    return BystanderKeys.DATABASES.filter((db) => redisCli(6379, '-n', db, 'get', this.key) === `kept in ${db}`);
  }

  async remove(): Promise<void> {
    for (const db of BystanderKeys.DATABASES) redisCli(6379, '-n', db, 'del', this.key);
    await this.own?.stop();
  }
}
