/**
 * Resolves after `ms`; rejects with the signal's own reason as soon as it aborts (at once if it already has).
 * Callers tell their own abandonment by that reason, which node:timers/promises would wrap in an AbortError.
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}
