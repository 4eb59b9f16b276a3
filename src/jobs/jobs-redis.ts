import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { connectIoRedis, REDIS_CONNECT_TIMEOUT_MS } from '../common/redis-connection';
import { jobsUnavailable } from './job-errors';

/**
 * How long one command of the chunk workers may take before it fails. Unlike the cache, job data cannot fall
 * back to anything: a worker's commands wait while Redis restarts (up to this long), then the chunk is retried.
 */
const JOB_COMMAND_TIMEOUT_MS = 15_000;
/** How long one command of a job endpoint may take: a client is told 503 within a second, never kept waiting on a hung Redis. */
const ENDPOINT_COMMAND_TIMEOUT_MS = 800;
/**
 * How often the prompt client pings Redis while connected. A hung Redis keeps its connection open, so only an
 * unanswered ping tells it: the jobs turn unavailable within this plus one command timeout (1.3 s), and every
 * job endpoint then answers 503 at once instead of waiting out the timeout.
 */
export const JOBS_REDIS_HEARTBEAT_MS = 500;
/** How often the eviction policy is read again while connected: a Redis refused for it is taken once fixed, without a restart. */
const POLICY_CHECK_MS = 5000;
/** The only eviction policy under which Redis never drops job data to make room. */
const NO_EVICTION = 'noeviction';

/** Whether the job endpoints can be served: `disabled` when no Redis is configured for jobs. */
export type JobsState = 'ready' | 'unavailable' | 'disabled';

/** The jobs' state as /health reports it, and why when they cannot be served (the 503's message). */
export interface JobsAvailability {
  state: JobsState;
  reason: string | null;
}

export const JOBS_NOT_CONFIGURED = 'Portfolio jobs need a Redis: set JOBS_REDIS_URL (or REDIS_URL) to a redis:// URL and restart the service.';
export const JOBS_REDIS_NOT_ANSWERING =
  'The Redis that holds portfolio jobs (JOBS_REDIS_URL, else REDIS_URL) is not answering; retry shortly. Lookups and batches work as usual.';
export const jobsRedisEvicts = (policy: string) =>
  `The Redis that holds portfolio jobs evicts keys (its maxmemory-policy is ${policy}) and could drop job data, so jobs are refused until ` +
  `its maxmemory-policy is ${NO_EVICTION} (CONFIG SET maxmemory-policy ${NO_EVICTION}, or maxmemory-policy in redis.conf).`;

/** Failures that say the Redis is away or cannot serve now (not a fault of the command): socket errors, timeouts, a Redis loading or out of memory. */
const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const OUTAGE_MESSAGES = [/^Command timed out$/, /^Connection is closed\.?$/, /^Stream isn't writeable/, /^Reached the max retries per request limit/];
const OUTAGE_REPLIES = /^(LOADING|BUSY|MASTERDOWN|READONLY|OOM|TRYAGAIN|CLUSTERDOWN)\b/;

export function isRedisOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as NodeJS.ErrnoException;
  if (code && OUTAGE_CODES.has(code)) return true;
  if (error.name === 'ReplyError') return OUTAGE_REPLIES.test(error.message);
  return OUTAGE_MESSAGES.some((message) => message.test(error.message));
}

/**
 * Undoes what a request stored before `error`: awaited after a fault of the request itself (its body), so nothing
 * of it is left when it is answered; left to go on in the background after a Redis outage, where each step would
 * hold the 503 one more command timeout on a hung Redis (and fails at once on one away).
 */
export async function undoAfter(error: unknown, undo: () => Promise<unknown>): Promise<void> {
  const undone = undo().catch(() => undefined);
  if (!isRedisOutage(error)) await undone;
}

/** Throws 503 JOBS_UNAVAILABLE, saying why, unless jobs (and watches, kept in the same Redis) can be served now. */
export function assertServable({ state, reason }: JobsAvailability): void {
  if (state !== 'ready') throw jobsUnavailable(reason ?? JOBS_REDIS_NOT_ANSWERING);
}

/** `work` once jobs can be served by `redis`; a Redis that fails it meanwhile (away, hung, loading) is a 503 too, never a 500. */
export async function servedBy<T>(redis: Pick<JobsRedis, 'availability'>, work: () => Promise<T>): Promise<T> {
  assertServable(redis.availability());
  try {
    return await work();
  } catch (error) {
    if (isRedisOutage(error)) throw jobsUnavailable(redis.availability().reason ?? JOBS_REDIS_NOT_ANSWERING);
    throw error;
  }
}

/** The eviction policy that `INFO memory` reports; undefined when it says none (a Redis that hides it). */
export function evictionPolicyOf(info: string): string | undefined {
  return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
}

/**
 * The jobs' Redis: a patient client for the chunk workers (see JOB_COMMAND_TIMEOUT_MS) and a prompt one for
 * the endpoints and the metrics, which fails at once while Redis is away. Says whether jobs can be served:
 * only while Redis answers (its pings too: a hung Redis stays connected) and never drops keys (maxmemory-policy
 * noeviction), and logs each change once.
 */
