/** How long a webhook delivery is retried, counted from its first attempt. */
export const DELIVERY_RETRY_WINDOW_MS = 3 * 24 * 3600 * 1000;
/** The wait after the first failure; each further failure doubles it. */
const FIRST_RETRY_DELAY_MS = 30_000;
/** The longest wait between two attempts, so a receiver back after an outage is not left waiting for a day. */
const LONGEST_RETRY_DELAY_MS = 6 * 3600 * 1000;

/**
 * How long to wait before the next attempt after `failedAttempts` failed ones (at least 1): 30 s, 1 min, 2 min, …
 * doubling up to 6 h, the last wait shortened so the last attempt falls exactly 3 days after the first; null once
 * those 3 days are used up. The waits alone count (not how long each attempt took), so the schedule is the same
 * for every receiver.
 */
export function nextDeliveryDelayMs(failedAttempts: number): number | null {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1)
    throw new RangeError(`failed attempts must be a whole number of at least 1, not ${failedAttempts}`);
  let elapsed = 0;
  for (let attempt = 1; ; attempt++) {
    if (elapsed >= DELIVERY_RETRY_WINDOW_MS) return null;
    const delay = Math.min(FIRST_RETRY_DELAY_MS * 2 ** Math.min(attempt - 1, 30), LONGEST_RETRY_DELAY_MS, DELIVERY_RETRY_WINDOW_MS - elapsed);
    if (attempt === failedAttempts) return delay;
    elapsed += delay;
  }
}
