import type { Fault } from '../../emulators/emulator-core';
import { RunningEmulators, startEmulators } from '../../emulators';
import { apiGet, type ApiResponse } from '../../support/api-client';
import { RunningApp, startApp } from '../../support/app-harness';

/**
 * `include=structure` and `include=determination` end to end: the real app against the USA Structures and NFHL
 * emulators, over the demo buildings of test/emulators/structure-footprints.ts.
 */
describe("the building and the lender's form, end to end", () => {
  let emulators: RunningEmulators;
  let app: RunningApp;
  const get = (pathAndQuery: string): Promise<ApiResponse> => apiGet(app.url, pathAndQuery);

  beforeAll(async () => {
    emulators = await startEmulators({ latencyMs: 0 });
    app = await startApp({ ...emulators.env, CIRCUIT_BREAKER_MIN_CALLS: '100000' });
  });
  afterAll(async () => {
    await app?.close();
    await emulators?.close();
  });
  afterEach(() => emulators.clearFaults());

  it('a house across the AE edge: 40.1% in AE, the rest in the shaded X, so the building is in the SFHA', async () => {
    const res = await get('/flood-zone?lat=45.1&lon=-87.587296&include=structure');
    expect(res.status).toBe(200);
    const { footprint, ...structure } = res.body.result.structure;
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
      source: 'FEMA/ORNL USA Structures (CC BY 4.0)',
      note: "40.1% of the building's footprint lies in zone AE: a building any part of which is in the SFHA is in the SFHA.",
    });
    expect(footprint.type).toBe('Polygon');
    expect(res.body.result.unavailable).toEqual([]);
  });

  it('a house wholly in X whose street point is in AE: the point says AE, the building found by its address is outside the SFHA', async () => {
    const res = await get('/flood-zone?address=5210%20W%2034th%20St%2C%20Houston%2C%20TX%2077092&include=structure');
    expect(res.status).toBe(200);
    expect(res.body.result.floodZone).toBe('AE');
    expect(res.body.result.structure).toMatchObject({ match: 'address', distanceM: 36.5, buildingInSfha: false, unmappedSharePercent: 0 });
    expect(res.body.result.structure.zones).toEqual([
      {
        floodZone: 'X',
        zoneSubtype: 'AREA OF MINIMAL FLOOD HAZARD',
        inSpecialFloodHazardArea: false,
        staticBaseFloodElevationFt: null,
        areaSqFt: 1652,
        sharePercent: 100,
      },
    ]);
  });

  it('include=determination brings the building and the coastal barrier, and fills the form for the building', async () => {
    const res = await get('/flood-zone?lat=45.1&lon=-87.587296&include=determination');
    expect(res.status).toBe(200);
    expect(res.body.result.structure.match).toBe('contains');
    expect(res.body.result.coastalBarrier.status).toBe('outside');
    const { determinedAt, ...determination } = res.body.result.determination;
    expect(determinedAt).toBe(res.body.retrievedAt);
    expect(determination).toEqual({
      basis: 'building',
      community: { name: 'City of Menominee', number: '260151', county: 'Menominee County', state: 'MI' },
      map: { noNfipMap: false, panel: '26109C0263D', panelEffectiveDate: '2011-09-02', letterOfMapChange: null },
      floodZones: ['AE', 'X'],
      insurance: { available: null, reason: 'not_listed', program: null, coastalBarrier: null },
      buildingInSfha: true,
      floodInsuranceRequired: null,
      notes: [
        "The community is not in FEMA's Community Status Book: whether federal flood insurance can be bought here, and so whether a lender must require it, is unknown.",
      ],
    });
  });

  it('USA Structures failing: structure null and named, the point answer whole, and the form answers for the point', async () => {
    const outage: Fault = { kind: 'http-status', status: 503 };
    emulators.structures.injectFault(outage);
    const res = await get('/flood-zone?lat=45.1&lon=-87.5873&include=determination');
    expect(res.status).toBe(200);
    expect(res.body.result.floodZone).not.toBeNull();
    expect(res.body.result.structure).toBeNull();
    expect(res.body.result.unavailable).toEqual(['structure']);
    expect(res.body.result.determination.basis).toBe('point');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
  });
});
