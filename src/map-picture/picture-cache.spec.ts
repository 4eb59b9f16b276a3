import type { CacheStatus } from '../cache/piece-cache';
import { MapPicture, PictureCache } from './picture-cache';

function picture(bytes: number, overrides: { cacheStatus?: CacheStatus; expiresAt?: number } = {}): MapPicture {
  const png = Buffer.alloc(bytes);
  return {
    entity: {
      body: png,
      byteLength: png.length,
      contentType: 'image/png',
      etag: `"${bytes}"`,
      expiresAt: overrides.expiresAt ?? Date.now() + 60_000,
      headers: ['X-Map-Legend', 'AE'],
    },
    cacheStatus: overrides.cacheStatus ?? 'MISS',
  };
}

describe('PictureCache', () => {
  it('keeps a composed picture and finds it again', async () => {
    const cache = new PictureCache(1000);
    const made = picture(100);
    await cache.composeOnce('a', () => Promise.resolve(made));
    expect(cache.find('a')).toBe(made);
    expect(cache.find('b')).toBeUndefined();
  });

  it('composes once for every caller that comes while the picture is being composed', async () => {
    const cache = new PictureCache(1000);
    let compositions = 0;
    let finish: (p: MapPicture) => void = () => undefined;
    const compose = () => {
      compositions += 1;
      return new Promise<MapPicture>((resolve) => (finish = resolve));
    };
    const waiting = [cache.composeOnce('a', compose), cache.composeOnce('a', compose), cache.composeOnce('a', compose)];
    const made = picture(10);
    finish(made);
    expect(await Promise.all(waiting)).toEqual([made, made, made]);
    expect(compositions).toBe(1);
  });

  it('shares a failure with every waiting caller, keeps nothing, and composes afresh next time', async () => {
    const cache = new PictureCache(1000);
    let compositions = 0;
    const failing = (): Promise<MapPicture> => {
      compositions += 1;
      return Promise.reject(new Error('NFHL export failed'));
    };
    const results = await Promise.allSettled([cache.composeOnce('a', failing), cache.composeOnce('a', failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(compositions).toBe(1);
    expect(cache.find('a')).toBeUndefined();
    const made = picture(10);
    expect(await cache.composeOnce('a', () => Promise.resolve(made))).toBe(made);
  });

  it.each([
    ['made from a stale answer', { cacheStatus: 'STALE' as const }],
    ['already expired (max-age 0)', { expiresAt: Date.now() }],
  ])('never keeps a picture %s', async (_case, overrides) => {
    const cache = new PictureCache(1000);
    await cache.composeOnce('a', () => Promise.resolve(picture(10, overrides)));
    expect(cache.find('a')).toBeUndefined();
  });

  it('drops a picture once its max-age has run out', async () => {
    const cache = new PictureCache(1000);
    await cache.composeOnce('a', () => Promise.resolve(picture(10, { expiresAt: Date.now() + 30 })));
    expect(cache.find('a')).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(cache.find('a')).toBeUndefined();
  });

  it('holds at most maxBytes of PNG, dropping the least recently served first', async () => {
    const cache = new PictureCache(300);
    for (const key of ['a', 'b', 'c']) await cache.composeOnce(key, () => Promise.resolve(picture(100)));
    expect(cache.find('a')).toBeDefined(); // now b is the least recently served
    await cache.composeOnce('d', () => Promise.resolve(picture(100)));
    expect(['a', 'b', 'c', 'd'].map((key) => cache.find(key) !== undefined)).toEqual([true, false, true, true]);
    await cache.composeOnce('e', () => Promise.resolve(picture(250)));
    expect(['a', 'c', 'd', 'e'].map((key) => cache.find(key) !== undefined)).toEqual([false, false, false, true]);
  });

  it('never keeps a picture larger than the whole cache, and keeps what it holds', async () => {
    const cache = new PictureCache(300);
    await cache.composeOnce('a', () => Promise.resolve(picture(100)));
    await cache.composeOnce('big', () => Promise.resolve(picture(301)));
    expect(cache.find('big')).toBeUndefined();
    expect(cache.find('a')).toBeDefined();
  });
});
