import * as fs from 'node:fs';
import * as path from 'node:path';
import { CommunityStatusIndex, CommunityStatusRow, NOT_LISTED_NOTE, communityStatusDate, nfipStatusOf, rowDatesAMap } from './nfip-status';

const HOUSTON: CommunityStatusRow = {
  communityIdNumber: '480296',
  communityName: 'HOUSTON, CITY OF',
  participatingInNFIP: true,
  classRating: '5',
  sfhaDiscount: 25,
  nonSfhaDiscount: 10,
  currentlyEffectiveMapDate: '06/18/07',
  regularEmergencyProgramDate: '09/28/79',
  initialFloodInsuranceRateMap: '1979-09-28T00:00:00.000Z',
  lastRefresh: '2026-11-22T06:12:45.123Z',
};

/** The first rows of a recorded copy of the whole dataset (test/emulators/fixtures, with its source). */
const RECORDED_ROWS = (
  JSON.parse(fs.readFileSync(path.join(__dirname, '../../../test/emulators/fixtures/openfema-nfip-community-status-book.recorded.excerpt.json'), 'utf8')) as {
    firstRows: CommunityStatusRow[];
  }
).firstRows;

describe('communityStatusDate: either form of the book to YYYY-MM-DD (UTC)', () => {
  it.each([
    ['06/18/07', '2007-06-18'],
    ['09/28/79', '1979-09-28'],
    ['01/01/68', '1968-01-01'],
    ['12/31/67', '2067-12-31'],
    ['1/5/99', '1999-01-05'],
    ['02/09/2000', '2000-02-09'],
    ['2007-06-18', '2007-06-18'],
    ['2007-06-18T00:00:00.000Z', '2007-06-18'],
    ['2026-11-22T23:30:00-05:00', '2026-11-23'],
    ['2026-11-22T23:30:00', '2026-11-22'],
    ['06/18/07(L)', '2007-06-18'],
    ['02/09/2000 (M)', '2000-02-09'],
    ['Emerg 09/28/79', '1979-09-28'],
  ])('%j -> %s', (text, date) => {
    expect(communityStatusDate(text)).toBe(date);
  });

  it.each([['(NSFHA)'], ['NSFHA'], [''], ['02/30/07'], ['13/01/07'], ['2007-02-30'], ['6/18'], ['20070618']])('%j (no calendar date) -> null', (text) => {
    expect(communityStatusDate(text)).toBeNull();
  });

  it.each([[null], [undefined], [20070618], [true]])('%j (not a text) -> null', (value) => {
    expect(communityStatusDate(value)).toBeNull();
  });
});

