import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { UpstreamUnavailableError } from '../common/api-error';
import { pause } from '../common/pause';
import { asLookup, earliestAnswerTime, inJobWork, lookupTimeLeft } from '../common/upstream/resilient-upstream';
import type { TimeLeft } from '../common/upstream/upstream-call-budget';
import { CacheName, ServiceMetrics } from '../metrics/service-metrics';
import { PieceLoadLocks } from './piece-load-locks';

export interface CachedPiece<T> {
  value: T;
  /** When the value was fetched from its upstream (epoch ms); never restamped. */
  storedAt: number;
  /** Until when the value is fresh (epoch ms). */
  freshUntil: number;
}

export type CacheStatus = 'HIT' | 'MISS' | 'STALE';

export interface CacheRead<T> {
  piece: CachedPiece<T>;
  status: CacheStatus;
}

export interface CachePolicy<T = unknown> {
  ttlSeconds: number;
  /** How long past expiry a piece may still be served when its upstream fails (0: never). */
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

/**
 * The parts of one load of a piece (each NFHL layer's answer at the point). For portfolio jobs each part is kept
 * in the shared cache as soon as it is answered, so that a load cut short (its replica stopped or died, its
 * chunk was cancelled) leaves what it had for the piece's next load, which asks the upstream only for the rest.
 */
export interface PieceParts {
  /**
   * The part kept by an earlier load of the piece, or `load`'s answer (kept, unless it fails). A part made of data
   * fetched before the load (polygons held for a whole area) says when with `fetchedAt`: the piece is as old as that.
   */
  kept<T>(part: string, load: (fetchedAt: (epochMs: number) => void) => Promise<T>): Promise<T>;
}

/** Loads a piece under `signal`, which aborts once no caller waits for the piece any more. */
export type PieceLoad<T> = (signal: AbortSignal, parts: PieceParts) => Promise<T>;

/** A reader of cached pieces: the shared cache, or a batch's memo over it. */
export type PieceReader = Pick<PieceCache, 'getOrLoad'>;

/** One upstream load shared by every caller of its key that waits for it. */
interface SharedLoad {
  piece: Promise<CachedPiece<unknown>>;
  abandoned: AbortController;
  /** Each caller waiting for it: the time its lookup has left, or undefined outside any lookup. */
  waiting: Array<TimeLeft | undefined>;
}

/**
 * Why a load is abandoned when its last caller stopped waiting for another reason than running out of time (its
 * replica stops, its chunk was cancelled, its client left): a cancellation, never a failure of the upstream. What
 * such a load makes of being cut short is neither stored nor given to anyone.
 */
class LoadCancelled extends Error {}

/** Parts of one load where there is nothing to keep them in: each is simply loaded; `oldest` is when its oldest data was fetched. */
class UnkeptParts implements PieceParts {
  oldest?: number;

  kept<T>(_part: string, load: (fetchedAt: (epochMs: number) => void) => Promise<T>): Promise<T> {
    return load((epochMs) => (this.oldest = Math.min(this.oldest ?? Infinity, epochMs)));
  }
}

/** Whether the work under way asks a second time for answers that came back incomplete. */
const secondTry = new AsyncLocalStorage<true>();

/**
 * Runs `run` as a second try of answers that came back with a part missing (a portfolio job's degraded rows): a
 * piece cached with a life shortened for what it lacked (see CachePolicy.ttlSecondsOf) is not taken but loaded
 * again, so that the second try asks the upstream that failed; complete pieces are read as cached.
 */
export function asSecondTry<T>(run: () => Promise<T>): Promise<T> {
  return secondTry.run(true, run);
}

/** Whether a cached piece, fresh, may be taken by the work under way: not one kept a shortened life, on a second try. */
function taken<T>(piece: CachedPiece<T>, policy: CachePolicy<T>): boolean {
  if (piece.freshUntil <= Date.now()) return false;
  return !secondTry.getStore() || (policy.ttlSecondsOf?.(piece.value) ?? policy.ttlSeconds) >= policy.ttlSeconds;
}

/** Every query of one load (all its layers, retries, pages) listens to its signal: more than Node's default 10. */
const LOAD_LISTENERS = 64;

/** An abandoned load settles at once (every upstream call stops on its signal); past this its last caller stops waiting. */
const ABANDONED_LOAD_GRACE_MS = 100;

/** How long a replica's lock on loading a piece lasts unless renewed: one that died loading it holds the others up no longer. */
const PIECE_LOCK_MS = 3000;
/** How often the holder of a piece's lock renews it while it loads. */
const PIECE_LOCK_RENEW_MS = 1000;
/** How often a replica waiting for another's load of a piece looks for it in the shared cache. */
const SHARED_LOAD_POLL_MS = 30;

/**
 * The pieces an answer is made of (a geocode, the effective map at a point, an opt-in part's data, a point's
 * county), each cached with its original retrieval time, and single-flight loading: concurrent
 * callers of the same key share one upstream call. Each caller waits no longer than its own `PieceWait`
 * allows; the shared call is abandoned only when the last caller has stopped waiting for it. For the work of
 * portfolio jobs, which every replica shares, single-flight spans the replicas too (see loadOnceAcrossReplicas).
 */
@Injectable()
export class PieceCache {
  private readonly inFlight = new Map<string, SharedLoad>();

