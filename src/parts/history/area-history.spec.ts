import {
  ClaimRow,
  DeclarationRow,
  HISTORY_NOTE,
  HISTORY_SOURCE,
  areaClaims,
  areaHistory,
  claimsByTract,
  countyRecordOf,
  floodDeclarations,
  inSfha,
  recordInCounty,
  roundedDollars,
  shownCount,
  policiesByTract,
  tallyClaims,
  tallyPolicies,
  tractOfBlockGroup,
} from './area-history';

function claim(overrides: Partial<ClaimRow> = {}): ClaimRow {
  return {
    yearOfLoss: 2017,
    ratedFloodZone: 'AE',
    amountPaidOnBuildingClaim: 50_000,
    amountPaidOnContentsClaim: 10_000,
    amountPaidOnIncreasedCostOfComplianceClaim: null,
    floodEvent: 'Hurricane Harvey',
    ...overrides,
  };
}

function declaration(overrides: Partial<DeclarationRow> = {}): DeclarationRow {
  return {
    disasterNumber: 4332,
    declarationDate: '2017-08-25T00:00:00.000Z',
    incidentType: 'Hurricane',
    declarationTitle: 'HURRICANE HARVEY',
    declarationType: 'DR',
    ...overrides,
  };
}

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

describe('shownCount', () => {
  it.each([
    [0, { count: 0 }],
    [1, { count: null, fewerThan: 10 }],
    [9, { count: null, fewerThan: 10 }],
    [10, { count: 10 }],
    [214, { count: 214 }],
  ])('%i claims are shown as %j', (count, shown) => {
    expect(shownCount('count', count)).toEqual(shown);
  });
});

describe('roundedDollars', () => {
  it.each([
    [0, 0],
    [49_999, 0],
    [50_000, 100_000],
    [18_449_999, 18_400_000],
    [18_450_000, 18_500_000],
  ])('$%i is $%i', (usd, rounded) => {
    expect(roundedDollars(usd)).toBe(rounded);
  });
});

describe('inSfha', () => {
  it.each([
    ['AE', true],
    ['A03', true],
    ['a', true],
    ['VE', true],
    ['V12', true],
    ['AO', true],
    ['A99', true],
    ['X', false],
    ['B', false],
    ['C', false],
    ['D', false],
    [' ', null],
    [null, null],
    [7, null],
  ])('rated zone %j: %j', (zone, sfha) => {
    expect(inSfha(zone)).toBe(sfha);
  });
});

describe('tallyClaims', () => {
  it('counts years, zones, events and every kind of payment', () => {
    const tally = tallyClaims([
      claim(),
      claim({ ratedFloodZone: 'X', amountPaidOnIncreasedCostOfComplianceClaim: 30_000 }),
      claim({ yearOfLoss: '2001', floodEvent: null, ratedFloodZone: null, amountPaidOnBuildingClaim: '1000.5' }),
      claim({ yearOfLoss: null, amountPaidOnBuildingClaim: -5, amountPaidOnContentsClaim: 'n/a' }),
    ]);
    expect(tally).toEqual({
      years: [
        { year: 2001, count: 1, events: {} },
        { year: 2017, count: 2, events: { 'Hurricane Harvey': 2 } },
      ],
      undated: 1,
      zoneKnown: 3,
      outsideSfha: 1,
      paidUsd: 60_000 + 90_000 + 11_000.5,
    });
  });
});

