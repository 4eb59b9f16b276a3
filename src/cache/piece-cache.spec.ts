import type { Cache } from 'cache-manager';
import { UpstreamUnavailableError } from '../common/api-error';
import { asJobWork, asLookup, lookupTimeLeft } from '../common/upstream/resilient-upstream';
import { UpstreamCallBudget } from '../common/upstream/upstream-call-budget';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { asSecondTry, CachedPiece, PieceCache, PieceParts, PieceWait } from './piece-cache';
import { PieceLoadLocks } from './piece-load-locks';
import { memoryTier } from '../../test/support/memory-cache-tier';

const metrics = { cacheLookup: () => undefined } as unknown as ServiceMetrics;
const noCaching = { ttlSeconds: 0, staleIfErrorSeconds: 0 };

/** A load that answers when told to, and shows the signal it was given. */
class HeldLoad {
  calls = 0;
  signal?: AbortSignal;
  private answer?: (value: string) => void;
  private failure?: (error: Error) => void;

  readonly load = (signal: AbortSignal): Promise<string> => {
    this.calls++;
    this.signal = signal;
    return new Promise((resolve, reject) => {
      this.answer = resolve;
      this.failure = reject;
      signal.addEventListener('abort', () => reject(new UpstreamUnavailableError('flood_data', 'abandoned')));
    });
  };

  finish(value: string): void {
    this.answer?.(value);
  }

  fail(reason: string): void {
    this.failure?.(new UpstreamUnavailableError('flood_data', reason));
  }
}

/** One caller's wait: it ends when `caller` aborts, with an error naming the caller. */
function waitOf(caller: AbortController, name: string): PieceWait {
  return { signal: caller.signal, gaveUp: () => new Error(`${name} gave up`) };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

/** One caller's wait that ends as a lookup out of time does: an upstream failure. */
function outOfTime(caller: AbortController): PieceWait {
  return { signal: caller.signal, gaveUp: () => new UpstreamUnavailableError('flood_data', 'no answer within the lookup deadline') };
}

/** A load that, once abandoned, answers with what it has: the query it cut is unknown, as a failed one is. */
const cutShort = (signal: AbortSignal) => new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('zone AE, LOMRs unknown')));
const cached = { ttlSeconds: 60, staleIfErrorSeconds: 0 };

