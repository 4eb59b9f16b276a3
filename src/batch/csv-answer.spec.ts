import { parse } from 'csv-parse/sync';
import { CSV_ANSWER_COLUMNS, csvHeader, csvHeaderLineWithInput, csvHeaderWithInput, csvRow, csvRowWithInput } from './csv-answer';
import type { RowAnswer } from './row-answer';

const lookup = {
  query: { address: '1 Main St, Town', lat: null, lon: null },
  location: {
    matchedAddress: '1 MAIN ST, TOWN, ST, 12345',
    lat: 29.9,
    lon: -90.1,
    county: 'Orleans Parish',
    countyFips: '22071',
    zip: '12345',
    source: 'census_geocoder',
  },
  result: {
    coverage: 'mapped',
    floodZone: 'AE',
    zoneSubtype: null,
    inSpecialFloodHazardArea: true,
    riskLevel: 'high',
    isFloodway: false,
    staticBaseFloodElevationFt: null,
    estimatedBaseFloodElevation: { elevationFt: 612.4 },
    verticalDatum: 'NAVD88',
    depthFt: null,
    firmPanel: { panel: '22071C0230F', effectiveDate: '2016-09-30' },
    community: { communityId: '225203', nfip: { participating: true, crsClass: 8, sfhaDiscountPercent: 10 } },
    lomas: [{}, {}],
    nearby: { sfha: { distanceM: 0 } },
    mapChange: { status: 'preliminary', floodZone: 'VE' },
    coastalBarrier: null,
    groundElevation: { elevationFt: 609.9, comparedWith: { differenceFt: -2.5 } },
    unavailable: ['community', 'lomrs'],
  },
  retrievedAt: '2026-11-22T10:00:00.000Z',
};

const cells = (line: string) => parse(line)[0] as string[];