  constructor(
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
    private readonly metrics: ServiceMetrics,
    /** Present with a shared cache (REDIS_URL): without one, replicas have nothing to share. */
    @Optional() @Inject(PieceLoadLocks) private readonly locks: PieceLoadLocks | null = null,
  ) {}

  async getOrLoad<T>(name: CacheName, key: string, policy: CachePolicy<T>, load: PieceLoad<T>, wait: PieceWait): Promise<CacheRead<T>> {
    const cacheKey = `${name}:${key}`;
    const cached = policy.ttlSeconds > 0 ? await this.read<T>(cacheKey) : undefined;
    if (cached && taken(cached, policy) && cached.storedAt >= earliestAnswerTime()) {
      this.metrics.cacheLookup(name, 'hit');
      return { piece: cached, status: 'HIT' };
    }
    try {
      const piece = await this.loadOnce(cacheKey, policy, load, wait);
      this.metrics.cacheLookup(name, 'miss');
      return { piece, status: 'MISS' };
    } catch (error) {
      const staleLimit = (cached?.freshUntil ?? 0) + policy.staleIfErrorSeconds * 1000;
      if (cached && error instanceof UpstreamUnavailableError && Date.now() <= staleLimit) {
        this.metrics.cacheLookup(name, 'stale');
        return { piece: cached, status: 'STALE' };
      }
      this.metrics.cacheLookup(name, 'miss');
      throw error;
    }
  }

  /**
   * Waits for the key's shared load (started now if none is under way) until it settles or `wait` ends. The
   * last caller to stop waiting abandons the load. Out of time, it takes what the load makes of being cut
   * short (an answer without the parts the upstream was too slow for, or its 502) if that comes within
   * ABANDONED_LOAD_GRACE_MS; cancelled, it leaves with its own error (see LoadCancelled).
   */
  private loadOnce<T>(cacheKey: string, policy: CachePolicy<T>, load: PieceLoad<T>, wait: PieceWait): Promise<CachedPiece<T>> {
    if (wait.signal.aborted) return Promise.reject(wait.gaveUp());
    const shared = this.inFlight.get(cacheKey) ?? this.startLoad(cacheKey, policy, load);
    const caller = lookupTimeLeft();
    shared.waiting.push(caller);
    const leave = () => shared.waiting.splice(shared.waiting.indexOf(caller), 1);
    return new Promise((resolve, reject) => {
      let counted = true;
      let done = false;
      let grace: NodeJS.Timeout | undefined;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(grace);
        wait.signal.removeEventListener('abort', giveUp);
        if (counted) leave();
        settle();
      };
      const giveUp = () => {
        counted = false;
        const why = wait.gaveUp();
        leave();
        if (shared.waiting.length > 0) return finish(() => reject(why));
        // Nobody else waits: a later caller starts afresh rather than join a load being abandoned.
        if (this.inFlight.get(cacheKey) === shared) this.inFlight.delete(cacheKey);
        // Out of time (an upstream failure), the upstream was too slow; any other end of the wait is a cancellation.
        const outOfTime = why instanceof UpstreamUnavailableError;
        shared.abandoned.abort(outOfTime ? undefined : new LoadCancelled());
        if (!outOfTime) return finish(() => reject(why));
        grace = setTimeout(() => finish(() => reject(why)), ABANDONED_LOAD_GRACE_MS);
      };
      wait.signal.addEventListener('abort', giveUp, { once: true });
      shared.piece.then(
        (piece) => finish(() => resolve(piece as CachedPiece<T>)),
        // A load abandoned while it waited for another replica's has no failure of its own to tell.
        (error: unknown) => finish(() => reject(error === shared.abandoned.signal.reason ? wait.gaveUp() : error)),
      );
    });
  }

