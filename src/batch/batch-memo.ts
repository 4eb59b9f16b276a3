import type { CachePolicy, CacheRead, PieceCache, PieceLoad, PieceWait } from '../cache/piece-cache';
import type { CacheName } from '../metrics/service-metrics';

/**
 * The shared lookup cache as one batch sees it: each piece (a point's flood answer, an opt-in part, a
 * geocode, a county) is read through the shared cache, with its single-flight and policies, at most once
 * per batch, even with caching disabled; a failure is remembered too, so the rows that share it share its
 * 502. The first row to ask waits as it would alone (its deadline, its batch's cancellation); rows asking
 * later share that wait. Lives as long as its batch.
 */
export class BatchMemo implements Pick<PieceCache, 'getOrLoad'> {
  private readonly reads = new Map<string, Promise<CacheRead<unknown>>>();

  constructor(private readonly shared: Pick<PieceCache, 'getOrLoad'>) {}

  getOrLoad<T>(name: CacheName, key: string, policy: CachePolicy<T>, load: PieceLoad<T>, wait: PieceWait): Promise<CacheRead<T>> {
    const memoKey = `${name}:${key}`;
    let read = this.reads.get(memoKey) as Promise<CacheRead<T>> | undefined;
    if (!read) {
      read = this.shared.getOrLoad(name, key, policy, load, wait);
      this.reads.set(memoKey, read);
    }
    return read;
  }
}
