/**
 * Hostile geometry against the real app and the emulators: polygons shaped to cost the most (self-crossing stars,
 * rings crossing each other thousands of times, combs of many teeth, coordinates of 1e308), from the caller and from
 * the upstreams. Every answer arrives and none is a 500; polygon work of more than 250 vertices runs in the worker
 * threads, so the health probe answers while a polygon is being worked (seen by the pool's own gauge, not by a clock).
 */
import { DEMO_MAP, DEMO_STRUCTURES, type ArcGisFeature, type Position, bboxOfRings, demoStructure } from '../../emulators';
import type { ApiResponse } from '../../support/api-client';
import { hostileShapesAround } from '../../support/hostile-shapes';
import { JOBS, type RowLine, call, finished } from '../../support/portfolio-jobs';
import { DisposableRedis } from '../../support/redis-server';
import { Stack, expectErrorEnvelope, startStack } from '../../support/stack';

/** One worker, a deadline far beyond any honest polygon's work and far below the hostile ones'. */
const POLYGON_DEADLINE_MS = 8000;

const HOUSE = demoStructure('houston-floodway-house');
const { xmin, ymin, xmax, ymax } = HOUSE.feature.bbox;
const HOUSE_POINT = { lat: (ymin + ymax) / 2, lon: (xmin + xmax) / 2 };
const { at, star, meander } = hostileShapesAround(HOUSE_POINT);

/** A comb of `teeth` teeth, `toothM` long, on a spine: a valid ring of teeth * 4 + 2 vertices. */
function comb(teeth: number, widthM: number, toothM: number): Position[] {
  const step = widthM / teeth;
  const ring: Position[] = [at(-widthM / 2, -3)];
  for (let i = 0; i < teeth; i++) {
    const x = -widthM / 2 + i * step;
    ring.push(at(x, toothM), at(x + step / 2, toothM), at(x + step / 2, 0), at(x + step, 0));
  }
  ring.push(at(widthM / 2, -3), ring[0]);
  return ring;
}

/** The AE floodway polygon around the house, whose attributes a hostile zone polygon over it takes. */
const FLOODWAY = DEMO_MAP.nfhl.floodHazardZones.find((feature) => feature.attributes.OBJECTID === 6430101) as ArcGisFeature;

/**
 * A zone polygon over the house, as a VE zone: the most severe is measured first, so it is checked before the
 * floodway's polygon has taken the whole footprint (a polygon left nothing to take is never looked at).
 */
const zoneOver = (rings: Position[][]): ArcGisFeature => ({
  attributes: { ...FLOODWAY.attributes, OBJECTID: 6439999, FLD_ZONE: 'VE', ZONE_SUBTY: null, STATIC_BFE: 12 },
  rings,
  bbox: bboxOfRings(rings),
});

let stack: Stack;
let redis: DisposableRedis;

beforeAll(async () => {
  redis = await DisposableRedis.start();
  stack = await startStack({
    JOBS_REDIS_URL: redis.url,
    CACHE_TTL_SECONDS: '0',
    GEOCODE_CACHE_TTL_SECONDS: '0',
    CIRCUIT_BREAKER_MIN_CALLS: '100000',
    LOOKUP_DEADLINE_MS: '30000',
    POLYGON_WORKERS: '1',
    POLYGON_DEADLINE_MS: String(POLYGON_DEADLINE_MS),
  });
});
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
});

