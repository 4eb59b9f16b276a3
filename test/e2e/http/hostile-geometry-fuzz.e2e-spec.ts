/**
 * Hostile geometry fuzzed against the real app and the emulators: some seventy shapes drawn from a fixed seed
 * (test/support/hostile-geometry-fuzz.ts; FUZZ_SEED draws another run) sent from the caller (POST /flood-zone's
 * footprint, a batch row's, the MCP determination tool's) and served by the upstreams (USA Structures' footprint of a
 * building, an NFHL zone polygon over a given footprint). For every case: never a 500; a caller's footprint is
 * measured or refused as the polygon rules say (400 INVALID_FOOTPRINT in their words, or 503 POLYGONS_BUSY for a
 * large one when the pool is full); an upstream's polygon that breaks them is never measured (its part named
 * unavailable); and every share measured is within 0-100, sums to 100 with the unmapped share, and equals the share
 * this suite computes itself (polyclip-ts and @turf/area over the emulator's zone polygons) to 0.1 point. No clock is
 * asserted: that no polygon work of more than INLINE_MAX_VERTICES ran on the event loop is seen by the tasks run
 * there, and the longest event-loop delay of the run is printed, not asserted (its goal is a bench figure).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { area } from '@turf/area';
import { type Geom, difference, intersection, union } from 'polyclip-ts';
import * as polygonTasks from '../../../src/parts/structure/polygon-tasks';
import { INLINE_MAX_VERTICES, positionsIn } from '../../../src/parts/structure/polygon-work.client';
import { DEMO_MAP, DEMO_STRUCTURES, ringsToGeoJson } from '../../emulators';
import {
  FUZZ_CENTRE,
  FUZZ_PLACE as PLACE,
  FUZZ_SEED,
  type HostileCase,
  type PolygonRings,
  type ServedVerdict,
  UNDER_ZONE,
  buildingsServing,
  hostileGeometryCases,
  pointInside,
  zoneServing,
} from '../../support/hostile-geometry-fuzz';
import { Stack, startStack } from '../../support/stack';

/** Less of a footprint than this is a digitising sliver: it makes no zone entry (docs/answer.md). */
const SLIVER_SQ_M = 0.1;
/** How far a share may be from this suite's own: a tenth of a point (the answer's rounding, and the two ways of measuring). */
const SHARE_TOLERANCE = 0.1;

/** Zones taken most severe first where they overlap, as the answer takes them (docs/answer.md): the zone served over the footprint is a VE (zoneServing). */
const SEVERITY = ['VE', 'AE', 'X|0.2 PCT ANNUAL CHANCE FLOOD HAZARD', 'X|AREA OF MINIMAL FLOOD HAZARD'];
const zoneKey = (floodZone: unknown, zoneSubtype: unknown) => (floodZone === 'X' ? `X|${zoneSubtype}` : String(floodZone));

interface Zone {
  key: string;
  polygons: PolygonRings[];
}

/** The demo map's zone polygons near the shapes, most severe first. */
const MAP_ZONES: Zone[] = DEMO_MAP.nfhl.floodHazardZones
  .filter(
    ({ bbox }) =>
      bbox.xmin < FUZZ_CENTRE.lon + 0.003 && bbox.xmax > FUZZ_CENTRE.lon - 0.003 && bbox.ymin < FUZZ_CENTRE.lat + 0.003 && bbox.ymax > FUZZ_CENTRE.lat - 0.003,
  )
  .map(({ attributes, rings }) => {
    const geometry = ringsToGeoJson(rings!) as { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown };
    const polygons = (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates) as PolygonRings[];
    return { key: zoneKey(attributes.FLD_ZONE, attributes.ZONE_SUBTY), polygons };
  })
  .sort((a, b) => rank(a.key) - rank(b.key));

function rank(key: string): number {
  const at = SEVERITY.indexOf(key);
  if (at < 0) throw new Error(`no severity known for zone ${key}: add it to SEVERITY`);
  return at;
}

/** A footprint's shares as this suite measures them: the footprint's region (its parts united) cut by each zone in turn. */
interface Shares {
  byZone: Map<string, number>;
  unmapped: number;
  /** Zones whose area over the footprint is within a hair of the sliver size: their entry may be there or not. */
  borderline: Set<string>;
}

