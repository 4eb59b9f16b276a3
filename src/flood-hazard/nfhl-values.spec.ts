import { formatNfhlDate, lengthInFeet, nfhlText } from './nfhl-values';

describe('nfhlText', () => {
  it.each([
    [null, null],
    [undefined, null],
    ['', null],
    [' ', null],
    ['   ', null],
    ['<Null>', null],
    ['<NULL>', null],
    ['<null>', null],
    ['-9999', null],
    [' -9999 ', null],
    ['NAVD88', 'NAVD88'],
    ['  NAVD 88 ', 'NAVD 88'],
    ['FLOODWAY', 'FLOODWAY'],
  ])('%p -> %p', (value, expected) => {
    expect(nfhlText(value)).toBe(expected);
  });
});

describe('lengthInFeet', () => {
  it.each([
    [null, 'Feet', null],
    [-9999, 'Feet', null],
    [-9999, 'Meters', null],
    [Number.NaN, 'Feet', null],
    [583, 'Feet', 583],
    [583, null, 583],
    [583, '', 583],
    [583, '<Null>', 583],
    [583, '-9999', 583],
    [12.5, 'Feet', 12.5],
    [10, 'Meters', 32.8],
    [10, 'meters', 32.8],
    [1, 'Meters', 3.3],
    [0, 'Meters', 0],
    [30.48, 'Centimeters', 1],
    [100, 'Centimeters', 3.3],
  ])('%p %p -> %p', (value, unit, expected) => {
    expect(lengthInFeet(value, unit)).toBe(expected);
  });
});

describe('formatNfhlDate', () => {
  it.each([
    [1258502400000, '2009-11-18'], // Toa Baja panel 72000C0330J; a US local time would show 2009-11-17
    [1597795200000, '2020-08-19'], // Renton panel 53033C0977G
    [1581638400000, '2020-02-14'],
    [0, '1970-01-01'],
    [253392451200000, null], // 9999-09-09 placeholder
    [253402214400000, null], // 9999-12-31, still the placeholder year
    [null, null],
    [undefined, null],
    [Number.NaN, null],
    [-9999, null],
  ])('%p -> %p', (value, expected) => {
    expect(formatNfhlDate(value)).toBe(expected);
  });

  describe('in a US time zone', () => {
    const originalTz = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = 'America/Los_Angeles';
    });
    afterAll(() => {
      if (originalTz === undefined) delete process.env.TZ;
      else process.env.TZ = originalTz;
    });

    it('still renders the UTC date', () => {
      expect(formatNfhlDate(1258502400000)).toBe('2009-11-18');
      expect(formatNfhlDate(1597795200000)).toBe('2020-08-19');
    });

    it('uses no local-time Date accessors', () => {
      const spies = (['getFullYear', 'getMonth', 'getDate', 'toLocaleDateString', 'toDateString'] as const).map((method) => jest.spyOn(Date.prototype, method));
      try {
        formatNfhlDate(1258502400000);
        for (const spy of spies) expect(spy).not.toHaveBeenCalled();
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
    });
  });
});
