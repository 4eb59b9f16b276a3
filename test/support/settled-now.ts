/**
 * What `work` has settled with by the time the event loop turns once (its microtasks all run), or `still waiting`:
 * tells a promise that answers without waiting on anything from one held by a wait that never ends, without timing.
 */
export function settledNow<T>(work: Promise<T>): Promise<T | 'still waiting'> {
  return Promise.race([work, new Promise<'still waiting'>((resolve) => setImmediate(() => resolve('still waiting')))]);
}
