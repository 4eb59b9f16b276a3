import type { CachePolicy, CacheRead, LookupCache } from '../cache/lookup-cache';
import { BatchCancelledError, BatchMemo } from './batch-memo';

/** The shared cache with caching off: every read loads. */
const noCache = {
  getOrLoad: async <T>(_name: string, _key: string, _policy: CachePolicy<T>, load: () => Promise<T>): Promise<CacheRead<T>> => ({
    status: 'MISS',
    entry: { value: await load(), storedAt: 0, freshUntil: 0 },
  }),
} as unknown as LookupCache;

const policy = { ttlSeconds: 0, staleIfErrorSeconds: 0 };

describe('BatchMemo', () => {
  it('loads each piece once per batch even when the shared cache keeps nothing', async () => {
    const memo = new BatchMemo(noCache, new AbortController().signal);
    const load = jest.fn(async () => 'answer');
    const reads = await Promise.all([memo.getOrLoad('flood', 'a', policy, load), memo.getOrLoad('flood', 'a', policy, load)]);
    await memo.getOrLoad('flood', 'a', policy, load);
    expect(reads.map((read) => read.entry.value)).toEqual(['answer', 'answer']);
    expect(load).toHaveBeenCalledTimes(1);
    await memo.getOrLoad('place', 'a', policy, load);
    await memo.getOrLoad('flood', 'b', policy, load);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('remembers a failure: the rows that share a piece share its error', async () => {
    const memo = new BatchMemo(noCache, new AbortController().signal);
    const load = jest.fn(async () => {
      throw new Error('upstream down');
    });
    await expect(memo.getOrLoad('flood', 'a', policy, load)).rejects.toThrow('upstream down');
    await expect(memo.getOrLoad('flood', 'a', policy, load)).rejects.toThrow('upstream down');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads nothing new once the batch is cancelled', async () => {
    const cancelled = new AbortController();
    const memo = new BatchMemo(noCache, cancelled.signal);
    const load = jest.fn(async () => 'answer');
    await memo.getOrLoad('flood', 'a', policy, load);
    cancelled.abort();
    await expect(memo.getOrLoad('flood', 'b', policy, load)).rejects.toBeInstanceOf(BatchCancelledError);
    expect((await memo.getOrLoad('flood', 'a', policy, load)).entry.value).toBe('answer');
    expect(load).toHaveBeenCalledTimes(1);
  });
});