  private startLoad<T>(cacheKey: string, policy: CachePolicy<T>, load: PieceLoad<T>): SharedLoad {
    const abandoned = new AbortController();
    setMaxListeners(LOAD_LISTENERS, abandoned.signal);
    // Only what is cached can be shared with other replicas.
    const locks = inJobWork() && policy.ttlSeconds > 0 ? this.locks : null;
    // The load's upstream attempts start while any caller still waiting has time enough left for them, not only
    // while the caller that happened to start it has.
    const waiting: SharedLoad['waiting'] = [];
    const mostTimeLeft = () => (waiting.length === 0 ? Infinity : Math.max(...waiting.map((caller) => caller?.msLeft() ?? Infinity)));
    const loading = asLookup({ msLeft: mostTimeLeft }, () =>
      locks ? this.loadOnceAcrossReplicas(locks, cacheKey, policy, load, abandoned.signal) : this.loadAndStore(cacheKey, policy, load, abandoned.signal),
    );
    const piece = loading.finally(() => {
      if (this.inFlight.get(cacheKey) === shared) this.inFlight.delete(cacheKey);
    });
    // A load everyone stopped waiting for still settles, often as a failure nobody reads.
    piece.catch(() => undefined);
    const shared: SharedLoad = { piece, abandoned, waiting };
    this.inFlight.set(cacheKey, shared);
    return shared;
  }

  /** Loads a piece and writes it to the cache tiers. */
  private async loadAndStore<T>(cacheKey: string, policy: CachePolicy<T>, load: PieceLoad<T>, signal: AbortSignal): Promise<CachedPiece<T>> {
    const { piece, keepMs } = await loadPiece(policy, load, signal, new UnkeptParts());
    if (keepMs > 0) this.write(cacheKey, piece, keepMs);
    return piece;
  }

  /**
   * A piece loaded by one replica for all: this one loads it while it holds the piece's lock (renewed as the
   * load goes on). While another replica holds the lock, this one looks for the piece in the shared cache every
   * SHARED_LOAD_POLL_MS, and tries for the lock again once it is let go without the piece (a failure is not
   * cached: the next replica loads it itself) or lapses (its holder died). Rejects with the signal's reason once
   * the load is abandoned while waiting.
   */
  private async loadOnceAcrossReplicas<T>(
    locks: PieceLoadLocks,
    cacheKey: string,
    policy: CachePolicy<T>,
    load: PieceLoad<T>,
    signal: AbortSignal,
  ): Promise<CachedPiece<T>> {
    const holder = randomUUID();
    for (;;) {
      signal.throwIfAborted();
      if (await locks.take(cacheKey, holder, PIECE_LOCK_MS)) return this.loadHoldingLock(locks, holder, cacheKey, policy, load, signal);
      do {
        await pause(SHARED_LOAD_POLL_MS, signal);
        const stored = await this.storedByReplicas(locks, cacheKey, policy);
        if (stored) return stored;
      } while (await locks.isHeld(cacheKey));
    }
  }

  /**
   * Loads the piece under its lock, which it lets go once the piece is where the other replicas look for it
   * (written there patiently: the cache's own write may be dropped by a busy process), or at once when the
   * load failed, for the next replica to load the piece itself.
   */
  private async loadHoldingLock<T>(
    locks: PieceLoadLocks,
    holder: string,
    cacheKey: string,
    policy: CachePolicy<T>,
    load: PieceLoad<T>,
    signal: AbortSignal,
  ): Promise<CachedPiece<T>> {
    const renewal = setInterval(() => void locks.renew(cacheKey, holder, PIECE_LOCK_MS), PIECE_LOCK_RENEW_MS);
    let storing: Promise<unknown> = Promise.resolve();
    try {
      // Another replica may have stored the piece between this one's read and its taking the lock.
      const earlier = await this.storedByReplicas(locks, cacheKey, policy);
      if (earlier) return earlier;
      // Stored in the shared cache only, where every replica (this one too) looks: a portfolio's pieces would
      // otherwise crowd out of the in-process LRU what interactive lookups keep there, and be written to Redis twice.
      const parts = new SharedPieceParts(locks, cacheKey, policy);
      const { piece, keepMs } = await loadPiece(policy, load, signal, parts);
      // Once the whole piece is where the others look, its parts are of no more use.
      if (keepMs > 0) storing = locks.store(cacheKey, piece, keepMs).then(() => parts.forget());
      return piece;
    } finally {
      void storing.finally(() => {
        clearInterval(renewal);
        void locks.release(cacheKey, holder);
      });
    }
  }

