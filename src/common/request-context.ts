import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

/** Per-request facts gathered deep in the call chain for the request's log line. */
export interface RequestFacts {
  /** Milliseconds of each upstream attempt made on behalf of this request, by upstream. */
  upstreamMs: Record<string, number[]>;
}

const storage = new AsyncLocalStorage<RequestFacts>();

/** Express middleware: the facts live on `res.locals`, so the log line can read them after the handler. */
export function collectRequestFacts(_req: Request, res: Response, next: NextFunction): void {
  const facts: RequestFacts = { upstreamMs: {} };
  res.locals.requestFacts = facts;
  storage.run(facts, next);
}

export function recordUpstreamTiming(upstream: string, ms: number): void {
  const facts = storage.getStore();
  if (facts) (facts.upstreamMs[upstream] ??= []).push(Math.round(ms));
}