describe('nfipStatusOf: one listed community', () => {
  it('a participating community in CRS class 5: the whole answer, its discounts and its note', () => {
    expect(nfipStatusOf(HOUSTON)).toEqual({
      listed: true,
      participating: true,
      program: 'regular',
      floodInsuranceAvailable: true,
      crsClass: 5,
      sfhaDiscountPercent: 25,
      nonSfhaDiscountPercent: 10,
      currentEffectiveMapDate: '2007-06-18',
      programEntryDate: '1979-09-28',
      asOf: '2026-11-22',
      note: 'Federal flood insurance (NFIP) is available: the community participates. Its Community Rating System class 5 gives a 25% discount in the SFHA and 10% outside it.',
    });
  });

  it.each([
    ['10', 'class 10'],
    [10, 'class 10 as a number'],
    ['0', 'class 0'],
    [0, 'class 0 as a number'],
    [undefined, 'missing'],
    [null, 'null'],
    ['', 'empty'],
    ['N/A', 'text'],
  ])('classRating %j (%s): not in the CRS, no discount whatever the discount columns say', (classRating: unknown, _what: string) => {
    const status = nfipStatusOf({ ...HOUSTON, classRating, sfhaDiscount: 5, nonSfhaDiscount: 5 });
    expect(status).toMatchObject({ crsClass: null, sfhaDiscountPercent: null, nonSfhaDiscountPercent: null, participating: true });
    expect(status.note).toBe(
      'Federal flood insurance (NFIP) is available: the community participates. It is not in the Community Rating System, so policies here get no community discount.',
    );
  });

  it.each([
    [{ classRating: 9, sfhaDiscount: 5, nonSfhaDiscount: 5 }, 9, 5, 5],
    [{ classRating: ' 7 ', sfhaDiscount: '15%', nonSfhaDiscount: '15' }, 7, 15, 15],
    [{ classRating: '1', sfhaDiscount: 0.45, nonSfhaDiscount: 0.1 }, 1, 45, 10],
    [{ classRating: '6', sfhaDiscount: 20.4, nonSfhaDiscount: 0 }, 6, 20, null],
    [{ classRating: '8', sfhaDiscount: null, nonSfhaDiscount: undefined }, 8, null, null],
    [{ classRating: '8', sfhaDiscount: 'none', nonSfhaDiscount: -5 }, 8, null, null],
  ])('CRS columns %j -> class %j, discounts %j / %j (whole percents, null when none)', (columns, crsClass, sfha, nonSfha) => {
    expect(nfipStatusOf({ ...HOUSTON, ...columns })).toMatchObject({ crsClass, sfhaDiscountPercent: sfha, nonSfhaDiscountPercent: nonSfha });
  });

  it('a CRS class with only one discount, or none, says so', () => {
    expect(nfipStatusOf({ ...HOUSTON, nonSfhaDiscount: null }).note).toBe(
      'Federal flood insurance (NFIP) is available: the community participates. Its Community Rating System class 5 gives a 25% discount in the SFHA.',
    );
    expect(nfipStatusOf({ ...HOUSTON, sfhaDiscount: null }).note).toBe(
      'Federal flood insurance (NFIP) is available: the community participates. Its Community Rating System class 5 gives a 10% discount outside the SFHA.',
    );
    expect(nfipStatusOf({ ...HOUSTON, sfhaDiscount: null, nonSfhaDiscount: null }).note).toBe(
      'Federal flood insurance (NFIP) is available: the community participates. It is in Community Rating System class 5; the book gives no discount for it.',
    );
  });

  it.each([
    [true, true],
    ['Yes', true],
    ['Y', true],
    ['true', true],
    [false, false],
    ['No', false],
    ['N', false],
    ['false', false],
  ])('participatingInNFIP %j -> participating and floodInsuranceAvailable %j', (value, participating) => {
    expect(nfipStatusOf({ ...HOUSTON, participatingInNFIP: value })).toMatchObject({ participating, floodInsuranceAvailable: participating });
  });

  it("a community that does not participate: insurance not available, in the book's words", () => {
    const status = nfipStatusOf({ ...HOUSTON, participatingInNFIP: false, classRating: '10', sfhaDiscount: 0, nonSfhaDiscount: 0 });
    expect(status).toMatchObject({ listed: true, participating: false, floodInsuranceAvailable: false, crsClass: null, sfhaDiscountPercent: null });
    expect(status.note).toBe(
      "Federal flood insurance (NFIP) is not available: FEMA's Community Status Book lists the community as not participating in the program.",
    );
  });

  it.each([[undefined], [null], ['maybe'], [1]])('participatingInNFIP %j: unknown, never "not available"', (value) => {
    const status = nfipStatusOf({ ...HOUSTON, participatingInNFIP: value });
    expect(status).toMatchObject({ listed: true, participating: null, floodInsuranceAvailable: null });
    expect(status.note).toBe(
      "FEMA's Community Status Book lists the community but does not say whether it participates; whether federal flood insurance is available here is unknown.",
    );
  });

  it.each([
    ['an initial FIRM date (ISO, as OpenFEMA writes its date fields)', { initialFloodInsuranceRateMap: '1979-09-28T00:00:00.000Z' }, 'regular'],
    ['an initial FIRM date (MM/DD/YY)', { initialFloodInsuranceRateMap: '09/28/79' }, 'regular'],
    ['no initial FIRM (null)', { initialFloodInsuranceRateMap: null }, 'emergency'],
    ['no initial FIRM (empty)', { initialFloodInsuranceRateMap: '' }, 'emergency'],
    ['no FIRM, no Special Flood Hazard Area: the regular program', { initialFloodInsuranceRateMap: null, currentlyEffectiveMapDate: '(NSFHA)' }, 'regular'],
    ['an initial FIRM date that cannot be read: untold', { initialFloodInsuranceRateMap: 'pending' }, null],
    ['a row without the field: untold', { initialFloodInsuranceRateMap: undefined }, null],
  ])('participating with %s -> program %s', (_what, fields: CommunityStatusRow, program) => {
    expect(nfipStatusOf({ ...HOUSTON, ...fields }).program).toBe(program);
  });

  it('a community that does not participate, or does not say, is in no program, whatever its FIRM date', () => {
    expect(nfipStatusOf({ ...HOUSTON, participatingInNFIP: false }).program).toBeNull();
    expect(nfipStatusOf({ ...HOUSTON, participatingInNFIP: null, initialFloodInsuranceRateMap: null }).program).toBeNull();
  });

  it('the emergency program: available, with lower coverage limits said', () => {
    const status = nfipStatusOf({ ...HOUSTON, initialFloodInsuranceRateMap: null, classRating: null, sfhaDiscount: null, nonSfhaDiscount: null });
    expect(status).toMatchObject({ participating: true, program: 'emergency', floodInsuranceAvailable: true, crsClass: null });
    expect(status.note).toBe(
      "Federal flood insurance (NFIP) is available: the community participates, in the program's emergency phase, where coverage limits are " +
        'lower. It is not in the Community Rating System, so policies here get no community discount.',
    );
  });

  it('the recorded rows: a township without a Special Flood Hazard Area and four communities with a FIRM, all in the regular program', () => {
    expect(RECORDED_ROWS.map((row) => [row.communityIdNumber, nfipStatusOf(row)])).toEqual([
      [
        '230563',
        expect.objectContaining({ participating: true, program: 'regular', currentEffectiveMapDate: null, programEntryDate: '1984-04-30', crsClass: null }),
      ],
      ['010232', expect.objectContaining({ participating: true, program: 'regular', currentEffectiveMapDate: '2016-03-16', programEntryDate: '2004-08-18' })],
      ['010233', expect.objectContaining({ participating: true, program: 'regular', currentEffectiveMapDate: '2016-03-16', programEntryDate: '1980-03-14' })],
      ['120275', expect.objectContaining({ program: 'regular', crsClass: 6, sfhaDiscountPercent: 20, nonSfhaDiscountPercent: 10, asOf: '2025-05-14' })],
      ['120308', expect.objectContaining({ program: 'regular', crsClass: 6, sfhaDiscountPercent: 20, nonSfhaDiscountPercent: 10, asOf: '2025-05-14' })],
    ]);
  });

  it('dates that cannot be read are null, the rest of the answer stands', () => {
    expect(nfipStatusOf({ ...HOUSTON, currentlyEffectiveMapDate: '(NSFHA)', regularEmergencyProgramDate: null, lastRefresh: 'yesterday' })).toMatchObject({
      currentEffectiveMapDate: null,
      programEntryDate: null,
      asOf: null,
      participating: true,
      crsClass: 5,
    });
  });
});

