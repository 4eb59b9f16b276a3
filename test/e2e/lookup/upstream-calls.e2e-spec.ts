/**
 * Which upstream calls a lookup makes, how many, and with what parameters, as the real FEMA and Census
 * services expect them. Caches are off so every lookup reaches the emulators.
 */
import { DEMO_ADDRESSES, demoPlace, type CallRecord } from '../../emulators';
import { NO_CACHE, Stack, addressQuery, expectedResult, pointQuery, startStack } from '../../support/stack';

const mappedPlace = demoPlace('dc-white-house-ae');
const gapPlace = demoPlace('houston-gap');
const unmappedPlace = demoPlace('mount-vernon-unmapped');

/** The parameters every NFHL point query must carry (ArcGIS axis order is lon,lat: swapped axes silently find nothing). */
function expectPointQuery(call: CallRecord, point: { lat: number; lon: number }): void {
  expect(call.query).toMatchObject({
    geometry: `${point.lon},${point.lat}`,
    geometryType: 'esriGeometryPoint',
    inSR: '4326',
    spatialRel: 'esriSpatialRelIntersects',
    returnGeometry: 'false',
    f: 'json',
  });
}

describe('NFHL calls of one lookup (default layer ids)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ ...NO_CACHE });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.emulators.resetCalls());

  const queriesOf = (s: Stack) => {
    const { nfhl } = s.emulators;
    return {
      floodHazardZones: nfhl.queryCount('floodHazardZones'),
      firmPanels: nfhl.queryCount('firmPanels'),
      lomrs: nfhl.queryCount('lomrs'),
      politicalJurisdictions: nfhl.queryCount('politicalJurisdictions'),
      availability: nfhl.queryCount('availability'),
      lomas: nfhl.queryCount('lomas'),
      bfeLines: nfhl.queryCount('bfeLines'),
    };
  };
  /** The point queries of the zone answer; LOMAs are points themselves, so they are searched with an envelope around the point. */
  const pointQueriesOf = (s: Stack) => s.emulators.nfhl.callsMatching((c) => c.endpoint === 'query' && c.layerName !== 'LOMAs');

  it('a mapped point with a static BFE: exactly one query each to zones, panels, LOMRs, jurisdictions and LOMAs, none to availability or BFE lines', async () => {
    const res = await stack.get(pointQuery(mappedPlace));
    expect(res.status).toBe(200);
    expect(res.body.result.coverage).toBe('mapped');
    expect(queriesOf(stack)).toEqual({ floodHazardZones: 1, firmPanels: 1, lomrs: 1, politicalJurisdictions: 1, availability: 0, lomas: 1, bfeLines: 0 });
    // nothing but those five queries (the layer list was fetched before this test or now, once)
    const queries = stack.emulators.nfhl.callsMatching({ endpoint: 'query' });
    expect(queries).toHaveLength(5);
  });

  it('an AE point without a static BFE: the five queries plus exactly one BFE line query', async () => {
    const res = await stack.get(pointQuery(demoPlace('franklin-bfe-bracketed')));
    expect(res.status).toBe(200);
    expect(queriesOf(stack)).toEqual({ floodHazardZones: 1, firmPanels: 1, lomrs: 1, politicalJurisdictions: 1, availability: 0, lomas: 1, bfeLines: 1 });
  });

  it.each([gapPlace, unmappedPlace].map((p) => [p.id, p] as const))(
    '%s (no zone polygon): the five queries plus exactly one availability query',
    async (_id, place) => {
      const res = await stack.get(pointQuery(place));
      expect(res.status).toBe(200);
      expect(res.body.result.coverage).toBe(place.expect.coverage);
      expect(queriesOf(stack)).toEqual({ floodHazardZones: 1, firmPanels: 1, lomrs: 1, politicalJurisdictions: 1, availability: 1, lomas: 1, bfeLines: 0 });
    },
  );

  it('every NFHL query but LOMAs is a point query: geometry lon,lat, esriGeometryPoint, inSR 4326, intersects, no geometry, f=json', async () => {
    const res = await stack.get(pointQuery(gapPlace));
    expect(res.status).toBe(200);
    const queries = pointQueriesOf(stack);
    expect(queries).toHaveLength(5);
    for (const call of queries) expectPointQuery(call, gapPlace);
  });

  it('the zone query asks for the fields the classification needs', async () => {
    await stack.get(pointQuery(mappedPlace));
    const [zoneQuery] = stack.emulators.nfhl.callsMatching({ endpoint: 'query', layerName: 'Flood Hazard Zones' });
    const outFields = zoneQuery.query.outFields.split(',').map((f) => f.trim());
    for (const field of ['FLD_ZONE', 'ZONE_SUBTY', 'STATIC_BFE', 'DEPTH', 'V_DATUM', 'LEN_UNIT']) expect(outFields).toContain(field);
  });

  it('an address lookup queries NFHL at the geocoded point', async () => {
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse));
    expect(res.status).toBe(200);
    expect(stack.emulators.nfhl.callsMatching({ endpoint: 'query' })).toHaveLength(5);
    const queries = pointQueriesOf(stack);
    expect(queries).toHaveLength(4);
    for (const call of queries) expectPointQuery(call, mappedPlace);
    const [loma] = stack.emulators.nfhl.callsMatching({ endpoint: 'query', layerName: 'LOMAs' });
    const [xmin, ymin, xmax, ymax] = loma.query.geometry.split(',').map(Number);
    expect(loma.query.geometryType).toBe('esriGeometryEnvelope');
    expect((xmin + xmax) / 2).toBeCloseTo(mappedPlace.lon, 6);
    expect((ymin + ymax) / 2).toBeCloseTo(mappedPlace.lat, 6);
  });
});

