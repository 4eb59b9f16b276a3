import { pause } from './pause';

describe('pause', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('resolves after `ms`, leaving no timer or listener behind', async () => {
    const running = new AbortController();
    let done = false;
    const paused = pause(100, running.signal).then(() => (done = true));
    await jest.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await paused;
    expect(done).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });

  it("rejects with the signal's own reason once it aborts, and clears its timer", async () => {
    const running = new AbortController();
    const paused = pause(100, running.signal);
    const reason = new Error('abandoned');
    running.abort(reason);
    await expect(paused).rejects.toBe(reason);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('rejects at once when the signal has already aborted', async () => {
    const reason = new Error('abandoned');
    await expect(pause(100, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(jest.getTimerCount()).toBe(0);
  });
});
