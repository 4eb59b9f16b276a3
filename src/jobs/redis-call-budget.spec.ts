import type Redis from 'ioredis';
import { RedisCallBudget, punctualityMs, spacedRate } from './redis-call-budget';

describe('spacedRate: the headroom left for calls arriving a little late', () => {
  it.each([
    [1, 0.5],
    [2, 1],
    [5, 4],
    [20, 18],
    [100, 90],
    [1000, 900],
  ])('%i a second are spaced as %d a second', (rate, spaced) => {
    expect(spacedRate(rate)).toBeCloseTo(spaced, 9);
  });
});

describe('punctualityMs: how late a call may be sent after its turn, every second staying within the rate', () => {
  it.each([
    [1, 250],
    [5, 62.5],
    [20, 27.8],
    [50, 27.8],
    [1000, 27.8],
  ])('%i a second: %d ms', (rate, ms) => {
    expect(punctualityMs(rate)).toBeCloseTo(ms, 1);
  });

  it('leaves every sliding second within the rate when calls are that late', () => {
    for (const rate of [1, 5, 20, 50, 150, 1000]) {
      // Turns spaced evenly, a second's worth and more; the calls of a window that long, stretched by the lateness.
      const spacingMs = 1000 / spacedRate(rate);
      const turnsInStretchedSecond = Math.floor((1000 + punctualityMs(rate)) / spacingMs) + 1;
      expect(turnsInStretchedSecond).toBeLessThanOrEqual(rate);
    }
  });
});

/** A Redis whose every NEXT_TURN answer comes `replyMs` after it is asked, granting the turn at once. */
function slowRedis(replyMs: number[]): { redis: Redis; asked: () => number } {
  let asked = 0;
  const evaluate = () => new Promise((resolve) => setTimeout(() => resolve(0), replyMs[Math.min(asked++, replyMs.length - 1)]));
  return { redis: { eval: evaluate } as unknown as Redis, asked: () => asked };
}

describe('RedisCallBudget: a turn is good only when the call goes out on time', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const never = new AbortController().signal;

  it('takes a turn granted promptly', async () => {
    const { redis, asked } = slowRedis([1]);
    const turn = new RedisCallBudget(redis, 50, () => undefined).admit('flood_data', never);
    await jest.advanceTimersByTimeAsync(1);
    await turn;
    expect(asked()).toBe(1);
  });

  it('forfeits a turn it learns of too late (a busy process), and asks for another', async () => {
    const { redis, asked } = slowRedis([100, 1]);
    const turn = new RedisCallBudget(redis, 50, () => undefined).admit('flood_data', never);
    await jest.advanceTimersByTimeAsync(101);
    await turn;
    expect(asked()).toBe(2);
  });

  it('never goes late, however often its turns come too late: it asks again until one is on time', async () => {
    const { redis, asked } = slowRedis([100, 100, 100, 100, 100, 1]);
    let admitted = false;
    const turn = new RedisCallBudget(redis, 50, () => undefined).admit('flood_data', never).then(() => (admitted = true));
    await jest.advanceTimersByTimeAsync(450);
    expect({ admitted, asked: asked() }).toEqual({ admitted: false, asked: 5 });
    await jest.advanceTimersByTimeAsync(100);
    await turn;
    expect({ admitted, asked: asked() }).toEqual({ admitted: true, asked: 6 });
  });
});
