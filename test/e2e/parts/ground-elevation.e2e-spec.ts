/**
 * `include=elevation` end to end: the real app against the emulators, with the USGS elevation service
 * (EPQS) emulator given the ground at each demo place. The ground against a static and an estimated NAVD88
 * BFE, no BFE, outside the conterminous US, the service's no-data forms, an address's street point, and
 * each failure of the service making only `groundElevation` unavailable.
 */
import { DEMO_ADDRESSES, demoPlace, type EpqsPoint, type Fault } from '../../emulators';
import { FAST_FAULTS, Stack, addressQuery, expectedResult, pointQuery, startStack } from '../../support/stack';

const NOT_CERTIFICATE = 'Not the lowest adjacent grade or a floor elevation, and not an elevation certificate.';
const STREET = 'The point of an address is placed along its street by the geocoder, so it may lie on the street, not at the building.';

/** Static BFE 583 ft NAVD88 (Washington, DC). */
const dcStatic = demoPlace('dc-white-house-ae');
/** Estimated BFE 47 ft NAVD88 (Houston, TX: zone AH, one BFE line). */
const houstonEstimated = demoPlace('houston-ah-one-bfe-line');
/** Zone A: no BFE (Franklin, TN). */
const franklinNoBfe = demoPlace('franklin-a-near-line');
/** Static BFE 32.8 ft PRVD02 (Toa Baja, PR): outside the conterminous US. */
const puertoRico = demoPlace('pr-ae-meters');
/** Where the geocoder puts the White House address (along Pennsylvania Ave). */
const WHITE_HOUSE_STREET_POINT: [number, number] = [-77.03535, 38.898754];

const at = (place: { lat: number; lon: number }): [number, number] => [place.lon, place.lat];
const withElevation = (place: { lat: number; lon: number }, more = '') => `${pointQuery(place)}&include=elevation${more}`;

