import { DatedFeature, comingMapChanges, datedAreas, effectiveSince, envelopeOf } from './changed-areas';
import type { ChangedArea, StatusBookCopy } from './map-change-scout.port';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const square = (west: number, south: number, size = 0.1): DatedFeature['positions'] => [
  [
    [west, south],
    [west + size, south],
    [west + size, south + size],
    [west, south + size],
    [west, south],
  ],
];

describe('effectiveSince: the date clause FEMA accepts', () => {
  it.each([
    ['midnight UTC', '2026-07-31T00:00:00Z', "EFF_DATE >= timestamp '2026-07-31 00:00:00'"],
    ['late in the day in UTC: the whole day', '2026-07-31T23:59:59Z', "EFF_DATE >= timestamp '2026-07-31 00:00:00'"],
    ['a day in the evening in New York is the next day in UTC', '2026-07-31T22:30:00-04:00', "EFF_DATE >= timestamp '2026-08-01 00:00:00'"],
  ])('%s', (_, since, clause) => {
    expect(effectiveSince('EFF_DATE', new Date(since))).toBe(`${clause} AND EFF_DATE < timestamp '9999-01-01 00:00:00'`);
  });
});

describe('envelopeOf: the extent, widened by a margin', () => {
  it.each<[string, DatedFeature['positions'], number, readonly number[] | null]>([
    ['a square', square(-74.1, 40.7), 0, [-74.1, 40.7, -74, 40.8]],
    ['widened', square(-74.1, 40.7), 0.01, [-74.11, 40.69, -73.99, 40.81]],
    ['two rings', [...square(-74.1, 40.7), ...square(-73.5, 40.9)], 0, [-74.1, 40.7, -73.4, 41]],
    ['never past the earth', square(179.95, 89.95, 0.05), 0.1, [179.85, 89.85, 180, 90]],
    ['no position', [[]], 0.01, null],
  ])('%s', (_, positions, margin, envelope) => {
    const got = envelopeOf(positions, margin);
    if (envelope === null) expect(got).toBeNull();
    else got!.forEach((side, i) => expect(side).toBeCloseTo(envelope[i], 9));
  });
});

describe('datedAreas: features of a dated query as changed areas', () => {
  it('gives each its extent and its date as YYYY-MM-DD (UTC), no date for text, null or the 9999-09-09 placeholder', () => {
    const features: DatedFeature[] = [
      { id: '34017C0017E', positions: square(-74.1, 40.7), date: day('2026-11-20') },
      { id: 'FL-64P', positions: square(-81.5, 30.6), date: '11/16/1990' },
      { id: '34017C0018E', positions: square(-74, 40.7), date: 253392451200000 },
      { id: '34017C0019E', positions: square(-73.9, 40.7), date: null },
      { id: 'no outline', positions: [], date: day('2026-11-20') },
    ];
    expect(datedAreas('firm_panel', features, 0).map(({ id, effectiveDate }) => [id, effectiveDate])).toEqual([
      ['34017C0017E', '2026-11-20'],
      ['FL-64P', null],
      ['34017C0018E', null],
      ['34017C0019E', null],
    ]);
  });
});

describe('comingMapChanges: a coming map issued, re-issued or withdrawn', () => {
  const since = new Date('2026-08-01T00:00:00Z');
  const study = (id: string, issued: string, west = -74.1): DatedFeature => ({ id, positions: square(west, 40.7), date: day(issued) });
  const copied = (issued: string | null, west = -74.1): Record<string, string | number | null> => ({
    issued,
    west,
    south: 40.7,
    east: west + 0.1,
    north: 40.8,
  });
  const reported = (areas: ChangedArea[]) => areas.map(({ kind, id, effectiveDate }) => `${kind} ${id} ${effectiveDate}`);

  it.each<[string, DatedFeature[], StatusBookCopy | null, string[]]>([
    [
      'the first time, only a study issued since the date',
      [study('34017C', '2026-09-01'), study('25017C', '2025-05-15')],
      null,
      ['preliminary 34017C 2026-09-01'],
    ],
    [
      'issued since the date, though the copy has it',
      [study('34017C', '2026-09-01')],
      { 'preliminary:34017C': copied('2026-09-01') },
      ['preliminary 34017C 2026-09-01'],
    ],
    ['long issued and unchanged: nothing', [study('25017C', '2025-05-15')], { 'preliminary:25017C': copied('2025-05-15') }, []],
    ['new to the copy, though issued long ago (published late)', [study('25017C', '2025-05-15')], {}, ['preliminary 25017C 2025-05-15']],
    [
      're-issued with an older date than the copy had',
      [study('25017C', '2025-01-02')],
      { 'preliminary:25017C': copied('2025-05-15') },
      ['preliminary 25017C 2025-01-02'],
    ],
    ['withdrawn: gone from the map, no date', [], { 'preliminary:25017C': copied('2025-05-15') }, ['preliminary 25017C null']],
    ["another map's study or a community in the copy is not this map's", [], { 'pending:25017C': copied('2025-05-15'), '340222': { crsClass: 5 } }, []],
  ])('%s', (_, features, previous, areas) => {
    expect(reported(comingMapChanges('preliminary', features, previous, since, 0).areas)).toEqual(areas);
  });

  it("reports a withdrawn study at the extent the copy kept, and keeps each study's extent and latest date, its polygons together", () => {
    const kept = { 'pending:25017C': { issued: '2025-05-15', west: -71.2, south: 40.7, east: -71.1, north: 40.8 } };
    const { areas } = comingMapChanges('pending', [], kept, since, 0);
    expect(areas).toEqual([{ kind: 'pending', id: '25017C', envelope: [-71.2, 40.7, -71.1, 40.8], effectiveDate: null }]);
    const { copy } = comingMapChanges('pending', [study('25017C', '2025-05-15', -71.2), study('25017C', '2025-06-01', -71)], null, since, 0);
    expect(Object.keys(copy)).toEqual(['pending:25017C']);
    expect(copy['pending:25017C'].issued).toBe('2025-06-01');
    expect(copy['pending:25017C'].west).toBeCloseTo(-71.2, 9);
    expect(copy['pending:25017C'].east).toBeCloseTo(-70.9, 9);
  });
});
