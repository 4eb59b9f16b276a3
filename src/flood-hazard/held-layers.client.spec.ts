import { ConfigService } from '@nestjs/config';
import type { CachePolicy, PieceCache, PieceLoad, PieceWait } from '../cache/piece-cache';
import type { LonLatBox } from '../common/geo-point';
import { asJobWork } from '../common/upstream/resilient-upstream';
import { UpstreamCallBudget } from '../common/upstream/upstream-call-budget';
import type { AppConfig } from '../config/app-config';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { HeldLayers, HeldWay } from './held-layers.client';

const MiB = 1024 * 1024;

class UnlimitedBudget extends UpstreamCallBudget {
  admit(): Promise<void> {
    return Promise.resolve();
  }
}
const asJob = <T>(run: () => Promise<T>) => asJobWork(new UnlimitedBudget(), run);

/** The shared cache as far as held squares use it: each square loaded at once, every load recorded. */
class SquareLoads {
  readonly keys: string[] = [];
  readonly policies: CachePolicy[] = [];
  now = () => Date.now();

  getOrLoad<T>(_name: string, key: string, policy: CachePolicy<T>, load: PieceLoad<T>, _wait: PieceWait) {
    this.keys.push(key);
    this.policies.push(policy as CachePolicy);
    const storedAt = this.now();
    const parts = { kept: <P>(_part: string, loadPart: (fetchedAt: (epochMs: number) => void) => Promise<P>) => loadPart(() => undefined) };
    return load(new AbortController().signal, parts).then((value) => ({
      piece: { value, storedAt, freshUntil: storedAt + policy.ttlSeconds * 1000 },
      status: 'MISS',
    }));
  }
}

/** A layer whose squares hold one number each: the answer at any point of a square is that number, unless told it cannot tell. */
class NumberLayer implements HeldWay<{ envelope: LonLatBox; value: number }, number, number> {
  readonly sizeDeg = 0.05;
  readonly marginDeg = 0.0005;
  fetched: LonLatBox[] = [];
  failing = false;
  cannotTell = false;

  constructor(
    private readonly bytes = 1000,
    readonly pointsBeforeFetch = 2,
  ) {}

  fetch(envelope: LonLatBox): Promise<{ envelope: LonLatBox; value: number }> {
    this.fetched.push(envelope);
    return this.failing ? Promise.reject(new Error('HTTP 500')) : Promise.resolve({ envelope, value: envelope[0] });
  }

  hold(stored: { value: number }) {
    return { held: stored.value, bytes: this.bytes };
  }

  answerAt(held: number): number | undefined {
    return this.cannotTell ? undefined : held;
  }
}

function heldLayers(settings: Partial<AppConfig> = {}) {
  const loads = new SquareLoads();
  const saved: string[] = [];
  let memory = 0;
  const metrics = { heldAnswer: (layer: string) => saved.push(layer), heldMemory: (bytes: number) => (memory = bytes) } as unknown as ServiceMetrics;
  const config = new ConfigService<AppConfig, true>({ HELD_POLYGONS_MAX_MB: 64, CACHE_TTL_SECONDS: 3600, REDIS_URL: 'redis://cache:6379', ...settings });
  const layers = new HeldLayers(loads as unknown as PieceCache, metrics, config);
  return { layers, loads, saved, memory: () => memory };
}

/** Asks the layer at the point; answers -1 when the point query was used, and the held square's date. */
async function ask(layers: HeldLayers, way: NumberLayer, lon: number, lat = 29.76) {
  let fetchedAt: number | undefined;
  const answer = await layers.answer(
    'panels',
    { lon, lat },
    way,
    new AbortController().signal,
    (at) => (fetchedAt = at),
    () => Promise.resolve(-1),
  );
  return { answer, fetchedAt };
}

/** Points of one 0.05° square (its west edge at -95.40) and of its neighbour to the east. */
const IN_SQUARE = [-95.39, -95.38, -95.37, -95.36];
const NEXT_SQUARE = -95.34;
const SQUARE_WEST = -95.4005;

