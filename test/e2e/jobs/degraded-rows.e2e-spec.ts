/**
 * A job's degraded rows (answered 200 with a part unavailable: an upstream failed for that part) on the real app,
 * against the emulators and a Redis of the test's own: each is asked once more after the other rows of its chunk,
 * reading afresh what was cached of it for a minute, and its second answer takes its place in the results; those
 * still degraded are counted in the job's `degradedRows`, and their answer is never cached as a complete one.
 */
import type { CallRecord } from '../../emulators';
import { demoPlace } from '../../emulators';
import { MENOMINEE_HOUSE_POINT } from '../batch/demo-building-rows';
import { call, finished, JOBS, type RowLine, submitCsv } from '../../support/portfolio-jobs';
import { DisposableRedis } from '../../support/redis-server';
import { Stack, startStack } from '../../support/stack';

let redis: DisposableRedis;
let stack: Stack;

beforeAll(async () => {
  redis = await DisposableRedis.start();
  stack = await startStack({ JOBS_REDIS_URL: redis.url, JOB_UPSTREAM_RATE_PER_SECOND: '400', UPSTREAM_RETRIES: '1' });
});
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
});
afterEach(() => stack.emulators.clearFaults());

type Point = { lat: number; lon: number };
/** Calls whose query point is `point` (as the service rounds it, to 6 decimals). */
const atPoint = (point: Point) => (c: CallRecord) =>
  c.point !== undefined && Math.abs(c.point[0] - point.lon) < 1e-7 && Math.abs(c.point[1] - point.lat) < 1e-7;
/** A demo place moved `step` ten-thousandths of a degree north: a place of its own for the caches. */
const moved = (id: string, step: number): Point => {
  const { lat, lon } = demoPlace(id);
  return { lat: Number((lat + step * 0.0001).toFixed(6)), lon };
};

async function resultsOf(id: string): Promise<RowLine[]> {
  return (await call(stack.url, `${JOBS}/${id}/results`, { headers: { accept: 'application/json' } })).body.results as RowLine[];
}

/** The job of these rows with `include`, once finished: its status and its results. */
async function jobOf(rows: Array<{ id: string; at: Point }>, include: string) {
  const csv = `id,lat,lon\n${rows.map(({ id, at }) => `${id},${at.lat},${at.lon}`).join('\n')}\n`;
  const submitted = await submitCsv(stack.url, csv, `?include=${include}`);
  expect(submitted.status).toBe(202);
  const status = await finished(stack.url, submitted.body.id);
  return { status, results: await resultsOf(submitted.body.id) };
}

/** A body as GET answers it, but when (retrievedAt). */
const withoutTime = ({ retrievedAt: _when, ...body }: Record<string, unknown>) => body;

it('asks a row degraded by a failure of its first try once more, after the other rows: its complete answer takes its place, and no row is counted degraded', async () => {
  const house = MENOMINEE_HOUSE_POINT;
  const rows = [
    { id: 'dc', at: moved('dc-white-house-ae', 3) },
    { id: 'house', at: house },
    { id: 'sacramento', at: moved('sacramento-ar', 3) },
  ];
  // USA Structures fails the house's first try (its attempt and the one retry), then answers.
  const fault = stack.emulators.structures.injectFault({ kind: 'http-status', status: 503, times: 2, match: { near: [house.lon, house.lat], withinM: 5 } });

  const { status, results } = await jobOf(rows, 'structure');

  expect(fault.hits).toBe(2);
  expect(stack.emulators.structures.callsMatching().filter(atPoint(house))).toHaveLength(3);
  expect(status).toEqual(expect.objectContaining({ status: 'completed', total: 3, done: 3, errors: 0, degradedRows: 0 }));
  expect(results.map((row) => [row.index, row.id, row.status, row.body.result.unavailable])).toEqual([
    [0, 'dc', 200, []],
    [1, 'house', 200, []],
    [2, 'sacramento', 200, []],
  ]);
  expect(results[1].body.result.structure).toEqual(expect.objectContaining({ match: 'contains', buildingInSfha: true }));
  // Each row as GET answers it.
  for (const [n, { at }] of rows.entries()) {
    const get = await stack.get(`/flood-zone?lat=${at.lat}&lon=${at.lon}&include=structure`);
    expect({ n, body: withoutTime(results[n].body) }).toEqual({ n, body: withoutTime(get.body) });
  }
});

it("asks again what was cached of a degraded row for a minute (an effective-map layer that failed), so that the second try is FEMA's answer, not the first one's", async () => {
  const place = moved('toa-baja-ae', 4);
  // FEMA's LOMR layer fails the place's first try (an ArcGIS server error, and the one retry): the effective map is
  // cached a minute without its LOMRs.
  const lomrs = (c: CallRecord) => c.layerName === 'LOMRs' && atPoint(place)(c);
  const fault = stack.emulators.nfhl.injectFault({ kind: 'arcgis-error', times: 2, match: lomrs });

  const { status, results } = await jobOf([{ id: 'pr', at: place }], 'nearby');

  expect(fault.hits).toBe(2);
  expect(status).toEqual(expect.objectContaining({ status: 'completed', done: 1, errors: 0, degradedRows: 0 }));
  expect([results[0].status, results[0].body.result.unavailable, results[0].body.result.lomrs]).toEqual([200, [], expect.any(Array)]);
  const get = await stack.get(`/flood-zone?lat=${place.lat}&lon=${place.lon}&include=nearby`);
  expect(withoutTime(results[0].body)).toEqual(withoutTime(get.body));
});

it('counts in degradedRows a row still degraded after its second try (asked twice, no more), keeps its answer in place, and never caches it as complete', async () => {
  const failing = moved('dc-white-house-ae', 6);
  const rows = [
    { id: 'first', at: moved('sacramento-ar', 6) },
    { id: 'no-building-data', at: failing },
    { id: 'last', at: moved('toa-baja-ae', 6) },
  ];
  stack.emulators.structures.injectFault({ kind: 'http-status', status: 503, match: { near: [failing.lon, failing.lat], withinM: 5 } });

  const { status, results } = await jobOf(rows, 'structure');

  // Two tries, each an attempt and its retry.
  expect(stack.emulators.structures.callsMatching().filter(atPoint(failing))).toHaveLength(4);
  expect(status).toEqual(expect.objectContaining({ status: 'completed', total: 3, done: 3, errors: 0, degradedRows: 1 }));
  expect(results.map((row) => [row.index, row.id, row.status, row.body.result.unavailable, row.body.result.structure === null])).toEqual([
    [0, 'first', 200, [], false],
    [1, 'no-building-data', 200, ['structure'], true],
    [2, 'last', 200, [], false],
  ]);

  // USA Structures is back: the place is asked again, not answered from a cache of the degraded answer.
  stack.emulators.clearFaults();
  const get = await stack.get(`/flood-zone?lat=${failing.lat}&lon=${failing.lon}&include=structure`);
  expect([get.status, get.body.result.unavailable, get.body.result.structure === null]).toEqual([200, [], false]);
  expect(stack.emulators.structures.callsMatching().filter(atPoint(failing))).toHaveLength(5);
});
