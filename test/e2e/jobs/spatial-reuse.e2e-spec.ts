/**
 * Spatial reuse on the real app against the emulators: a portfolio job whose points are dense answers FIRM panels,
 * communities, availability, LOMRs and LOMAs from whole squares fetched once (envelope queries), every row equal to
 * what point queries answer (a second app with HELD_POLYGONS_MAX_MB=0); afterwards a cold GET inside a held square
 * asks FEMA only for what is not held, and one far from it asks every layer, as before.
 */
import { DEMO_PLACES } from '../../emulators';
import type { CallRecord } from '../../emulators/emulator-core';
import { tileAt } from '../../../src/flood-hazard/held-layer';
import { HELD_GRID } from '../../../src/flood-hazard/nfhl.client';
import { DisposableRedis } from '../../support/redis-server';
import { Stack, startStack } from '../../support/stack';
import { JOBS, call, finished, submitCsv } from '../../support/portfolio-jobs';

/** The Houston demo places: 13 cases (AE, AH, AO, A, X, mapped without a zone) within one 0.05° square. */
const HOUSTON = DEMO_PLACES.filter((place) => place.lat > 29.76 && place.lat < 29.78 && place.lon > -95.4 && place.lon < -95.35);
/**
 * 6 points 10 to 60 m east of each Houston place: 78 points, in one square of most layers' grid, and several of the
 * zones' finer one. Not the places themselves: one lies on the shared edge of two zones (see the seam below).
 */
const POINTS = HOUSTON.flatMap((place) =>
  Array.from({ length: 6 }, (_x, step) => ({ lat: place.lat, lon: Number((place.lon + (step + 1) * 0.0001).toFixed(6)) })),
);
/** On the shared edge of an AE floodway and an AE polygon: both zones at the point, as FEMA's tolerance has it. */
const SEAM = HOUSTON.find((place) => place.id === 'houston-seam')!;
/** Charleston, SC: far from Houston's square. */
const FAR = DEMO_PLACES.find((place) => place.lat === 32.7765 && place.expect.floodZone === 'AE')!;

/** The layers held for squares, by their published names, with the service's grid of each. */
const HELD_GRID_BY_NAME: Record<string, (typeof HELD_GRID)[keyof typeof HELD_GRID]> = {
  'Flood Hazard Zones': HELD_GRID.zones,
  'FIRM Panels': HELD_GRID.panels,
  LOMRs: HELD_GRID.lomrs,
  'Political Jurisdictions': HELD_GRID.jurisdictions,
  'NFHL Availability': HELD_GRID.availability,
  LOMAs: HELD_GRID.lomas,
};
const HELD_LAYERS = Object.keys(HELD_GRID_BY_NAME);
const squareOf = (layer: string, p: { lat: number; lon: number }) =>
  tileAt(p.lon, p.lat, HELD_GRID_BY_NAME[layer].sizeDeg, HELD_GRID_BY_NAME[layer].marginDeg).envelope.join(',');

/**
 * What a job asking a layer at these points costs FEMA: each square of the layer's grid is fetched once its
 * `pointsBeforeFetch`-th point is asked, the points before that are asked one by one, and the rest are answered from it.
 */
function expectedCalls(layer: string, points: Array<{ lat: number; lon: number }>) {
  const pointsIn = new Map<string, number>();
  for (const p of points) pointsIn.set(squareOf(layer, p), (pointsIn.get(squareOf(layer, p)) ?? 0) + 1);
  const before = HELD_GRID_BY_NAME[layer].pointsBeforeFetch - 1;
  const fetched = [...pointsIn].filter(([, n]) => n > before).map(([square]) => square);
  const pointQueries = [...pointsIn.values()].reduce((sum, n) => sum + Math.min(n, before), 0);
  return { fetched, pointQueries, saved: points.length - pointQueries };
}

/** An answer as any deployment gives it: without its time and the URL of the emulator it came from. */
const comparable = (status: number, body: any) =>
  JSON.stringify({ status, body: { ...body, retrievedAt: undefined, source: { ...body.source, floodService: undefined } } });

const queries = (stack: Stack, since = 0): CallRecord[] => stack.emulators.nfhl.calls.filter((call) => call.endpoint === 'query' && call.at >= since);
const byLayer = (calls: CallRecord[]) =>
  calls.reduce<Record<string, number>>((counts, call) => ({ ...counts, [call.layerName!]: (counts[call.layerName!] ?? 0) + 1 }), {});

let redis: DisposableRedis;
let reusing: Stack;
let pointByPoint: Stack;

beforeAll(async () => {
  redis = await DisposableRedis.start();
  reusing = await startStack({ REDIS_URL: redis.url, JOBS_REDIS_URL: redis.url });
  pointByPoint = await startStack({ HELD_POLYGONS_MAX_MB: '0' });
});
afterAll(async () => {
  await reusing?.close();
  await pointByPoint?.close();
  await redis?.stop();
});

