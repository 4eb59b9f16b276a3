/**
 * The lender's form (`include=determination`) judged where the building is, end to end against the emulators: the
 * coastal barrier and the community over the building's footprint (however far from its point a given footprint
 * lies), the form's letter of map change only when it is this building's (other valid LOMAs within 30 m listed as
 * nearby letters), and "no NFIP map" only where FEMA has no map of any kind.
 */
import type { CallRecord } from '../../emulators/emulator-core';
import { type Position, demoPlace, metersToDegrees, rectangleFootprint } from '../../emulators';
import type { ApiResponse } from '../../support/api-client';
import { Stack, startStack } from '../../support/stack';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ CIRCUIT_BREAKER_MIN_CALLS: '100000' });
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => {
  stack.emulators.clearFaults();
});

/** [lon, lat] `eastM` east and `northM` north of a place (on the emulators' own scale, as the demo map's polygons are drawn). */
function offset(place: { lat: number; lon: number }, eastM: number, northM = 0): Position {
  const { dLon } = metersToDegrees(place.lat, eastM);
  const { dLat } = metersToDegrees(place.lat, northM);
  return [Number((place.lon + dLon).toFixed(7)), Number((place.lat + dLat).toFixed(7))];
}

/** A `widthM` by `depthM` footprint (GeoJSON Polygon) centred on [lon, lat]. */
const footprintAt = (centre: Position, widthM = 20, depthM = 20) => ({ type: 'Polygon', coordinates: [rectangleFootprint(centre, widthM, depthM)] });

/** POST /flood-zone with the form asked for; the form less its time. */
async function formFor(body: Record<string, unknown>): Promise<{ res: ApiResponse; form: Record<string, any> }> {
  const response = await fetch(`${stack.url}/flood-zone`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ include: ['determination'], ...body }),
  });
  const text = await response.text();
  const res: ApiResponse = { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
  expect(res.status).toBe(200);
  const { determinedAt, ...form } = res.body.result.determination;
  expect(determinedAt).toBe(res.body.retrievedAt);
  return { res, form };
}

async function formAt(place: { lat: number; lon: number }): Promise<{ res: ApiResponse; form: Record<string, any> }> {
  const res = await stack.get(`/flood-zone?lat=${place.lat}&lon=${place.lon}&include=determination`);
  expect(res.status).toBe(200);
  const { determinedAt, ...form } = res.body.result.determination;
  expect(determinedAt).toBe(res.body.retrievedAt);
  return { res, form };
}

const envelopeQuery = (call: CallRecord): boolean => call.endpoint === 'query' && call.query.geometryType === 'esriGeometryEnvelope';

const REQUIRED =
  'Flood insurance is required for a loan on a building here from a federally regulated or insured lender: it is in the SFHA and federal flood ' +
  'insurance is available (the mandatory purchase requirement of the Flood Disaster Protection Act of 1973).';
const OFF_THE_MAP =
  "Whether the building is in the SFHA is unknown (FEMA's map gives no flood zone anywhere on its footprint), so whether a lender must require " +
  'flood insurance is unknown: a flood determination company or the local floodplain administrator decides.';
const NO_BUILDING =
  "No building could be located in FEMA's building footprints for this location, so these answers are for the point: near a zone edge the " +
  'building itself may lie in another zone.';

describe('a building that could not be read is unknown, never the point', () => {
  it('the zones over a found house not read: basis building, its zones, panel, SFHA and requirement null, structure named; the site still read', async () => {
    stack.emulators.nfhl.injectFault({
      kind: 'http-status',
      status: 503,
      match: (call) => envelopeQuery(call) && ['Flood Hazard Zones', 'FIRM Panels'].includes(call.layerName ?? ''),
    });
    // inside the house wholly in Houston's AE FLOODWAY, a point of its own
    const { res, form } = await formAt({ lat: 29.76302, lon: -95.39001 });
    expect(res.body.result.structure).toMatchObject({ match: 'contains', buildId: '48020002', zones: null });
    expect(res.body.result.unavailable).toEqual(['structure']);
    expect(form).toEqual({
      basis: 'building',
      community: { name: 'City of Houston', number: '480296', county: 'Harris County', state: 'TX' },
      map: { noNfipMap: false, digital: true, panel: null, panelEffectiveDate: null, letterOfMapChange: null, nearbyLetters: [] },
      floodZones: null,
      insurance: { available: true, reason: 'participating', program: 'regular', coastalBarrier: null },
      buildingInSfha: null,
      floodInsuranceRequired: null,
      notes: [
        "Whether the building is in the SFHA is unknown (FEMA's flood zones over its footprint could not be read this time), so whether a lender " +
          'must require flood insurance is unknown: retry shortly, or a flood determination company or the local floodplain administrator decides.',
      ],
    });
  });
});