export class JobsRedis implements OnModuleInit, OnApplicationShutdown {
  readonly client: Redis;
  readonly endpointClient: Redis;
  /** Settled the first time jobs can be served: the chunk workers start then, never on a Redis that evicts. */
  readonly accepted: Promise<void>;
  private accept!: () => void;
  /** Settled once the first connection attempt told whether jobs can be served. */
  private readonly firstVerdict: Promise<void>;
  private verdict!: () => void;
  private readonly logger = new Logger('JobsRedis');
  /** The policy read since the prompt client last connected; undefined until read. */
  private policy: string | undefined;
  private readonly policyCheck: NodeJS.Timeout;
  private readonly heartbeat: NodeJS.Timeout;
  private pinging = false;
  /** The last ping went unanswered while connected: a hung Redis, until one is answered or it reconnects. */
  private silent = false;
  private announced: JobsAvailability = { state: 'ready', reason: null };

  constructor(url: string) {
    this.client = new Redis(url, { maxRetriesPerRequest: null, commandTimeout: JOB_COMMAND_TIMEOUT_MS });
    // Its failures reach the commands that meet them; the process must not die of an unheard 'error' event.
    this.client.on('error', () => undefined);
    this.endpointClient = connectIoRedis(url, { commandTimeout: ENDPOINT_COMMAND_TIMEOUT_MS });
    this.accepted = new Promise((resolve) => (this.accept = resolve));
    this.firstVerdict = new Promise((resolve) => (this.verdict = resolve));
    this.endpointClient.on('ready', () => {
      this.silent = false;
      void this.readPolicy();
    });
    this.endpointClient.on('close', () => {
      this.policy = undefined;
      this.announce();
    });
    this.policyCheck = setInterval(() => this.endpointClient.status === 'ready' && void this.readPolicy(), POLICY_CHECK_MS).unref();
    this.heartbeat = setInterval(() => void this.ping(), JOBS_REDIS_HEARTBEAT_MS).unref();
  }

  /** Start-up waits a moment for the verdict, as for the shared cache, so that jobs are served from the first request. */
  async onModuleInit(): Promise<void> {
    await Promise.race([this.firstVerdict, new Promise((resolve) => setTimeout(resolve, REDIS_CONNECT_TIMEOUT_MS).unref())]);
  }

  availability(): JobsAvailability {
    if (this.endpointClient.status !== 'ready' || this.silent || this.policy === undefined) return { state: 'unavailable', reason: JOBS_REDIS_NOT_ANSWERING };
    if (this.policy !== NO_EVICTION && this.policy !== 'unknown') return { state: 'unavailable', reason: jobsRedisEvicts(this.policy) };
    return { state: 'ready', reason: null };
  }

  onApplicationShutdown(): void {
    clearInterval(this.policyCheck);
    clearInterval(this.heartbeat);
    this.client.disconnect();
    this.endpointClient.disconnect();
  }

  private async readPolicy(): Promise<void> {
    try {
      const policy = evictionPolicyOf(await this.endpointClient.info('memory'));
      if (policy === undefined && this.policy !== 'unknown') {
        this.logger.warn('the jobs Redis does not report its maxmemory-policy: make sure it is noeviction, or job data may be evicted');
      }
      this.policy = policy ?? 'unknown';
    } catch {
      // Unread this time (Redis went away again): 'close' says so, or the next check reads it.
      return;
    }
    this.announce();
  }

  /** One ping at a time (the next tick after one that timed out asks again), only while connected. */
  private async ping(): Promise<void> {
    if (this.pinging || this.endpointClient.status !== 'ready') return;
    this.pinging = true;
    const silent = await this.endpointClient.ping().then(
      () => false,
      () => true,
    );
    this.pinging = false;
    if (silent === this.silent) return;
    this.silent = silent;
    this.announce();
  }

  /** Logs a change of availability once: an outage as a warning, a refusal for eviction as an error, a recovery as info. */
  private announce(): void {
    this.verdict();
    const now = this.availability();
    if (now.state === 'ready') this.accept();
    if (now.reason === this.announced.reason) return;
    // Once connected and answering, "not answering" only means the policy is being read: nothing to say yet.
    if (now.reason === JOBS_REDIS_NOT_ANSWERING && this.endpointClient.status === 'ready' && !this.silent) return;
    if (now.state === 'ready') this.logger.log('the jobs Redis answers and keeps every key: job endpoints and workers are on');
    else if (now.reason === JOBS_REDIS_NOT_ANSWERING) this.logger.warn(`job endpoints answer 503 JOBS_UNAVAILABLE: ${now.reason}`);
    else this.logger.error(`jobs refused, job endpoints answer 503 JOBS_UNAVAILABLE: ${now.reason}`);
    this.announced = now;
  }
}
