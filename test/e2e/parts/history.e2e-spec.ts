/**
 * `include=history` end to end: the real app against the emulators (the Census geocoder naming the point's tract,
 * OpenFEMA serving the demo flood records of test/emulators/area-records.ts). The whole record of a Houston tract,
 * the same record by address with no extra geocoder call, small counts withheld, a tract with none, every OpenFEMA
 * failure making only `history` unavailable (never zeros), no tract, the record kept per tract and the county's
 * declarations per county (by the emulators' call counts), and paging through pages the server caps.
 */
import { DEMO_AREA_RECORDS, DEMO_STRUCTURES, type DemoStructure, bboxOfRings, demoPlace, demoStructure, rectangleFootprint, type Fault } from '../../emulators';
import { tractGeoidAt } from '../../emulators/census-tracts';
import { FAST_FAULTS, Stack, addressQuery, expectedResult, pointQuery, startStack } from '../../support/stack';

const houston = demoPlace('houston-ae-floodway');
const sacramento = demoPlace('sacramento-ar');
const menominee = demoPlace('menominee-ve');
const atlantic = demoPlace('outside-us-atlantic');
/** In Houston's demo tract too (the same 0.02° square), 600 m east. */
const houstonNeighbour = { lat: 29.763, lon: -95.383791 };
/** Harris County again, in another tract (with no claims). */
const houstonOtherTract = { lat: 29.763, lon: -95.371373 };

/**
 * A warehouse 60 m by 50 m across the tract line at lat 29.76 (the demo tracts' 0.02° grid): its centre, and so its
 * CENSUSCODE, in Houston's demo tract north of the line, its south part (and `inSouthPart`) in the tract south of it.
 */
const ACROSS_THE_LINE_CENTRE: [number, number] = [-95.385, 29.76008];
const inSouthPart = { lat: 29.75993, lon: -95.385 };
const acrossTheLine = (): DemoStructure => {
  const house = demoStructure('houston-floodway-house');
  const rings = [rectangleFootprint(ACROSS_THE_LINE_CENTRE, 60, 50)];
  const attributes = { ...house.feature.attributes, OBJECTID: 990, BUILD_ID: 48_020_990, CENSUSCODE: tractGeoidAt('48', '201', ...ACROSS_THE_LINE_CENTRE) };
  return { ...house, id: 'across-the-tract-line', feature: { attributes, rings, bbox: bboxOfRings(rings) } };
};

const SOURCE = 'FEMA OpenFEMA: NFIP Redacted Claims v3, NFIP Redacted Policies v3, Disaster Declarations Summaries v2';
const today = () => new Date().toISOString().slice(0, 10);
const withHistory = (place: { lat: number; lon: number }) => `${pointQuery(place)}&include=history`;

const HOUSTON_HISTORY = () => ({
  area: { kind: 'census_tract', geoid: DEMO_AREA_RECORDS.houston.tract, county: 'Harris County', countyFips: '48201' },
  claims: {
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
  },
  policies: { inForce: 388, asOf: today() },
  declarations: [
    { disasterNumber: 4798, declarationDate: '2024-07-09', incidentType: 'Hurricane', title: 'HURRICANE BERYL', declarationType: 'DR' },
    { disasterNumber: 4332, declarationDate: '2017-08-25', incidentType: 'Hurricane', title: 'HURRICANE HARVEY', declarationType: 'DR' },
    { disasterNumber: 3382, declarationDate: '2017-08-25', incidentType: 'Hurricane', title: 'HURRICANE HARVEY', declarationType: 'EM' },
    { disasterNumber: 4269, declarationDate: '2016-04-25', incidentType: 'Flood', title: 'SEVERE STORMS AND FLOODING', declarationType: 'DR' },
    { disasterNumber: 1379, declarationDate: '2001-06-09', incidentType: 'Coastal Storm', title: 'TROPICAL STORM ALLISON', declarationType: 'DR' },
  ],
  source: SOURCE,
  note: expect.stringMatching(/^Flood insurance claims and policies in this census tract, not at this property: /),
});

const openfemaCalls = (stack: Stack, endpoint?: string) => stack.emulators.openfema.callCount(endpoint ? { endpoint } : undefined);