function sharesOf(footprint: PolygonRings[], zones: Zone[]): Shares | undefined {
  const squareMetres = (geom: Geom) => area({ type: 'MultiPolygon', coordinates: geom as number[][][][] });
  try {
    const region = union(footprint as Geom);
    const whole = squareMetres(region);
    if (!(whole > 0)) return undefined;
    const areas = new Map<string, number>();
    let left: Geom = region;
    for (const zone of zones) {
      const taken = intersection(left, zone.polygons as Geom);
      areas.set(zone.key, (areas.get(zone.key) ?? 0) + squareMetres(taken));
      left = difference(left, zone.polygons as Geom);
    }
    const byZone = new Map([...areas].filter(([, a]) => a >= SLIVER_SQ_M).map(([key, a]) => [key, (100 * a) / whole]));
    const borderline = new Set([...areas].filter(([, a]) => Math.abs(a - SLIVER_SQ_M) < 0.01).map(([key]) => key));
    return { byZone, unmapped: Math.max(0, 100 - [...byZone.values()].reduce((sum, share) => sum + share, 0)), borderline };
  } catch {
    // Degenerate on purpose (a ring 1e-12° across): the properties of the answer still hold, its shares are not compared.
    return undefined;
  }
}

interface StructureZone {
  floodZone: string;
  zoneSubtype: string | null;
  sharePercent: number;
}

/** What is wrong with a building's measured shares: out of range, not summing to the whole, or not this suite's. */
function shareProblems(zones: StructureZone[], unmapped: number, expected: Shares | undefined): string[] {
  const problems: string[] = [];
  const all = [...zones.map((zone) => zone.sharePercent), unmapped];
  if (all.some((share) => !(share >= 0 && share <= 100))) problems.push(`a share outside 0-100: ${JSON.stringify(all)}`);
  // Each figure is rounded to a tenth: the sum is 100 to half a tenth per figure.
  const sum = all.reduce((total, share) => total + share, 0);
  if (Math.abs(sum - 100) > 0.05 * all.length + 1e-9) problems.push(`shares summing to ${sum}, not 100: ${JSON.stringify(all)}`);
  if (!expected) return problems;
  const got = new Map(zones.map((zone) => [zoneKey(zone.floodZone, zone.zoneSubtype), zone.sharePercent]));
  for (const key of new Set([...got.keys(), ...expected.byZone.keys()])) {
    if (!got.has(key) && expected.borderline.has(key)) continue;
    const [share, own] = [got.get(key) ?? 0, expected.byZone.get(key) ?? 0];
    if (Math.abs(share - own) > SHARE_TOLERANCE + 1e-9) problems.push(`${key} ${share}%, measured here ${own.toFixed(3)}%`);
  }
  if (Math.abs(unmapped - expected.unmapped) > SHARE_TOLERANCE + 1e-9) problems.push(`unmapped ${unmapped}%, measured here ${expected.unmapped.toFixed(3)}%`);
  return problems;
}

const CASES = hostileGeometryCases(FUZZ_SEED);
const large = (c: HostileCase) => c.positions > INLINE_MAX_VERTICES;

/** What each case must measure, computed before the run (so that this suite's own clipping is not in the run's event-loop figure). */
const EXPECTED = new Map(
  CASES.map((c) => [
    c,
    {
      given: c.given.measured ? sharesOf(c.given.measured, MAP_ZONES) : undefined,
      building: c.served?.building.measured ? sharesOf(c.served.building.measured, MAP_ZONES) : undefined,
      underZone: c.served?.zone.measured ? sharesOf([UNDER_ZONE.coordinates], [{ key: 'VE', polygons: c.served.zone.measured }, ...MAP_ZONES]) : undefined,
    },
  ]),
);
const UNDER_ZONE_ALONE = sharesOf([UNDER_ZONE.coordinates], MAP_ZONES);

let stack: Stack;
const loop = monitorEventLoopDelay({ resolution: 10 });
let mainThreadTasks: jest.SpyInstance;
let poolBefore: Record<string, number>;
let started: number;
/** Cases sent in all, path by path; and those large enough that their footprint's check must go to the pool. */
const sent = { cases: 0, largeGiven: 0 };

/** The pool's outcome counts, as /metrics says them. */
async function poolOutcomes(): Promise<Record<string, number>> {
  const text = await (await fetch(`${stack.url}/metrics`)).text();
  return Object.fromEntries([...text.matchAll(/^polygon_tasks_total\{outcome="(\w+)"\} (\d+)$/gm)].map(([, outcome, n]) => [outcome, Number(n)]));
}

