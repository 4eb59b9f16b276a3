import { readerText } from '../../../test/support/page-text';
import { AreaHistory, HISTORY_NOTE, HISTORY_SOURCE } from './area-history';
import { HISTORY_ON_REPORT, HISTORY_TITLE, claimsChart } from './history.words';

const HOUSTON: AreaHistory = {
  area: { kind: 'census_tract', geoid: '48201312300', county: 'Harris County', countyFips: '48201' },
  claims: {
    count: 214,
    firstYear: 1978,
    lastYear: 2017,
    outsideSfhaSharePercent: 31.3,
    paidUsd: 18_400_000,
    byYear: [
      { year: 1978, count: null, fewerThan: 10 },
      { year: 2001, count: 40 },
      { year: 2017, count: 160 },
    ],
    largestEvents: [
      { year: 2017, count: 160, event: 'Hurricane Harvey' },
      { year: 2001, count: 40, event: null },
    ],
  },
  policies: { inForce: 388, asOf: '2026-10-31' },
  declarations: [
    { disasterNumber: 4798, declarationDate: '2024-07-09', incidentType: 'Hurricane', title: 'HURRICANE BERYL', declarationType: 'DR' },
    { disasterNumber: 4332, declarationDate: '2017-08-25', incidentType: 'Hurricane', title: 'HURRICANE HARVEY', declarationType: 'DR' },
    { disasterNumber: 3382, declarationDate: '2017-08-25', incidentType: 'Hurricane', title: 'HURRICANE HARVEY', declarationType: 'EM' },
    { disasterNumber: 4269, declarationDate: '2016-04-25', incidentType: 'Flood', title: 'SEVERE STORMS AND FLOODING', declarationType: 'DR' },
  ],
  source: HISTORY_SOURCE,
  note: HISTORY_NOTE,
};

const text = (history: AreaHistory) => readerText(`<div>${HISTORY_ON_REPORT.content(history, 'mapped').html}</div>`);

describe("the area's flood record on the report", () => {
  it('is titled as the record of the area', () => {
    expect(HISTORY_ON_REPORT.title(null)).toBe(HISTORY_TITLE);
    expect(HISTORY_TITLE).toBe('Flood record of the area');
  });

  it('says the claims, their years, the share outside the SFHA, the dollars, the largest events, the policies and the newest declarations', () => {
    const words = text(HOUSTON);
    expect(words).toContain(
      '214 NFIP claims in census tract 48201312300, 1978 to 2017, 31.3% outside the SFHA, about $18.4 million paid. Most: Hurricane Harvey (2017) 160; 2001 40. 388 policies in force (2026-10-31).',
    );
    expect(words).toContain('4 flood declarations for the county, latest HURRICANE BERYL (DR-4798, 2024-07-09).');
    expect(words).toContain('not at this property');
  });

  it('never says a withheld count, and says none as none', () => {
    const few = text({
      ...HOUSTON,
      claims: {
        ...HOUSTON.claims,
        count: null,
        fewerThan: 10,
        firstYear: 2017,
        lastYear: 2017,
        outsideSfhaSharePercent: null,
        paidUsd: null,
        byYear: [{ year: 2017, count: null, fewerThan: 10 }],
        largestEvents: [],
      },
      policies: { inForce: null, fewerThan: 10, asOf: '2026-10-31' },
    });
    expect(few).toContain('Fewer than 10 NFIP claims in census tract 48201312300, in 2017.');
    expect(few).toContain('Fewer than 10 policies in force (2026-10-31).');
    expect(few).not.toContain('Most:');
    const none = text({
      ...HOUSTON,
      claims: { count: 0, firstYear: null, lastYear: null, outsideSfhaSharePercent: null, paidUsd: 0, byYear: [], largestEvents: [] },
      policies: { inForce: 0, asOf: '2026-10-31' },
      declarations: [],
    });
    expect(none).toContain('No NFIP claims or policies in force (2026-10-31) in census tract 48201312300. No flood declaration for the county.');
  });
});

describe('claimsChart', () => {
  it('draws a bar per year with claims, a withheld year paler at half the smallest count shown (at least 1 high), scaled to the highest year', () => {
    const svg = claimsChart(HOUSTON.claims.byYear)!.html;
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('viewBox="0 0 300 26"');
    const bars = [
      ...svg.matchAll(/<rect\s+x="([\d.]+)"\s+y="([\d.]+)"\s+width="([\d.]+)"\s+height="([\d.]+)"\s+fill="(#\w+)"\s*><title>([^<]+)<\/title><\/rect\s*>/g),
    ];
    expect(bars.map((bar) => [bar[4], bar[5], bar[6]])).toEqual([
      ['1.0', '#9ecbf0', '1978: fewer than 10 claims'],
      ['4.3', '#0969da', '2001: 40 claims'],
      ['17.0', '#0969da', '2017: 160 claims'],
    ]);
    // 40 years from 1978 to 2017: 7.5 units each, bars at 80% of their slot.
    expect(bars.map((bar) => [bar[1], bar[3]])).toEqual([
      ['0.8', '6.0'],
      ['173.3', '6.0'],
      ['293.3', '6.0'],
    ]);
  });

  it('draws nothing without claims', () => {
    expect(claimsChart([])).toBeNull();
  });
});