describe('the coastal barrier where the building is', () => {
  // Fernandina Beach, FL: Otherwise Protected Area FL-64P is a 400 m square around its demo place (AE 9 over its middle 300 m);
  // 200 m of open map east of it, then the 400 m square of the CBRS buffer zone (the shaded X over its middle 300 m).
  const opa = demoPlace('fernandina-cbrs-opa');
  const FERNANDINA = { name: 'City of Fernandina Beach', number: '120172', county: 'Nassau County', state: 'FL' };
  const FL_64P = { unit: 'FL-64P', type: 'Otherwise Protected Area', designationDate: '1990-11-16' };

  it('a footprint in the OPA given with a point 630 m away in the buffer zone: the building is inside the unit, so availability turns on its age', async () => {
    const [lon, lat] = offset(opa, 630);
    const { res, form } = await formFor({ lat, lon, footprint: footprintAt([opa.lon, opa.lat], 16, 12) });
    // the point's own answer is unchanged
    expect(res.body.result.coastalBarrier.status).toBe('buffer');
    expect([res.body.result.floodZone, res.body.result.inSpecialFloodHazardArea]).toEqual(['X', false]);
    expect(res.body.result.unavailable).toEqual([]);
    expect(form).toEqual({
      basis: 'building',
      community: FERNANDINA,
      map: { noNfipMap: false, digital: true, panel: '12089C0188F', panelEffectiveDate: '2017-12-07', letterOfMapChange: null, nearbyLetters: [] },
      floodZones: ['AE'],
      insurance: { available: null, reason: 'coastal_barrier', program: 'regular', coastalBarrier: FL_64P },
      buildingInSfha: true,
      floodInsuranceRequired: null,
      notes: [
        "Part or all of the building's footprint lies inside Coastal Barrier Resources System unit FL-64P (Otherwise Protected Area): federal flood " +
          'insurance is available only for a building built before 1990-11-16 and not substantially improved since. When the building was built is ' +
          'not known here, so whether a policy can be bought, and so whether a lender must require one, is unknown.',
      ],
    });
  });

  it('a footprint 15 m of whose 20 m lie inside the OPA, its point outside every CBRS polygon: inside', async () => {
    const [lon, lat] = offset(opa, 300);
    const { res, form } = await formFor({ lat, lon, footprint: footprintAt(offset(opa, 195)) });
    expect(res.body.result.coastalBarrier.status).toBe('outside');
    expect(form.insurance).toEqual({ available: null, reason: 'coastal_barrier', program: 'regular', coastalBarrier: FL_64P });
    expect([form.buildingInSfha, form.floodInsuranceRequired]).toEqual([null, null]);
  });

  it('a footprint 15 m of whose 20 m lie in the buffer zone, none in a unit: buffer, an official determination advised', async () => {
    const [lon, lat] = offset(opa, 300);
    const { res, form } = await formFor({ lat, lon, footprint: footprintAt(offset(opa, 405)) });
    expect(res.body.result.coastalBarrier.status).toBe('outside');
    expect(form.insurance).toEqual({ available: true, reason: 'participating', program: 'regular', coastalBarrier: null });
    expect(form.notes).toEqual([
      OFF_THE_MAP,
      "Part or all of the building's footprint lies in the buffer zone at the edge of a Coastal Barrier Resources System unit: an official " +
        'determination of whether the building lies inside the unit is advised.',
    ]);
  });

  it('the CBRS map failing over the footprint (it answered at the point): the coastal barrier named unavailable, availability unknown', async () => {
    stack.emulators.cbrs.injectFault({ kind: 'http-status', status: 503, match: envelopeQuery });
    const [lon, lat] = offset(opa, 630);
    // a footprint of its own: what was read over another is kept, and answers for it
    const footprint = footprintAt([opa.lon, opa.lat], 16, 13);
    const { res, form } = await formFor({ lat, lon, footprint });
    expect(res.body.result.coastalBarrier.status).toBe('buffer');
    expect(res.body.result.unavailable).toEqual(['coastalBarrier']);
    expect(form.insurance).toEqual({ available: null, reason: 'coastal_barrier_unknown', program: 'regular', coastalBarrier: null });
    expect([form.buildingInSfha, form.floodInsuranceRequired]).toEqual([true, null]);
    expect(form.notes).toEqual([
      'Whether the building lies in the Coastal Barrier Resources System, where federal flood insurance is restricted, could not be checked: ' +
        'whether a policy can be bought here, and so whether a lender must require one, is unknown.',
    ]);
    // The failure is not kept: asked again once the map answers, the unit is found.
    stack.emulators.clearFaults();
    const again = await formFor({ lat, lon, footprint });
    expect(again.res.body.result.unavailable).toEqual([]);
    expect(again.form.insurance).toEqual({ available: null, reason: 'coastal_barrier', program: 'regular', coastalBarrier: FL_64P });
  });
});

