import type { Cache } from 'cache-manager';
import { UpstreamUnavailableError } from '../common/api-error';
import { asJobWork } from '../common/upstream/resilient-upstream';
import { UpstreamCallBudget } from '../common/upstream/upstream-call-budget';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { CachedEntry, PieceCache, PieceWait } from './piece-cache';
import { PieceLoadLocks } from './piece-load-locks';

/** A cache tier in memory; `set` keeps what it is given. */
function memoryTier(): Cache {
  const entries = new Map<string, unknown>();
  return {
    get: (key: string) => Promise.resolve(entries.get(key)),
    set: (key: string, value: unknown) => Promise.resolve(entries.set(key, value)),
  } as unknown as Cache;
}

const metrics = { cacheLookup: () => undefined } as unknown as ServiceMetrics;
const noCaching = { ttlSeconds: 0, staleIfErrorSeconds: 0 };

/** A load that answers when told to, and shows the signal it was given. */
class HeldLoad {
  calls = 0;
  signal?: AbortSignal;
  private answer?: (value: string) => void;

  readonly load = (signal: AbortSignal): Promise<string> => {
    this.calls++;
    this.signal = signal;
    return new Promise((resolve, reject) => {
      this.answer = resolve;
      signal.addEventListener('abort', () => reject(new UpstreamUnavailableError('flood_data', 'abandoned')));
    });
  };

  finish(value: string): void {
    this.answer?.(value);
  }
}

/** One caller's wait: it ends when `caller` aborts, with an error naming the caller. */
function waitOf(caller: AbortController, name: string): PieceWait {
  return { signal: caller.signal, gaveUp: () => new Error(`${name} gave up`) };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('PieceCache single-flight', () => {
  it('shares one load among concurrent callers of a key', async () => {
    const cache = new PieceCache(memoryTier(), metrics);
    const held = new HeldLoad();
    const reads = [1, 2, 3].map((i) => cache.getOrLoad('flood', 'a', noCaching, held.load, waitOf(new AbortController(), `caller ${i}`)));
    await settled();
    held.finish('zone AE');
    expect((await Promise.all(reads)).map((read) => read.entry.value)).toEqual(['zone AE', 'zone AE', 'zone AE']);
    expect(held.calls).toBe(1);
  });

  it('lets a caller whose wait ends leave at once with its own error, while the others get the answer', async () => {
    const cache = new PieceCache(memoryTier(), metrics);
    const held = new HeldLoad();
    const first = new AbortController();
    const leaving = cache.getOrLoad('flood', 'a', noCaching, held.load, waitOf(first, 'first'));
    const staying = cache.getOrLoad('flood', 'a', noCaching, held.load, waitOf(new AbortController(), 'second'));
    await settled();

    first.abort();
    await expect(leaving).rejects.toThrow('first gave up');
    // The load is not the first caller's: it goes on for the second.
    expect(held.signal?.aborted).toBe(false);
    held.finish('zone X');
    expect((await staying).entry.value).toBe('zone X');
    expect(held.calls).toBe(1);
  });

  it('abandons the load when its last caller stops waiting, which gets what the load makes of it, and starts afresh for the next caller', async () => {
    const cache = new PieceCache(memoryTier(), metrics);
    const abandoned = new HeldLoad();
    const callers = [new AbortController(), new AbortController()];
    const reads = callers.map((caller, i) => cache.getOrLoad('flood', 'a', noCaching, abandoned.load, waitOf(caller, `caller ${i}`)));
    await settled();
    callers[0].abort();
    expect(abandoned.signal?.aborted).toBe(false);
    callers[1].abort();
    expect(abandoned.signal?.aborted).toBe(true);
    await expect(reads[0]).rejects.toThrow('caller 0 gave up');
    await expect(reads[1]).rejects.toEqual(new UpstreamUnavailableError('flood_data', 'abandoned'));

    const fresh = new HeldLoad();
    const later = cache.getOrLoad('flood', 'a', noCaching, fresh.load, waitOf(new AbortController(), 'later'));
    await settled();
    expect(fresh.calls).toBe(1);
    fresh.finish('zone A');
    expect((await later).entry.value).toBe('zone A');
  });

  it('gives the last caller an answer the abandoned load still makes (one without the parts it cut)', async () => {
    const cache = new PieceCache(memoryTier(), metrics);
    const partial = (signal: AbortSignal) => new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('zone AE, LOMRs unknown')));
    const caller = new AbortController();
    const read = cache.getOrLoad('flood', 'a', noCaching, partial, waitOf(caller, 'caller'));
    await settled();
    caller.abort();
    expect((await read).entry.value).toBe('zone AE, LOMRs unknown');
  });

  it('stops the last caller waiting for an abandoned load that does not settle, with its own error', async () => {
    const cache = new PieceCache(memoryTier(), metrics);
    const deaf = () => new Promise<string>(() => undefined);
    const caller = new AbortController();
    const read = cache.getOrLoad('flood', 'a', noCaching, deaf, waitOf(caller, 'caller'));
    await settled();
    caller.abort();
    await expect(read).rejects.toThrow('caller gave up');
  });

  it('starts nothing for a caller whose wait has already ended', async () => {
    const cache = new PieceCache(memoryTier(), metrics);
    const held = new HeldLoad();
    const gone = new AbortController();
    gone.abort();
    await expect(cache.getOrLoad('flood', 'a', noCaching, held.load, waitOf(gone, 'late'))).rejects.toThrow('late gave up');
    expect(held.calls).toBe(0);
  });

  it('serves a stale entry to a caller that gave up with an upstream failure, within STALE_IF_ERROR_SECONDS', async () => {
    const tier = memoryTier();
    const expired: CachedEntry<string> = { value: 'zone AE', storedAt: Date.now() - 120_000, freshUntil: Date.now() - 60_000 };
    await tier.set('flood:a', expired);
    const cache = new PieceCache(tier, metrics);
    const held = new HeldLoad();
    const caller = new AbortController();
    const read = cache.getOrLoad('flood', 'a', { ttlSeconds: 60, staleIfErrorSeconds: 3600 }, held.load, {
      signal: caller.signal,
      gaveUp: () => new UpstreamUnavailableError('flood_data', 'no answer within the lookup deadline'),
    });
    await settled();
    caller.abort();
    expect(await read).toEqual({ entry: expired, status: 'STALE' });
  });
});

