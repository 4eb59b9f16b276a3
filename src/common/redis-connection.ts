import type { RedisClientOptions } from '@keyv/redis';
import { circuitBreaker, CircuitBreakerPolicy, ConsecutiveBreaker, handleAll } from 'cockatiel';
import Redis, { RedisOptions } from 'ioredis';

/**
 * How every Redis client of the service talks to Redis (the rate limiter, the shared cache, jobs). Redis
 * is an optimisation: while it is down, hung or slow, its users fall back (local counts, no shared cache)
 * at once or within one short command timeout, never wait on it and never fail because of it.
 */

/** Longest wait for one command's answer; under the lookup cache's budget for one operation. */
const REDIS_COMMAND_TIMEOUT_MS = 200;
/** Longest wait for a connection to open; also how long start-up waits for Redis before going on without it. */
export const REDIS_CONNECT_TIMEOUT_MS = 1000;
/** How long a Redis that failed to answer is skipped before one command tries it again. */
const REDIS_RETRY_AFTER_MS = 2000;

/** Reconnection backoff: quick at first, then every 2 s at most, forever (Redis may come back any time). */
function redisReconnectDelayMs(attempt: number): number {
  return Math.min(50 * 2 ** attempt, 2000);
}

/** Options of an ioredis client: commands fail at once while disconnected and after the timeout while hung. */
const IOREDIS_OPTIONS: RedisOptions = {
  commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  retryStrategy: redisReconnectDelayMs,
};

/** An ioredis client of REDIS_URL; its errors are its users' to handle (they fall back), not the process's. */
export function connectIoRedis(url: string, extra: RedisOptions = {}): Redis {
  const client = new Redis(url, { ...IOREDIS_OPTIONS, ...extra });
  client.on('error', () => undefined);
  return client;
}

/** The same rules for a node-redis client (the Keyv cache store). */
export function nodeRedisOptions(url: string): RedisClientOptions {
  return {
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: REDIS_COMMAND_TIMEOUT_MS },
    socket: { connectTimeout: REDIS_CONNECT_TIMEOUT_MS, reconnectStrategy: redisReconnectDelayMs },
  };
}

/**
 * Opens after a failed or timed-out command: for REDIS_RETRY_AFTER_MS its user skips Redis and falls back
 * at once instead of each request waiting out the timeout; then one command tries Redis again.
 */
export function redisCircuit(): CircuitBreakerPolicy {
  return circuitBreaker(handleAll, { halfOpenAfter: REDIS_RETRY_AFTER_MS, breaker: new ConsecutiveBreaker(1) });
}
