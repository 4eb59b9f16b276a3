import { buildingTract } from './structure-values';

describe("buildingTract: the census tract a building's CENSUSCODE names", () => {
  it.each([
    ['the 11-digit GEOID, as recorded', '13121001302', '13121', '13121001302'],
    ['without a FIPS to check it against', '13121001302', null, '13121001302'],
    ["a block group's 12 digits: the tract it lies in", '131210013021', '13121', '13121001302'],
    ["a block's 15 digits: the tract it lies in", '131210013021004', '13121', '13121001302'],
    ['with blanks around it', ' 13121001302 ', '13121', '13121001302'],
    ['as a number (a state code from 10 up keeps its digits)', 13121001302, '13121', '13121001302'],
  ])('%s: %j is %j', (_, CENSUSCODE, FIPS, tract) => {
    expect(buildingTract({ CENSUSCODE: CENSUSCODE as string, FIPS })).toBe(tract);
  });

  it.each([
    ['null', null],
    ['blank', '  '],
    ["the layer's no-data", '-99999'],
    ['<Null>', '<Null>'],
    ['10 digits (a number that lost its leading zero)', 6067000100],
    ['16 digits', '1312100130210041'],
    ['letters in it', '13121OO1302'],
    ['a decimal point', '13121001.302'],
    ['state code 00', '00121001302'],
    ['county code 000', '13000001302'],
    ['tract code 000000', '13121000000'],
  ])('%s: none', (_, CENSUSCODE) => {
    expect(buildingTract({ CENSUSCODE: CENSUSCODE as string | null, FIPS: null })).toBeNull();
  });

  it("none when the tract is not in the building's own county (FIPS): the record says two things, so neither is trusted", () => {
    expect(buildingTract({ CENSUSCODE: '13121001302', FIPS: '13089' })).toBeNull();
  });

  it('a FIPS that is no county code is no reason to doubt the tract', () => {
    expect(buildingTract({ CENSUSCODE: '13121001302', FIPS: '-99999' })).toBe('13121001302');
    expect(buildingTract({ CENSUSCODE: '13121001302', FIPS: '131' })).toBe('13121001302');
  });
});
