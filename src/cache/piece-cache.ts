import { setMaxListeners } from 'node:events';
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
 * How one caller waits for a piece: until `signal` aborts (its own deadline, or its batch's cancellation),
 * then it stops waiting with the error `gaveUp` makes, whoever else still waits for the same load.
 */
export interface PieceWait {
  signal: AbortSignal;
  gaveUp: () => unknown;
}

/** Loads a piece under `signal`, which aborts once no caller waits for the piece any more. */
export type PieceLoad<T> = (signal: AbortSignal) => Promise<T>;

/** One upstream load shared by every caller of its key that waits for it. */
interface SharedLoad {
  entry: Promise<CachedEntry<unknown>>;
  abandoned: AbortController;
  waiting: number;
}

/** Every query of one load (all its layers, retries, pages) listens to its signal: more than Node's default 10. */
const LOAD_LISTENERS = 64;

/** An abandoned load settles at once (every upstream call stops on its signal); past this its last caller stops waiting. */
const ABANDONED_LOAD_GRACE_MS = 100;

/**
 * The pieces an answer is made of (a geocode, the effective map at a point, an opt-in part's data, a point's
 * county), each cached with its original retrieval time, and single-flight loading: concurrent
 * callers of the same key share one upstream call. Each caller waits no longer than its own `PieceWait`
 * allows; the shared call is abandoned only when the last caller has stopped waiting for it.
 */
@Injectable()
export class PieceCache {
  private readonly inFlight = new Map<string, SharedLoad>();

  constructor(
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
    private readonly metrics: ServiceMetrics,
  ) {}

  async getOrLoad<T>(name: CacheName, key: string, policy: CachePolicy<T>, load: PieceLoad<T>, wait: PieceWait): Promise<CacheRead<T>> {
    const cacheKey = `${name}:${key}`;
    const cached = policy.ttlSeconds > 0 ? await this.read<T>(cacheKey) : undefined;
    if (cached && cached.freshUntil > Date.now()) {
      this.metrics.cacheLookup(name, 'hit');
      return { entry: cached, status: 'HIT' };
    }
    try {
      const entry = await this.loadOnce(cacheKey, policy, load, wait);
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

  /**
   * Waits for the key's shared load (started now if none is under way) until it settles or `wait` ends. The
   * last caller to stop waiting abandons the load, and takes what the load makes of being cut short (an
   * answer without the parts it cut, or its 502) if that comes within ABANDONED_LOAD_GRACE_MS.
   */
  private loadOnce<T>(cacheKey: string, policy: CachePolicy<T>, load: PieceLoad<T>, wait: PieceWait): Promise<CachedEntry<T>> {
    if (wait.signal.aborted) return Promise.reject(wait.gaveUp());
    const shared = this.inFlight.get(cacheKey) ?? this.startLoad(cacheKey, policy, load);
    shared.waiting++;
    return new Promise((resolve, reject) => {
      let counted = true;
      let done = false;
      let grace: NodeJS.Timeout | undefined;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(grace);
        wait.signal.removeEventListener('abort', giveUp);
        if (counted) shared.waiting--;
        settle();
      };
      const giveUp = () => {
        counted = false;
        if (--shared.waiting > 0) return finish(() => reject(wait.gaveUp()));
        // Nobody else waits: a later caller starts afresh rather than join a load being abandoned.
        if (this.inFlight.get(cacheKey) === shared) this.inFlight.delete(cacheKey);
        shared.abandoned.abort();
        grace = setTimeout(() => finish(() => reject(wait.gaveUp())), ABANDONED_LOAD_GRACE_MS);
      };
      wait.signal.addEventListener('abort', giveUp, { once: true });
      shared.entry.then(
        (entry) => finish(() => resolve(entry as CachedEntry<T>)),
        (error: unknown) => finish(() => reject(error)),
      );
    });
  }

  private startLoad<T>(cacheKey: string, policy: CachePolicy<T>, load: PieceLoad<T>): SharedLoad {
    const abandoned = new AbortController();
    setMaxListeners(LOAD_LISTENERS, abandoned.signal);
    const entry = load(abandoned.signal)
      .then((value) => {
        const storedAt = Date.now();
        const ttlSeconds = Math.min(policy.ttlSeconds, policy.ttlSecondsOf?.(value) ?? policy.ttlSeconds);
        const loaded: CachedEntry<T> = { value, storedAt, freshUntil: storedAt + ttlSeconds * 1000 };
        if (ttlSeconds > 0) this.write(cacheKey, loaded, (ttlSeconds + policy.staleIfErrorSeconds) * 1000);
        return loaded;
      })
      .finally(() => {
        if (this.inFlight.get(cacheKey) === shared) this.inFlight.delete(cacheKey);
      });
    // A load everyone stopped waiting for still settles, often as a failure nobody reads.
    entry.catch(() => undefined);
    const shared: SharedLoad = { entry, abandoned, waiting: 0 };
    this.inFlight.set(cacheKey, shared);
    return shared;
  }

  private async read<T>(cacheKey: string): Promise<CachedEntry<T> | undefined> {
    const value = await withinBudget(this.cache.get<CachedEntry<T>>(cacheKey));
    return value && typeof value === 'object' && 'storedAt' in value ? value : undefined;
  }

  private write<T>(cacheKey: string, entry: CachedEntry<T>, ttlMs: number): void {
    void withinBudget(this.cache.set(cacheKey, entry, ttlMs));
  }
}

/** A cache operation's result, or undefined when it fails or takes longer than `budgetMs`: the cache never makes its caller fail or hang. */
export async function withinBudget<T>(operation: Promise<T>, budgetMs = CACHE_OPERATION_BUDGET_MS): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), budgetMs);
  });
  try {
    return await Promise.race([operation.catch(() => undefined), giveUp]);
  } finally {
    clearTimeout(timer);
  }
}