describe('HeldLayers: a layer answered from squares held where a portfolio job is dense', () => {
  it("asks a portfolio's first point of a square at its point, fetches the square at the second, answers the rest from it", async () => {
    const { layers, loads, saved } = heldLayers();
    const way = new NumberLayer();
    const answers = await asJob(async () => [await ask(layers, way, IN_SQUARE[0]), await ask(layers, way, IN_SQUARE[1]), await ask(layers, way, IN_SQUARE[2])]);
    expect(answers.map(({ answer }) => answer)).toEqual([-1, SQUARE_WEST, SQUARE_WEST]);
    expect(way.fetched).toEqual([[SQUARE_WEST, 29.7495, -95.3495, 29.8005]]);
    expect(loads.keys).toEqual(['panels/0.05/-1908/595']);
    // Shared through Redis for as long as a cached piece, and the answer dated by the square.
    expect(loads.policies[0]).toEqual({ ttlSeconds: 3600, staleIfErrorSeconds: 0 });
    expect(answers[1].fetchedAt).toEqual(expect.any(Number));
    expect(answers[2].fetchedAt).toBe(answers[1].fetchedAt);
    expect(saved).toEqual(['panels', 'panels']);
  });

  it('fetches the square of a layer held at its third point at that point, the first two asked alone', async () => {
    const { layers } = heldLayers();
    const way = new NumberLayer(1000, 3);
    const answers = await asJob(async () => {
      const found: number[] = [];
      for (const lon of IN_SQUARE) found.push((await ask(layers, way, lon)).answer);
      return found;
    });
    expect(answers).toEqual([-1, -1, SQUARE_WEST, SQUARE_WEST]);
    expect(way.fetched).toHaveLength(1);
  });

  it('lets an interactive lookup read a held square but never fetch one', async () => {
    const { layers } = heldLayers();
    const way = new NumberLayer();
    const cold = [await ask(layers, way, IN_SQUARE[0]), await ask(layers, way, IN_SQUARE[1]), await ask(layers, way, IN_SQUARE[2])];
    expect(cold.map(({ answer }) => answer)).toEqual([-1, -1, -1]);
    expect(way.fetched).toEqual([]);
    await asJob(async () => [await ask(layers, way, IN_SQUARE[0]), await ask(layers, way, IN_SQUARE[1])]);
    expect((await ask(layers, way, IN_SQUARE[3])).answer).toBe(SQUARE_WEST);
    expect((await ask(layers, way, NEXT_SQUARE)).answer).toBe(-1);
    expect(way.fetched).toHaveLength(1);
  });

  it('asks at the point wherever the held square cannot tell', async () => {
    const { layers, saved } = heldLayers();
    const way = new NumberLayer();
    await asJob(async () => [await ask(layers, way, IN_SQUARE[0]), await ask(layers, way, IN_SQUARE[1])]);
    way.cannotTell = true;
    expect((await asJob(() => ask(layers, way, IN_SQUARE[2]))).answer).toBe(-1);
    expect(way.fetched).toHaveLength(1);
    expect(saved).toEqual(['panels']);
  });

  it('asks point by point for a while after a square could not be fetched, and never guesses', async () => {
    const { layers, loads } = heldLayers();
    const way = new NumberLayer();
    way.failing = true;
    const answers = await asJob(async () => [await ask(layers, way, IN_SQUARE[0]), await ask(layers, way, IN_SQUARE[1]), await ask(layers, way, IN_SQUARE[2])]);
    expect(answers.map(({ answer }) => answer)).toEqual([-1, -1, -1]);
    expect(loads.keys).toHaveLength(1);
  });

  it('uses a square larger than a quarter of the memory bound once, without holding it', async () => {
    const { layers, loads, memory } = heldLayers({ HELD_POLYGONS_MAX_MB: 1 });
    const way = new NumberLayer(MiB / 4 + 1);
    const answers = await asJob(async () => [await ask(layers, way, IN_SQUARE[0]), await ask(layers, way, IN_SQUARE[1]), await ask(layers, way, IN_SQUARE[2])]);
    expect(answers.map(({ answer }) => answer)).toEqual([-1, SQUARE_WEST, -1]);
    expect(loads.keys).toHaveLength(1);
    expect(memory()).toBe(0);
  });

  it('holds at most HELD_POLYGONS_MAX_MB, the least recently used square first out', async () => {
    const { layers, memory } = heldLayers({ HELD_POLYGONS_MAX_MB: 1 });
    const way = new NumberLayer(MiB / 4);
    // Four squares of a quarter each fill the bound; reading the first again makes the second the least recently used.
    const squares = [0, 1, 2, 3, 4].map((i) => -95.39 + i * 0.05);
    await asJob(async () => {
      for (const lon of squares.slice(0, 4)) for (const nudge of [0, 0.001]) await ask(layers, way, lon + nudge);
    });
    expect(memory()).toBe(MiB);
    expect((await ask(layers, way, squares[0])).answer).not.toBe(-1);
    await asJob(async () => {
      for (const nudge of [0, 0.001]) await ask(layers, way, squares[4] + nudge);
    });
    expect(memory()).toBe(MiB);
    expect(
      [await ask(layers, way, squares[0]), await ask(layers, way, squares[1]), await ask(layers, way, squares[4])].map(({ answer }) => answer !== -1),
    ).toEqual([true, false, true]);
  });

  it('lets a square expire after CACHE_TTL_SECONDS from its fetch, like any cached piece', async () => {
    const { layers, loads, memory } = heldLayers({ CACHE_TTL_SECONDS: 60 });
    const way = new NumberLayer();
    loads.now = () => Date.now() - 61_000;
    await asJob(async () => [await ask(layers, way, IN_SQUARE[0]), await ask(layers, way, IN_SQUARE[1])]);
    expect((await ask(layers, way, IN_SQUARE[2])).answer).toBe(-1);
    expect(memory()).toBe(0);
  });

  it.each([
    ['HELD_POLYGONS_MAX_MB=0', { HELD_POLYGONS_MAX_MB: 0 }],
    ['CACHE_TTL_SECONDS=0', { CACHE_TTL_SECONDS: 0 }],
  ])('holds nothing with %s: every point asked at its point', async (_case, settings) => {
    const { layers, loads } = heldLayers(settings);
    const way = new NumberLayer();
    const answers = await asJob(async () => [await ask(layers, way, IN_SQUARE[0]), await ask(layers, way, IN_SQUARE[1]), await ask(layers, way, IN_SQUARE[2])]);
    expect(answers.map(({ answer }) => answer)).toEqual([-1, -1, -1]);
    expect(loads.keys).toEqual([]);
  });

  it('keeps squares out of the in-process cache without a shared Redis: each process fetches its own', async () => {
    const { layers, loads } = heldLayers({ REDIS_URL: undefined });
    const way = new NumberLayer();
    await asJob(async () => [await ask(layers, way, IN_SQUARE[0]), await ask(layers, way, IN_SQUARE[1])]);
    expect(loads.policies).toEqual([{ ttlSeconds: 0, staleIfErrorSeconds: 0 }]);
    expect((await ask(layers, way, IN_SQUARE[2])).answer).toBe(SQUARE_WEST);
  });
});
