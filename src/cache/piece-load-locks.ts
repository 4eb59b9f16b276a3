import type { OnApplicationShutdown } from '@nestjs/common';
import type KeyvRedis from '@keyv/redis';
import type { RedisClientType } from '@keyv/redis';
import type { Keyv } from 'keyv';
import { sharedRedisTier } from './cache-stores';

/**
 * Locks on loading a piece, one per piece key, shared by every replica: the replica holding a piece's lock
 * loads it and stores it in the shared cache, while the others wait for it there instead of calling the
 * upstream too. A lock lapses unless its holder renews it, so a replica that died while loading holds the
 * others up only briefly. When the locks cannot be reached, every caller loads as if alone.
 */
export abstract class PieceLoadLocks {
  /** Takes the lock of `key` for `holder` for `ms`, unless someone else holds it; true when the locks cannot be reached. */
  abstract take(key: string, holder: string, ms: number): Promise<boolean>;
  /** Keeps `holder`'s lock `ms` longer (nothing when it lapsed meanwhile). */
  abstract renew(key: string, holder: string, ms: number): Promise<void>;
  /** Lets go of `holder`'s lock (nothing when it lapsed and another took it). */
  abstract release(key: string, holder: string): Promise<void>;
  /** Whether anyone holds the lock of `key`; false when the locks cannot be reached. */
  abstract isHeld(key: string): Promise<boolean>;
  /**
   * The shared cache's piece of `key` as the other replicas stored it, looked up patiently: a look that gave up
   * (as a busy process's cache reads may) would make this replica load the piece again.
   */
  abstract stored(key: string): Promise<unknown>;
  /** Writes the shared cache's piece of `key` for `ms`, patiently (see stored); settles, never fails, once written or given up. */
  abstract store(key: string, piece: unknown, ms: number): Promise<void>;
  /** Deletes the shared cache's pieces of `keys`; settles, never fails. */
  abstract forget(keys: string[]): Promise<void>;
}

const lockKey = (key: string) => `flood-zone:piece-lock:${key}`;

/** A holder's own lock only: another's, taken after this one's lapsed, is left alone. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * The locks (SET NX PX) in the shared cache's Redis, over a connection of their own whose commands wait longer
 * than the cache's. Each command is tried on its own: a failure lets one piece be loaded twice, where skipping
 * Redis for a while after it (as the cache does) would let every piece of that while be.
 */
export class RedisPieceLoadLocks extends PieceLoadLocks implements OnApplicationShutdown {
  private readonly tier: Keyv;

  constructor(private readonly redisStore: KeyvRedis<unknown>) {
    super();
    this.tier = sharedRedisTier(redisStore);
    // Failures reach the callers as "cannot be reached"; the process must not die of an unheard 'error' event.
    this.tier.on('error', () => undefined);
    redisStore.on('error', () => undefined);
  }

  take(key: string, holder: string, ms: number): Promise<boolean> {
    return this.ask(async (redis) => (await redis.set(lockKey(key), holder, { condition: 'NX', expiration: { type: 'PX', value: ms } })) === 'OK', true);
  }

  async renew(key: string, holder: string, ms: number): Promise<void> {
    await this.ask((redis) => redis.eval(RENEW, { keys: [lockKey(key)], arguments: [holder, String(ms)] }), 0);
  }

  async release(key: string, holder: string): Promise<void> {
    await this.ask((redis) => redis.eval(RELEASE, { keys: [lockKey(key)], arguments: [holder] }), 0);
  }

  isHeld(key: string): Promise<boolean> {
    return this.ask(async (redis) => (await redis.exists(lockKey(key))) === 1, false);
  }

  stored(key: string): Promise<unknown> {
    return this.tier.get(key);
  }

  async store(key: string, piece: unknown, ms: number): Promise<void> {
    await this.tier.set(key, piece, ms).catch(() => undefined);
  }

  async forget(keys: string[]): Promise<void> {
    if (keys.length > 0) await this.tier.delete(keys).catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redisStore.disconnect(true).catch(() => undefined);
  }

  private async ask<T>(command: (redis: RedisClientType) => Promise<T>, unreachable: T): Promise<T> {
    try {
      return await command((await this.redisStore.getClient()) as RedisClientType);
    } catch {
      return unreachable;
    }
  }
}
