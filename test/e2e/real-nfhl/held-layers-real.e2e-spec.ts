/**
 * Spatial reuse through the real app on FEMA's real Hudson County polygons (the NFHL emulator serving the county's
 * zones, FIRM panels and communities; availability, LOMRs, LOMAs and BFE lines empty): a portfolio job over a grid of
 * points across the county, answered with FIRM panels and communities held for grid squares, gives every row exactly
 * as GET /flood-zone answers it on an app that asks FEMA point by point (HELD_POLYGONS_MAX_MB=0), with far fewer
 * queries of those layers than points; a denser patch of the waterfront has its zones held for squares too. Every query the service sends is the one the unit proof
 * (test/real-nfhl/held-layers.real.spec.ts) asks the emulator: the same fields, the same grid squares.
 */
import { tileAt } from '../../../src/flood-hazard/held-layer';
import type { CallRecord } from '../../emulators/emulator-core';
import { HELD_GRID } from '../../../src/flood-hazard/nfhl.client';
import { EMULATOR_LAYER, type ReusableLayer, countyExtent, envelopeQueryParams, gridOver, pointQueryParams } from '../../real-nfhl/held-squares';
import { hudsonCounty, nfhlMapOf } from '../../real-nfhl/real-nfhl-layers';
import { type RunningApp, startApp } from '../../support/app-harness';
import { apiGet } from '../../support/api-client';
import { JOBS, type RowLine, call, finished, submitCsv } from '../../support/portfolio-jobs';
import { DisposableRedis } from '../../support/redis-server';
import { type Stack, startStack } from '../../support/stack';

const STEP_M = 1000;
/** A patch of Hoboken and Jersey City's waterfront (AE, X shaded, X minimal side by side), 150 m apart: dense enough for squares of zones. */
const DENSE_PATCH = [-74.045, 40.725, -74.025, 40.745];
const DENSE_STEP_M = 150;
const hudson = hudsonCounty();
const countyGrid = gridOver(countyExtent(hudson), STEP_M);
const points = [...countyGrid, ...gridOver(DENSE_PATCH, DENSE_STEP_M)];
const asked = new Set(points.map(({ lat, lon }) => `${lon},${lat}`));
/** The squares of a layer's grid holding enough of the job's points to be fetched (its `pointsBeforeFetch`), by key. */
function denseSquares(layer: ReusableLayer): string[] {
  const { sizeDeg, marginDeg, pointsBeforeFetch } = HELD_GRID[layer];
  const pointsIn = new Map<string, number>();
  for (const { lat, lon } of points) {
    const { key } = tileAt(lon, lat, sizeDeg, marginDeg);
    pointsIn.set(key, (pointsIn.get(key) ?? 0) + 1);
  }
  return [...pointsIn]
    .filter(([, count]) => count >= pointsBeforeFetch)
    .map(([key]) => key)
    .sort();
}

let redis: DisposableRedis;
/** The app holding squares (the default), in front of the emulators. */
let stack: Stack;
/** An app asking FEMA point by point, in front of the same emulators. */
let pointByPoint: RunningApp;

beforeAll(async () => {
  redis = await DisposableRedis.start();
  stack = await startStack({ JOBS_REDIS_URL: redis.url, JOB_UPSTREAM_RATE_PER_SECOND: '100000' }, { nfhl: { map: nfhlMapOf(hudson) } });
  pointByPoint = await startApp({ ...stack.emulators.env, HELD_POLYGONS_MAX_MB: '0' });
});
afterAll(async () => {
  await pointByPoint?.close();
  await stack?.close();
  await redis?.stop();
});

/** The NFHL emulator's queries of a layer since its calls were last reset, point queries and envelope queries apart. */
function queriesOf(layer: ReusableLayer): { point: CallRecord[]; envelope: CallRecord[] } {
  const calls = stack.emulators.nfhl.callsMatching({ endpoint: 'query', layerId: stack.emulators.nfhl.layerIds[EMULATOR_LAYER[layer]] });
  return {
    point: calls.filter((query) => query.query.geometryType === 'esriGeometryPoint'),
    envelope: calls.filter((query) => query.query.geometryType === 'esriGeometryEnvelope'),
  };
}

