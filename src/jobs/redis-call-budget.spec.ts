import { spacedRate } from './redis-call-budget';

describe('spacedRate: the headroom left for calls arriving a little late', () => {
  it.each([
    [1, 0.5],
    [2, 1],
    [20, 19],
    [100, 95],
    [1000, 950],
  ])('%i a second are spaced as %d a second', (rate, spaced) => {
    expect(spacedRate(rate)).toBeCloseTo(spaced, 9);
  });
});