describe('include=history, every part asked each time', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...FAST_FAULTS, HISTORY_TTL_SECONDS: '0' });
    // The first lookups wait for the Community Status Book and warm the sockets: not what these tests time.
    await stack.get(withHistory(houstonOtherTract));
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => {
    stack.emulators.clearFaults();
    stack.emulators.resetCalls();
  });

  it("gives a Houston tract's whole record, the tract named in the geocoder's county call", async () => {
    const res = await stack.get(withHistory(houston));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ ...expectedResult(houston), history: HOUSTON_HISTORY() });
    const [coordinates] = stack.emulators.census.callsMatching({ endpoint: 'coordinates' });
    expect(coordinates!.query.layers).toBe('Counties,2020 Census ZIP Code Tabulation Areas,Census Tracts');
    expect(stack.emulators.census.callCount()).toBe(1);
    expect(openfemaCalls(stack, 'NfipClaims')).toBe(1);
    expect(openfemaCalls(stack, 'NfipPolicies')).toBe(1);
    expect(openfemaCalls(stack, 'DisasterDeclarationsSummaries')).toBe(1);
  });

  it('gives the same record by address, with the tract from the one-line match: no other geocoder call', async () => {
    const res = await stack.get(`${addressQuery(houston.address!)}&include=history`);
    expect(res.status).toBe(200);
    expect(res.body.result.history).toEqual(HOUSTON_HISTORY());
    expect(stack.emulators.census.callCount()).toBe(1);
    expect(stack.emulators.census.calls[0]!.endpoint).toBe('onelineaddress');
    expect(stack.emulators.census.calls[0]!.query.layers).toBe('Counties,Census Tracts,2020 Census Blocks');
  });

  it('withholds counts from 1 to 9 (claims, years, policies), and the share and dollars with them', async () => {
    const res = await stack.get(withHistory(sacramento));
    expect(res.body.result.unavailable).toEqual([]);
    expect(res.body.result.history).toEqual({
      area: { kind: 'census_tract', geoid: DEMO_AREA_RECORDS.sacramento.tract, county: 'Sacramento County', countyFips: '06067' },
      claims: {
        count: null,
        fewerThan: 10,
        firstYear: 2017,
        lastYear: 2017,
        outsideSfhaSharePercent: null,
        paidUsd: null,
        byYear: [{ year: 2017, count: null, fewerThan: 10 }],
        largestEvents: [],
      },
      policies: { inForce: null, fewerThan: 10, asOf: today() },
      declarations: [
        {
          disasterNumber: 4683,
          declarationDate: '2023-01-14',
          incidentType: 'Flood',
          title: 'SEVERE WINTER STORMS, FLOODING, LANDSLIDES, AND MUDSLIDES',
          declarationType: 'DR',
        },
        {
          disasterNumber: 4301,
          declarationDate: '2017-02-14',
          incidentType: 'Severe Storm',
          title: 'SEVERE WINTER STORMS, FLOODING, AND MUDSLIDES',
          declarationType: 'DR',
        },
      ],
      source: SOURCE,
      note: expect.any(String),
    });
    expect(JSON.stringify(res.body.result.history)).not.toMatch(/"(count|inForce)":[1-9]\b/);
  });

  it('says 0 for a tract with no claims, no policies and no declarations, because OpenFEMA answered', async () => {
    const res = await stack.get(withHistory(menominee));
    expect(res.body.result.unavailable).toEqual([]);
    expect(res.body.result.history).toMatchObject({
      area: { geoid: DEMO_AREA_RECORDS.menominee.tract, countyFips: '26109' },
      claims: { count: 0, firstYear: null, lastYear: null, outsideSfhaSharePercent: null, paidUsd: 0, byYear: [], largestEvents: [] },
      policies: { inForce: 0 },
      declarations: [],
    });
  });

  const faults: Array<[string, Fault]> = [
    ['a 500', { kind: 'http-status', status: 500 }],
    ['an HTML page', { kind: 'html' }],
    ['an ArcGIS-style error in a 200', { kind: 'arcgis-error' }],
    ['malformed JSON', { kind: 'malformed-json' }],
    [
      'a 400 error answer',
      { kind: 'http-status', status: 400, body: '{"error":[{"code":"OF_OQP_002","message":"Field not found"}]}', contentType: 'application/json' },
    ],
  ];
  it.each(faults)('is null and named in unavailable, never zeros, when OpenFEMA answers %s (the rest of the answer intact)', async (_, fault) => {
    stack.emulators.openfema.injectFault({ ...fault, match: 'NfipClaims' });
    const res = await stack.get(withHistory(menominee));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ ...expectedResult(menominee), history: null, unavailable: ['history'] });
    const cacheControl = res.headers.get('cache-control') ?? '';
    expect(cacheControl).toMatch(/max-age=\d+|no-store/);
    expect(Number(/max-age=(\d+)/.exec(cacheControl)?.[1] ?? 0)).toBeLessThanOrEqual(60);
  });

  it('is unavailable when only the declarations fail', async () => {
    stack.emulators.openfema.injectFault({ kind: 'http-status', status: 503, match: 'DisasterDeclarationsSummaries' });
    const res = await stack.get(withHistory(houston));
    expect(res.body.result).toMatchObject({ history: null, unavailable: ['history'] });
  });

  it('is unavailable when the geocoder could not name the tract, asking OpenFEMA nothing', async () => {
    stack.emulators.census.injectFault({ kind: 'http-status', status: 500, match: 'coordinates' });
    const res = await stack.get(withHistory(houston));
    expect(res.status).toBe(200);
    expect(res.body.location).toMatchObject({ county: null, countyFips: null });
    expect(res.body.result).toMatchObject({ floodZone: 'AE', history: null, unavailable: ['history'] });
    expect(openfemaCalls(stack)).toBe(0);
  });

  it('is unavailable where there is no tract (outside the US)', async () => {
    const res = await stack.get(withHistory(atlantic));
    expect(res.body.result).toMatchObject({ history: null, unavailable: ['history'] });
    expect(openfemaCalls(stack)).toBe(0);
  });

  it('is not asked without include=history', async () => {
    const res = await stack.get(pointQuery(houston));
    expect(res.body.result.history).toBeNull();
    expect(stack.emulators.census.calls[0]!.query.layers).toBe('Counties,2020 Census ZIP Code Tabulation Areas,Census Tracts');
    expect(openfemaCalls(stack, 'NfipClaims')).toBe(0);
  });
});