/** A point query's point, checked to be one of the grid's and asked with the fields and form the unit proof uses. */
function expectPointQuery(layer: ReusableLayer, query: CallRecord): void {
  const [lon, lat] = query.query.geometry.split(',').map(Number);
  expect({ asked: asked.has(`${lon},${lat}`), query: query.query }).toEqual({ asked: true, query: pointQueryParams(layer, { lon, lat }) });
}

it(`answers a portfolio job over Hudson County (${countyGrid.length} points ${STEP_M} m apart, ${points.length - countyGrid.length} on the waterfront ${DENSE_STEP_M} m apart) from held squares exactly as GET asked point by point`, async () => {
  const { nfhl } = stack.emulators;
  nfhl.resetCalls();
  const submitted = await submitCsv(stack.url, `id,lat,lon\n${points.map(({ lat, lon }, i) => `p${i},${lat},${lon}`).join('\n')}\n`);
  expect(submitted.status).toBe(202);
  expect(await finished(stack.url, submitted.body.id)).toEqual(expect.objectContaining({ status: 'completed', total: points.length, errors: 0 }));
  const rows = (await call(stack.url, `${JOBS}/${submitted.body.id}/results`, { headers: { accept: 'application/json' } })).body.results as RowLine[];
  expect(rows.map(({ index, id, status }) => [index, id, status])).toEqual(points.map((_, i) => [i, `p${i}`, 200]));
  // Rows across the county: on its FIRM panels, and in 12 of its 14 communities (the smallest fall between the points).
  const results = rows.map(({ body }) => body.result);
  expect({
    withPanel: results.filter(({ firmPanel }) => firmPanel !== null).length,
    inCommunity: results.filter(({ community }) => community !== null).length,
    communities: new Set(results.flatMap(({ community }) => (community === null ? [] : [community.communityId]))).size,
  }).toEqual({ withPanel: 432, inCommunity: 336, communities: 12 });
  // The waterfront patch crosses zones: its squares of zones hold more than one.
  expect(new Set(results.slice(countyGrid.length).map(({ floodZone, zoneSubtype }) => `${floodZone} ${zoneSubtype}`))).toEqual(
    new Set(['AE null', 'X AREA OF MINIMAL FLOOD HAZARD', 'X 0.2 PCT ANNUAL CHANCE FLOOD HAZARD']),
  );

  // Each dense square of the service's grid fetched once, with every vertex; the rows asked before their square was
  // held, point by point.
  const held = { zones: queriesOf('zones'), panels: queriesOf('panels'), jurisdictions: queriesOf('jurisdictions') };
  for (const layer of ['zones', 'panels', 'jurisdictions'] as const) {
    const { point, envelope } = held[layer];
    for (const query of point) expectPointQuery(layer, query);
    const { sizeDeg, marginDeg } = HELD_GRID[layer];
    const squares = envelope.map((query) => {
      const [west, south, east, north] = query.query.geometry.split(',').map(Number);
      const tile = tileAt((west + east) / 2, (south + north) / 2, sizeDeg, marginDeg);
      expect(query.query).toEqual(envelopeQueryParams(layer, tile.envelope));
      return tile.key;
    });
    expect({ layer, squares: squares.sort() }).toEqual({ layer, squares: denseSquares(layer) });
    expect(denseSquares(layer).length).toBeGreaterThan(5);
    expect(point.length + envelope.length).toBeLessThan(points.length);
  }
  console.log(
    `${points.length} rows; with reuse ` +
      Object.entries(held)
        .map(([layer, { point, envelope }]) => `${layer} ${point.length} point + ${envelope.length} envelope queries`)
        .join(', '),
  );

  nfhl.resetCalls();
  for (const [index, point] of points.entries()) {
    const get = await apiGet(pointByPoint.url, `/flood-zone?lat=${point.lat}&lon=${point.lon}`);
    expect({ index, status: get.status }).toEqual({ index, status: 200 });
    const { retrievedAt: _rowTime, ...row } = rows[index].body;
    const { retrievedAt: _getTime, ...answer } = get.body;
    expect({ index, point, body: row }).toEqual({ index, point, body: answer });
  }
  // Without reuse every row asks every layer at its point.
  for (const layer of ['zones', 'panels', 'jurisdictions'] as const) {
    const { point, envelope } = queriesOf(layer);
    expect({ layer, point: point.length, envelope: envelope.length }).toEqual({ layer, point: points.length, envelope: 0 });
  }
  // A hang guard, not a speed goal: 516 rows as a job, then each again as a GET, on real polygons (about 25 s idle).
}, 360_000);