async function post(path: string, body: unknown): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${stack.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** What is wrong with a caller's footprint's answer (status, body, and headers where it has its own), by the case's verdict. */
function givenProblems(c: HostileCase, status: number, body: any, headers?: Headers): string[] {
  if (status === 200) {
    if (c.given.measured === null) return [`measured, where it must be refused (${c.given.refusal})`];
    const structure = body.result.structure;
    if (structure?.match !== 'given' || !Array.isArray(structure.zones)) return [`answered without the building's zones: ${JSON.stringify(structure)}`];
    return shareProblems(structure.zones, structure.unmappedSharePercent, EXPECTED.get(c)!.given);
  }
  if (status === 400 && body.code === 'INVALID_FOOTPRINT') {
    return c.given.refusal?.test(body.error)
      ? []
      : [`refused "${body.error}", where it must be ${c.given.refusal ? `refused as ${c.given.refusal}` : 'measured'}`];
  }
  if (status === 503 && body.code === 'POLYGONS_BUSY' && large(c) && (headers === undefined || headers.get('retry-after') === '1')) return [];
  return [`answered ${status} ${JSON.stringify(body).slice(0, 300)}`];
}

/** Reports every case's problems at once, each named with the seed that draws it again. */
function expectNoProblems(problems: string[]): void {
  expect({ seed: FUZZ_SEED, problems }).toEqual({ seed: FUZZ_SEED, problems: [] });
}

beforeAll(async () => {
  stack = await startStack({
    CACHE_TTL_SECONDS: '0',
    GEOCODE_CACHE_TTL_SECONDS: '0',
    CIRCUIT_BREAKER_MIN_CALLS: '100000',
    LOOKUP_DEADLINE_MS: '30000',
    POLYGON_WORKERS: '1',
  });
  poolBefore = await poolOutcomes();
  mainThreadTasks = jest.spyOn(polygonTasks, 'runPolygonTask');
  started = Date.now();
  loop.enable();
});
afterAll(async () => {
  loop.disable();
  mainThreadTasks?.mockRestore();
  await stack?.close();
});

describe(`hostile geometry fuzz, seed ${FUZZ_SEED} (FUZZ_SEED=${FUZZ_SEED} draws this run again): ${CASES.length} shapes`, () => {
  it("from the caller, POST /flood-zone's footprint: measured as drawn, or refused in the rules' words", async () => {
    const problems: string[] = [];
    for (const c of CASES) {
      const res = await post('/flood-zone', { lat: PLACE.lat, lon: PLACE.lon, include: ['structure'], footprint: c.footprint });
      problems.push(...givenProblems(c, res.status, res.body, res.headers).map((p) => `${c.name}: ${p}`));
      sent.cases += 1;
      if (large(c)) sent.largeGiven += 1;
    }
    expectNoProblems(problems);
  });

  it('from the caller, a batch row each: every row answered as POST /flood-zone answers it', async () => {
    const locations = CASES.map((c, n) => ({ id: String(n), lat: PLACE.lat, lon: PLACE.lon, footprint: c.footprint }));
    const res = await post('/flood-zone/batch?include=structure', { locations });
    expect(res.status).toBe(200);
    const rows = res.body.results as Array<{ id: string; status: number; body: any }>;
    expect(rows.map((row) => row.id)).toEqual(locations.map((location) => location.id));
    const problems = rows.flatMap((row, n) => givenProblems(CASES[n], row.status, row.body).map((p) => `${CASES[n].name}: ${p}`));
    sent.cases += CASES.length;
    sent.largeGiven += CASES.filter(large).length;
    expectNoProblems(problems);
  });

  it('from the caller, the MCP flood_determination tool: answered or refused as POST /flood-zone is', async () => {
    // The first of each kind whose footprint is an object (the tool's schema takes no other).
    const kinds = new Map<string, number>();
    const asked = CASES.filter((c) => {
      const kind = c.name.replace(/ \d+ \(.*$/, '');
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      return kinds.get(kind) === 1 && typeof c.footprint === 'object' && c.footprint !== null && !Array.isArray(c.footprint);
    });
    const problems: string[] = [];
    for (const [n, c] of asked.entries()) {
      const message = {
        jsonrpc: '2.0',
        id: n,
        method: 'tools/call',
        params: { name: 'flood_determination', arguments: { lat: PLACE.lat, lon: PLACE.lon, footprint: c.footprint } },
      };
      const res = await post('/mcp', message);
      const result = res.body.result as { isError?: boolean; content: Array<{ text: string }> } | undefined;
      if (res.status !== 200 || !result) {
        problems.push(`${c.name}: answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      } else if (!result.isError) {
        if (c.given.measured === null) problems.push(`${c.name}: answered, where it must be refused (${c.given.refusal})`);
      } else {
        const [, code, error] = /^(\w+): (.*)$/.exec(result.content[0].text.split('\n')[0]) ?? [];
        const refusedAsRules = code === 'INVALID_FOOTPRINT' && c.given.refusal?.test(error);
        if (!refusedAsRules && !(code === 'POLYGONS_BUSY' && large(c))) problems.push(`${c.name}: ${result.content[0].text.split('\n')[0]}`);
      }
      sent.cases += 1;
      if (large(c)) sent.largeGiven += 1;
    }
    expectNoProblems(problems);
  });

  describe('from the upstreams (the same shapes as ArcGIS rings)', () => {
    const served = CASES.filter((c) => c.served);
    afterEach(() => {
      stack.emulators.structures.structures = DEMO_STRUCTURES;
    });

    /** What is wrong with an answer whose building (or the zones over it) may have been measured from a served polygon. */
    function servedProblems(verdict: ServedVerdict, expected: Shares | undefined, result: any, inside: boolean): string[] {
      const { structure, unavailable } = result;
      if (structure?.zones) {
        if (verdict.measured === null) return [`measured a polygon that breaks the rules: ${JSON.stringify(structure.zones)}`];
        return shareProblems(structure.zones, structure.unmappedSharePercent, expected);
      }
      const unknown = unavailable.includes('structure');
      if (unknown) return verdict.measured === null || verdict.mayBreak ? [] : ['never measured, where it meets the rules'];
      // Not found at the point: fine for a shape the rules refuse, or one the emulator finds no point in.
      return verdict.measured === null || verdict.mayBreak || !inside ? [] : [`the building not found: ${JSON.stringify(structure)?.slice(0, 300)}`];
    }

    it("USA Structures serves each shape as a building's footprint: measured as drawn, or the building part unavailable, never a share", async () => {
      const problems: string[] = [];
      for (const c of served) {
        sent.cases += 1;
        stack.emulators.structures.structures = buildingsServing(c.served!.rings);
        const { point, inside } = pointInside(c.served!);
        const res = await stack.get(`/flood-zone?lat=${point.lat}&lon=${point.lon}&include=structure`);
        if (res.status !== 200) {
          problems.push(`${c.name}: answered ${res.status} ${res.text.slice(0, 300)}`);
          continue;
        }
        problems.push(...servedProblems(c.served!.building, EXPECTED.get(c)!.building, res.body.result, inside).map((p) => `${c.name}: ${p}`));
      }
      expectNoProblems(problems);
    });

    it('NFHL serves each shape as a VE zone polygon over a given footprint: measured as drawn, or the zones over the building unavailable', async () => {
      const problems: string[] = [];
      for (const c of served) {
        sent.cases += 1;
        const restore = stack.emulators.nfhl.serveAlso('Flood Hazard Zones', [zoneServing(c.served!.rings)]);
        try {
          const res = await post('/flood-zone', { lat: PLACE.lat, lon: PLACE.lon, include: ['structure'], footprint: UNDER_ZONE });
          if (res.status !== 200) {
            problems.push(`${c.name}: answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
            continue;
          }
          const { measured } = c.served!.zone;
          const expected = measured ? EXPECTED.get(c)!.underZone : UNDER_ZONE_ALONE;
          problems.push(...servedProblems({ ...c.served!.zone, measured: measured ?? [] }, expected, res.body.result, true).map((p) => `${c.name}: ${p}`));
          if (measured === null && res.body.result.structure?.zones?.some((zone: StructureZone) => zone.floodZone === 'VE')) {
            problems.push(`${c.name}: measured a zone polygon that breaks the rules`);
          }
        } finally {
          restore();
        }
      }
      expectNoProblems(problems);
    });
  });

  it('ran no polygon work of more than INLINE_MAX_VERTICES on the event loop: every large footprint checked in the pool (the longest event-loop delay printed)', async () => {
    loop.disable();
    const seconds = (Date.now() - started) / 1000;
    const inline = mainThreadTasks.mock.calls.map(([task]) => positionsIn((task as polygonTasks.PolygonTask).input));
    const after = await poolOutcomes();
    const grew = (outcome: string) => (after[outcome] ?? 0) - (poolBefore[outcome] ?? 0);
    const inPool = ['done', 'deadline', 'memory', 'abandoned', 'failed'].reduce((sum, outcome) => sum + grew(outcome), 0);
    console.log(
      `fuzz (seed ${FUZZ_SEED}): ${sent.cases} cases in ${seconds.toFixed(1)} s; longest event-loop delay ${(loop.max / 1e6).toFixed(1)} ms ` +
        `(p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms); polygon tasks: ${inline.length} on the loop (at most ${Math.max(0, ...inline)} positions), ` +
        `${inPool} in the pool, ${grew('busy')} refused busy`,
    );
    expect(Math.max(0, ...inline)).toBeLessThanOrEqual(INLINE_MAX_VERTICES);
    expect(inPool + grew('busy')).toBeGreaterThanOrEqual(sent.largeGiven);
    // Every shape that must be measured had its shares computed here too: no share went unchecked.
    const unchecked = CASES.flatMap((c) => {
      const { given, building, underZone } = EXPECTED.get(c)!;
      return [
        c.given.measured && !c.given.refusal && !given ? `${c.name} given` : [],
        c.served?.building.measured && !c.served.building.mayBreak && !building ? `${c.name} as a building` : [],
        c.served?.zone.measured && !c.served.zone.mayBreak && !underZone ? `${c.name} as a zone` : [],
      ].flat();
    });
    expect(unchecked).toEqual([]);
  });
});
