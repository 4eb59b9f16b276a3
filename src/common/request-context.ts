import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request facts gathered deep in the call chain for the request's log line. */
export interface RequestFacts {
  requestId: string;
  /** Milliseconds of each upstream attempt made on behalf of this request, by upstream. */
  upstreamMs: Record<string, number[]>;
}

const storage = new AsyncLocalStorage<RequestFacts>();

/** Runs `next` with the request's facts in scope; the edge keeps the same object to read them afterwards. */
export function withRequestFacts(facts: RequestFacts, next: () => void): void {
  storage.run(facts, next);
}

/** The id of the request being served here, for application log lines. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

export function recordUpstreamTiming(upstream: string, ms: number): void {
  const facts = storage.getStore();
  if (facts) (facts.upstreamMs[upstream] ??= []).push(Math.round(ms));
}
