/**
 * Every upstream's answers are bounded: a body that never ends (the emulators' `endless-body`) is cut at the
 * upstream's byte cap while it streams in, and is a failure of that upstream, per its part: the lookup's or the
 * picture's 502 where the part is essential, the part null and named in `unavailable` where it is not, the
 * picture on a plain background without the basemap. Never retried, never cached. What the emulator wrote
 * before the service gave up is counted: past the cap by no more than the loopback's socket buffers, so a
 * replica holds at most about the cap per answer, however long the body.
 */
import { UPSTREAM_BY_NAME, type UpstreamName } from '../../../src/common/upstream/upstream-registry';
import { DEMO_ADDRESSES, demoPlace, startEmulators, type Fault, type RunningEmulators, type UpstreamEmulator } from '../../emulators';
import { apiGet } from '../../support/api-client';
import { startApp } from '../../support/app-harness';
import { Stack, addressQuery, expectErrorEnvelope, pointQuery, startStack } from '../../support/stack';
import { SOCKET_BUFFERS_BYTES } from '../../support/upstream-under-test';

/** Time enough to stream a cap's worth on a busy machine; the caches on, so "never cached" shows. */
const ENV = { UPSTREAM_TIMEOUT_MS: '20000', LOOKUP_DEADLINE_MS: '45000', UPSTREAM_RETRIES: '1', CIRCUIT_BREAKER_MIN_CALLS: '100000' } as const;

const ENDLESS: Fault = { kind: 'endless-body' };

const maxAgeOf = (res: { headers: Headers }) => Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1]);

/** A place `metres` north of a demo place (a point of its own in the caches), in the same zone. */
function near(id: string, metres: number): { lat: number; lon: number } {
  const place = demoPlace(id);
  return { lat: Number((place.lat + metres * 0.00001).toFixed(6)), lon: place.lon };
}

/** Every endless body the emulator wrote stopped past the upstream's cap by at most the socket buffers, and one reached the cap. */
async function expectCutAtCap(emulator: UpstreamEmulator, upstream: UpstreamName): Promise<void> {
  await emulator.endlessBodiesStopped();
  const written = emulator.calls.filter((call) => call.fault === 'endless-body').map((call) => call.bodyBytes ?? 0);
  expect(written.length).toBeGreaterThan(0);
  expect(Math.max(...written)).toBeGreaterThan(UPSTREAM_BY_NAME[upstream].bodyCapBytes);
  for (const bytes of written) expect(bytes).toBeLessThan(UPSTREAM_BY_NAME[upstream].bodyCapBytes + SOCKET_BUFFERS_BYTES);
}

