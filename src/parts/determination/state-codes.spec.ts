import { stateOfCountyFips } from './state-codes';

describe('stateOfCountyFips: the USPS code from the first two digits of a county FIPS code', () => {
  it.each([
    ['01001', 'AL'],
    ['02020', 'AK'],
    ['04013', 'AZ'],
    ['06067', 'CA'],
    ['11001', 'DC'],
    ['12089', 'FL'],
    ['15003', 'HI'],
    ['20197', 'KS'],
    ['26109', 'MI'],
    ['45019', 'SC'],
    ['47187', 'TN'],
    ['48201', 'TX'],
    ['51710', 'VA'],
    ['53033', 'WA'],
    ['56021', 'WY'],
    ['60010', 'AS'],
    ['66010', 'GU'],
    ['69110', 'MP'],
    ['72137', 'PR'],
    ['78010', 'VI'],
  ])('%s -> %s', (fips, state) => {
    expect(stateOfCountyFips(fips)).toBe(state);
  });

  it('knows the 50 states, DC and the five territories with counties, and no other code', () => {
    const known = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0')).filter((code) => stateOfCountyFips(`${code}001`) !== null);
    expect(known).toEqual(
      '01 02 04 05 06 08 09 10 11 12 13 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 44 45 46 47 48 49 50 51 53 54 55 56 60 66 69 72 78'.split(
        ' ',
      ),
    );
    expect(new Set(known.map((code) => stateOfCountyFips(`${code}001`))).size).toBe(56);
  });

  it.each([[null], [''], ['4820'], ['482011'], ['48 01'], ['TX201'], ['03001'], ['99001']])('%j: no state', (fips) => {
    expect(stateOfCountyFips(fips)).toBeNull();
  });
});