describe('the CSV answer', () => {
  it('has the documented header', () => {
    expect(csvHeader()).toBe(`${CSV_ANSWER_COLUMNS.join(',')}\n`);
    expect(CSV_ANSWER_COLUMNS.length).toBe(53);
  });

  it('writes a 200 row: booleans as words, nulls empty, parts summarised, unavailable joined by ;', () => {
    const row = { index: 3, id: 'r4', status: 200, body: lookup, asked: { address: '1 Main St, Town' } } as unknown as RowAnswer;
    expect(cells(csvRow(row))).toEqual([
      '3',
      'r4',
      '200',
      '',
      '1 Main St, Town',
      '',
      '',
      '1 MAIN ST, TOWN, ST, 12345',
      '29.9',
      '-90.1',
      'Orleans Parish',
      '22071',
      '12345',
      'mapped',
      'AE',
      '',
      'true',
      'high',
      'false',
      '',
      '612.4',
      'NAVD88',
      '',
      '22071C0230F',
      '2016-09-30',
      '225203',
      '2',
      '0',
      'preliminary',
      'VE',
      '',
      // The building and the lender's form, not asked for.
      ...Array(11).fill(''),
      'true',
      '8',
      '10',
      '609.9',
      '-2.5',
      // The area's flood record, not asked for.
      ...Array(4).fill(''),
      'community;lomrs',
      '2026-11-22T10:00:00.000Z',
    ]);
  });

  it('leaves the NFIP and elevation cells empty when the community has no status, or the ground is not compared or not asked for', () => {
    const notListed = { ...lookup.result, community: { communityId: '225203', nfip: { participating: null, crsClass: null, sfhaDiscountPercent: null } } };
    const noComparison = { ...notListed, groundElevation: { elevationFt: 12.3, comparedWith: null } };
    const cellsOf = (result: object) => cells(csvRow({ index: 0, id: null, status: 200, body: { ...lookup, result }, asked: {} } as unknown as RowAnswer));
    const at = (names: string[]) => names.map((name) => CSV_ANSWER_COLUMNS.indexOf(name));
    const nfipAndGround = at(['nfip_participating', 'crs_class', 'sfha_discount_percent', 'ground_elevation_ft', 'ground_minus_bfe_ft']);
    expect(nfipAndGround.map((column) => cellsOf(noComparison)[column])).toEqual(['', '', '', '12.3', '']);
    expect(nfipAndGround.map((column) => cellsOf({ ...lookup.result, community: null, groundElevation: undefined })[column])).toEqual(['', '', '', '', '']);
    expect(nfipAndGround.map((column) => cellsOf({ ...lookup.result, community: { communityId: '225203', nfip: { participating: false } } })[column])).toEqual([
      'false',
      '',
      '',
      '609.9',
      '-2.5',
    ]);
  });

  it("writes the area's record: the tract, its claims (a withheld count as <10), the share outside the SFHA and the county's flood declarations", () => {
    const cellsOf = (result: object) => cells(csvRow({ index: 0, id: null, status: 200, body: { ...lookup, result }, asked: {} } as unknown as RowAnswer));
    const columns = ['tract', 'area_claims', 'area_claims_outside_sfha_percent', 'area_flood_declarations'].map((name) => CSV_ANSWER_COLUMNS.indexOf(name));
    const history = (claims: object) => ({ area: { geoid: '48201312300' }, claims, declarations: [{}, {}, {}] });
    expect(columns.map((column) => cellsOf({ ...lookup.result, history: history({ count: 214, outsideSfhaSharePercent: 31.3 }) })[column])).toEqual([
      '48201312300',
      '214',
      '31.3',
      '3',
    ]);
    expect(
      columns.map((column) => cellsOf({ ...lookup.result, history: history({ count: null, fewerThan: 10, outsideSfhaSharePercent: null }) })[column]),
    ).toEqual(['48201312300', '<10', '', '3']);
    expect(columns.map((column) => cellsOf({ ...lookup.result, history: null })[column])).toEqual(['', '', '', '']);
  });

  it("keeps unavailable and retrieved_at last, after the NFIP, ground elevation and area's record columns", () => {
    expect(CSV_ANSWER_COLUMNS.slice(-23)).toEqual([
      'cbrs_status',
      'building_match',
      'building_in_sfha',
      'building_sfha_share_percent',
      'building_zones',
      'building_unmapped_share_percent',
      'determination_basis',
      'flood_insurance_available',
      'nfip_program',
      'flood_insurance_required',
      'flood_insurance_reason',
      'nearby_letters',
      'nfip_participating',
      'crs_class',
      'sfha_discount_percent',
      'ground_elevation_ft',
      'ground_minus_bfe_ft',
      'tract',
      'area_claims',
      'area_claims_outside_sfha_percent',
      'area_flood_declarations',
      'unavailable',
      'retrieved_at',
    ]);
  });

  it('writes an error row with its index, id, status, code and query only', () => {
    const row = { index: 0, id: null, status: 422, body: { code: 'COORDINATES_OUT_OF_RANGE' }, asked: { lat: '91', lon: '0' } } as unknown as RowAnswer;
    expect(cells(csvRow(row))).toEqual(['0', '', '422', 'COORDINATES_OUT_OF_RANGE', '', '91', '0', ...Array(46).fill('')]);
  });

  it('writes the building and the form: its match, SFHA, the SFHA share, the zones with their shares and the share off the map; basis, availability, program, requirement, its reason, the nearby letters', () => {
    const structure = {
      match: 'contains',
      buildingInSfha: true,
      zones: [
        { floodZone: 'AE', inSpecialFloodHazardArea: true, sharePercent: 19 },
        { floodZone: 'X', inSpecialFloodHazardArea: false, sharePercent: 81 },
      ],
      unmappedSharePercent: 0,
    };
    const determination = {
      basis: 'building',
      insurance: { available: true, program: 'regular', reason: 'participating' },
      floodInsuranceRequired: true,
      map: { nearbyLetters: [{ caseNumber: '15-06-1489A', effectiveDate: '2015-06-02', distanceM: 8.2 }] },
    };
    const row = {
      index: 0,
      id: null,
      status: 200,
      body: { ...lookup, result: { ...lookup.result, structure, determination } },
      asked: {},
    } as unknown as RowAnswer;
    const at = (name: string) => cells(csvRow(row))[CSV_ANSWER_COLUMNS.indexOf(name)];
    expect(CSV_ANSWER_COLUMNS.slice(CSV_ANSWER_COLUMNS.indexOf('building_match'), CSV_ANSWER_COLUMNS.indexOf('nearby_letters') + 1).map(at)).toEqual([
      'contains',
      'true',
      '19',
      'AE 19.0; X 81.0',
      '0',
      'building',
      'true',
      'regular',
      'true',
      'participating',
      '15-06-1489A 2015-06-02 8.2 m',
    ]);
  });

  it('writes text cells that start a formula as text, and leaves numbers (negative ones too) as numbers', () => {
    const hostile = { ...lookup, location: { ...lookup.location, matchedAddress: '@SUM(1+1)*cmd|calc' } };
    const asked = { address: '+1 Main St', lat: '-29.9', lon: '-=1' };
    const row = { index: 1, id: '=HYPERLINK("http://evil.example","click")', status: 200, body: hostile, asked };
    const written = cells(csvRow(row as unknown as RowAnswer));
    expect(written.slice(0, 8)).toEqual(['1', `'=HYPERLINK("http://evil.example","click")`, '200', '', "'+1 Main St", '-29.9', "'-=1", "'@SUM(1+1)*cmd|calc"]);
    expect(written.slice(8, 10)).toEqual(['29.9', '-90.1']);
  });
});

describe("the CSV answer with the input's columns", () => {
  /** Input column names a spreadsheet would run as formulas, and some it would not. */
  const NAMES = ['=HYPERLINK("http://evil.example","Loan")', '+SUM(1,1)', '@cmd', '\tTab', '\rReturn', '-2+3', '-12.5', 'Balance', "'quoted"];

  it('writes header cells as text a spreadsheet will not run, exactly as it writes the same text in a row', () => {
    const header = cells(csvHeaderLineWithInput(NAMES)).slice(-NAMES.length);
    const row = {
      index: 0,
      id: 'r1',
      status: 400,
      body: { error: 'x', statusCode: 400, code: 'INVALID_PARAMETERS', requestId: 'q' },
      asked: {},
    } as unknown as RowAnswer;
    const rowCells = cells(csvRowWithInput(row, NAMES)).slice(-NAMES.length);
    expect(header).toEqual(rowCells);
    expect(header).toEqual([
      '\'=HYPERLINK("http://evil.example","Loan")',
      "'+SUM(1,1)",
      "'@cmd",
      "'\tTab",
      "'\rReturn",
      "'-2+3",
      '-12.5',
      'Balance',
      "'quoted",
    ]);
  });

  it('names the columns as the header line shows them, so a header read back from the file is the same list', () => {
    expect(csvHeaderWithInput(NAMES)).toEqual(cells(csvHeaderLineWithInput(NAMES)));
  });

  it('still tells an input column apart from an output column of the same name, as written', () => {
    expect(csvHeaderWithInput(['status', '=status']).slice(-2)).toEqual(['input_status', "'=status"]);
  });
});
