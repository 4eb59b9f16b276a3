import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { entityTag } from '../common/cached-entity';
import { AnswerCache, answerKey } from './answer-cache';
import type { LocationQuery } from './location-query';
import type { LookupAnswer } from './lookup.service';
import type { NfipStatusPort } from '../parts/nfip-status/nfip-status-port';

/** The NFIP table held: only its version matters to the answer cache. */
const nfipTable = { tableVersion: 1 };
const cacheOf = (maxEntries: number) =>
  new AnswerCache({ get: () => maxEntries } as unknown as ConfigService<AppConfig, true>, nfipTable as unknown as NfipStatusPort);
const point = (lat: number, lon: number, include: string[] = [], radiusM = 500): LocationQuery =>
  ({ kind: 'point', lat, lon, include: new Set(include), radiusM }) as LocationQuery;
const answer = (cacheStatus: LookupAnswer['cacheStatus'], maxAgeSeconds: number, marker = 'x'): LookupAnswer =>
  ({ body: { marker }, cacheStatus, maxAgeSeconds }) as unknown as LookupAnswer;

describe('AnswerCache', () => {
  it('keeps a fresh answer as sent: its bytes and their strong ETag', () => {
    const cache = cacheOf(10);
    const served = cache.remember(point(1, 2), answer('MISS', 60));
    expect(served.body).toBe('{"marker":"x"}');
    expect(served.etag).toBe(entityTag(served.body));
    expect(cache.find(point(1, 2))).toEqual(served);
  });

  it.each([
    ['a STALE answer', answer('STALE', 0)],
    ['an answer with no freshness left', answer('MISS', 0)],
  ])('never keeps %s', (_what, given) => {
    const cache = cacheOf(10);
    cache.remember(point(1, 2), given);
    expect(cache.find(point(1, 2))).toBeUndefined();
  });

  it('stops serving an answer once a newer NFIP table is held (its community.nfip came from the older one)', () => {
    const cache = cacheOf(10);
    cache.remember(point(1, 2), answer('MISS', 86_400));
    nfipTable.tableVersion += 1;
    expect(cache.find(point(1, 2))).toBeUndefined();
    const rebuilt = cache.remember(point(1, 2), answer('MISS', 86_400, 'joined with the newer table'));
    expect(cache.find(point(1, 2))).toEqual(rebuilt);
  });

  it('holds at most CACHE_MAX_ENTRIES answers, dropping the least recently used', () => {
    const cache = cacheOf(2);
    cache.remember(point(1, 1), answer('MISS', 60));
    cache.remember(point(2, 2), answer('MISS', 60));
    expect(cache.find(point(1, 1))).toBeDefined();
    cache.remember(point(3, 3), answer('MISS', 60));
    expect(cache.find(point(2, 2))).toBeUndefined();
    expect(cache.find(point(1, 1))).toBeDefined();
    expect(cache.find(point(3, 3))).toBeDefined();
  });

  it('lets an answer go when its max-age is over', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const cache = cacheOf(10);
      cache.remember(point(1, 2), answer('HIT', 5));
      jest.setSystemTime(1_004_999);
      expect(cache.find(point(1, 2))).toBeDefined();
      jest.setSystemTime(1_005_000);
      expect(cache.find(point(1, 2))).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('answerKey', () => {
  it('tells apart everything that changes the bytes of an answer', () => {
    const keys = [
      point(1, 2),
      point(1.0000001, 2),
      point(1, 2, ['nearby']),
      point(1, 2, ['nearby'], 600),
      { kind: 'address', address: 'a b', include: new Set(), radiusM: 500 } as LocationQuery,
      { kind: 'address', address: 'a  b', include: new Set(), radiusM: 500 } as LocationQuery,
      // the building chosen
      { ...point(1, 2), buildId: '53030001' },
      { ...point(1, 2), buildId: '53030002' },
    ].map(answerKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('does not depend on the order of include', () => {
    expect(answerKey(point(1, 2, ['cbrs', 'nearby']))).toBe(answerKey(point(1, 2, ['nearby', 'cbrs'])));
  });
});
