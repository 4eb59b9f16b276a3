import { DELIVERY_RETRY_WINDOW_MS, nextDeliveryDelayMs } from './webhook-retry';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe('nextDeliveryDelayMs', () => {
  it.each([
    [1, 30 * SECOND],
    [2, MINUTE],
    [3, 2 * MINUTE],
    [4, 4 * MINUTE],
    [5, 8 * MINUTE],
    [9, 128 * MINUTE],
    [10, 256 * MINUTE],
    [11, 6 * HOUR],
    [20, 6 * HOUR],
    // 10 doubling waits (8 h 31 min 30 s) and 10 of 6 h leave 3 h 28 min 30 s of the 3 days: the last wait.
    [21, 3 * HOUR + 28 * MINUTE + 30 * SECOND],
    [22, null],
    [1000, null],
  ])('after %i failed attempts waits %p ms', (failedAttempts, delay) => {
    expect(nextDeliveryDelayMs(failedAttempts)).toBe(delay);
  });

  it('retries within a minute of the first failure', () => {
    expect(nextDeliveryDelayMs(1)).toBeLessThanOrEqual(MINUTE);
  });

  it('puts the last attempt exactly 3 days after the first', () => {
    let elapsed = 0;
    for (let failed = 1; ; failed++) {
      const delay = nextDeliveryDelayMs(failed);
      if (delay === null) break;
      expect(delay).toBeGreaterThan(0);
      elapsed += delay;
    }
    expect(elapsed).toBe(DELIVERY_RETRY_WINDOW_MS);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses %p failed attempts', (failedAttempts) => {
    expect(() => nextDeliveryDelayMs(failedAttempts)).toThrow(RangeError);
  });
});
