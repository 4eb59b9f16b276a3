import { AsyncResource } from 'node:async_hooks';
// Real loop turns, also where a test fakes the global timers: the line is about the event loop, not the clock.
import { setImmediate } from 'node:timers';

/** Work waiting for an event-loop turn of its own, in arrival order, each with the async context it was lined up in. */
const line: Array<{ work: () => void; context: AsyncResource }> = [];

function serveOne(): void {
  const next = line.shift();
  // The next turn is asked for first, so that work which throws does not stop the line.
  if (line.length > 0) setImmediate(serveOne);
  next?.context.runInAsyncScope(next.work);
}

/**
 * Runs `work` in an event-loop turn of its own, after the work lined up before it: one piece per turn, with
 * the sockets read between two pieces. Work that many lookups would otherwise do in one go (cold lookups
 * arriving together, their deadlines expiring together) then never holds a cheap request such as /health for
 * longer than one piece. `work` runs in the async context it was lined up in (its request's, not whichever
 * request's turn happens to serve it).
 */
export function inOwnLoopTurn(work: () => void): void {
  // An AsyncResource, not AsyncResource.bind, which builds a deprecation wrapper at every call.
  if (line.push({ work, context: new AsyncResource('EventLoopTurn') }) === 1) setImmediate(serveOne);
}

/** Resolves in an event-loop turn of its own (see inOwnLoopTurn). */
export function ownLoopTurn(): Promise<void> {
  return new Promise((resolve) => inOwnLoopTurn(resolve));
}
