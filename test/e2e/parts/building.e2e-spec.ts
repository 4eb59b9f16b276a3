import type { CallRecord, Fault } from '../../emulators/emulator-core';
import { DEMO_STRUCTURES, RunningEmulators, demoStructure, startEmulators } from '../../emulators';
import { tractGeoidAt } from '../../emulators/census-tracts';
import { demoPlace } from '../../emulators/demo-map';
import { type Position, bboxOfRings, metersToDegrees } from '../../emulators/geometry';
import { type DemoStructure, rectangleFootprint } from '../../emulators/structure-footprints';
import { apiGet, type ApiResponse } from '../../support/api-client';
import { RunningApp, startApp } from '../../support/app-harness';

/**
 * `include=structure` and `include=determination` end to end: the real app against the USA Structures and NFHL
 * emulators, one case per demo building of test/emulators/structure-footprints.ts, and the building part's failures,
 * cache and place in the lookup's round of calls.
 */
describe("the building and the lender's form, end to end", () => {
  let emulators: RunningEmulators;
  let app: RunningApp;
  const get = (pathAndQuery: string): Promise<ApiResponse> => apiGet(app.url, pathAndQuery);

  const SOURCE = 'FEMA/ORNL USA Structures (CC BY 4.0)';
  const SFHA_NOTE = (share: string, zone: string) =>
    `${share}% of the building's footprint lies in zone ${zone}: a building any part of which is in the SFHA is in the SFHA.`;
  const REQUIRED =
    'Flood insurance is required for a loan on a building here from a federally regulated or insured lender: it is in the SFHA and federal flood ' +
    'insurance is available (the mandatory purchase requirement of the Flood Disaster Protection Act of 1973).';
  const NOT_REQUIRED = 'Outside the SFHA federal law does not require flood insurance for a loan, but a lender may, and flooding can still happen.';
  const REGULAR = { available: true, reason: 'participating', program: 'regular', coastalBarrier: null };
  const HOUSTON = { name: 'City of Houston', number: '480296', county: 'Harris County', state: 'TX' };

  /** `lat=…&lon=…` of the centre of a demo building (6 decimals, as a client sends them). */
  const inside = (id: string): string => {
    const { xmin, ymin, xmax, ymax } = demoStructure(id).feature.bbox;
    return `lat=${((ymin + ymax) / 2).toFixed(6)}&lon=${((xmin + xmax) / 2).toFixed(6)}`;
  };
  const byAddress = (address: string): string => `address=${encodeURIComponent(address)}`;

  /** The answer's building less its outline, which is checked for a building only, and its form less its time. */
  async function lookUp(query: string): Promise<{ res: ApiResponse; structure: Record<string, unknown>; determination: Record<string, unknown> | undefined }> {
    const res = await get(`/flood-zone?${query}`);
    expect(res.status).toBe(200);
    const { footprint, ...structure } = res.body.result.structure;
    expect(footprint === null ? null : footprint.type).toBe(structure.buildId === null ? null : 'Polygon');
    const form = res.body.result.determination;
    if (!form) return { res, structure, determination: undefined };
    const { determinedAt, ...determination } = form;
    expect(determinedAt).toBe(res.body.retrievedAt);
    return { res, structure, determination };
  }

  /** The building part's own NFHL queries: zones and panels over the footprint's envelope (LOMAs and BFE lines are asked by an envelope too). */
  const overTheFootprint = (call: CallRecord): boolean =>
    call.query.geometryType === 'esriGeometryEnvelope' && ['Flood Hazard Zones', 'FIRM Panels'].includes(call.layerName ?? '');

  /** One zone over the whole footprint. */
  const wholly = (floodZone: string, zoneSubtype: string | null, sfha: boolean, bfe: number | null, areaSqFt: number) => [
    { floodZone, zoneSubtype, inSpecialFloodHazardArea: sfha, staticBaseFloodElevationFt: bfe, areaSqFt, sharePercent: 100 },
  ];

  beforeAll(async () => {
    emulators = await startEmulators({ latencyMs: 0 });
    app = await startApp({ ...emulators.env, CIRCUIT_BREAKER_MIN_CALLS: '100000' });
  });
  afterAll(async () => {
    await app?.close();
    await emulators?.close();
  });
  afterEach(() => {
    emulators.clearFaults();
    jest.restoreAllMocks();
  });

  describe('one case per demo building', () => {
    it('a house across the AE edge: 40.1% in AE, the rest in the shaded X, so the building is in the SFHA', async () => {
      const { res, structure } = await lookUp('lat=45.1&lon=-87.587296&include=structure');
      expect(structure).toEqual({
        match: 'contains',
        distanceM: 0,
        buildId: '26010001',
        occupancy: 'Residential',
        primaryOccupancy: 'Single Family Dwelling',
        footprintAreaSqFt: 2324,
        heightM: null,
        imageDate: '2019-08-02',
        zones: [
          { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 584, areaSqFt: 932, sharePercent: 40.1 },
          {
            floodZone: 'X',
            zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD',
            inSpecialFloodHazardArea: false,
            staticBaseFloodElevationFt: null,
            areaSqFt: 1392,
            sharePercent: 59.9,
          },
        ],
        unmappedSharePercent: 0,
        buildingInSfha: true,
        highestBfeFt: 584,
        firmPanels: ['26109C0263D'],
        candidates: [],
        source: SOURCE,
        note: SFHA_NOTE('40.1', 'AE'),
      });
      expect(res.body.result.unavailable).toEqual([]);
    });

    it('include=determination brings the building and the coastal barrier, and fills the form for the building', async () => {
      const { res, structure, determination } = await lookUp('lat=45.1&lon=-87.587296&include=determination');
      expect(structure.match).toBe('contains');
      expect(res.body.result.coastalBarrier.status).toBe('outside');
      expect(determination).toEqual({
        basis: 'building',
        community: { name: 'City of Menominee', number: '260151', county: 'Menominee County', state: 'MI' },
        map: { noNfipMap: false, digital: true, panel: '26109C0263D', panelEffectiveDate: '2011-09-02', letterOfMapChange: null, nearbyLetters: [] },
        floodZones: ['AE', 'X'],
        insurance: { available: null, reason: 'not_listed', program: null, coastalBarrier: null },
        buildingInSfha: true,
        floodInsuranceRequired: null,
        notes: [
          "The community is not in FEMA's Community Status Book: whether federal flood insurance can be bought here, and so whether a lender must require it, is unknown.",
        ],
      });
    });

    it(
      "a house wholly in X on its address's side of the street, 36.5 m from the street point in AE, with a house across the street 7 m away: " +
        'the address chooses its own side, the point says AE, the building is outside the SFHA',
      async () => {
        emulators.census.resetCalls();
        const { res, structure, determination } = await lookUp(`${byAddress('5210 W 34th St, Houston, TX 77092')}&include=determination`);
        expect([res.body.result.floodZone, res.body.result.inSpecialFloodHazardArea]).toEqual(['AE', true]);
        // the block of each building near the address, asked at a point inside it (both stand in the address's tract)
        expect(emulators.census.calls.filter((call) => call.endpoint === 'coordinates').map((call) => call.query.layers)).toEqual([
          '2020 Census Blocks',
          '2020 Census Blocks',
        ]);
        expect(structure).toEqual({
          match: 'nearest',
          distanceM: 36.5,
          buildId: '48020001',
          occupancy: 'Residential',
          primaryOccupancy: 'Single Family Dwelling',
          footprintAreaSqFt: 1652,
          heightM: null,
          imageDate: '2018-11-20',
          zones: wholly('X', 'AREA OF MINIMAL FLOOD HAZARD', false, null, 1652),
          unmappedSharePercent: 0,
          buildingInSfha: false,
          highestBfeFt: null,
          firmPanels: ['48201C0655L'],
          candidates: [],
          source: SOURCE,
          note: "The building's footprint lies wholly outside the SFHA, in zone X.",
        });
        expect(determination).toEqual({
          basis: 'building',
          community: HOUSTON,
          map: { noNfipMap: false, digital: true, panel: '48201C0655L', panelEffectiveDate: '2007-06-18', letterOfMapChange: null, nearbyLetters: [] },
          floodZones: ['X'],
          insurance: REGULAR,
          buildingInSfha: false,
          floodInsuranceRequired: false,
          notes: [NOT_REQUIRED],
        });
      },
    );

    it('a house in the floodway: wholly AE FLOODWAY, with no static BFE, so insurance is required', async () => {
      const { structure, determination } = await lookUp(`${inside('houston-floodway-house')}&include=determination`);
      expect(structure).toEqual({
        match: 'contains',
        distanceM: 0,
        buildId: '48020002',
        occupancy: 'Residential',
        primaryOccupancy: 'Single Family Dwelling',
        footprintAreaSqFt: 2060,
        heightM: null,
        imageDate: '2018-11-20',
        zones: wholly('AE', 'FLOODWAY', true, null, 2060),
        unmappedSharePercent: 0,
        buildingInSfha: true,
        highestBfeFt: null,
        firmPanels: ['48201C0690L'],
        candidates: [],
        source: SOURCE,
        note: SFHA_NOTE('100', 'AE'),
      });
      expect(determination).toEqual({
        basis: 'building',
        community: HOUSTON,
        map: { noNfipMap: false, digital: true, panel: '48201C0690L', panelEffectiveDate: '2007-06-18', letterOfMapChange: null, nearbyLetters: [] },
        floodZones: ['AE'],
        insurance: REGULAR,
        buildingInSfha: true,
        floodInsuranceRequired: true,
        notes: [REQUIRED],
      });
    });

    it('a building partly off the map, the rest mapped with no zone: in the SFHA is unknown (null, never false), and so are its zones and the requirement', async () => {
      const { res, structure, determination } = await lookUp(`${inside('dc-partly-unmapped')}&include=determination`);
      expect(res.body.result.floodZone).toBeNull();
      expect(structure).toEqual({
        match: 'contains',
        distanceM: 0,
        buildId: '11001001',
        occupancy: 'Unclassified',
        primaryOccupancy: 'Unclassified',
        footprintAreaSqFt: 3225,
        heightM: 14.2,
        imageDate: null,
        zones: [],
        unmappedSharePercent: 100,
        buildingInSfha: null,
        highestBfeFt: null,
        firmPanels: ['11001C0019C'],
        candidates: [],
        source: SOURCE,
        note:
          "No part of the building's footprint lies in a flood zone of FEMA's digital flood map (it is off the map or in an area the map does not include), " +
          'so whether the building is in the SFHA is unknown.',
      });
      expect(determination).toEqual({
        basis: 'building',
        community: { name: 'District of Columbia', number: '110001', county: 'District of Columbia', state: 'DC' },
        map: { noNfipMap: false, digital: true, panel: '11001C0019C', panelEffectiveDate: '2010-09-27', letterOfMapChange: null, nearbyLetters: [] },
        // No part of it has a flood zone: no zone is known, and there is no rest outside the SFHA to speak of.
        floodZones: null,
        insurance: REGULAR,
        buildingInSfha: null,
        floodInsuranceRequired: null,
        notes: [
          "Whether the building is in the SFHA is unknown (FEMA's map gives no flood zone anywhere on its footprint), so whether a lender must require " +
            'flood insurance is unknown: a flood determination company or the local floodplain administrator decides.',
        ],
      });
    });

    it('two houses at one address, 7.5 m and 14 m from its point, on its side of the street: none is chosen, both are listed with their SFHA answer', async () => {
      emulators.nfhl.resetCalls();
      const { structure, determination } = await lookUp(`${byAddress('200 Mill Ave S, Renton, WA 98057')}&include=determination`);
      // whether each is in the SFHA: ONE query of FEMA's zones over all their footprints, never one per building, and no panels
      expect(emulators.nfhl.calls.filter(overTheFootprint).map((call) => call.layerName)).toEqual(['Flood Hazard Zones']);
      expect(structure).toEqual({
        match: 'ambiguous',
        distanceM: null,
        buildId: null,
        occupancy: null,
        primaryOccupancy: null,
        footprintAreaSqFt: null,
        heightM: null,
        imageDate: null,
        zones: null,
        unmappedSharePercent: null,
        buildingInSfha: null,
        highestBfeFt: null,
        firmPanels: null,
        candidates: [
          { buildId: '53030001', distanceM: 7.5, address: null, buildingInSfha: false },
          { buildId: '53030002', distanceM: 14, address: null, buildingInSfha: false },
        ],
        source: SOURCE,
        note:
          "No building was chosen: several building footprints lie within 40 m of the address's point, none of them alone carries the address, and which " +
          "stands on the address's side of the street cannot be told, or two houses there lie within 10 m of each other; so the answer is for the point " +
          'alone and the nearest buildings are listed (choose one with buildId).',
      });
      expect(determination).toMatchObject({ basis: 'point', buildingInSfha: false, floodInsuranceRequired: false });
    });

    it('a house with its outbuilding 13.5 m away at the same address: the house is chosen', async () => {
      const { structure, determination } = await lookUp(`${byAddress('2000 Natomas Park Dr, Sacramento, CA 95833')}&include=determination`);
      expect(structure).toEqual({
        match: 'contains',
        distanceM: 0,
        buildId: '6067001',
        occupancy: 'Residential',
        primaryOccupancy: 'Single Family Dwelling',
        footprintAreaSqFt: 2579,
        heightM: null,
        imageDate: '2018-03-09',
        zones: wholly('A99', null, true, null, 2579),
        unmappedSharePercent: 0,
        buildingInSfha: true,
        highestBfeFt: null,
        firmPanels: ['06067C0065J'],
        candidates: [],
        source: SOURCE,
        note: SFHA_NOTE('100', 'A99'),
      });
      expect(determination).toMatchObject({ basis: 'building', floodZones: ['A99'], insurance: REGULAR, floodInsuranceRequired: true, notes: [REQUIRED] });
    });

    it('a beach house in CBRS unit FL-05: whether insurance can be bought turns on when it was built, so availability and the requirement are unknown', async () => {
      const { res, structure, determination } = await lookUp(`${inside('fernandina-cbrs-house')}&include=determination`);
      expect(res.body.result.coastalBarrier).toMatchObject({
        status: 'inside',
        unit: 'FL-05',
        type: 'System Unit',
        floodInsuranceProhibitionDate: '1983-10-01',
      });
      expect(structure).toMatchObject({
        match: 'contains',
        buildId: '12089001',
        footprintAreaSqFt: 1608,
        zones: wholly('VE', null, true, 14, 1608),
        unmappedSharePercent: 0,
        buildingInSfha: true,
        highestBfeFt: 14,
        firmPanels: ['12089C0188F'],
      });
      expect(determination).toEqual({
        basis: 'building',
        community: { name: 'City of Fernandina Beach', number: '120172', county: 'Nassau County', state: 'FL' },
        map: { noNfipMap: false, digital: true, panel: '12089C0188F', panelEffectiveDate: '2017-12-07', letterOfMapChange: null, nearbyLetters: [] },
        floodZones: ['VE'],
        insurance: {
          available: null,
          reason: 'coastal_barrier',
          program: 'regular',
          coastalBarrier: { unit: 'FL-05', type: 'System Unit', designationDate: '1983-10-01' },
        },
        buildingInSfha: true,
        floodInsuranceRequired: null,
        notes: [
          "Part or all of the building's footprint lies inside Coastal Barrier Resources System unit FL-05 (System Unit): federal flood insurance is " +
            'available only for a building built before 1983-10-01 and not substantially improved since. When the building was built is not known ' +
            'here, so whether a policy can be bought, and so whether a lender must require one, is unknown.',
        ],
      });
    });

    it('a house in the SFHA of a community not in the NFIP: no policy can be bought, so none is required, and the notice is given', async () => {
      const { structure, determination } = await lookUp(`${inside('charleston-not-participating')}&include=determination`);
      expect(structure).toMatchObject({
        match: 'contains',
        buildId: '45019001',
        footprintAreaSqFt: 2007,
        zones: wholly('AE', null, true, 11, 2007),
        buildingInSfha: true,
        highestBfeFt: 11,
        firmPanels: ['45019C0514K'],
      });
      expect(determination).toEqual({
        basis: 'building',
        community: { name: 'City of Charleston', number: '455412', county: 'Charleston County', state: 'SC' },
        map: { noNfipMap: false, digital: true, panel: '45019C0514K', panelEffectiveDate: '2021-01-29', letterOfMapChange: null, nearbyLetters: [] },
        floodZones: ['AE'],
        insurance: { available: false, reason: 'not_participating', program: null, coastalBarrier: null },
        buildingInSfha: true,
        floodInsuranceRequired: false,
        notes: [
          'No NFIP policy can be bought here: the community does not participate in the program. A federally regulated lender may still lend on a ' +
            'building in the SFHA, but must tell the borrower that federal disaster assistance may be unavailable, and federal agencies may not finance ' +
            'its purchase or construction.',
        ],
      });
    });

    it("a house in the SFHA of a community in the NFIP's emergency program: insurance available and required, with limited cover", async () => {
      const { structure, determination } = await lookUp(`${inside('willow-creek-emergency-program')}&include=determination`);
      expect(structure).toEqual({
        match: 'contains',
        distanceM: 0,
        buildId: '20197001',
        occupancy: 'Residential',
        primaryOccupancy: 'Single Family Dwelling',
        footprintAreaSqFt: 2064,
        heightM: null,
        imageDate: '2018-09-14',
        zones: wholly('AE', null, true, 1012, 2064),
        unmappedSharePercent: 0,
        buildingInSfha: true,
        highestBfeFt: 1012,
        firmPanels: ['20197C0140D'],
        candidates: [],
        source: SOURCE,
        note: SFHA_NOTE('100', 'AE'),
      });
      expect(determination).toEqual({
        basis: 'building',
        community: { name: 'City of Willow Creek', number: '200610', county: 'Wabaunsee County', state: 'KS' },
        map: { noNfipMap: false, digital: true, panel: '20197C0140D', panelEffectiveDate: '2011-09-02', letterOfMapChange: null, nearbyLetters: [] },
        floodZones: ['AE'],
        insurance: { available: true, reason: 'participating', program: 'emergency', coastalBarrier: null },
        buildingInSfha: true,
        floodInsuranceRequired: true,
        notes: [REQUIRED, "The community is in the NFIP's emergency program: policies there cover only limited amounts."],
      });
    });

    it('coordinates in no building: match none, every building field null, and the form answers for the point', async () => {
      const { res, structure, determination } = await lookUp('lat=38.898754&lon=-77.03535&include=determination');
      expect(res.body.result.floodZone).toBe('AE');
      expect(structure).toEqual({
        match: 'none',
        distanceM: null,
        buildId: null,
        occupancy: null,
        primaryOccupancy: null,
        footprintAreaSqFt: null,
        heightM: null,
        imageDate: null,
        zones: null,
        unmappedSharePercent: null,
        buildingInSfha: null,
        highestBfeFt: null,
        firmPanels: null,
        candidates: [],
        source: SOURCE,
        note: 'No building was chosen: no building footprint contains the given coordinates (taken as the exact point), so the answer is for the point alone.',
      });
      expect(determination).toMatchObject({
        basis: 'point',
        floodZones: ['AE'],
        buildingInSfha: true,
        floodInsuranceRequired: true,
        notes: [
          "No building could be located in FEMA's building footprints for this location, so these answers are for the point: near a zone edge the " +
            'building itself may lie in another zone.',
          REQUIRED,
        ],
      });
    });
  });

  describe('choosing a building: buildId', () => {
    const RENTON = byAddress('200 Mill Ave S, Renton, WA 98057');

    it('the second house at an address that names two: answered for it (match chosen), its distance from the point, and the form for it', async () => {
      const { structure, determination } = await lookUp(`${RENTON}&buildId=53030002&include=determination`);
      expect(structure).toMatchObject({
        match: 'chosen',
        distanceM: 14,
        buildId: '53030002',
        occupancy: 'Residential',
        zones: [expect.objectContaining({ floodZone: 'X', zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', sharePercent: 100 })],
        buildingInSfha: false,
        candidates: [],
        note: "The building's footprint lies wholly outside the SFHA, in zone X.",
      });
      expect(determination).toMatchObject({ basis: 'building', buildingInSfha: false, floodInsuranceRequired: false, notes: [NOT_REQUIRED] });
    });

    it('implies include=structure, and is taken near coordinates too (they name no building of their own)', async () => {
      const res = await get(`/flood-zone?lat=47.4829&lon=-122.201149&buildId=53030001`);
      expect(res.status).toBe(200);
      expect(res.body.result.structure).toMatchObject({ match: 'chosen', distanceM: 7.5, buildId: '53030001', buildingInSfha: false });
    });

    it('the house across the street from an address: chosen by its BUILD_ID, it is answered for, in AE', async () => {
      const { structure } = await lookUp(`${byAddress('5210 W 34th St, Houston, TX 77092')}&buildId=48020003&include=structure`);
      expect(structure).toMatchObject({
        match: 'chosen',
        distanceM: 7,
        buildId: '48020003',
        buildingInSfha: true,
        zones: [expect.objectContaining({ floodZone: 'AE' })],
      });
    });

    it('is part of the answer: the same address without it, then with it, then with another, are three answers', async () => {
      const plain = await get(`/flood-zone?${RENTON}&include=structure`);
      const first = await get(`/flood-zone?${RENTON}&include=structure&buildId=53030001`);
      const second = await get(`/flood-zone?${RENTON}&include=structure&buildId=53030002`);
      expect([plain, first, second].map((res) => [res.status, res.body.result.structure.match, res.body.result.structure.buildId])).toEqual([
        [200, 'ambiguous', null],
        [200, 'chosen', '53030001'],
        [200, 'chosen', '53030002'],
      ]);
      const again = await get(`/flood-zone?${RENTON}&include=structure&buildId=53030002`);
      expect([again.headers.get('x-cache'), again.body.result.structure.buildId]).toEqual(['HIT', '53030002']);
    });

    it.each([
      ['a building of another place', `${RENTON}&buildId=48020001`],
      ['no building at all', `${RENTON}&buildId=99999999`],
      ['coordinates with no building within 40 m', 'lat=38.898754&lon=-77.03535&buildId=53030001'],
    ])('422 BUILDING_NOT_FOUND for %s, in the error envelope, naming the id and the reach', async (_case, query) => {
      const res = await get(`/flood-zone?${query}`);
      const buildId = new URLSearchParams(query).get('buildId');
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: `No building ${buildId} of USA Structures lies within 40 m of the location; an answer without buildId lists the buildings near an address.`,
        statusCode: 422,
        code: 'BUILDING_NOT_FOUND',
        requestId: expect.any(String),
      });
    });

    it.each([
      ['not a number', 'buildId=abc', 'buildId must be a USA Structures BUILD_ID: a whole number of at most 12 digits, given once'],
      ['empty', 'buildId=', 'buildId must be a USA Structures BUILD_ID: a whole number of at most 12 digits, given once'],
      ['a sign', 'buildId=-5', 'buildId must be a USA Structures BUILD_ID: a whole number of at most 12 digits, given once'],
      ['13 digits', 'buildId=1234567890123', 'buildId must be a USA Structures BUILD_ID: a whole number of at most 12 digits, given once'],
      ['repeated', 'buildId=1&buildId=2', 'buildId is repeated; give it once'],
      [
        'bracketed',
        'buildId[]=53030001',
        'Unknown parameter "buildId[]": a name with brackets is not buildId (give buildId once, without brackets); this endpoint reads only address, lat, lon, include, radius and buildId.',
      ],
    ])('400 INVALID_PARAMETERS for a buildId %s, asking nothing', async (_case, parameter, message) => {
      emulators.structures.resetCalls();
      const res = await get(`/flood-zone?${RENTON}&${parameter}`);
      expect([res.status, res.body.code, res.body.error]).toEqual([400, 'INVALID_PARAMETERS', message]);
      expect(emulators.structures.queryCount()).toBe(0);
    });

    it('the report and the map picture take it too: the report answers for that building, the picture 422s on one not within reach', async () => {
      const report = await get(`/flood-zone/report?${RENTON}&buildId=53030002`);
      expect(report.status).toBe(200);
      expect(report.text).toContain('USA Structures building 53030002');
      expect(report.text).toContain('The building chosen with the request (buildId)');
      // Without it, the page lists the buildings near the address, each with how to choose it.
      const listed = await get(`/flood-zone/report?${RENTON}`);
      expect(listed.text).toContain('USA Structures building 53030002, 14 m away: outside the SFHA (buildId=53030002)');
      const missing = await get(`/flood-zone/report?${RENTON}&buildId=99999999`);
      expect(missing.status).toBe(422);
      const picture = await get(`/flood-zone/map?${RENTON}&buildId=99999999`);
      expect([picture.status, picture.body.code]).toEqual([422, 'BUILDING_NOT_FOUND']);
      const bad = await get(`/flood-zone/map?${RENTON}&buildId=x1`);
      expect([bad.status, bad.body.code, bad.body.error]).toEqual([
        400,
        'INVALID_PARAMETERS',
        'buildId must be a USA Structures BUILD_ID: a whole number of at most 12 digits, given once',
      ]);
    });
  });

  describe('the buildings listed when none is chosen', () => {
    /** A house `eastM` metres east of a demo place (its west wall 4 m nearer), in tract `tract` (the stand-in block's is 53033000100). */
    const houseBeside = (placeId: string, buildId: number, eastM: number, tract: string): DemoStructure => {
      const place = demoPlace(placeId);
      const house = demoStructure('renton-main-house');
      const rings = [rectangleFootprint([place.lon + eastM * metersToDegrees(place.lat, 1).dLon, place.lat], 8, 8)];
      const attributes = { ...house.feature.attributes, OBJECTID: buildId, BUILD_ID: buildId, CENSUSCODE: tract };
      return { ...house, id: `beside-${buildId}`, feature: { attributes, rings, bbox: bboxOfRings(rings) } };
    };

    it("every house near an address across the street (another tract): none is chosen, they are listed, with each one's SFHA answer", async () => {
      emulators.structures.structures = [...DEMO_STRUCTURES, houseBeside('renton-ae-floodway', 81, 9, '53033000200')];
      try {
        const res = await get(`/flood-zone?address=${encodeURIComponent(demoPlace('renton-ae-floodway').address as string)}&include=structure`);
        expect(res.status).toBe(200);
        expect(res.body.result.structure).toMatchObject({
          match: 'none',
          buildId: null,
          buildingInSfha: null,
          candidates: [{ buildId: '81', distanceM: 5, address: null, buildingInSfha: true }],
          note:
            "No building was chosen: every building footprint within 40 m of the address's point stands across the street from the address (outside its " +
            'census block), so the answer is for the point alone and those buildings are listed (choose one with buildId).',
        });
        expect(res.body.result.unavailable).toEqual([]);
      } finally {
        emulators.structures.structures = DEMO_STRUCTURES;
      }
    });

    it("a building's census block unread (the geocoder failing): its side unknown, none chosen, kept no longer than an incomplete answer", async () => {
      // Two houses 6 m and 15 m from the White House's address point, in its stand-in block's tract: each one's block must be asked.
      const whiteHouse = demoPlace('dc-white-house-ae');
      const tract = tractGeoidAt('11', '001', whiteHouse.lon, whiteHouse.lat);
      emulators.structures.structures = [...DEMO_STRUCTURES, houseBeside('dc-white-house-ae', 71, 6, tract), houseBeside('dc-white-house-ae', 72, -19, tract)];
      emulators.census.injectFault({ kind: 'http-status', status: 500, match: (call: CallRecord) => call.endpoint === 'coordinates' });
      try {
        const res = await get(`/flood-zone?address=${encodeURIComponent(demoPlace('dc-white-house-ae').address as string)}&include=structure`);
        expect(res.status).toBe(200);
        expect(res.body.result.structure).toMatchObject({
          match: 'ambiguous',
          candidates: [
            { buildId: '71', distanceM: 2, buildingInSfha: true },
            { buildId: '72', distanceM: 15, buildingInSfha: true },
          ],
        });
        expect(res.body.result.unavailable).toEqual(['structure']);
        const maxAge = Number(/^public, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
        expect(maxAge).toBeLessThanOrEqual(60);
      } finally {
        emulators.structures.structures = DEMO_STRUCTURES;
      }
    });

    it("say null, never false, when FEMA's zones over them fail, and the building part is named unavailable", async () => {
      // Two houses beside a demo address no building stands at, in its census block (its tract).
      const grady = demoPlace('renton-x-unshaded');
      const tract = tractGeoidAt('53', '033', grady.lon, grady.lat);
      emulators.structures.structures = [...DEMO_STRUCTURES, houseBeside('renton-x-unshaded', 91, 6, tract), houseBeside('renton-x-unshaded', 92, -9, tract)];
      emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: overTheFootprint });
      try {
        const res = await get(`/flood-zone?address=${encodeURIComponent(grady.address as string)}&include=structure`);
        expect(res.status).toBe(200);
        expect(res.body.result.structure).toMatchObject({
          match: 'ambiguous',
          candidates: [
            { buildId: '91', distanceM: 2, address: null, buildingInSfha: null },
            { buildId: '92', distanceM: 5, address: null, buildingInSfha: null },
          ],
        });
        expect(res.body.result.unavailable).toEqual(['structure']);
        // kept no longer than an incomplete answer (the seconds left, never more than 60)
        const maxAge = Number(/^public, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
        expect(maxAge).toBeLessThanOrEqual(60);
      } finally {
        emulators.structures.structures = DEMO_STRUCTURES;
      }
    });
  });

  describe('failures', () => {
    it('the zone and panel query over the footprint failing: the building without its zones, named unavailable, kept a minute', async () => {
      // The building's piece is kept a minute from when its first part was read: a clock standing still keeps the retry from taking a second off.
      const now = Date.now();
      jest.spyOn(Date, 'now').mockReturnValue(now);
      emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: overTheFootprint });
      const res = await get('/flood-zone?lat=29.76301&lon=-95.39&include=structure');
      expect(res.status).toBe(200);
      expect(res.body.result.floodZone).toBe('AE');
      const { footprint, ...structure } = res.body.result.structure;
      expect(footprint.type).toBe('Polygon');
      expect(structure).toEqual({
        match: 'contains',
        distanceM: 0,
        buildId: '48020002',
        occupancy: 'Residential',
        primaryOccupancy: 'Single Family Dwelling',
        footprintAreaSqFt: 2060,
        heightM: null,
        imageDate: '2018-11-20',
        zones: null,
        unmappedSharePercent: null,
        buildingInSfha: null,
        highestBfeFt: null,
        firmPanels: null,
        candidates: [],
        source: SOURCE,
        note: "The flood zones over the building's footprint could not be read from FEMA's flood map this time, so whether the building is in the SFHA is unknown.",
      });
      expect(res.body.result.unavailable).toEqual(['structure']);
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    });

    it("USA Structures failing at the house 40% in AE: structure null and named, the point answer whole, and the form's building unknown, never the point's answer", async () => {
      const outage: Fault = { kind: 'http-status', status: 503 };
      emulators.structures.injectFault(outage);
      const res = await get('/flood-zone?lat=45.1&lon=-87.5873&include=determination');
      expect(res.status).toBe(200);
      // The point lies in the shaded X, outside the SFHA: the form must not take that for the building's answer.
      expect([res.body.result.floodZone, res.body.result.inSpecialFloodHazardArea]).toEqual(['X', false]);
      expect(res.body.result.structure).toBeNull();
      expect(res.body.result.unavailable).toEqual(['structure']);
      const { determinedAt, ...determination } = res.body.result.determination;
      expect(determinedAt).toBe(res.body.retrievedAt);
      expect(determination).toEqual({
        basis: 'building',
        community: { name: 'City of Menominee', number: '260151', county: 'Menominee County', state: 'MI' },
        map: { noNfipMap: false, digital: true, panel: null, panelEffectiveDate: null, letterOfMapChange: null, nearbyLetters: [] },
        floodZones: null,
        insurance: { available: null, reason: 'not_listed', program: null, coastalBarrier: null },
        buildingInSfha: null,
        floodInsuranceRequired: null,
        notes: [
          "Whether the building is in the SFHA is unknown (FEMA's building footprints did not answer this time, so the building could not be looked " +
            'up), so whether a lender must require flood insurance is unknown: retry shortly, or a flood determination company or the local floodplain ' +
            'administrator decides.',
          "The community is not in FEMA's Community Status Book: whether federal flood insurance can be bought here, and so whether a lender must require it, is unknown.",
        ],
      });
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    });

    describe('a USA Structures footprint breaking the polygon rules: structure null and named, never measured, nothing asked over it', () => {
      const HOUSE = { lat: 29.76301, lon: -95.39 };
      /** A star of `vertices` points (odd) round the house, each edge crossing most others. */
      const star = (vertices: number): Position[] => {
        const step = (vertices - 1) / 2;
        const ring = Array.from<unknown, Position>({ length: vertices }, (_, i) => {
          const angle = (2 * Math.PI * ((i * step) % vertices)) / vertices;
          return [HOUSE.lon + 1e-4 * Math.cos(angle), HOUSE.lat + 1e-4 * Math.sin(angle)];
        });
        return [...ring, ring[0]];
      };
      const conus: Position[] = [
        [-125, 24],
        [-125, 49],
        [-66, 49],
        [-66, 24],
        [-125, 24],
      ];
      const served = () => emulators.structures.structures;
      let original: typeof DEMO_STRUCTURES;
      beforeAll(() => (original = served()));
      afterEach(() => (emulators.structures.structures = original));

      it.each<[string, Position[], string]>([
        ['a 4,999-vertex star', star(4999), '29.763012'],
        ['one ring over the contiguous US', conus, '29.763014'],
      ])('%s', async (_what, ring, lat) => {
        emulators.structures.structures = original.map((building) =>
          String(building.feature.attributes.BUILD_ID) === '48020002'
            ? { ...building, feature: { ...building.feature, rings: [ring], bbox: bboxOfRings([ring]) } }
            : building,
        );
        const before = emulators.nfhl.calls.filter(overTheFootprint).length;
        const res = await get(`/flood-zone?lat=${lat}&lon=${HOUSE.lon}&include=structure`);
        expect(res.status).toBe(200);
        expect(res.body.result.floodZone).toBe('AE');
        expect(res.body.result.structure).toBeNull();
        expect(res.body.result.unavailable).toEqual(['structure']);
        // kept no longer than an incomplete answer (the seconds left, never more than 60)
        const maxAge = Number(/^public, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
        expect(maxAge).toBeLessThanOrEqual(60);
        expect(emulators.nfhl.calls.filter(overTheFootprint).length).toBe(before);
      });
    });

    it.each<[string, Fault, string]>([
      ['an endless body', { kind: 'endless-body' }, 'lat=47.48301&lon=-122.2013'],
      ['an HTML page in HTTP 200', { kind: 'html', status: 200 }, 'lat=47.48302&lon=-122.2013'],
      ['a connection reset', { kind: 'reset' }, 'lat=47.48303&lon=-122.2013'],
    ])('USA Structures answering %s: structure null and named, the point answered', async (_what, fault, point) => {
      emulators.structures.injectFault(fault);
      const res = await get(`/flood-zone?${point}&include=structure`);
      expect(res.status).toBe(200);
      expect(res.body.result.floodZone).toBe('X');
      expect(res.body.result.structure).toBeNull();
      expect(res.body.result.unavailable).toEqual(['structure']);
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    });
  });

  describe('calls', () => {
    const structuresQueries = (): CallRecord[] => emulators.structures.callsMatching({ endpoint: 'query' });

    it('a second identical lookup is a cache HIT that asks USA Structures nothing more', async () => {
      const query = `/flood-zone?${inside('renton-second-house')}&include=structure`;
      const first = await get(query);
      expect([first.status, first.headers.get('x-cache'), first.body.result.structure.buildId]).toEqual([200, 'MISS', '53030002']);
      const asked = structuresQueries().length;
      const second = await get(query);
      expect([second.status, second.headers.get('x-cache')]).toEqual([200, 'HIT']);
      expect(second.body.result.structure).toEqual(first.body.result.structure);
      expect(structuresQueries().length).toBe(asked);
    });

    it('USA Structures is asked in the same round as the zone at the point; the zones over the footprint wait for the building', async () => {
      const HELD_MS = 500;
      emulators.resetCalls();
      emulators.structures.injectFault({ kind: 'delay', ms: HELD_MS, match: 'query' });
      emulators.nfhl.injectFault({
        kind: 'delay',
        ms: HELD_MS,
        times: 1,
        match: (call) => call.query.geometryType === 'esriGeometryPoint' && call.layerName === 'Flood Hazard Zones',
      });
      const res = await get('/flood-zone?lat=45.10001&lon=-87.587296&include=structure');
      expect(res.status).toBe(200);
      expect(res.body.result.structure.match).toBe('contains');
      const [building] = structuresQueries();
      const zoneQueries = emulators.nfhl.callsMatching({ endpoint: 'query', layerName: 'Flood Hazard Zones' });
      const [atPoint] = zoneQueries.filter((call) => call.fault === 'delay');
      const [overFootprint] = zoneQueries.filter(overTheFootprint);
      // both asked before either answered
      expect(building.at).toBeLessThan(atPoint.at + HELD_MS);
      expect(atPoint.at).toBeLessThan(building.at + HELD_MS);
      expect(overFootprint.at).toBeGreaterThanOrEqual(building.at + HELD_MS);
    });
  });
});