describe('include=elevation', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...FAST_FAULTS });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => {
    stack.emulators.clearFaults();
    stack.emulators.resetCalls();
  });
  const ground = (points: EpqsPoint[]) => stack.emulators.elevation.setPoints(points);

  describe('against the BFE', () => {
    it.each([
      ['below', 579.96, -3, 'below', '3 ft below the base flood elevation.'],
      [
        'within the uncertainty, above',
        584.24,
        1.2,
        'within_uncertainty',
        '1.2 ft above the base flood elevation, within the 1.7 ft uncertainty of the terrain model.',
      ],
      ['above', 590.04, 7, 'above', '7 ft above the base flood elevation.'],
    ])('%s a static NAVD88 BFE', async (_case, valueFt, differenceFt, position, where) => {
      ground([{ at: at(dcStatic), valueFt, resolution: 1, acquisitionDate: '3/1/2020' }]);
      const res = await stack.get(withElevation(dcStatic));
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual({
        ...expectedResult(dcStatic),
        groundElevation: {
          elevationFt: Math.round(valueFt * 10) / 10,
          verticalDatum: 'NAVD88',
          resolutionM: 1,
          acquisitionDate: '2020-03-01',
          uncertaintyFt: 1.7,
          comparedWith: { bfe: 'static', bfeFt: 583, differenceFt, position },
          note: `Bare-earth ground at the point from USGS 3DEP, ${where} ${NOT_CERTIFICATE}`,
        },
      });
      expect(stack.emulators.elevation.callCount()).toBe(1);
      const [lon, lat] = at(dcStatic);
      expect(stack.emulators.elevation.calls[0].query).toEqual({ x: String(lon), y: String(lat), wkid: '4326', units: 'Feet', includeDate: 'true' });
    });

    it('against an estimated NAVD88 BFE, on a coarse model without a date', async () => {
      ground([{ at: at(houstonEstimated), valueFt: 44.5, resolution: 10, acquisitionDate: null }]);
      const res = await stack.get(withElevation(houstonEstimated));
      expect(res.body.result.estimatedBaseFloodElevation).toMatchObject({ elevationFt: 47, verticalDatum: 'NAVD88' });
      expect(res.body.result.groundElevation).toEqual({
        elevationFt: 44.5,
        verticalDatum: 'NAVD88',
        resolutionM: 10,
        acquisitionDate: null,
        uncertaintyFt: 5.1,
        comparedWith: { bfe: 'estimated', bfeFt: 47, differenceFt: -2.5, position: 'within_uncertainty' },
        note: `Bare-earth ground at the point from USGS 3DEP, 2.5 ft below the estimated base flood elevation, within the 5.1 ft uncertainty of the terrain model. ${NOT_CERTIFICATE}`,
      });
    });

    it('not compared where there is no BFE', async () => {
      ground([{ at: at(franklinNoBfe), valueFt: 655.5 }]);
      const res = await stack.get(withElevation(franklinNoBfe));
      expect(res.body.result).toMatchObject({ floodZone: 'A', staticBaseFloodElevationFt: null, estimatedBaseFloodElevation: null, unavailable: [] });
      expect(res.body.result.groundElevation).toEqual({
        elevationFt: 655.5,
        verticalDatum: 'NAVD88',
        resolutionM: 1,
        acquisitionDate: '2020-03-01',
        uncertaintyFt: 1.7,
        comparedWith: null,
        note: `Bare-earth ground at the point from USGS 3DEP. There is no base flood elevation here to compare it with. ${NOT_CERTIFICATE}`,
      });
    });

    it('no datum and not compared outside the conterminous US (Puerto Rico, by its county)', async () => {
      ground([{ at: at(puertoRico), valueFt: 30.2 }]);
      const res = await stack.get(withElevation(puertoRico));
      expect(res.body.location.countyFips).toMatch(/^72/);
      expect(res.body.result.staticBaseFloodElevationFt).toBe(32.8);
      expect(res.body.result.groundElevation).toEqual({
        elevationFt: 30.2,
        verticalDatum: null,
        resolutionM: 1,
        acquisitionDate: '2020-03-01',
        uncertaintyFt: 1.7,
        comparedWith: null,
        note: `Bare-earth ground at the point from USGS 3DEP. Outside the conterminous US, 3DEP's vertical datum varies, so it is not compared with the base flood elevation. ${NOT_CERTIFICATE}`,
      });
    });

    it("an address: the note says the geocoder's point may lie on the street", async () => {
      ground([{ at: WHITE_HOUSE_STREET_POINT, valueFt: 579.96 }]);
      const res = await stack.get(`${addressQuery(DEMO_ADDRESSES.whiteHouse)}&include=elevation`);
      expect(res.status).toBe(200);
      expect(res.body.location).toMatchObject({ lon: WHITE_HOUSE_STREET_POINT[0], lat: WHITE_HOUSE_STREET_POINT[1], source: 'census_geocoder' });
      expect(res.body.result.groundElevation.elevationFt).toBe(580);
      expect(res.body.result.groundElevation.note.endsWith(` ${NOT_CERTIFICATE} ${STREET}`)).toBe(true);
    });

    it('a lat/lon lookup says nothing of streets', async () => {
      ground([{ at: at(dcStatic), valueFt: 579.96 }]);
      expect((await stack.get(withElevation(dcStatic))).body.result.groundElevation.note).not.toContain('street');
    });
  });

  describe('no data at the point: the object with elevationFt null, not a failure', () => {
    it.each([
      ['the text "Call failed."', { callFailed: true, valueFt: 1 }],
      ['value null', { valueFt: null }],
      ['the value -1000000', { valueFt: -1000000 }],
    ])('%s', async (_case, point) => {
      ground([{ at: at(dcStatic), ...point }]);
      const res = await stack.get(withElevation(dcStatic));
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual({
        ...expectedResult(dcStatic),
        groundElevation: {
          elevationFt: null,
          verticalDatum: null,
          resolutionM: null,
          acquisitionDate: null,
          uncertaintyFt: null,
          comparedWith: null,
          note: 'USGS 3DEP has no ground elevation at this point.',
        },
      });
      expect(stack.emulators.elevation.callCount()).toBe(1);
    });
  });

  describe('a failure of the elevation service makes only groundElevation unavailable', () => {
    it.each<[string, Fault]>([
      ['503', { kind: 'http-status', status: 503 }],
      ['an HTML page', { kind: 'html' }],
      ['a reset connection', { kind: 'reset' }],
      ['an answer slower than UPSTREAM_TIMEOUT_MS', { kind: 'delay', ms: 1000 }],
      ['malformed JSON (a cut answer)', { kind: 'malformed-json' }],
      ['value "12abc"', { kind: 'http-status', status: 200, body: { value: '12abc', resolution: 1 } }],
      ['value 1e308', { kind: 'http-status', status: 200, body: { value: 1e308, resolution: 1 } }],
      ['value 30000.5 ft, above any ground', { kind: 'http-status', status: 200, body: { value: 30000.5, resolution: 1 } }],
      ['a body that never ends', { kind: 'endless-body' }],
    ])('%s', async (_case, fault) => {
      ground([{ at: at(dcStatic), valueFt: 579.96 }]);
      stack.emulators.elevation.injectFault(fault);
      const res = await stack.get(withElevation(dcStatic, ',cbrs'));
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual({ ...expectedResult(dcStatic, ['cbrs']), groundElevation: null, unavailable: ['groundElevation'] });
    });

    it('is back on the next lookup once the service answers', async () => {
      ground([{ at: at(dcStatic), valueFt: 579.96 }]);
      stack.emulators.elevation.injectFault({ kind: 'http-status', status: 503, times: 2 });
      expect((await stack.get(withElevation(dcStatic))).body.result.unavailable).toEqual(['groundElevation']);
      const res = await stack.get(withElevation(dcStatic));
      expect(res.body.result.unavailable).toEqual([]);
      expect(res.body.result.groundElevation.comparedWith).toEqual({ bfe: 'static', bfeFt: 583, differenceFt: -3, position: 'below' });
    });

    it('is never asked without include=elevation', async () => {
      await stack.get(pointQuery(dcStatic));
      expect(stack.emulators.elevation.callCount()).toBe(0);
    });
  });
});

