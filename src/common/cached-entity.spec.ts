import { entityTag, matchesEtag, weakEntityTag } from './cached-entity';

describe('weakEntityTag', () => {
  it('is the strong tag of the same bytes, marked weak', () => {
    expect(weakEntityTag('page')).toBe(`W/${entityTag('page')}`);
  });
});

describe('matchesEtag', () => {
  it.each([
    ['"a"', '"a"', true],
    ['W/"a"', '"a"', true],
    ['"b", "a"', '"a"', true],
    ['*', '"a"', true],
    ['"b"', '"a"', false],
    [undefined, '"a"', false],
    // a weak tag (a report's) compares weakly, as GET allows
    ['W/"a"', 'W/"a"', true],
    ['"a"', 'W/"a"', true],
    ['W/"b"', 'W/"a"', false],
  ])('If-None-Match %s against %s → %s', (header, etag, expected) => {
    expect(matchesEtag(header, etag)).toBe(expected);
  });
});
