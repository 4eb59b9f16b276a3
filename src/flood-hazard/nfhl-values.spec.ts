import { formatNfhlDate, lengthInFeet, nfhlText, nfhlValueProblem } from './nfhl-values';

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

describe('nfhlValueProblem: an NFHL value no flood map can hold is a fault of the upstream, never an answer', () => {
  it.each<[string, Record<string, unknown>, string | null]>([
    ['a real AE zone (Houston)', { FLD_ZONE: 'AE', STATIC_BFE: 41, DEPTH: -9999, LEN_UNIT: 'Feet' }, null],
    ['no BFE and no depth: the -9999 sentinel and null', { STATIC_BFE: -9999, DEPTH: null }, null],
    ['a BFE of 1e308 ft', { STATIC_BFE: 1e308, LEN_UNIT: 'Feet' }, 'STATIC_BFE 1e+308 Feet is not a flood elevation (-300 to 21000 ft)'],
    ['a BFE below Death Valley', { STATIC_BFE: -301 }, 'STATIC_BFE -301 is not a flood elevation (-300 to 21000 ft)'],
    ['the Salton Sea shore, about -220 ft', { STATIC_BFE: -220, LEN_UNIT: 'Feet' }, null],
    ['a mountain town at 10,200 ft', { STATIC_BFE: 10_200, LEN_UNIT: 'Feet' }, null],
    ['a BFE above Denali', { STATIC_BFE: 21_001 }, 'STATIC_BFE 21001 is not a flood elevation (-300 to 21000 ft)'],
    [
      'a BFE in metres, judged in feet (6,500 m is 21,325 ft)',
      { STATIC_BFE: 6500, LEN_UNIT: 'Meters' },
      'STATIC_BFE 6500 Meters is not a flood elevation (-300 to 21000 ft)',
    ],
    ['a Puerto Rico BFE in metres', { STATIC_BFE: 9.2, LEN_UNIT: 'Meters' }, null],
    ['a Puerto Rico BFE in centimetres (30,000 cm is 984 ft)', { STATIC_BFE: 30_000, LEN_UNIT: 'Centimeters' }, null],
    ['a BFE line at 1e308', { ELEV: 1e308, LEN_UNIT: 'Feet' }, 'ELEV 1e+308 Feet is not a flood elevation (-300 to 21000 ft)'],
    ['an AO depth of 2 ft', { FLD_ZONE: 'AO', DEPTH: 2, LEN_UNIT: 'Feet' }, null],
    ['a negative depth', { DEPTH: -3 }, 'DEPTH -3 is not a flood depth (0 to 100 ft)'],
    ['a depth of 500 ft', { DEPTH: 500, LEN_UNIT: 'Feet' }, 'DEPTH 500 Feet is not a flood depth (0 to 100 ft)'],
    ['a LOMA on the earth', { LAT: 29.76, LON: -95.37 }, null],
    ['a LOMA at latitude 95', { LAT: 95, LON: -95.37 }, 'LAT 95, LON -95.37: coordinates off the earth (lat -90 to 90, lon -180 to 180)'],
    ['a LOMA at longitude -500', { LAT: 29.76, LON: -500 }, 'LAT 29.76, LON -500: coordinates off the earth (lat -90 to 90, lon -180 to 180)'],
    ['a LOMA without LAT and LON (its geometry places it)', { LAT: null, LON: -9999 }, null],
  ])('%s', (_case, attributes, problem) => {
    expect(nfhlValueProblem(attributes)).toBe(problem);
  });
});
