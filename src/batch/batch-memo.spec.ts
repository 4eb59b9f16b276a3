import type { CachePolicy, CacheRead, PieceCache, PieceWait } from '../cache/piece-cache';
import { BatchMemo } from './batch-memo';

/** The shared cache with caching off: every read loads, and a wait whose signal has aborted gives up at once. */
const noCache = {
  getOrLoad: async <T>(
    _name: string,
    _key: string,
    _policy: CachePolicy<T>,
    load: (signal: AbortSignal) => Promise<T>,
    wait: PieceWait,
  ): Promise<CacheRead<T>> => {
    if (wait.signal.aborted) throw wait.gaveUp();
    return { status: 'MISS', piece: { value: await load(wait.signal), storedAt: 0, freshUntil: 0 } };
  },
} as unknown as PieceCache;

const policy = { ttlSeconds: 0, staleIfErrorSeconds: 0 };
const waiting = (signal = new AbortController().signal): PieceWait => ({ signal, gaveUp: () => signal.reason });

describe('BatchMemo', () => {
  it('loads each piece once per batch even when the shared cache keeps nothing', async () => {
    const memo = new BatchMemo(noCache);
    const load = jest.fn(() => Promise.resolve('answer'));
    const reads = await Promise.all([memo.getOrLoad('flood', 'a', policy, load, waiting()), memo.getOrLoad('flood', 'a', policy, load, waiting())]);
    await memo.getOrLoad('flood', 'a', policy, load, waiting());
    expect(reads.map((read) => read.piece.value)).toEqual(['answer', 'answer']);
    expect(load).toHaveBeenCalledTimes(1);
    await memo.getOrLoad('place', 'a', policy, load, waiting());
    await memo.getOrLoad('flood', 'b', policy, load, waiting());
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('remembers a failure: the rows that share a piece share its error', async () => {
    const memo = new BatchMemo(noCache);
    const load = jest.fn(() => Promise.reject(new Error('upstream down')));
    await expect(memo.getOrLoad('flood', 'a', policy, load, waiting())).rejects.toThrow('upstream down');
    await expect(memo.getOrLoad('flood', 'a', policy, load, waiting())).rejects.toThrow('upstream down');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads nothing for a row of a cancelled batch, and still serves what it has read', async () => {
    const cancelled = new AbortController();
    const memo = new BatchMemo(noCache);
    const load = jest.fn(() => Promise.resolve('answer'));
    await memo.getOrLoad('flood', 'a', policy, load, waiting(cancelled.signal));
    const reason = new Error('the client is gone');
    cancelled.abort(reason);
    await expect(memo.getOrLoad('flood', 'b', policy, load, waiting(cancelled.signal))).rejects.toBe(reason);
    expect((await memo.getOrLoad('flood', 'a', policy, load, waiting(cancelled.signal))).piece.value).toBe('answer');
    expect(load).toHaveBeenCalledTimes(1);
  });
});