describe('a portfolio job over dense points', () => {
  let rows: Array<{ index: number; status: number; body: any }>;
  let jobCalls: CallRecord[];
  let jobStartedAt: number;
  /** The points where no Flood Hazard Zones polygon was found: only there is NFHL availability asked. */
  const withoutZone = () => POINTS.filter((_p, i) => rows[i].body.result.zonesAtPoint.length === 0);

  beforeAll(async () => {
    jobStartedAt = Date.now();
    const csv = `lat,lon\n${POINTS.map((p) => `${p.lat},${p.lon}`).join('\n')}\n`;
    const submitted = await submitCsv(reusing.url, csv);
    expect(submitted.status).toBe(202);
    expect(await finished(reusing.url, submitted.body.id)).toEqual(expect.objectContaining({ status: 'completed', done: POINTS.length, errors: 0 }));
    jobCalls = queries(reusing);
    rows = (await call(reusing.url, `${JOBS}/${submitted.body.id}/results`, { headers: { accept: 'application/json' } })).body.results;
  });

  it('answers every row as point queries answer it, field for field', async () => {
    const expected = await Promise.all(POINTS.map(async (p) => call(pointByPoint.url, `/flood-zone?lat=${p.lat}&lon=${p.lon}`)));
    expect(expected.filter(({ status }) => status !== 200)).toEqual([]);
    // Every zone case of the square is among them, the point without a zone (availability) too.
    expect(new Set(expected.map(({ body }) => body.result.coverage))).toEqual(new Set(['mapped', 'mapped_no_zone']));
    expect(rows.map((row) => comparable(row.status, row.body))).toEqual(expected.map(({ status, body }) => comparable(status, body)));
  });

  it("asks each held layer at a square's first points, then once for the whole square (exact geometry), then never again", () => {
    for (const layer of HELD_LAYERS) {
      const calls = jobCalls.filter((call) => call.layerName === layer);
      const { fetched, pointQueries } = expectedCalls(layer, layer === 'NFHL Availability' ? withoutZone() : POINTS);
      const squares = calls.filter((call) => fetched.includes(call.query.geometry));
      expect({ layer, calls: calls.length, squares: squares.length }).toEqual({ layer, calls: pointQueries + fetched.length, squares: fetched.length });
      expect(fetched.length).toBeGreaterThan(0);
      for (const square of squares) {
        expect(square.query).toEqual(
          expect.objectContaining({ geometryType: 'esriGeometryEnvelope', returnGeometry: 'true', outSR: '4326', spatialRel: 'esriSpatialRelIntersects' }),
        );
        expect(square.query.maxAllowableOffset).toBeUndefined();
        // Points as the point query gives them (6 decimals); polygons with every decimal FEMA keeps.
        expect(square.query.geometryPrecision).toBe(layer === 'LOMAs' ? '6' : undefined);
      }
    }
  });

  it('counts the calls it saved', async () => {
    const metrics = await (await fetch(`${reusing.url}/metrics`)).text();
    const saved = (layer: string) => Number(new RegExp(`^nfhl_held_answers_total\\{layer="${layer}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    const names = { zones: 'Flood Hazard Zones', panels: 'FIRM Panels', lomrs: 'LOMRs', jurisdictions: 'Political Jurisdictions', lomas: 'LOMAs' };
    for (const [layer, name] of Object.entries(names)) expect({ layer, saved: saved(layer) }).toEqual({ layer, saved: expectedCalls(name, POINTS).saved });
    expect(withoutZone().length).toBeGreaterThan(2);
    expect(saved('availability')).toBe(expectedCalls('NFHL Availability', withoutZone()).saved);
    expect(Number(/^nfhl_held_bytes (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
  });

  /** GET at the point on both apps: the two answers, and the NFHL queries each app sent for it, by layer. */
  async function getOnBoth(point: { lat: number; lon: number }) {
    const before = Date.now();
    const [reused, asked] = await Promise.all([
      call(reusing.url, `/flood-zone?lat=${point.lat}&lon=${point.lon}`),
      call(pointByPoint.url, `/flood-zone?lat=${point.lat}&lon=${point.lon}`),
    ]);
    expect(comparable(reused.status, reused.body)).toBe(comparable(asked.status, asked.body));
    return { reused, asked, reusedQueries: byLayer(queries(reusing, before)), askedQueries: byLayer(queries(pointByPoint, before)), before };
  }
  /** Whether the job fetched the square of the layer's grid holding the point. */
  const heldAt = (layer: string, point: { lat: number; lon: number }) =>
    expectedCalls(layer, layer === 'NFHL Availability' ? withoutZone() : POINTS).fetched.includes(squareOf(layer, point));

  it('lets a cold GET inside held squares ask FEMA only for the layers they do not hold, with the answer dated by the squares', async () => {
    const place = HOUSTON[0];
    const point = { lat: place.lat + 0.0002, lon: place.lon + 0.0003 };
    const { reused, reusedQueries, askedQueries, before } = await getOnBoth(point);
    // Every layer at its point, and the BFE lines this AE point's estimate needs.
    expect(askedQueries).toEqual({ 'Flood Hazard Zones': 1, 'FIRM Panels': 1, LOMRs: 1, 'Political Jurisdictions': 1, LOMAs: 1, 'Base Flood Elevations': 1 });
    expect(HELD_LAYERS.filter((layer) => askedQueries[layer] && heldAt(layer, point))).toEqual([
      'Flood Hazard Zones',
      'FIRM Panels',
      'LOMRs',
      'Political Jurisdictions',
      'LOMAs',
    ]);
    expect(reusedQueries).toEqual({ 'Base Flood Elevations': 1 });
    // As old as the squares it was answered from: fetched during the job.
    const retrievedAt = Date.parse(reused.body.retrievedAt);
    expect(retrievedAt).toBeGreaterThanOrEqual(jobStartedAt);
    expect(retrievedAt).toBeLessThan(before);
  });

  it("asks FEMA at a point on the shared edge of two zones even inside a held square: FEMA's tolerance decides", async () => {
    expect(heldAt('Flood Hazard Zones', SEAM)).toBe(true);
    const { reused, reusedQueries } = await getOnBoth(SEAM);
    expect(reused.body.result.zonesAtPoint).toHaveLength(2);
    // The BFE lines are not held: the floodway's estimate asks for them.
    expect(reusedQueries).toEqual({ 'Flood Hazard Zones': 1, 'Base Flood Elevations': 1 });
  });

  it('leaves a cold GET far from anything held as it was: every layer asked at its point, no envelope', async () => {
    const before = Date.now();
    const { status } = await call(reusing.url, `/flood-zone?lat=${FAR.lat}&lon=${FAR.lon}`);
    expect(status).toBe(200);
    const asked = queries(reusing, before);
    expect(byLayer(asked)).toEqual({ 'Flood Hazard Zones': 1, 'FIRM Panels': 1, LOMRs: 1, 'Political Jurisdictions': 1, LOMAs: 1 });
    expect(asked.filter((call) => call.layerName !== 'LOMAs' && call.query.geometryType !== 'esriGeometryPoint')).toEqual([]);
  });
});

describe.each([
  ['an HTTP 500', { kind: 'http-status' as const, status: 500 }],
  ['an ArcGIS error inside HTTP 200', { kind: 'arcgis-error' as const }],
  ['an endless body', { kind: 'endless-body' as const }],
])('a square that fails with %s', (_case, fault) => {
  let failing: Stack;
  let failingRedis: DisposableRedis;

  beforeAll(async () => {
    failingRedis = await DisposableRedis.start();
    failing = await startStack({ REDIS_URL: failingRedis.url, JOBS_REDIS_URL: failingRedis.url, UPSTREAM_TIMEOUT_MS: '2000' });
    // Every square of FIRM panels fails; the points' own queries do not.
    failing.emulators.nfhl.injectFault({ ...fault, match: (call) => call.layerName === 'FIRM Panels' && call.query.geometryType === 'esriGeometryEnvelope' });
  });
  afterAll(async () => {
    await failing?.close();
    await failingRedis?.stop();
  });

  it('leaves its points asked one by one: every row as point queries answer it', async () => {
    const points = POINTS.slice(0, 24);
    const csv = `lat,lon\n${points.map((p) => `${p.lat},${p.lon}`).join('\n')}\n`;
    const submitted = await submitCsv(failing.url, csv);
    expect(await finished(failing.url, submitted.body.id)).toEqual(expect.objectContaining({ status: 'completed', done: points.length, errors: 0 }));
    const rows = (await call(failing.url, `${JOBS}/${submitted.body.id}/results`, { headers: { accept: 'application/json' } })).body.results;
    const expected = await Promise.all(points.map(async (p) => call(pointByPoint.url, `/flood-zone?lat=${p.lat}&lon=${p.lon}`)));
    expect(rows.map((row: { status: number; body: any }) => comparable(row.status, row.body))).toEqual(
      expected.map(({ status, body }) => comparable(status, body)),
    );
    const panels = failing.emulators.nfhl.calls.filter((call) => call.layerName === 'FIRM Panels');
    // The square asked once (and retried as any failed call is), then each point at its own.
    expect(panels.filter((call) => call.query.geometryType === 'esriGeometryPoint')).toHaveLength(points.length);
    expect(panels.filter((call) => call.query.geometryType === 'esriGeometryEnvelope').length).toBeGreaterThanOrEqual(1);
  });
});
