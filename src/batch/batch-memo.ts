import type { CachePolicy, CacheRead, LookupCache } from '../cache/lookup-cache';
import type { CacheName } from '../metrics/service-metrics';

/** A row asked for something after its client had gone: never shown to anyone. */
export class BatchCancelledError extends Error {
  constructor() {
    super('the client disconnected; the rest of its batch is cancelled');
  }
}

/**
 * The shared lookup cache as one batch sees it: each piece (a point's flood answer, an opt-in part, a
 * geocode, a county) is read through the shared cache, with its single-flight and policies, at most once
 * per batch, even with caching disabled; a failure is remembered too, so the rows that share it share its
 * 502. Nothing new is loaded once `cancelled` is aborted. Lives as long as its batch.
 */
export class BatchMemo implements Pick<LookupCache, 'getOrLoad'> {
  private readonly reads = new Map<string, Promise<CacheRead<unknown>>>();

  constructor(
    private readonly shared: LookupCache,
    private readonly cancelled: AbortSignal,
  ) {}

  getOrLoad<T>(name: CacheName, key: string, policy: CachePolicy<T>, load: () => Promise<T>): Promise<CacheRead<T>> {
    const memoKey = `${name}:${key}`;
    let read = this.reads.get(memoKey) as Promise<CacheRead<T>> | undefined;
    if (!read) {
      read = this.shared.getOrLoad(name, key, policy, () => (this.cancelled.aborted ? Promise.reject(new BatchCancelledError()) : load()));
      this.reads.set(memoKey, read);
    }
    return read;
  }
}
