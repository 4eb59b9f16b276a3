import { answerFreshness, PieceRead } from './answer-freshness';

const NOW = 1_800_000_000_000;
const hit = (freshForS: number): PieceRead => ({ status: 'HIT', piece: { freshUntil: NOW + freshForS * 1000 } });
const miss = (freshForS: number): PieceRead => ({ status: 'MISS', piece: { freshUntil: NOW + freshForS * 1000 } });
const stale: PieceRead = { status: 'STALE', piece: { freshUntil: NOW - 5000 } };
/** A county that could not be read: no piece, so nothing to count on. */
const unread: PieceRead = { status: 'MISS' };
const complete = { partFailed: false, incomplete: false, now: NOW };

describe('answerFreshness', () => {
  it.each([
    ['every piece a hit: HIT, until the first piece expires', [hit(86_400), hit(3600)], complete, { cacheStatus: 'HIT', maxAgeSeconds: 3600 }],
    ['one piece loaded now: MISS', [hit(86_400), miss(86_400)], complete, { cacheStatus: 'MISS', maxAgeSeconds: 86_400 }],
    [
      'a part failed, the rest hits: MISS (the part is asked again)',
      [hit(86_400)],
      { ...complete, partFailed: true },
      { cacheStatus: 'MISS', maxAgeSeconds: 86_400 },
    ],
    ['a part missing: at most 60 s', [miss(86_400)], { ...complete, incomplete: true }, { cacheStatus: 'MISS', maxAgeSeconds: 60 }],
    [
      'a part missing, a piece expiring sooner: that piece',
      [hit(30), hit(86_400)],
      { ...complete, incomplete: true },
      { cacheStatus: 'HIT', maxAgeSeconds: 30 },
    ],
    ['a piece served stale: STALE, not to be kept', [hit(86_400), stale], complete, { cacheStatus: 'STALE', maxAgeSeconds: 0 }],
    ['a piece read without one (its county unknown): nothing to keep', [hit(86_400), unread], complete, { cacheStatus: 'MISS', maxAgeSeconds: 0 }],
    ['a fraction of a second left: 0, never negative', [hit(0.4)], complete, { cacheStatus: 'HIT', maxAgeSeconds: 0 }],
    ['already expired: 0', [hit(-2)], complete, { cacheStatus: 'HIT', maxAgeSeconds: 0 }],
  ] as const)('%s', (_case, reads, answer, expected) => {
    expect(answerFreshness(reads, answer)).toEqual(expected);
  });
});