describe('PieceCache single-flight', () => {
  it('shares one load among concurrent callers of a key', async () => {
    const cache = new PieceCache(memoryTier(), metrics);
    const held = new HeldLoad();
    const reads = [1, 2, 3].map((i) => cache.getOrLoad('flood', 'a', noCaching, held.load, waitOf(new AbortController(), `caller ${i}`)));
    await settled();
    held.finish('zone AE');
    expect((await Promise.all(reads)).map((read) => read.piece.value)).toEqual(['zone AE', 'zone AE', 'zone AE']);
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
    expect((await staying).piece.value).toBe('zone X');
    expect(held.calls).toBe(1);
  });

  it('abandons the load when its last caller stops waiting, which (out of time) gets what the load makes of it, and starts afresh for the next caller', async () => {
    const cache = new PieceCache(memoryTier(), metrics);
    const abandoned = new HeldLoad();
    const callers = [new AbortController(), new AbortController()];
    const waits = [waitOf(callers[0], 'caller 0'), outOfTime(callers[1])];
    const reads = waits.map((wait) => cache.getOrLoad('flood', 'a', noCaching, abandoned.load, wait));
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
    expect((await later).piece.value).toBe('zone A');
  });

  it('gives the last caller, out of time, an answer the abandoned load still makes (one without the parts FEMA was too slow for)', async () => {
    const cache = new PieceCache(memoryTier(), metrics);
    const caller = new AbortController();
    const read = cache.getOrLoad('flood', 'a', noCaching, cutShort, outOfTime(caller));
    await settled();
    caller.abort();
    expect((await read).piece.value).toBe('zone AE, LOMRs unknown');
  });

  it('never stores nor gives out a load whose last caller was cancelled (not out of time): the next caller loads the piece in full', async () => {
    const tier = memoryTier();
    const cache = new PieceCache(tier, metrics);
    const caller = new AbortController();
    const read = cache.getOrLoad('flood', 'a', cached, cutShort, waitOf(caller, 'cancelled row'));
    await settled();
    caller.abort();
    await expect(read).rejects.toThrow('cancelled row gave up');
    await settled();
    expect(await tier.get('flood:a')).toBeUndefined();

    const fresh = new HeldLoad();
    const next = cache.getOrLoad('flood', 'a', cached, fresh.load, waitOf(new AbortController(), 'next'));
    await settled();
    fresh.finish('zone AE, LOMRs 12-03-0456P');
    expect([(await next).piece.value, fresh.calls]).toEqual(['zone AE, LOMRs 12-03-0456P', 1]);
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

  it('serves a stale piece to a caller that gave up with an upstream failure, within STALE_IF_ERROR_SECONDS', async () => {
    const tier = memoryTier();
    const expired: CachedPiece<string> = { value: 'zone AE', storedAt: Date.now() - 120_000, freshUntil: Date.now() - 60_000 };
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
    expect(await read).toEqual({ piece: expired, status: 'STALE' });
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

  async store(key: string, piece: unknown): Promise<void> {
    await this.shared.set(key, piece);
  }

  async forget(keys: string[]): Promise<void> {
    for (const key of keys) await this.shared.del(key);
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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PieceCache: the time left to a shared load', () => {
  /** A lookup with `ms` left (a fixed figure: no time passes here). */
  const lookupWith = (ms: number) => ({ msLeft: () => ms });

  /** A held load that keeps the time left it runs with, as its upstream attempts would read it. */
  function timedLoad(held: HeldLoad): { load: (signal: AbortSignal) => Promise<string>; msLeft: () => number | undefined } {
    let timeLeft: ReturnType<typeof lookupTimeLeft>;
    return {
      load: (signal) => {
        timeLeft = lookupTimeLeft();
        return held.load(signal);
      },
      msLeft: () => timeLeft?.msLeft(),
    };
  }

  it('is the most any caller still waiting has left: a load its first caller is about to leave is not cut short for a later one', async () => {
    const cache = new PieceCache(memoryTier(), metrics);
    const held = new HeldLoad();
    const { load, msLeft } = timedLoad(held);
    const first = new AbortController();
    const leaving = asLookup(lookupWith(200), () => cache.getOrLoad('flood', 'a', noCaching, load, waitOf(first, 'first')));
    await settled();
    expect(msLeft()).toBe(200);
    const staying = asLookup(lookupWith(9000), () => cache.getOrLoad('flood', 'a', noCaching, load, waitOf(new AbortController(), 'second')));
    await settled();
    expect(msLeft()).toBe(9000);

    first.abort();
    await expect(leaving).rejects.toThrow('first gave up');
    expect(msLeft()).toBe(9000);
    held.finish('zone AE');
    expect((await staying).piece.value).toBe('zone AE');
    expect(held.calls).toBe(1);
  });

  it('is unbounded while a caller outside any lookup waits', async () => {
    const cache = new PieceCache(memoryTier(), metrics);
    const held = new HeldLoad();
    const { load, msLeft } = timedLoad(held);
    const inLookup = asLookup(lookupWith(200), () => cache.getOrLoad('flood', 'a', noCaching, load, waitOf(new AbortController(), 'lookup')));
    const outside = cache.getOrLoad('flood', 'a', noCaching, load, waitOf(new AbortController(), 'outside'));
    await settled();
    expect(msLeft()).toBe(Infinity);
    held.finish('zone X');
    expect((await Promise.all([inLookup, outside])).map((read) => read.piece.value)).toEqual(['zone X', 'zone X']);
  });
});

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
    expect(fromFirst.piece.value).toBe('zone AE');
    // The very piece the first stored, with its retrieval time.
    expect(fromSecond.piece).toEqual(fromFirst.piece);
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
    expect((await waiting).piece.value).toBe('zone X');
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
    expect((await read).piece.value).toBe('zone VE');
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
    expect((await holding).piece.value).toBe('zone AE');
    await sleep(100);
    expect([one.calls, locks.takes]).toEqual([1, takes]);
  });

  it('never stores a load cancelled on one replica where another finds it: the replica that retakes the row loads the piece in full', async () => {
    const { first, second, tier } = replicas();
    const stopping = new AbortController();
    const cut = forJob(() => first.getOrLoad('flood', 'a', cached, cutShort, waitOf(stopping, 'stopping replica')));
    await sleep(20);
    stopping.abort();
    await expect(cut).rejects.toThrow('stopping replica gave up');
    await sleep(20);
    expect(await tier.get('flood:a')).toBeUndefined();

    const fresh = new HeldLoad();
    const retaken = forJob(() => second.getOrLoad('flood', 'a', cached, fresh.load, waitOf(new AbortController(), 'retaking replica')));
    await sleep(20);
    fresh.finish('zone AE, LOMRs 12-03-0456P');
    expect([(await retaken).piece.value, fresh.calls]).toEqual(['zone AE, LOMRs 12-03-0456P', 1]);
  });

  /** A load of two layers, zones then LOMRs, each kept as a part; counts each layer's upstream calls. */
  function twoLayerLoad(lomrs: HeldLoad) {
    const calls = { zones: 0 };
    const load = async (signal: AbortSignal, parts: PieceParts) => {
      const zones = await parts.kept('zones', () => {
        calls.zones++;
        return Promise.resolve('zone AE');
      });
      return `${zones}, LOMRs ${await parts.kept('lomrs', () => lomrs.load(signal))}`;
    };
    return { calls, load };
  }

  it('keeps the layers a cut-short load had answered: the replica that retakes the row asks only for the rest, and the piece is as old as its oldest layer', async () => {
    const { first, second, tier } = replicas();
    const stopping = new AbortController();
    const interrupted = twoLayerLoad(new HeldLoad());
    const beforeCut = Date.now();
    const cut = forJob(() => first.getOrLoad('flood', 'a', cached, interrupted.load, waitOf(stopping, 'stopping replica')));
    await sleep(20);
    stopping.abort();
    const cutAt = Date.now();
    await expect(cut).rejects.toThrow('stopping replica gave up');
    await sleep(20);

    const lomrs = new HeldLoad();
    const retried = twoLayerLoad(lomrs);
    const retaken = forJob(() => second.getOrLoad('flood', 'a', cached, retried.load, waitOf(new AbortController(), 'retaking replica')));
    await sleep(20);
    lomrs.finish('12-03-0456P');
    const { piece } = await retaken;
    expect([piece.value, interrupted.calls.zones, retried.calls.zones, lomrs.calls]).toEqual(['zone AE, LOMRs 12-03-0456P', 1, 0, 1]);
    expect(piece.storedAt).toBeGreaterThanOrEqual(beforeCut);
    expect(piece.storedAt).toBeLessThanOrEqual(cutAt);
    await sleep(20);
    // Once the whole piece is stored its parts are of no more use.
    expect(await tier.get('flood:a')).toEqual(piece);
    expect([await tier.get('flood:a|zones'), await tier.get('flood:a|lomrs')]).toEqual([undefined, undefined]);
  });

  it('keeps no part that failed, and none outside job work', async () => {
    const { first, tier } = replicas();
    const failing = new HeldLoad();
    const failed = forJob(() => first.getOrLoad('flood', 'a', cached, twoLayerLoad(failing).load, waitOf(new AbortController(), 'row')));
    await sleep(20);
    failing.fail('HTTP 500');
    await expect(failed).rejects.toThrow('HTTP 500');
    expect(await tier.get('flood:a|lomrs')).toBeUndefined();
    expect(await tier.get('flood:a|zones')).toEqual(expect.objectContaining({ value: 'zone AE' }));

    const interactive = new AbortController();
    const cut = first.getOrLoad('flood', 'b', cached, twoLayerLoad(new HeldLoad()).load, waitOf(interactive, 'row'));
    await settled();
    interactive.abort();
    await expect(cut).rejects.toThrow('row gave up');
    expect(await tier.get('flood:b|zones')).toBeUndefined();
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

describe('PieceCache, asked a second time for answers that came back incomplete (asSecondTry)', () => {
  /** A day for a complete piece, a minute for one with a part unknown (as the lookup's policies keep them). */
  const shortenedWhenIncomplete = { ttlSeconds: 86_400, staleIfErrorSeconds: 0, ttlSecondsOf: (value: string) => (value.includes('unknown') ? 60 : 86_400) };
  const loadsOf = (value: string) => {
    const load = jest.fn((_signal: AbortSignal) => Promise.resolve(value));
    return load;
  };
  const read = (cache: PieceCache, key: string, load: (signal: AbortSignal) => Promise<string>) =>
    cache.getOrLoad('flood', key, shortenedWhenIncomplete, load, waitOf(new AbortController(), key));

  it('loads again a piece kept a shortened life for a part it lacked; takes a complete one as cached; only while a second try', async () => {
    const cache = new PieceCache(memoryTier(), metrics);
    await read(cache, 'a', loadsOf('zone AE, LOMRs unknown'));
    await read(cache, 'b', loadsOf('zone X'));
    const [again, complete, outside] = [loadsOf('zone AE, LOMR 12-06-1234P'), loadsOf('zone X'), loadsOf('never asked')];
    expect((await read(cache, 'a', outside)).status).toBe('HIT');
    const [a, b] = await asSecondTry(() => Promise.all([read(cache, 'a', again), read(cache, 'b', complete)]));
    expect([a.status, a.piece.value, b.status, b.piece.value]).toEqual(['MISS', 'zone AE, LOMR 12-06-1234P', 'HIT', 'zone X']);
    expect([again.mock.calls.length, complete.mock.calls.length, outside.mock.calls.length]).toEqual([1, 0, 0]);
    // What the second try loaded is cached as any piece.
    expect((await read(cache, 'a', outside)).piece.value).toBe('zone AE, LOMR 12-06-1234P');
  });

  it('across replicas too: a second try loads again what another replica stored incomplete', async () => {
    const tier = memoryTier();
    const locks = new MemoryLocks(tier);
    const [first, second] = [new PieceCache(tier, metrics, locks), new PieceCache(tier, metrics, locks)];
    await asJobWork(budget, () => read(first, 'a', loadsOf('zone AE, LOMRs unknown')));
    const again = loadsOf('zone AE, LOMR 12-06-1234P');
    const retried = await asJobWork(budget, () => asSecondTry(() => read(second, 'a', again)));
    expect([retried.status, retried.piece.value, again.mock.calls.length]).toEqual(['MISS', 'zone AE, LOMR 12-06-1234P', 1]);
  });
});