describe('the community where the building is', () => {
  // Houston, TX: Harris County's unincorporated area (480287) is a 500 m square inside the City of Houston (480296), its
  // south edge 350 m north of the demo place with the unshaded X.
  const houstonX = demoPlace('houston-x-null-subtype');
  const harrisSouthEdgeNorthM = 350;

  it.each([
    ['14 m of its 20 m north of the edge, in Harris County', 4, { name: 'Harris County', number: '480287' }],
    ['6 m of its 20 m north of the edge: most of it in the City of Houston', -4, { name: 'City of Houston', number: '480296' }],
  ])('a footprint across the edge, %s: the community covering the larger share', async (_what, northOfEdgeM, community) => {
    const { res, form } = await formFor({
      lat: houstonX.lat,
      lon: houstonX.lon,
      footprint: footprintAt(offset(houstonX, 0, harrisSouthEdgeNorthM + northOfEdgeM)),
    });
    expect(res.body.result.community).toMatchObject({ name: 'City of Houston', communityId: '480296' });
    expect(form.community).toEqual({ ...community, county: 'Harris County', state: 'TX' });
    expect(form.insurance).toEqual({ available: true, reason: 'participating', program: 'regular', coastalBarrier: null });
  });

  it("FEMA's political jurisdictions failing over the footprint: the community named unavailable, never the point's taken for it", async () => {
    stack.emulators.nfhl.injectFault({
      kind: 'http-status',
      status: 503,
      match: (call) => envelopeQuery(call) && call.layerName === 'Political Jurisdictions',
    });
    const { res, form } = await formFor({ lat: houstonX.lat, lon: houstonX.lon, footprint: footprintAt(offset(houstonX, 0, harrisSouthEdgeNorthM + 4), 18) });
    expect(res.body.result.community).toMatchObject({ name: 'City of Houston', communityId: '480296' });
    expect(res.body.result.unavailable).toEqual(['community']);
    expect(form.community).toEqual({ name: null, number: null, county: 'Harris County', state: 'TX' });
    expect(form.insurance).toEqual({ available: null, reason: 'nfip_status_unknown', program: null, coastalBarrier: null });
  });
});

