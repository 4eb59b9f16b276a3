import { ClientRateStorage } from './client-rate-storage';

describe('ClientRateStorage', () => {
  it('counts each client in its own fixed window, then refuses until the window ends', async () => {
    const storage = await ClientRateStorage.create(2, 60_000);
    expect(await storage.increment('a')).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    expect(await storage.increment('a')).toEqual({ totalHits: 2, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    expect(await storage.increment('a')).toEqual({ totalHits: 3, timeToExpire: 60, isBlocked: true, timeToBlockExpire: 60 });
    expect(await storage.increment('b')).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('starts a new window once the old one ends', async () => {
    const storage = await ClientRateStorage.create(1, 1000);
    expect((await storage.increment('a')).isBlocked).toBe(false);
    expect((await storage.increment('a')).isBlocked).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await storage.increment('a')).toEqual({ totalHits: 1, timeToExpire: 1, isBlocked: false, timeToBlockExpire: 0 });
  });
});
