import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { UpstreamUnavailableError } from '../common/api-error';
import { CacheName, ServiceMetrics } from '../metrics/service-metrics';

export interface CachedEntry<T> {
  value: T;
  /** When the value was fetched from its upstream (epoch ms); never restamped. */
  storedAt: number;
  /** Until when the value is fresh (epoch ms). */
  freshUntil: number;
}

export type CacheStatus = 'HIT' | 'MISS' | 'STALE';

export interface CacheRead<T> {
  entry: CachedEntry<T>;
  status: CacheStatus;
}

export interface CachePolicy<T = unknown> {
  ttlSeconds: number;
  /** How long past expiry an entry may still be served when its upstream fails (0: never). */
  staleIfErrorSeconds: number;
  /** A shorter life for some values (an answer with missing parts); never longer than `ttlSeconds`. */
  ttlSecondsOf?: (value: T) => number;
}

/** A cache tier that stops answering counts as a miss: the cache must never make a lookup fail or hang. */
const CACHE_OPERATION_BUDGET_MS = 250;

/**
 * Cached upstream answers with their original retrieval time, and single-flight loading: concurrent
 * callers of the same key share one upstream call.
 */
@Injectable()
export class LookupCache {
  private readonly inFlight = new Map<string, Promise<CachedEntry<unknown>>>();

  constructor(
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
    private readonly metrics: ServiceMetrics,
  ) {}

  async getOrLoad<T>(name: CacheName, key: string, policy: CachePolicy<T>, load: () => Promise<T>): Promise<CacheRead<T>> {
    const cacheKey = `${name}:${key}`;
    const cached = policy.ttlSeconds > 0 ? await this.read<T>(cacheKey) : undefined;
    if (cached && cached.freshUntil > Date.now()) {
      this.metrics.cacheLookup(name, 'hit');
      return { entry: cached, status: 'HIT' };
    }
    try {
      const entry = await this.loadOnce(cacheKey, policy, load);
      this.metrics.cacheLookup(name, 'miss');
      return { entry, status: 'MISS' };
    } catch (error) {
      const staleLimit = (cached?.freshUntil ?? 0) + policy.staleIfErrorSeconds * 1000;
      if (cached && error instanceof UpstreamUnavailableError && Date.now() <= staleLimit) {
        this.metrics.cacheLookup(name, 'stale');
        return { entry: cached, status: 'STALE' };
      }
      this.metrics.cacheLookup(name, 'miss');
      throw error;
    }
  }

  private loadOnce<T>(cacheKey: string, policy: CachePolicy<T>, load: () => Promise<T>): Promise<CachedEntry<T>> {
    const pending = this.inFlight.get(cacheKey) as Promise<CachedEntry<T>> | undefined;
    if (pending) return pending;
    const loading = load()
      .then((value) => {
        const storedAt = Date.now();
        const ttlSeconds = Math.min(policy.ttlSeconds, policy.ttlSecondsOf?.(value) ?? policy.ttlSeconds);
        const entry: CachedEntry<T> = { value, storedAt, freshUntil: storedAt + ttlSeconds * 1000 };
        if (ttlSeconds > 0) this.write(cacheKey, entry, (ttlSeconds + policy.staleIfErrorSeconds) * 1000);
        return entry;
      })
      .finally(() => this.inFlight.delete(cacheKey));
    this.inFlight.set(cacheKey, loading);
    return loading;
  }

  private async read<T>(cacheKey: string): Promise<CachedEntry<T> | undefined> {
    const value = await withinBudget(this.cache.get<CachedEntry<T>>(cacheKey));
    return value && typeof value === 'object' && 'storedAt' in value ? value : undefined;
  }

  private write<T>(cacheKey: string, entry: CachedEntry<T>, ttlMs: number): void {
    void withinBudget(this.cache.set(cacheKey, entry, ttlMs));
  }
}

async function withinBudget<T>(operation: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), CACHE_OPERATION_BUDGET_MS);
  });
  try {
    return await Promise.race([operation.catch(() => undefined), giveUp]);
  } finally {
    clearTimeout(timer);
  }
}
