import type { Cache } from 'cache-manager';
import { UpstreamUnavailableError } from '../common/api-error';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { CachedEntry, PieceCache, PieceWait } from './piece-cache';

/** A cache tier in memory; `set` keeps what it is given. */
function memoryTier(): Cache {
  const entries = new Map<string, unknown>();
  return {
    get: async (key: string) => entries.get(key),
    set: async (key: string, value: unknown) => entries.set(key, value),
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
