import { ANSWER_PARTS } from '../parts/answer-parts';
import { RISK_WORDS, couldNotBeChecked, groundAgainstBfe, sfhaAnswer, zoneHeadline } from './plain-words';

describe('zoneHeadline', () => {
  it.each([
    ['mapped', 'AE', 'Zone AE'],
    ['mapped', 'X', 'Zone X'],
    ['mapped_no_zone', null, 'No flood zone at this exact point (unknown, not low risk)'],
    ['unmapped', null, 'No digital flood map here (unknown, not low risk)'],
    // A paper panel does not make a point mapped.
    ['unmapped', 'AE', 'No digital flood map here (unknown, not low risk)'],
  ] as const)('%s, zone %s → %s', (coverage, zone, headline) => {
    expect(zoneHeadline(coverage, zone)).toBe(headline);
  });
});

describe('sfhaAnswer', () => {
  it.each([
    [true, 'Yes: in a Special Flood Hazard Area (SFHA)'],
    [false, 'No: outside the Special Flood Hazard Area (SFHA)'],
    [null, 'Unknown: FEMA gives no flood zone at this point'],
  ])('%s', (inSfha, answer) => {
    expect(sfhaAnswer(inSfha)).toBe(answer);
  });
});

describe('RISK_WORDS', () => {
  it('need no parentheses, so a zone and its risk read without nesting them', () => {
    for (const words of Object.values(RISK_WORDS)) expect(words).not.toMatch(/[()]/);
  });
});

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

describe('couldNotBeChecked', () => {
  it.each(ANSWER_PARTS.map((part) => [part]))('%s names its source and says unknown, not none', (part) => {
    const words = couldNotBeChecked(part);
    expect(words).toMatch(/^Could not be checked: (FEMA's|the U\.S\.|the USGS) .+ did not answer this time\. This is unknown, not "none"; retry shortly\.$/);
  });
});