/** The locks as Redis keeps them (SET NX PX), in memory: each lapses at its time unless renewed. */
class MemoryLocks extends PieceLoadLocks {
  readonly locks = new Map<string, { holder: string; until: number }>();
  takes = 0;

  constructor(private readonly shared: Cache) {
    super();
  }

  take(key: string, holder: string, ms: number): Promise<boolean> {
    this.takes++;
    if (this.current(key)) return Promise.resolve(false);
    this.locks.set(key, { holder, until: Date.now() + ms });
    return Promise.resolve(true);
  }

  renew(key: string, holder: string, ms: number): Promise<void> {
    const lock = this.current(key);
    if (lock?.holder === holder) lock.until = Date.now() + ms;
    return Promise.resolve();
  }

  release(key: string, holder: string): Promise<void> {
    if (this.current(key)?.holder === holder) this.locks.delete(key);
    return Promise.resolve();
  }

  isHeld(key: string): Promise<boolean> {
    return Promise.resolve(this.current(key) !== undefined);
  }

  stored(key: string): Promise<unknown> {
    return this.shared.get(key);
  }

  async store(key: string, entry: unknown): Promise<void> {
    await this.shared.set(key, entry);
  }

  private current(key: string) {
    const lock = this.locks.get(key);
    return lock && lock.until > Date.now() ? lock : undefined;
  }
}

/** A budget that never holds a call back. */
class OpenBudget extends UpstreamCallBudget {
  async admit(): Promise<void> {}
}