describe('include=elevation with the cache on: an unreadable elevation is a failure, never cached', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...FAST_FAULTS, CACHE_TTL_SECONDS: '86400' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each<[string, Fault, number]>([
    ['malformed JSON', { kind: 'malformed-json', times: 1 }, 1],
    ['value "12abc"', { kind: 'http-status', status: 200, body: { value: '12abc', resolution: 1 }, times: 1 }, 2],
    ['value 1e308', { kind: 'http-status', status: 200, body: { value: 1e308, resolution: 1 }, times: 1 }, 3],
  ])('%s: unavailable for at most 60 s, and the next lookup asks again', async (_case, fault, metres) => {
    // each case a point of its own, a few metres apart in the same zone, so no case reads another's cached ground
    const place = { lat: Number((dcStatic.lat + metres * 0.00001).toFixed(6)), lon: dcStatic.lon };
    stack.emulators.elevation.setPoints([{ at: at(place), valueFt: 579.96 }]);
    stack.emulators.elevation.resetCalls();
    stack.emulators.elevation.injectFault(fault);
    const failed = await stack.get(withElevation(place));
    expect(failed.status).toBe(200);
    expect(failed.body.result.groundElevation).toBeNull();
    expect(failed.body.result.unavailable).toEqual(['groundElevation']);
    expect(Number(/max-age=(\d+)/.exec(failed.headers.get('cache-control') ?? '')?.[1])).toBeLessThanOrEqual(60);
    const again = await stack.get(withElevation(place));
    expect(again.body.result.unavailable).toEqual([]);
    expect(again.body.result.groundElevation).toMatchObject({ elevationFt: 580 });
    expect(stack.emulators.elevation.callCount()).toBe(2);
  });
});
