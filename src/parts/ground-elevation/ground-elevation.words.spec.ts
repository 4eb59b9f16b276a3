import { groundAgainstBfe } from './ground-elevation.words';

describe('groundAgainstBfe', () => {
  it.each([
    [{ bfe: 'static', bfeFt: 38, differenceFt: -7.3, position: 'below' }, 1.7, '7.3 ft below the static BFE of 38 ft'],
    [{ bfe: 'static', bfeFt: 9, differenceFt: 4.6, position: 'above' }, 1.7, '4.6 ft above the static BFE of 9 ft'],
    [
      { bfe: 'estimated', bfeFt: 8, differenceFt: 1, position: 'within_uncertainty' },
      1.7,
      "1 ft above the estimated BFE of 8 ft, within the terrain model's 1.7 ft uncertainty",
    ],
    [
      { bfe: 'static', bfeFt: 10, differenceFt: 0, position: 'within_uncertainty' },
      5.1,
      "at the static BFE of 10 ft, within the terrain model's 5.1 ft uncertainty",
    ],
    [
      { bfe: 'static', bfeFt: 10, differenceFt: -0.5, position: 'within_uncertainty' },
      null,
      "0.5 ft below the static BFE of 10 ft, within the terrain model's uncertainty",
    ],
  ] as const)('%j', (comparison, uncertaintyFt, words) => {
    expect(groundAgainstBfe(comparison, uncertaintyFt)).toBe(words);
  });
});