describe('areaClaims', () => {
  it('tells a tract with many claims whole: share outside the SFHA, rounded dollars, years and its largest events', () => {
    const rows = [
      ...times(160, (i) => claim({ ratedFloodZone: i < 50 ? 'X' : 'AE' })),
      ...times(40, () => claim({ yearOfLoss: 2001, floodEvent: 'Tropical Storm Allison', ratedFloodZone: 'B' })),
      ...times(11, () => claim({ yearOfLoss: 2016, floodEvent: null, ratedFloodZone: 'AE' })),
      ...times(3, () => claim({ yearOfLoss: 1978, floodEvent: null, ratedFloodZone: 'A03' })),
    ];
    const claims = areaClaims(
      tallyClaims(rows),
      floodDeclarations([
        declaration(),
        declaration({
          disasterNumber: 4269,
          declarationDate: '2016-04-25T00:00:00.000Z',
          incidentType: 'Flood',
          declarationTitle: 'SEVERE STORMS AND FLOODING',
        }),
      ]),
    );
    expect(claims).toEqual({
      count: 214,
      firstYear: 1978,
      lastYear: 2017,
      outsideSfhaSharePercent: 42.1,
      paidUsd: 12_800_000,
      byYear: [
        { year: 1978, count: null, fewerThan: 10 },
        { year: 2001, count: 40 },
        { year: 2016, count: 11 },
        { year: 2017, count: 160 },
      ],
      largestEvents: [
        { year: 2017, count: 160, event: 'Hurricane Harvey' },
        { year: 2001, count: 40, event: 'Tropical Storm Allison' },
        { year: 2016, count: 11, event: 'Severe Storms And Flooding' },
      ],
    });
  });

  it('withholds a count of 1 to 9, and with it the share and the dollars', () => {
    expect(areaClaims(tallyClaims(times(3, () => claim({ ratedFloodZone: 'X' }))), [])).toEqual({
      count: null,
      fewerThan: 10,
      firstYear: 2017,
      lastYear: 2017,
      outsideSfhaSharePercent: null,
      paidUsd: null,
      byYear: [{ year: 2017, count: null, fewerThan: 10 }],
      largestEvents: [],
    });
  });

  it('says 0 for a tract with no claims', () => {
    expect(areaClaims(tallyClaims([]), [])).toEqual({
      count: 0,
      firstYear: null,
      lastYear: null,
      outsideSfhaSharePercent: null,
      paidUsd: 0,
      byYear: [],
      largestEvents: [],
    });
  });

  it('has no share outside the SFHA when no claim gives its zone', () => {
    expect(areaClaims(tallyClaims(times(12, () => claim({ ratedFloodZone: '' }))), []).outsideSfhaSharePercent).toBeNull();
  });

  it('names a year with no event on its claims and no declaration that year as none', () => {
    expect(areaClaims(tallyClaims(times(10, () => claim({ floodEvent: ' ' }))), []).largestEvents).toEqual([{ year: 2017, count: 10, event: null }]);
  });
});

describe('floodDeclarations', () => {
  it('keeps flood-related incidents only, each disaster once, newest first', () => {
    const rows = [
      declaration({
        disasterNumber: 1,
        declarationDate: '1979-04-10T00:00:00.000Z',
        incidentType: 'Severe Storm(s)',
        declarationTitle: 'SEVERE STORMS & FLOODING',
      }),
      declaration(),
      declaration({ disasterNumber: 4332 }),
      declaration({ disasterNumber: 3, declarationDate: '2021-02-19T00:00:00.000Z', incidentType: 'Severe Ice Storm', declarationTitle: 'WINTER STORM' }),
      declaration({ disasterNumber: 4, declarationDate: '2020-03-13T00:00:00.000Z', incidentType: 'Biological', declarationTitle: 'COVID-19' }),
      declaration({
        disasterNumber: 3261,
        declarationDate: '2005-09-02T00:00:00.000Z',
        incidentType: 'Hurricane',
        declarationTitle: 'HURRICANE KATRINA EVACUATION',
        declarationType: 'EM',
      }),
      declaration({ disasterNumber: 5, declarationDate: '2000-01-01T00:00:00.000Z', incidentType: 'Dam/Levee Break', declarationTitle: 'LEVEE' }),
      declaration({ disasterNumber: 6, declarationDate: '2002-01-01T00:00:00.000Z', incidentType: 'Coastal Storm' }),
      declaration({ disasterNumber: 7, declarationDate: '2003-01-01T00:00:00.000Z', incidentType: 'Typhoon' }),
      declaration({ disasterNumber: 8, declarationDate: '2004-01-01T00:00:00.000Z', incidentType: 'Flood' }),
      declaration({ disasterNumber: 9, declarationDate: '2006-01-01T00:00:00.000Z', incidentType: 'Severe Storm' }),
      declaration({ disasterNumber: 10, declarationDate: null, incidentType: 'Flood' }),
      declaration({ disasterNumber: 11, declarationDate: '2007-01-01T00:00:00.000Z', incidentType: 'Fire' }),
    ];
    expect(floodDeclarations(rows).map(({ disasterNumber }) => disasterNumber)).toEqual([4332, 9, 3261, 8, 7, 6, 5, 1]);
    expect(floodDeclarations(rows)[0]).toEqual({
      disasterNumber: 4332,
      declarationDate: '2017-08-25',
      incidentType: 'Hurricane',
      title: 'HURRICANE HARVEY',
      declarationType: 'DR',
    });
  });

  it('gives at most 20, the newest', () => {
    const rows = times(25, (i) => declaration({ disasterNumber: 100 + i, declarationDate: `${2000 + i}-06-01T00:00:00.000Z`, incidentType: 'Flood' }));
    const kept = floodDeclarations(rows);
    expect(kept).toHaveLength(20);
    expect(kept[0]!.disasterNumber).toBe(124);
    expect(kept.at(-1)!.disasterNumber).toBe(105);
  });

  it('reads the date in UTC', () => {
    expect(floodDeclarations([declaration({ declarationDate: '2017-08-25T23:30:00.000-05:00' })])[0]!.declarationDate).toBe('2017-08-26');
  });
});