describe('a body that never ends is cut at its upstream byte cap, a failure of that upstream', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...ENV });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => {
    stack.emulators.clearFaults();
    stack.emulators.resetCalls();
  });

  it("FEMA's export PNG: the picture's 502 flood_data, asked once, and the next picture is drawn", async () => {
    const place = near('dc-white-house-ae', 1);
    stack.emulators.nfhl.injectFault({ ...ENDLESS, match: 'export' });
    const res = await stack.get(`/flood-zone/map?lat=${place.lat}&lon=${place.lon}`);
    expectErrorEnvelope(res, 502, 'UPSTREAM_UNAVAILABLE');
    expect(res.body.upstream).toBe('flood_data');
    expect(stack.emulators.nfhl.callCount({ endpoint: 'export' })).toBe(1);
    await expectCutAtCap(stack.emulators.nfhl, 'flood_data');
    stack.emulators.clearFaults();
    const again = await fetch(`${stack.url}/flood-zone/map?lat=${place.lat}&lon=${place.lon}`);
    expect(again.status).toBe(200);
    expect(again.headers.get('content-type')).toBe('image/png');
    // asked again: the failure was not kept
    expect(stack.emulators.nfhl.callCount({ endpoint: 'export' })).toBeGreaterThan(1);
  });

  it('the basemap export PNG: the picture on a plain background, X-Map-Unavailable: basemap', async () => {
    const place = near('dc-white-house-ae', 2);
    stack.emulators.basemap.injectFault(ENDLESS);
    const res = await fetch(`${stack.url}/flood-zone/map?lat=${place.lat}&lon=${place.lon}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-map-unavailable')).toBe('basemap');
    expect(stack.emulators.basemap.callCount({ endpoint: 'export' })).toBe(1);
    await expectCutAtCap(stack.emulators.basemap, 'basemap');
  });

  it("FEMA's flood zones query: the lookup's 502 flood_data, asked once, and the next lookup answers", async () => {
    const place = near('dc-white-house-ae', 3);
    stack.emulators.nfhl.injectFault({ ...ENDLESS, match: 'Flood Hazard Zones' });
    const res = await stack.get(pointQuery(place));
    expectErrorEnvelope(res, 502, 'UPSTREAM_UNAVAILABLE');
    expect(res.body.upstream).toBe('flood_data');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(stack.emulators.nfhl.callCount({ layerName: 'Flood Hazard Zones' })).toBe(1);
    await expectCutAtCap(stack.emulators.nfhl, 'flood_data');
    stack.emulators.clearFaults();
    const again = await stack.get(pointQuery(place));
    expect(again.status).toBe(200);
    expect(again.body.result.floodZone).toBe('AE');
  });

  it("the address geocoder: the lookup's 502 geocoder", async () => {
    stack.emulators.census.injectFault({ ...ENDLESS, match: 'onelineaddress' });
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse));
    expectErrorEnvelope(res, 502, 'UPSTREAM_UNAVAILABLE');
    expect(res.body.upstream).toBe('geocoder');
    expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(1);
    await expectCutAtCap(stack.emulators.census, 'geocoder');
    stack.emulators.clearFaults();
    expect((await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse))).status).toBe(200);
  });

  it("FEMA's LOMAs: lomas null and unavailable, the answer cached for at most 60 s", async () => {
    const place = near('houston-lomas', 4);
    stack.emulators.nfhl.injectFault({ ...ENDLESS, match: 'LOMAs' });
    const res = await stack.get(pointQuery(place));
    expect(res.status).toBe(200);
    expect(res.body.result.lomas).toBeNull();
    expect(res.body.result.unavailable).toEqual(['lomas']);
    expect(maxAgeOf(res)).toBeLessThanOrEqual(60);
    expect(stack.emulators.nfhl.callCount({ layerName: 'LOMAs' })).toBe(1);
    await expectCutAtCap(stack.emulators.nfhl, 'flood_data');
  });

  it.each<[string, (e: RunningEmulators) => UpstreamEmulator, UpstreamName, string, string, string, number]>([
    ["FEMA's preliminary map", (e) => e.preliminary, 'flood_data_preliminary', 'charleston-preliminary-into-sfha', 'preliminary', 'mapChange', 5],
    ["FEMA's pending map", (e) => e.pending, 'flood_data_pending', 'charleston-pending-out-of-sfha', 'preliminary', 'mapChange', 6],
    ['CBRS', (e) => e.cbrs, 'coastal_barrier', 'fernandina-cbrs-system-unit', 'cbrs', 'coastalBarrier', 7],
    ['EPQS', (e) => e.elevation, 'elevation', 'dc-white-house-ae', 'elevation', 'groundElevation', 8],
    // 1 m north is still inside the demo house around this place: the building is found again once the fault clears
    ['USA Structures', (e) => e.structures, 'structures', 'houston-ae-floodway', 'structure', 'structure', 1],
  ])(
    '%s: its part null and unavailable for at most 60 s; the failure is not kept for the next lookup',
    async (_what, emulatorOf, upstream, id, include, part, metres) => {
      const place = near(id, metres);
      const emulator = emulatorOf(stack.emulators);
      if (upstream === 'elevation') stack.emulators.elevation.setPoints([{ at: [place.lon, place.lat], valueFt: 580 }]);
      emulator.injectFault(ENDLESS);
      const res = await stack.get(`${pointQuery(place)}&include=${include}`);
      expect(res.status).toBe(200);
      expect(res.body.result[part]).toBeNull();
      expect(res.body.result.unavailable).toEqual([part]);
      expect(maxAgeOf(res)).toBeLessThanOrEqual(60);
      await expectCutAtCap(emulator, upstream);
      stack.emulators.clearFaults();
      // the same point and part in another answer (one with nearby hazards too): the part is asked again, and whole
      const again = await stack.get(`${pointQuery(place)}&include=${include},nearby`);
      expect(again.body.result.unavailable).toEqual([]);
      expect(again.body.result[part]).not.toBeNull();
    },
  );
});

describe('a Community Status Book page that never ends, from start-up', () => {
  it('is cut at the openfema cap: nfip null and nfipStatus unavailable, the rest of the answer whole', async () => {
    const emulators = await startEmulators({ latencyMs: 0 });
    emulators.openfema.injectFault(ENDLESS);
    const app = await startApp({ ...emulators.env, ...ENV }).catch(async (error: unknown) => {
      await emulators.close();
      throw error;
    });
    try {
      const res = await apiGet(app.url, pointQuery(demoPlace('houston-a')));
      expect(res.status).toBe(200);
      expect(res.body.result.floodZone).toBe('A');
      expect(res.body.result.community).toStrictEqual({ name: 'City of Houston', communityId: '480296', nfip: null });
      expect(res.body.result.unavailable).toEqual(['nfipStatus']);
      await expectCutAtCap(emulators.openfema, 'openfema');
      // cut, never asked again at once: one download attempt (no retry of a body over the cap)
      expect(emulators.openfema.callCount()).toBe(1);
    } finally {
      await app.close();
      await emulators.close();
    }
  });
});

describe('a query read page by page: the byte cap holds for all its pages together', () => {
  /** A page of zones as a server that pages on sends it: one zone, "more follow", padded to 64 KiB. */
  const PAGE_BYTES = 64 * 1024;
  const page = JSON.stringify({ features: [{ attributes: { FLD_ZONE: 'AE', ZONE_SUBTY: null, SFHA_TF: 'T' } }], exceededTransferLimit: true }).padEnd(
    PAGE_BYTES,
    ' ',
  );
  /** A small cap for the flood data: five such pages fit, the sixth passes it. */
  const CAP = Math.floor(5.5 * PAGE_BYTES);
  let stack: Stack;
  beforeAll(async () => {
    const cap = jest.replaceProperty(UPSTREAM_BY_NAME.flood_data, 'bodyCapBytes', CAP);
    try {
      // zones asked at the point (no held squares), as the lookup that paged 80 times did
      stack = await startStack({ ...ENV, HELD_POLYGONS_MAX_MB: '0' });
    } finally {
      cap.restore();
    }
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("nine pages each under the cap: the lookup's 502 flood_data after the sixth, never an answer; the next lookup answers", async () => {
    const place = near('dc-white-house-ae', 9);
    stack.emulators.nfhl.injectFault({
      kind: 'http-status',
      status: 200,
      body: page,
      contentType: 'application/json;charset=UTF-8',
      match: 'Flood Hazard Zones',
      times: 9,
    });
    const res = await stack.get(pointQuery(place));
    expectErrorEnvelope(res, 502, 'UPSTREAM_UNAVAILABLE');
    expect(res.body.upstream).toBe('flood_data');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const pages = stack.emulators.nfhl.callsMatching({ endpoint: 'query', layerName: 'Flood Hazard Zones' }).map((call) => call.query.resultOffset);
    expect(pages).toEqual([undefined, '1', '2', '3', '4', '5']);
    stack.emulators.clearFaults();
    const again = await stack.get(pointQuery(place));
    expect(again.status).toBe(200);
    expect(again.body.result.floodZone).toBe('AE');
  });
});