describe('CommunityStatusIndex: the join on the community id', () => {
  const rows: CommunityStatusRow[] = [
    HOUSTON,
    { ...HOUSTON, communityIdNumber: '480287#', classRating: '7', sfhaDiscount: 15, nonSfhaDiscount: 5 },
    { ...HOUSTON, communityIdNumber: '120172B', classRating: '10' },
    { ...HOUSTON, communityIdNumber: '120172', classRating: '6', sfhaDiscount: 20, nonSfhaDiscount: 10 },
    { ...HOUSTON, communityIdNumber: ' 455412 ', participatingInNFIP: false },
    { ...HOUSTON, communityIdNumber: null },
    { ...HOUSTON, communityIdNumber: '' },
    { ...HOUSTON, communityIdNumber: 'ABC' },
  ];
  const index = new CommunityStatusIndex(rows);

  it('indexes every row with an id (one without six leading digits only by its exact id)', () => {
    expect(index.size).toBe(6);
    expect(index.lookup('abc')).toMatchObject({ listed: true });
  });

  it('an exact id', () => {
    expect(index.lookup('480296')).toMatchObject({ listed: true, crsClass: 5 });
  });

  it('a published id with a suffix ("#", a letter) matches on its first six digits', () => {
    expect(index.lookup('480287')).toMatchObject({ listed: true, crsClass: 7, sfhaDiscountPercent: 15 });
  });

  it('an exact match wins over a suffixed one, whatever their order in the table', () => {
    expect(index.lookup('120172')).toMatchObject({ crsClass: 6 });
    expect(index.lookup('120172B')).toMatchObject({ crsClass: null });
    expect(new CommunityStatusIndex([rows[3], rows[2]]).lookup('120172')).toMatchObject({ crsClass: 6 });
  });

  it('a suffixed id the table lacks matches the plain six-digit row', () => {
    expect(index.lookup('120172C')).toMatchObject({ crsClass: 6 });
    expect(index.lookup('480296#')).toMatchObject({ crsClass: 5 });
  });

  it('ids are trimmed and compared without case', () => {
    expect(index.lookup('455412')).toMatchObject({ participating: false });
    expect(index.lookup(' 120172b ')).toMatchObject({ crsClass: null });
  });

  it("an id the table lacks: listed false, every other field null, the note in the service's words", () => {
    for (const id of ['260151', '48029', '', 'ABCDEF']) {
      expect(index.lookup(id)).toEqual({
        listed: false,
        participating: null,
        program: null,
        floodInsuranceAvailable: null,
        crsClass: null,
        sfhaDiscountPercent: null,
        nonSfhaDiscountPercent: null,
        currentEffectiveMapDate: null,
        programEntryDate: null,
        asOf: null,
        note: NOT_LISTED_NOTE,
      });
    }
    expect(NOT_LISTED_NOTE).toBe("This community is not in FEMA's Community Status Book; whether federal flood insurance is available here is unknown.");
  });

  it('the first row wins when an id is published twice', () => {
    const twice = new CommunityStatusIndex([HOUSTON, { ...HOUSTON, classRating: '9' }]);
    expect(twice.lookup('480296')).toMatchObject({ crsClass: 5 });
  });

  it('answers are built once and cannot be changed by a caller', () => {
    const status = index.lookup('480296');
    expect(index.lookup('480296')).toBe(status);
    expect(Object.isFrozen(status)).toBe(true);
    expect(Object.isFrozen(index.lookup('999999'))).toBe(true);
  });

  it('an empty table lists nobody', () => {
    expect(new CommunityStatusIndex([]).lookup('480296')).toMatchObject({ listed: false });
  });

  it('whether the row dates a map, joined as the standing is; unknown (null) for a community the table lacks', () => {
    const noMap = new CommunityStatusIndex([
      ...rows,
      { ...HOUSTON, communityIdNumber: '200612', currentlyEffectiveMapDate: null, initialFloodInsuranceRateMap: null },
    ]);
    expect(noMap.mapDated('480296')).toBe(true);
    expect(noMap.mapDated('480287')).toBe(true);
    expect(noMap.mapDated('200612')).toBe(false);
    expect(noMap.mapDated('260151')).toBeNull();
    expect(noMap.mapDated('')).toBeNull();
  });
});