describe('tallyPolicies', () => {
  it('adds up the policies each record stands for', () => {
    expect(tallyPolicies([{ policyCount: 1 }, { policyCount: 12 }, { policyCount: null }, { policyCount: '3' }], '2026-11-28')).toEqual({
      inForce: 17,
      asOf: '2026-11-28',
    });
  });
});

describe('tractOfBlockGroup', () => {
  it.each([
    ['a block group of the county', '482015301001', '48201530100'],
    ['block group 0', '482015301000', '48201530100'],
    ['block group 9', '482015301009', '48201530100'],
    ['a block group of another county', '481575301001', null],
    ['a tract (11 digits), not a block group', '48201530100', null],
    ['a block (15 digits)', '482015301001004', null],
    ['blanks around it', ' 482015301001', null],
    ['letters', '48201530100A', null],
    ['a number', 482015301001, null],
    ['null', null, null],
  ])('%s: %j is %j', (_, geoid, tract) => {
    expect(tractOfBlockGroup(geoid, '48201')).toBe(tract);
  });
});

describe("countyRecordOf: a county's download tallied per tract", () => {
  const TRACT_A = '48201530100';
  const TRACT_B = '48201530200';
  const TRACT_C = '48201530300';
  const asOf = '2026-11-28';
  const inA = (i: number) => `${TRACT_A}${i % 10}`;
  const claims = [
    ...times(12, (i) => ({ ...claim({ yearOfLoss: 2001 + (i % 2), ratedFloodZone: i % 3 === 0 ? 'X' : 'AE' }), censusGeoid: inA(i) })),
    ...times(3, () => ({ ...claim({ floodEvent: null, amountPaidOnBuildingClaim: 1234.5 }), censusGeoid: `${TRACT_B}2` })),
    // Of another county (its countyCode said 48201, its block group does not), and of none: in no tract of the county.
    { ...claim(), censusGeoid: '481570001001' },
    { ...claim(), censusGeoid: null },
    { ...claim(), censusGeoid: '48201' },
  ];
  const policies = [
    ...times(10, (i) => ({ policyCount: 1, censusGeoid: inA(i) })),
    { policyCount: 10, censusGeoid: `${TRACT_A}3` },
    { policyCount: 2, censusGeoid: `${TRACT_C}1` },
    { policyCount: 5, censusGeoid: '481570001001' },
  ];
  const county = countyRecordOf('48201', asOf, claimsByTract(claims, '48201'), policiesByTract(policies, '48201', asOf));

  it('names every tract with a claim or a policy in force, and no other', () => {
    expect(Object.keys(county.tracts).sort()).toEqual([TRACT_A, TRACT_B, TRACT_C]);
    expect([county.countyFips, county.asOf]).toEqual(['48201', asOf]);
  });

  it.each([
    ['claims and policies', TRACT_A, 12, 20],
    ['claims only', TRACT_B, 3, 0],
    ['policies only', TRACT_C, 0, 2],
    ['neither: none of either, OpenFEMA having answered for the whole county', '48201530400', 0, 0],
  ])("a tract with %s: its record is its own query's, claim for claim", (_, tract, claimCount, inForce) => {
    const own = (rows: Array<{ censusGeoid: unknown }>) => rows.filter(({ censusGeoid }) => typeof censusGeoid === 'string' && censusGeoid.startsWith(tract));
    const record = recordInCounty(county, tract);
    expect(record).toEqual({ claims: tallyClaims(own(claims) as never), policies: tallyPolicies(own(policies) as never, asOf) });
    expect([record.claims.years.reduce((sum, year) => sum + year.count, 0) + record.claims.undated, record.policies.inForce]).toEqual([claimCount, inForce]);
  });

  it('an empty download: every tract has none', () => {
    expect(recordInCounty(countyRecordOf('48201', asOf, new Map(), new Map()), TRACT_A)).toEqual({ claims: tallyClaims([]), policies: { inForce: 0, asOf } });
  });
});

describe('areaHistory', () => {
  const area = { kind: 'census_tract' as const, geoid: '48201312300', county: 'Harris County', countyFips: '48201' };

  it('withholds a small number of policies', () => {
    expect(areaHistory(area, tallyClaims([]), { inForce: 4, asOf: '2026-11-28' }, []).policies).toEqual({ inForce: null, fewerThan: 10, asOf: '2026-11-28' });
  });

  it('names its source and says it is the area’s record, not the property’s', () => {
    const history = areaHistory(area, tallyClaims([]), { inForce: 0, asOf: '2026-11-28' }, []);
    expect(history).toEqual({
      area,
      claims: { count: 0, firstYear: null, lastYear: null, outsideSfhaSharePercent: null, paidUsd: 0, byYear: [], largestEvents: [] },
      policies: { inForce: 0, asOf: '2026-11-28' },
      declarations: [],
      source: HISTORY_SOURCE,
      note: HISTORY_NOTE,
    });
    expect(history.note).toMatch(/^Flood insurance claims and policies in this census tract, not at this property/);
  });
});