describe('include=history, kept per tract and county (HISTORY_TTL_SECONDS), through pages the server caps at 50 rows', () => {
  let stack: Stack;
  beforeAll(async () => {
    // Every other piece asked each time: only the record is kept.
    stack = await startStack({ CACHE_TTL_SECONDS: '0', GEOCODE_CACHE_TTL_SECONDS: '0' }, { openfema: { pageCap: 50 } });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => {
    stack.emulators.clearFaults();
    stack.emulators.resetCalls();
  });

  it('pages the claims and policies to the end', async () => {
    const res = await stack.get(withHistory(houston));
    expect(res.body.result.history).toEqual(HOUSTON_HISTORY());
    expect(stack.emulators.openfema.callsMatching({ endpoint: 'NfipClaims' }).map((call) => call.query.$skip)).toEqual(['0', '50', '100', '150', '200']);
    // 379 records stand for the 388 policies in force (one is a condominium's 10 units).
    expect(openfemaCalls(stack, 'NfipPolicies')).toBe(8);
  });

  it('asks OpenFEMA nothing again for the same tract, and for another tract of the county only its claims and policies', async () => {
    await stack.get(withHistory(houston));
    stack.emulators.resetCalls();
    const again = await stack.get(withHistory(houstonNeighbour));
    expect(again.body.result.history).toEqual(HOUSTON_HISTORY());
    expect(openfemaCalls(stack)).toBe(0);
    expect(stack.emulators.census.callCount()).toBe(1);

    const other = await stack.get(withHistory(houstonOtherTract));
    expect(other.body.result.history.area.geoid).not.toBe(DEMO_AREA_RECORDS.houston.tract);
    expect(other.body.result.history.declarations.map(({ disasterNumber }: { disasterNumber: number }) => disasterNumber)).toEqual(
      DEMO_AREA_RECORDS.houston.declarations,
    );
    expect(other.body.result.history.claims.count).toBe(0);
    expect(openfemaCalls(stack, 'NfipClaims')).toBe(1);
    expect(openfemaCalls(stack, 'NfipPolicies')).toBe(1);
    expect(openfemaCalls(stack, 'DisasterDeclarationsSummaries')).toBe(0);
  });

  it("reads the building's tract (USA Structures' CENSUSCODE) where the building found lies across a tract line from the point, kept under that tract", async () => {
    const building = acrossTheLine();
    const pointTract = tractGeoidAt('48', '201', inSouthPart.lon, inSouthPart.lat);
    expect([building.feature.attributes.CENSUSCODE, pointTract === DEMO_AREA_RECORDS.houston.tract]).toEqual([DEMO_AREA_RECORDS.houston.tract, false]);
    stack.emulators.structures.structures = [...DEMO_STRUCTURES, building];
    try {
      const withBuilding = await stack.get(`${pointQuery(inSouthPart)}&include=structure,history`);
      expect(withBuilding.status).toBe(200);
      expect(withBuilding.body.result.structure).toMatchObject({ match: 'contains', buildId: '48020990' });
      expect(withBuilding.body.result.history).toEqual(HOUSTON_HISTORY());
      // The tract came with the building: the geocoder was asked once, for the point's county, as without it.
      expect(stack.emulators.census.callCount()).toBe(1);
      expect(stack.emulators.census.calls[0]!.endpoint).toBe('coordinates');

      // Without the building, the geocoder's tract: another record, asked of OpenFEMA under its own tract.
      stack.emulators.resetCalls();
      const pointAlone = await stack.get(withHistory(inSouthPart));
      expect(pointAlone.body.result.history).toMatchObject({
        area: { geoid: pointTract, countyFips: '48201' },
        claims: { count: 0 },
        policies: { inForce: 0 },
      });
      expect(stack.emulators.openfema.callsMatching({ endpoint: 'NfipClaims' }).map((call) => call.query.$filter)).toEqual([
        `censusGeoid ge '${pointTract}0' and censusGeoid le '${pointTract}9'`,
      ]);
    } finally {
      stack.emulators.structures.structures = DEMO_STRUCTURES;
    }
  });

  it('does not keep a failure: the next lookup asks again and answers', async () => {
    stack.emulators.openfema.injectFault({ kind: 'http-status', status: 500, match: 'NfipClaims' });
    const failed = await stack.get(withHistory(sacramento));
    expect(failed.body.result).toMatchObject({ history: null, unavailable: ['history'] });
    stack.emulators.clearFaults();
    const answered = await stack.get(withHistory(sacramento));
    expect(answered.body.result).toMatchObject({ history: { claims: { count: null, fewerThan: 10 } }, unavailable: [] });
  });
});