describe("the form's letter of map change: this building's, or none", () => {
  // Houston, TX: AE 38 with a valid LOMA 23 m east of the demo place (and others, not valid, farther off); no building there.
  const lomas = demoPlace('houston-lomas');
  const VALID_LOMA = { caseNumber: '15-06-1489A', effectiveDate: '2015-06-02' };

  it("the point with no building: the neighbour's LOMA 23 m away is a nearby letter to read, never the form's letter", async () => {
    const { form } = await formAt(lomas);
    expect(form.basis).toBe('point');
    expect(form.map).toEqual({
      noNfipMap: false,
      digital: true,
      panel: '48201C0865L',
      panelEffectiveDate: '2007-06-18',
      letterOfMapChange: null,
      nearbyLetters: [{ ...VALID_LOMA, distanceM: 23 }],
    });
    expect(form.notes).toEqual([
      NO_BUILDING,
      REQUIRED,
      'A valid Letter of Map Amendment (case 15-06-1489A, effective 2015-06-02) lies 23 m from the point: it may concern this building and should ' +
        'be read.',
    ]);
  });

  it("a footprint around the LOMA's point: the form's letter", async () => {
    const { form } = await formFor({ lat: lomas.lat, lon: lomas.lon, footprint: footprintAt(offset(lomas, 23), 10, 10) });
    expect(form.map.letterOfMapChange).toEqual({ kind: 'LOMA', ...VALID_LOMA });
    expect(form.map.nearbyLetters).toEqual([]);
    expect(form.notes).toEqual([
      REQUIRED,
      "A valid Letter of Map Amendment (case 15-06-1489A, effective 2015-06-02) lies inside the building's footprint: if it removed this building " +
        'from the SFHA, federal law does not require flood insurance for it, so the letter should be read.',
    ]);
  });

  it('a footprint 8 m short of the LOMA: a nearby letter, 8 m from the footprint', async () => {
    const { form } = await formFor({ lat: lomas.lat, lon: lomas.lon, footprint: footprintAt(offset(lomas, 10), 10, 10) });
    expect(form.map.letterOfMapChange).toBeNull();
    expect(form.map.nearbyLetters).toHaveLength(1);
    const [letter] = form.map.nearbyLetters;
    expect(letter).toEqual({ ...VALID_LOMA, distanceM: expect.any(Number) });
    expect(letter.distanceM).toBeCloseTo(8, 0);
    expect(form.notes).toEqual([
      REQUIRED,
      `A valid Letter of Map Amendment (case 15-06-1489A, effective 2015-06-02) lies ${letter.distanceM} m from the building's footprint, not ` +
        'inside it: it may concern this building and should be read.',
    ]);
  });

  it('a footprint around the LOMA given with a point 323 m away, beyond where the letters around the point are read: still its letter', async () => {
    const [lon, lat] = offset(lomas, -300);
    const { res, form } = await formFor({ lat, lon, footprint: footprintAt(offset(lomas, 23), 10, 10) });
    expect(res.body.result.lomas).toEqual([]);
    expect(form.map.letterOfMapChange).toEqual({ kind: 'LOMA', ...VALID_LOMA });
  });

  // Washington, DC: effective LOMRs 19-03-0123P (2020, a 250 m square) and 12-03-0456P (2012, a 600 m square) around the demo place.
  const dc = demoPlace('dc-white-house-ae');

  it.each([
    ['across the edge of the newer LOMR', 125, { kind: 'LOMR', caseNumber: '19-03-0123P', effectiveDate: '2020-02-14' }],
    ['within the older LOMR only', 200, { kind: 'LOMR', caseNumber: '12-03-0456P', effectiveDate: '2012-06-01' }],
    ['outside both', 400, null],
  ])("a footprint %s, its point inside both: the LOMRs covering the footprint name the form's letter", async (_what, eastM, letter) => {
    const { res, form } = await formFor({ lat: dc.lat, lon: dc.lon, footprint: footprintAt(offset(dc, eastM)) });
    expect(res.body.result.lomrs.map((lomr: { caseNumber: string }) => lomr.caseNumber)).toEqual(['19-03-0123P', '12-03-0456P']);
    expect(form.map.letterOfMapChange).toEqual(letter);
  });
});

describe('no NFIP map means none', () => {
  it('a paper FIRM panel where FEMA has no digital map: a map exists, its panel named, not digital, the zones unknown', async () => {
    const { res, form } = await formAt(demoPlace('lampasas-paper-only'));
    expect(res.body.result.coverage).toBe('unmapped');
    expect(form.map).toEqual({
      noNfipMap: false,
      digital: false,
      panel: '4804260005B',
      panelEffectiveDate: '1991-07-02',
      letterOfMapChange: null,
      nearbyLetters: [],
    });
    expect(form.floodZones).toBeNull();
    expect(form.notes).toContain(
      "FEMA's flood map here is a paper FIRM (panel 4804260005B, effective 1991-07-02), not on its digital map (NFHL): the flood zones must be read " +
        "from that panel (FEMA's Map Service Center, msc.fema.gov).",
    );
  });

  it('no NFHL data, no panel and no community: whether there is an NFIP map is unknown', async () => {
    const { form } = await formAt(demoPlace('mount-vernon-unmapped'));
    expect(form.map).toEqual({ noNfipMap: null, digital: false, panel: null, panelEffectiveDate: null, letterOfMapChange: null, nearbyLetters: [] });
    expect(form.floodZones).toBeNull();
  });

  it('a community the Community Status Book lists with no map at all: no NFIP map', async () => {
    const { form } = await formAt(demoPlace('prairie-hollow-no-nfip-map'));
    expect(form).toEqual({
      basis: 'point',
      community: { name: 'Town of Prairie Hollow', number: '200612', county: 'Shawnee County', state: 'KS' },
      map: { noNfipMap: true, digital: false, panel: null, panelEffectiveDate: null, letterOfMapChange: null, nearbyLetters: [] },
      floodZones: null,
      insurance: { available: true, reason: 'participating', program: 'emergency', coastalBarrier: null },
      buildingInSfha: null,
      floodInsuranceRequired: null,
      notes: [
        NO_BUILDING,
        "The community is in the NFIP's emergency program: policies there cover only limited amounts.",
        'Whether a building here is in the SFHA is unknown (FEMA gives no flood zone at this point), so whether a lender must require flood ' +
          'insurance is unknown: a flood determination company or the local floodplain administrator decides.',
      ],
    });
  });
});