/** The pool's gauge and its outcome counts, as /metrics says them. */
async function pool(): Promise<{ inPool: number; outcomes: Record<string, number> }> {
  const res = await fetch(`${stack.url}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  const inPool = Number(/^polygon_tasks_in_pool (\d+)$/m.exec(text)?.[1] ?? 0);
  const outcomes = Object.fromEntries([...text.matchAll(/^polygon_tasks_total\{outcome="(\w+)"\} (\d+)$/gm)].map(([, outcome, n]) => [outcome, Number(n)]));
  return { inPool, outcomes };
}

/** Asks /metrics until a polygon task is in the pool: the event the health proof waits for. */
async function untilInPool(answered: { done: boolean }): Promise<{ inPool: number; outcomes: Record<string, number> }> {
  for (;;) {
    const seen = await pool();
    if (seen.inPool > 0) return seen;
    if (answered.done) throw new Error('the request was answered before its polygon task was seen in the pool');
  }
}

const lookupOfHouse = (query = '') => stack.get(`/flood-zone?lat=${HOUSE_POINT.lat}&lon=${HOUSE_POINT.lon}&include=structure${query}`);

async function postFootprint(coordinates: Position[][]): Promise<ApiResponse> {
  const response = await fetch(`${stack.url}/flood-zone`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...HOUSE_POINT, footprint: { type: 'Polygon', coordinates } }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

describe('from an upstream', () => {
  let restore: Array<() => void> = [];
  afterEach(() => {
    restore.forEach((undo) => undo());
    restore = [];
    stack.emulators.structures.structures = DEMO_STRUCTURES;
  });

  it('a zone polygon whose two rings cross a million times over the building: answered once its work passes the deadline (or its heap), the health answering while it is worked', async () => {
    restore.push(stack.emulators.nfhl.serveAlso('Flood Hazard Zones', [zoneOver([meander(1000, 60, false), meander(1000, 50, true).reverse()])]));
    const before = await pool();
    const answered = { done: false };
    const lookup = lookupOfHouse().finally(() => (answered.done = true));
    const working = await untilInPool(answered);
    const health = await fetch(`${stack.url}/health/ready`);
    expect(health.status).toBe(200);
    const after = await pool();
    // Still the same task in the pool after the health answered: nothing settled in between.
    expect([working.inPool, after.inPool]).toEqual([1, 1]);
    expect(after.outcomes).toEqual(working.outcomes);
    expect(answered.done).toBe(false);
    const res = await lookup;
    expect(res.status).toBe(200);
    expect(res.body.result.structure.buildId).toBe('48020002');
    expect(res.body.result.structure.zones).toBeNull();
    expect(res.body.result.unavailable).toEqual(['structure']);
    const settled = await pool();
    expect(settled.inPool).toBe(0);
    // Stopped at its deadline, or at its heap's limit if it reached that first: either way its thread replaced.
    const stopped = ({ outcomes }: { outcomes: Record<string, number> }) => (outcomes.deadline ?? 0) + (outcomes.memory ?? 0);
    expect(stopped(settled)).toBe(stopped(before) + 1);
  });

  it('a USA Structures footprint shaped as a 4,999-vertex self-crossing star: checked in a worker, structure unavailable, the point answered', async () => {
    const ring = star(4999, 10);
    stack.emulators.structures.structures = DEMO_STRUCTURES.map((building) =>
      building.id === HOUSE.id ? { ...building, feature: { ...building.feature, rings: [ring], bbox: bboxOfRings([ring]) } } : building,
    );
    const before = await pool();
    const res = await lookupOfHouse();
    expect(res.status).toBe(200);
    expect(res.body.result.floodZone).toBe('AE');
    expect(res.body.result.structure).toBeNull();
    expect(res.body.result.unavailable).toEqual(['structure']);
    expect((await pool()).outcomes.done).toBe((before.outcomes.done ?? 0) + 1);
    expect((await fetch(`${stack.url}/health/ready`)).status).toBe(200);
  });

  it('a zone polygon shaped as a 151-vertex star over the footprint: the zones over the building unavailable, never measured', async () => {
    restore.push(stack.emulators.nfhl.serveAlso('Flood Hazard Zones', [zoneOver([star(151, 40)])]));
    const res = await lookupOfHouse();
    expect(res.status).toBe(200);
    expect(res.body.result.structure.buildId).toBe('48020002');
    expect(res.body.result.structure.zones).toBeNull();
    expect(res.body.result.unavailable).toEqual(['structure']);
  });
});

describe("from the caller (POST /flood-zone's footprint)", () => {
  it('coordinates of 1e308: 400 INVALID_FOOTPRINT naming the position', async () => {
    const res = await postFootprint([
      [
        [1e308, 1e308],
        [-1e308, 1e308],
        [-1e308, -1e308],
        [1e308, 1e308],
      ],
    ]);
    expectErrorEnvelope(res, 400, 'INVALID_FOOTPRINT');
    expect(res.body.error).toBe(
      'footprint: ring 1, position 1 [1e+308, 1e+308] is not lon/lat: give WGS84 degrees (longitude -180 to 180, latitude -90 to 90), not projected metres or feet',
    );
  });

  it('a comb of 260 teeth (1,042 vertices, valid): checked in a worker and answered, its shares summing to the whole', async () => {
    const before = await pool();
    const res = await postFootprint([comb(260, 40, 8)]);
    expect(res.status).toBe(200);
    expect(res.body.result.structure.match).toBe('given');
    const { zones, unmappedSharePercent } = res.body.result.structure;
    expect(zones.map((zone: { floodZone: string }) => zone.floodZone)).toContain('AE');
    expect(zones.reduce((sum: number, zone: { sharePercent: number }) => sum + zone.sharePercent, unmappedSharePercent)).toBeCloseTo(100, 0);
    expect((await pool()).outcomes.done).toBeGreaterThan(before.outcomes.done ?? 0);
  });

  it('two meanders crossing each other 62,000 times (1,996 vertices, checked in a worker): refused, the health answering meanwhile', async () => {
    const before = await pool();
    const post = postFootprint([meander(249, 60, false), meander(249, 50, true).reverse()]);
    const health = await fetch(`${stack.url}/health/ready`);
    expect(health.status).toBe(200);
    const res = await post;
    expectErrorEnvelope(res, 400, 'INVALID_FOOTPRINT');
    // Refused for its crossings, or for taking longer than the deadline to find them: either way never measured.
    expect(res.body.error).toMatch(
      /^footprint: (its outline crosses itself near \[[-\d.]+, [-\d.]+\]: a ring crosses itself, a hole its outer ring, or one polygon another \(rings may touch only at a vertex they share\)|it could not be checked within 8000 ms, as its rings cross each other a great many times; give its outline without crossings, or with fewer vertices)$/,
    );
    const after = await pool();
    const settled = ({ outcomes }: { outcomes: Record<string, number> }) => (outcomes.done ?? 0) + (outcomes.deadline ?? 0) + (outcomes.memory ?? 0);
    expect(settled(after)).toBe(settled(before) + 1);
  });

  it('six 1,999-vertex stars at once: each refused (400 for its crossing, or 503 POLYGONS_BUSY with Retry-After), the health answering meanwhile', async () => {
    const stars = Array.from({ length: 6 }, (_, i) => postFootprint([star(1999, 10 + i)]));
    const health = await fetch(`${stack.url}/health/ready`);
    expect(health.status).toBe(200);
    for (const res of await Promise.all(stars)) {
      if (res.status === 503) {
        expectErrorEnvelope(res, 503, 'POLYGONS_BUSY');
        expect(res.headers.get('retry-after')).toBe('1');
      } else {
        expectErrorEnvelope(res, 400, 'INVALID_FOOTPRINT');
        expect(res.body.error).toMatch(/^footprint: its outline crosses itself near /);
      }
    }
    expect((await pool()).inPool).toBe(0);
  });
});

describe('from batch and job rows (each footprint checked as POST /flood-zone checks it)', () => {
  /** The tasks each worker thread may have waiting, beside the one it runs: the one worker's pool holds five tasks. */
  const POOL_HOLDS = 5;
  const CROSSING = /^footprint: its outline crosses itself near \[[-\d.]+, [-\d.]+\]: a ring crosses itself/;
  const house = { type: 'Polygon', coordinates: [[at(-4, -3), at(4, -3), at(4, 3), at(-4, 3), at(-4, -3)]] };
  /** `count` rows of 1,999-vertex stars (each of its own size), then a house's small footprint. */
  const starRows = (count: number) => [
    ...Array.from({ length: count }, (_, i) => ({ id: `star-${i}`, ...HOUSE_POINT, footprint: { type: 'Polygon', coordinates: [star(1999, 10 + i)] } })),
    { id: 'house', ...HOUSE_POINT, footprint: house },
  ];

  async function batchOf(locations: unknown[]): Promise<RowLine[]> {
    const res = await call(stack.url, '/flood-zone/batch', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ locations }),
    });
    expect(res.status).toBe(200);
    return res.body.results as RowLine[];
  }

  it('a batch of four 1,999-vertex star rows: each checked in a worker (the pool counts four tasks done), each its own 400 INVALID_FOOTPRINT; the house answered', async () => {
    const before = await pool();
    const rows = await batchOf(starRows(4));
    expect(rows.map((row) => [row.id, row.status, row.body.code ?? row.body.result.structure.match])).toEqual([
      ['star-0', 400, 'INVALID_FOOTPRINT'],
      ['star-1', 400, 'INVALID_FOOTPRINT'],
      ['star-2', 400, 'INVALID_FOOTPRINT'],
      ['star-3', 400, 'INVALID_FOOTPRINT'],
      ['house', 200, 'given'],
    ]);
    for (const row of rows.slice(0, 4)) expect(row.body.error).toMatch(CROSSING);
    const after = await pool();
    expect(after.outcomes.done).toBe((before.outcomes.done ?? 0) + 4);
    expect(after.inPool).toBe(0);
  });

  it('a batch of more star rows than the pool holds: the rows past it are each 503 POLYGONS_BUSY, the others checked in a worker', async () => {
    const before = await pool();
    const rows = await batchOf(starRows(POOL_HOLDS + 2));
    expect(rows.map((row) => [row.id, row.status, row.body.code ?? row.body.result.structure.match])).toEqual([
      ...Array.from({ length: POOL_HOLDS }, (_, i) => [`star-${i}`, 400, 'INVALID_FOOTPRINT']),
      [`star-${POOL_HOLDS}`, 503, 'POLYGONS_BUSY'],
      [`star-${POOL_HOLDS + 1}`, 503, 'POLYGONS_BUSY'],
      ['house', 200, 'given'],
    ]);
    const after = await pool();
    expect([after.outcomes.done, after.outcomes.busy ?? 0]).toEqual([(before.outcomes.done ?? 0) + POOL_HOLDS, (before.outcomes.busy ?? 0) + 2]);
  });

  it("a job of more star rows than the pool holds: the rows the full pool refused are asked again after the chunk's others, so every row is checked in a worker", async () => {
    const before = await pool();
    const submitted = await call(stack.url, JOBS, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ locations: starRows(POOL_HOLDS + 2) }),
    });
    expect(submitted.status).toBe(202);
    const status = await finished(stack.url, submitted.body.id);
    const results = (await call(stack.url, `${JOBS}/${submitted.body.id}/results`, { headers: { accept: 'application/json' } })).body.results as RowLine[];
    expect(status).toEqual(expect.objectContaining({ status: 'completed', total: POOL_HOLDS + 3, errors: 0 }));
    expect(results.map((row) => [row.id, row.status, row.body.code ?? row.body.result.structure.match])).toEqual([
      ...Array.from({ length: POOL_HOLDS + 2 }, (_, i) => [`star-${i}`, 400, 'INVALID_FOOTPRINT']),
      ['house', 200, 'given'],
    ]);
    const after = await pool();
    expect([after.outcomes.done, after.outcomes.busy ?? 0]).toEqual([(before.outcomes.done ?? 0) + POOL_HOLDS + 2, (before.outcomes.busy ?? 0) + 2]);
  });
});