const budget = new OpenBudget();
const cached = { ttlSeconds: 60, staleIfErrorSeconds: 0 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PieceCache across replicas, for the work of portfolio jobs', () => {
  /** Two replicas: each its own single-flight, both the shared tier and the locks. */
  function replicas() {
    const tier = memoryTier();
    const locks = new MemoryLocks(tier);
    return { tier, locks, first: new PieceCache(tier, metrics, locks), second: new PieceCache(tier, metrics, locks) };
  }
  const forJob = <T>(read: () => Promise<T>) => asJobWork(budget, read);

  it('loads a piece two replicas ask for at once on one of them: the other gets it from the shared cache', async () => {
    const { first, second, locks } = replicas();
    const [one, two] = [new HeldLoad(), new HeldLoad()];
    const reads = [
      forJob(() => first.getOrLoad('flood', 'a', cached, one.load, waitOf(new AbortController(), 'first'))),
      forJob(() => second.getOrLoad('flood', 'a', cached, two.load, waitOf(new AbortController(), 'second'))),
    ];
    await sleep(50);
    expect([one.calls, two.calls]).toEqual([1, 0]);
    one.finish('zone AE');
    const [fromFirst, fromSecond] = await Promise.all(reads);
    expect(fromFirst.entry.value).toBe('zone AE');
    // The very entry the first stored, with its retrieval time.
    expect(fromSecond.entry).toEqual(fromFirst.entry);
    expect(two.calls).toBe(0);
    await settled();
    expect(locks.locks.size).toBe(0);
  });

  it('caches no failure: when the holder fails, the waiting replica loads the piece itself', async () => {
    const { first, second } = replicas();
    const failing = () => sleep(40).then(() => Promise.reject(new UpstreamUnavailableError('flood_data', 'HTTP 500')));
    const two = new HeldLoad();
    const failed = forJob(() => first.getOrLoad('flood', 'a', cached, failing, waitOf(new AbortController(), 'first')));
    await sleep(5);
    const waiting = forJob(() => second.getOrLoad('flood', 'a', cached, two.load, waitOf(new AbortController(), 'second')));
    await expect(failed).rejects.toThrow('HTTP 500');
    await sleep(100);
    expect(two.calls).toBe(1);
    two.finish('zone X');
    expect((await waiting).entry.value).toBe('zone X');
  });

  it('loads the piece once the lock of a replica that died while loading it lapses', async () => {
    const { first, locks } = replicas();
    await locks.take('flood:a', 'a replica gone', 150);
    const held = new HeldLoad();
    const started = Date.now();
    const read = forJob(() => first.getOrLoad('flood', 'a', cached, held.load, waitOf(new AbortController(), 'first')));
    await sleep(100);
    expect(held.calls).toBe(0);
    while (held.calls === 0 && Date.now() - started < 1000) await sleep(10);
    expect(held.calls).toBe(1);
    held.finish('zone VE');
    expect((await read).entry.value).toBe('zone VE');
  });

  it('lets a caller waiting for another replica leave with its own error, and stops looking', async () => {
    const { first, second, locks } = replicas();
    const one = new HeldLoad();
    const leaving = new AbortController();
    const holding = forJob(() => first.getOrLoad('flood', 'a', cached, one.load, waitOf(new AbortController(), 'first')));
    await sleep(5);
    const waiting = forJob(() => second.getOrLoad('flood', 'a', cached, one.load, waitOf(leaving, 'second')));
    await sleep(50);
    leaving.abort();
    await expect(waiting).rejects.toThrow('second gave up');
    const takes = locks.takes;
    one.finish('zone AE');
    expect((await holding).entry.value).toBe('zone AE');
    await sleep(100);
    expect([one.calls, locks.takes]).toEqual([1, takes]);
  });

  it('takes no lock outside job work, nor for a piece that is not cached', async () => {
    const { first, second, locks } = replicas();
    const loads = [new HeldLoad(), new HeldLoad(), new HeldLoad()];
    const reads = [
      first.getOrLoad('flood', 'a', cached, loads[0].load, waitOf(new AbortController(), 'first')),
      second.getOrLoad('flood', 'a', cached, loads[1].load, waitOf(new AbortController(), 'second')),
      forJob(() => first.getOrLoad('flood', 'b', noCaching, loads[2].load, waitOf(new AbortController(), 'first'))),
    ];
    await settled();
    expect([...loads.map((held) => held.calls), locks.takes]).toEqual([1, 1, 1, 0]);
    for (const held of loads) held.finish('zone A');
    await Promise.all(reads);
  });
});