describe('the NFHL layer list (MapServer?f=json)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ ...NO_CACHE });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is fetched once per app, not per lookup', async () => {
    expect(stack.emulators.nfhl.callCount({ endpoint: 'root' })).toBe(0);
    for (const id of ['dc-white-house-ae', 'houston-gap', 'menominee-ve', 'dc-white-house-ae']) {
      const res = await stack.get(pointQuery(demoPlace(id)));
      expect(res.status).toBe(200);
    }
    const rootCalls = stack.emulators.nfhl.callsMatching({ endpoint: 'root' });
    expect(rootCalls).toHaveLength(1);
    expect(rootCalls[0].query.f).toBe('json');
    expect(stack.emulators.nfhl.queryCount('floodHazardZones')).toBe(4);
  });

  it('concurrent first lookups share it too', async () => {
    const fresh = await startStack({ ...NO_CACHE });
    try {
      const answers = await Promise.all(['renton-x-shaded', 'sacramento-d', 'toa-baja-ae'].map((id) => fresh.get(pointQuery(demoPlace(id)))));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(fresh.emulators.nfhl.callCount({ endpoint: 'root' })).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});

describe('moved NFHL layer ids are followed (ids resolved by layer name)', () => {
  let stack: Stack;
  const moved = { floodHazardZones: 30, firmPanels: 31, lomrs: 12, politicalJurisdictions: 26, availability: 13 };

  beforeAll(async () => {
    stack = await startStack({ ...NO_CACHE }, { nfhl: { layerIds: moved } });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.emulators.resetCalls());

  it('the emulator really moved them', () => {
    expect(stack.emulators.nfhl.layerIds).toMatchObject(moved);
  });

  it.each(['dc-white-house-ae', 'menominee-overlap', 'houston-gap', 'lampasas-paper-only'])(
    '%s: the same full answer, queried at the moved ids only',
    async (id) => {
      const place = demoPlace(id);
      const res = await stack.get(pointQuery(place));
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual(expectedResult(place));
      const layerIds = new Set(stack.emulators.nfhl.callsMatching({ endpoint: 'query' }).map((c) => c.layerId));
      const { lomas } = stack.emulators.nfhl.layerIds;
      const expected = new Set([moved.floodHazardZones, moved.firmPanels, moved.lomrs, moved.politicalJurisdictions, lomas]);
      if (place.expect.coverage !== 'mapped' && place.expect.zonesAtPoint.length === 0) expected.add(moved.availability);
      expect([...layerIds].sort()).toEqual([...expected].sort());
    },
  );
});

describe('Census calls', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ ...NO_CACHE });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.emulators.resetCalls());

  const layersOf = (call: CallRecord) => (call.query.layers ?? '').split(',').map((l) => l.trim());

  it('a lat/lon lookup: one geographies/coordinates call with x=lon, y=lat, Counties and the ZCTA layer, configured benchmark and vintage', async () => {
    const res = await stack.get(pointQuery(mappedPlace));
    expect(res.status).toBe(200);
    const calls = stack.emulators.census.callsMatching({ endpoint: 'coordinates' });
    expect(calls).toHaveLength(1);
    expect(stack.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(0);
    const [call] = calls;
    expect(Number(call.query.x)).toBe(mappedPlace.lon);
    expect(Number(call.query.y)).toBe(mappedPlace.lat);
    expect(call.query).toMatchObject({ benchmark: 'Public_AR_Current', vintage: 'Current_Current', format: 'json' });
    const layers = layersOf(call);
    expect(layers.some((l) => /^(counties|82)$/i.test(l))).toBe(true);
    expect(layers.some((l) => /zip code tabulation areas|^2$/i.test(l))).toBe(true);
  });

  it('an address lookup: one geographies/onelineaddress call with Counties among the layers and the address as sent', async () => {
    const res = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse));
    expect(res.status).toBe(200);
    const calls = stack.emulators.census.callsMatching({ endpoint: 'onelineaddress' });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call.query).toMatchObject({
      address: DEMO_ADDRESSES.whiteHouse,
      benchmark: 'Public_AR_Current',
      vintage: 'Current_Current',
      format: 'json',
    });
    expect(layersOf(call).some((l) => /^(counties|82)$/i.test(l))).toBe(true);
  });
});

describe('a configured Census benchmark and vintage are the ones queried and cited', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ ...NO_CACHE, GEOCODER_BENCHMARK: 'Public_AR_Census2020', GEOCODER_VINTAGE: 'Census2020_Census2020' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('lat/lon and address lookups use them and name the benchmark in source.geocoder', async () => {
    const byPoint = await stack.get(pointQuery(mappedPlace));
    const byAddress = await stack.get(addressQuery(DEMO_ADDRESSES.whiteHouse));
    for (const res of [byPoint, byAddress]) {
      expect(res.status).toBe(200);
      expect(res.body.source.geocoder).toBe('U.S. Census Bureau Geocoder (Public_AR_Census2020)');
    }
    const calls = stack.emulators.census.callsMatching((c) => c.endpoint === 'coordinates' || c.endpoint === 'onelineaddress');
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(call.query).toMatchObject({ benchmark: 'Public_AR_Census2020', vintage: 'Census2020_Census2020' });
    expect(byPoint.body.location).toMatchObject({ county: 'District of Columbia', countyFips: '11001', zip: mappedPlace.expect.zcta });
  });
});
