export interface OrderLimits {
  /** Rows being worked on at once. */
  running: number;
  /** How far work may run ahead of the oldest row not yet handed out: finished rows wait at most this many. */
  ahead: number;
}

/**
 * Works on rows 0..count-1 several at a time and hands out each row's result as soon as it and every row
 * before it are done, so the output keeps input order while later rows may finish first. Memory holds at
 * most `limits.ahead` results. Once `stop` is aborted no further row starts (rows under way still finish,
 * and what was handed out stays valid). `work` must not throw: a row's failure is its own result.
 */
export async function* inInputOrder<R>(count: number, work: (index: number) => Promise<R>, limits: OrderLimits, stop?: AbortSignal): AsyncGenerator<R> {
  const started = new Map<number, Promise<R>>();
  let next = 0;
  let running = 0;
  let handedOut = 0;
  const startMore = () => {
    while (next < count && running < limits.running && next - handedOut < limits.ahead && !stop?.aborted) {
      const index = next++;
      running++;
      started.set(
        index,
        work(index).finally(() => {
          running--;
          startMore();
        }),
      );
    }
  };
  for (; handedOut < count; handedOut++) {
    startMore();
    const result = started.get(handedOut);
    if (!result) return;
    started.delete(handedOut);
    yield await result;
  }
}
