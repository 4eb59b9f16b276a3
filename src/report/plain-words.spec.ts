import { ANSWER_PARTS } from '../parts/answer-parts';
import { RISK_WORDS, couldNotBeChecked, sfhaAnswer, zoneHeadline } from './plain-words';

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

describe('couldNotBeChecked', () => {
  it.each(ANSWER_PARTS.map((part) => [part]))('%s names its source and says unknown, not none', (part) => {
    const words = couldNotBeChecked(part);
    expect(words).toMatch(/^Could not be checked: (FEMA's|the U\.S\.|the USGS) .+ did not answer this time\. This is unknown, not "none"; retry shortly\.$/);
  });
});
