/**
 * `include=elevation` at every demo place: the real app against the emulators as offline mode runs them, the
 * USGS elevation (EPQS) emulator answering the ground the demo map gives each place. Each place's
 * `result.groundElevation` is exactly its expectation (worked out by hand in demo-map.ts), its note says why the
 * ground is or is not compared, and the rest of the answer is as without it. One lookup by address adds the
 * street note.
 */
import { DEMO_ADDRESSES, DEMO_PLACES, demoPlace, type DemoPlace } from '../../emulators';
import { NO_CACHE, RESULT_KEYS, Stack, addressQuery, expectedResult, pointQuery, startStack } from '../../support/stack';

const NOT_CERTIFICATE = 'Not the lowest adjacent grade or a floor elevation, and not an elevation certificate.';
const STREET = 'The point of an address is placed along its street by the geocoder, so it may lie on the street, not at the building.';

/** What the note must say, from the place's expectation: no data, the difference, or why there is no comparison. */
function noteSays(place: DemoPlace): RegExp[] {
  const e = place.expect;
  const ground = e.groundElevation;
  if (ground.elevationFt === null) return [/^USGS 3DEP has no ground elevation at this point\.$/];
  const says = [/^Bare-earth ground at the point from USGS 3DEP/, new RegExp(`${NOT_CERTIFICATE.replace(/\./g, '\\.')}$`)];
  const hasBfe = e.staticBaseFloodElevationFt !== null || e.estimatedBaseFloodElevation !== null;
  const compared = ground.comparedWith;
  if (compared !== null) {
    const bfeName = compared.bfe === 'static' ? ' the base flood elevation' : ' the estimated base flood elevation';
    says.push(new RegExp(` ${Math.abs(compared.differenceFt)} ft ${compared.differenceFt > 0 ? 'above' : 'below'}${bfeName}`));
    if (compared.position === 'within_uncertainty') says.push(new RegExp(`within the ${ground.uncertaintyFt} ft uncertainty`));
  } else if (!hasBfe) says.push(/There is no base flood elevation here to compare it with\./);
  else if (ground.verticalDatum === null) says.push(/Outside the conterminous US, 3DEP's vertical datum varies/);
  else says.push(new RegExp(`base flood elevation is in ${e.verticalDatum}, which differs and is never converted`));
  return says;
}

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ ...NO_CACHE });
});

afterAll(async () => {
  await stack?.close();
});

beforeEach(() => stack.emulators.resetCalls());

describe('GET /flood-zone?lat&lon&include=elevation at every demo place', () => {
  it.each(DEMO_PLACES.map((p) => [p.id, p] as const))('%s', async (_id, place) => {
    const res = await stack.get(`${pointQuery(place)}&include=elevation`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.result).sort()).toEqual(RESULT_KEYS);
    expect(res.body.result).toEqual(expectedResult(place, ['elevation']));
    const { note, ...ground } = res.body.result.groundElevation;
    expect(ground).toStrictEqual(place.expect.groundElevation);
    for (const says of noteSays(place)) expect(note).toMatch(says);
    expect(note).not.toContain('street');
    // one call to the elevation service, for the place's own point
    expect(stack.emulators.elevation.callCount()).toBe(1);
    expect(stack.emulators.elevation.calls[0].query).toMatchObject({ x: String(place.lon), y: String(place.lat) });
  });
});

describe('the demo places cover every elevation case', () => {
  const ids = (test: (p: DemoPlace) => boolean) => DEMO_PLACES.filter(test).map((p) => p.id);
  const compared = (bfe: string, position: string) => (p: DemoPlace) =>
    p.expect.groundElevation.comparedWith?.bfe === bfe && p.expect.groundElevation.comparedWith?.position === position;

  it.each([
    ['static', 'above'],
    ['static', 'below'],
    ['static', 'within_uncertainty'],
    ['estimated', 'above'],
    ['estimated', 'below'],
    ['estimated', 'within_uncertainty'],
  ])('a %s BFE, ground %s it', (bfe, position) => {
    expect(ids(compared(bfe, position)).length).toBeGreaterThan(0);
  });

  it('an NGVD29 BFE, outside the conterminous US, and each no-data answer', () => {
    expect(ids((p) => p.expect.verticalDatum === 'NGVD29' && p.expect.groundElevation.comparedWith === null)).toEqual(['norfolk-bfe-ngvd29']);
    expect(ids((p) => p.expect.groundElevation.elevationFt !== null && p.expect.groundElevation.verticalDatum === null)).toEqual([
      'toa-baja-ae',
      'pr-ae-meters',
      'pr-ae-centimeters',
      'pr-ae-datum-9999',
      'ponce-bfe-meters',
    ]);
    expect(ids((p) => p.expect.groundElevation.elevationFt === null)).toEqual([
      'outside-us-atlantic',
      'norfolk-elevation-call-failed',
      'norfolk-elevation-null',
    ]);
  });
});

describe('GET /flood-zone?address&include=elevation', () => {
  it("gives the place's ground, and the note says the geocoder's point may lie on the street", async () => {
    const place = demoPlace('dc-white-house-ae');
    const res = await stack.get(`${addressQuery(DEMO_ADDRESSES.whiteHouse)}&include=elevation`);
    expect(res.status).toBe(200);
    expect(res.body.location).toMatchObject({ lat: place.lat, lon: place.lon, source: 'census_geocoder' });
    expect(res.body.result).toEqual(expectedResult(place, ['elevation']));
    expect(res.body.result.groundElevation).toStrictEqual({
      elevationFt: 580,
      verticalDatum: 'NAVD88',
      resolutionM: 1,
      acquisitionDate: '2020-03-01',
      uncertaintyFt: 1.7,
      comparedWith: { bfe: 'static', bfeFt: 583, differenceFt: -3, position: 'below' },
      note: `Bare-earth ground at the point from USGS 3DEP, 3 ft below the base flood elevation. ${NOT_CERTIFICATE} ${STREET}`,
    });
  });
});