describe('rowDatesAMap: whether the book dates a map of the community', () => {
  it.each([
    ['an initial FIRM and a current map', {}, true],
    [
      'a current map only (a Flood Hazard Boundary Map, the emergency program)',
      { initialFloodInsuranceRateMap: null, currentlyEffectiveMapDate: '03/14/78' },
      true,
    ],
    ['an initial FIRM only', { currentlyEffectiveMapDate: null }, true],
    ['a current map date with a note beside it', { initialFloodInsuranceRateMap: null, currentlyEffectiveMapDate: '04/19/05 (M)' }, true],
    ['"(NSFHA)" and no FIRM: no map at all', { initialFloodInsuranceRateMap: null, currentlyEffectiveMapDate: '(NSFHA)' }, false],
    ['neither, null', { initialFloodInsuranceRateMap: null, currentlyEffectiveMapDate: null }, false],
    ['neither, the fields missing', { initialFloodInsuranceRateMap: undefined, currentlyEffectiveMapDate: undefined }, false],
    ['neither readable', { initialFloodInsuranceRateMap: '', currentlyEffectiveMapDate: 'unknown' }, false],
  ] as const)('%s: %s', (_what, change, dated) => {
    expect(rowDatesAMap({ ...HOUSTON, ...change })).toBe(dated);
  });

  it('on the recorded rows: the community with "(NSFHA)" and no FIRM has none, the others one', () => {
    expect(RECORDED_ROWS.map((row) => [row.communityIdNumber, rowDatesAMap(row)])).toEqual([
      ['230563', false],
      ['010232', true],
      ['010233', true],
      ['120275', true],
      ['120308', true],
    ]);
  });
});
