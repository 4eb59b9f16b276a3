import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/app-config';
import { ServiceMetrics } from '../../metrics/service-metrics';
import { INLINE_MAX_VERTICES, PolygonWork, PolygonWorkRefused, QUEUED_PER_WORKER, positionsIn } from './polygon-work.client';
import { type PolygonTasks, runPolygonTask } from './polygon-tasks';
import type { LonLat } from './structure.types';

/** A square ring of `vertices` vertices (a multiple of 4), `size` degrees across, at Houston: valid, however many. */
function square(vertices: number, size = 1e-4): LonLat[] {
  const side = vertices / 4;
  const ring: LonLat[] = [];
  for (let i = 0; i < vertices; i++) {
    const [edge, t] = [Math.floor(i / side), (i % side) / side];
    const [x, y] = [
      [t, 0],
      [1, t],
      [1 - t, 1],
      [0, 1 - t],
    ][edge];
    ring.push([-95.39 + x * size, 29.763 + y * size]);
  }
  return [...ring, ring[0]];
}

/** Two meanders of 1,000 teeth each over a house, as FEMA could draw a polygon's rings: each simple, together crossing a million times. */
function crossedMeanders(): PolygonTasks['areasCovered']['input'] {
  const teeth = 1000;
  const meander = (across: boolean, size: number): LonLat[] => {
    const at = (along: number, side: number): LonLat => (across ? [-95.39 + side, 29.763 + along] : [-95.39 + along, 29.763 + side]);
    const step = size / teeth;
    const ring: LonLat[] = [];
    for (let i = 0; i < teeth; i++) ring.push(at(i * step, 0), at(i * step, size), at(i * step + step / 2, size), at(i * step + step / 2, 0));
    ring.push(at(size, -size / 100), at(0, -size / 100), ring[0]);
    return ring;
  };
  return { footprint: { type: 'Polygon', coordinates: [square(4)] }, polygons: [{ rings: [meander(false, 5e-4), meander(true, 4.8e-4).reverse()] }] };
}

const configOf = (values: Partial<AppConfig>) => ({ get: (name: keyof AppConfig) => values[name] }) as unknown as ConfigService<AppConfig, true>;

async function outcomes(metrics: ServiceMetrics): Promise<Record<string, number>> {
  const { values } = await metrics.registry.getSingleMetric('polygon_tasks_total')!.get();
  return Object.fromEntries(values.map(({ labels, value }) => [String(labels.outcome), value]));
}

describe('positionsIn', () => {
  it.each<[string, unknown, number]>([
    ['a Polygon', { type: 'Polygon', coordinates: [square(8)] }, 9],
    ['a MultiPolygon with a hole', { type: 'MultiPolygon', coordinates: [[square(4), square(4)], [square(8)]] }, 19],
    ['layers of ArcGIS rings among attributes', { zones: [{ attributes: { FLD_ZONE: 'AE' }, rings: [square(4), square(12)] }], panels: [] }, 18],
    ['positions with an altitude', [[[1, 2, 3]], [[4, 5]]], 2],
    ['no positions at all', { type: 'Polygon', coordinates: 'none' }, 0],
    ['nesting deeper than any call stack', JSON.parse(`${'['.repeat(20000)}[1, 2]${']'.repeat(20000)}`), 1],
    ['a ring longer than any argument list', [Array.from({ length: 300_000 }, (_, i) => [i, i])], 300_000],
  ])('%s', (_what, input, count) => {
    expect(positionsIn(input)).toBe(count);
  });
});

describe('PolygonWork', () => {
  let work: PolygonWork;
  let metrics: ServiceMetrics;

  beforeEach(() => {
    metrics = new ServiceMetrics();
    work = new PolygonWork(configOf({ POLYGON_WORKERS: 1, POLYGON_DEADLINE_MS: 1500 }), metrics);
  });
  afterEach(async () => {
    await work.onModuleDestroy();
  });

  it(`answers a task of at most ${INLINE_MAX_VERTICES} vertices on the event loop, no thread started`, async () => {
    // The closing position is one more: 997 positions in all.
    const ring = square(INLINE_MAX_VERTICES - 4);
    await expect(work.run('upstreamFootprint', [ring])).resolves.toEqual({ value: { type: 'Polygon', coordinates: [square(INLINE_MAX_VERTICES - 4)] } });
    expect(await outcomes(metrics)).toEqual({});
  });

  it('answers a larger task in a worker thread, as it would be answered inline', async () => {
    const value = { type: 'Polygon', coordinates: [square(1200)] };
    const answer = await work.run('givenFootprint', value);
    expect(answer).toEqual(runPolygonTask({ kind: 'givenFootprint', input: value }));
    expect('footprint' in answer).toBe(true);
    expect(await outcomes(metrics)).toEqual({ done: 1 });
  });

  it('stops a task past its deadline (refused), and answers the next one with a new thread', async () => {
    const refused = await work.run('areasCovered', crossedMeanders()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PolygonWorkRefused);
    expect((refused as PolygonWorkRefused).reason).toBe('deadline');
    await expect(work.run('upstreamFootprint', [square(1200)])).resolves.toEqual({ value: { type: 'Polygon', coordinates: [square(1200)] } });
    expect(await outcomes(metrics)).toEqual({ deadline: 1, done: 1 });
  });

  it(`refuses a task beyond ${1 + QUEUED_PER_WORKER} a thread at once (busy), before starting it`, async () => {
    const controller = new AbortController();
    const tasks = Array.from({ length: 2 + QUEUED_PER_WORKER }, () =>
      work.run('areasCovered', crossedMeanders(), controller.signal).catch((error: unknown) => error),
    );
    expect(((await tasks[1 + QUEUED_PER_WORKER]) as PolygonWorkRefused).reason).toBe('busy');
    controller.abort(new Error('the lookup ended'));
    expect(await Promise.all(tasks.slice(0, 1 + QUEUED_PER_WORKER))).toEqual(Array(1 + QUEUED_PER_WORKER).fill(new Error('the lookup ended')));
    expect(await outcomes(metrics)).toEqual({ busy: 1, abandoned: 1 + QUEUED_PER_WORKER });
  });

  it('gives the caller its own reason when it stops waiting', async () => {
    const controller = new AbortController();
    const task = work.run('areasCovered', crossedMeanders(), controller.signal).catch((error: unknown) => error);
    controller.abort(new Error('the lookup ended'));
    expect(await task).toEqual(new Error('the lookup ended'));
    expect(await outcomes(metrics)).toEqual({ abandoned: 1 });
  });
});