  /** The piece as fresh in the shared cache, looked up patiently (see PieceLoadLocks.stored), if the work under way takes it. */
  private async storedByReplicas<T>(locks: PieceLoadLocks, cacheKey: string, policy: CachePolicy<T>): Promise<CachedPiece<T> | undefined> {
    const stored = asPiece<T>(await locks.stored(cacheKey));
    return stored && taken(stored, policy) ? stored : undefined;
  }

  private async read<T>(cacheKey: string): Promise<CachedPiece<T> | undefined> {
    return asPiece<T>(await withinBudget(this.cache.get<CachedPiece<T>>(cacheKey)));
  }

  private write<T>(cacheKey: string, piece: CachedPiece<T>, ttlMs: number): void {
    void withinBudget(this.cache.set(cacheKey, piece, ttlMs));
  }
}

/**
 * Loads a piece, with how long to keep it (0 when its policy keeps it not at all); as old as the
 * oldest part an earlier load kept or data a part was made of. A load cancelled meanwhile rejects with its cancellation, whatever it made of it.
 */
async function loadPiece<T>(
  policy: CachePolicy<T>,
  load: PieceLoad<T>,
  signal: AbortSignal,
  parts: PieceParts & { oldest?: number },
): Promise<{ piece: CachedPiece<T>; keepMs: number }> {
  const value = await load(signal, parts);
  if (signal.reason instanceof LoadCancelled) throw signal.reason;
  const storedAt = Math.min(Date.now(), parts.oldest ?? Infinity);
  const ttlSeconds = Math.min(policy.ttlSeconds, policy.ttlSecondsOf?.(value) ?? policy.ttlSeconds);
  const piece: CachedPiece<T> = { value, storedAt, freshUntil: storedAt + ttlSeconds * 1000 };
  return { piece, keepMs: keepMsOf(policy, ttlSeconds) };
}

/** How long a piece fresh for `ttlSeconds` is kept (0: not at all): past its freshness, as long as it may be served stale. */
const keepMsOf = (policy: Pick<CachePolicy, 'staleIfErrorSeconds'>, ttlSeconds: number) =>
  ttlSeconds > 0 ? (ttlSeconds + policy.staleIfErrorSeconds) * 1000 : 0;

/**
 * The parts of one load of a piece for portfolio jobs, each kept in the shared cache under the piece's key and
 * its own name for as long as the piece would be; `oldest` is when the oldest part (or data) this load reuses was fetched.
 */
class SharedPieceParts implements PieceParts {
  oldest?: number;
  private readonly names = new Set<string>();
  private readonly storing: Array<Promise<void>> = [];

  constructor(
    private readonly locks: PieceLoadLocks,
    private readonly cacheKey: string,
    private readonly policy: Pick<CachePolicy, 'ttlSeconds' | 'staleIfErrorSeconds'>,
  ) {}

  async kept<T>(part: string, load: (fetchedAt: (epochMs: number) => void) => Promise<T>): Promise<T> {
    const key = this.keyOf(part);
    this.names.add(key);
    const stored = asPiece<T>(await this.locks.stored(key));
    if (stored && stored.freshUntil > Date.now()) {
      this.oldest = Math.min(this.oldest ?? Infinity, stored.storedAt);
      return stored.value;
    }
    let fetched = Infinity;
    const value = await load((epochMs) => (fetched = Math.min(fetched, epochMs)));
    const storedAt = Math.min(Date.now(), fetched);
    if (fetched < Infinity) this.oldest = Math.min(this.oldest ?? Infinity, fetched);
    const piece: CachedPiece<T> = { value, storedAt, freshUntil: storedAt + this.policy.ttlSeconds * 1000 };
    this.storing.push(this.locks.store(key, piece, keepMsOf(this.policy, this.policy.ttlSeconds)));
    return value;
  }

  /** Deletes the parts, once each is written: none is left behind for a day. */
  async forget(): Promise<void> {
    await Promise.all(this.storing);
    await this.locks.forget([...this.names]);
  }

  private keyOf(part: string): string {
    return `${this.cacheKey}|${part}`;
  }
}

/** A cached value that is a piece of this cache (anything else under its key is none). */
function asPiece<T>(value: unknown): CachedPiece<T> | undefined {
  return value && typeof value === 'object' && 'storedAt' in value ? (value as CachedPiece<T>) : undefined;
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
