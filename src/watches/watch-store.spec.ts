import Redis from 'ioredis';
import { DisposableRedis } from '../../test/support/redis-server';
import { type WatchRecord, newWatchRecord } from './watch-record';
import { ChunkWrite, WatchedLocation, WatchStore } from './watch-store';

/**
 * A watch's chunks on a real Redis: a write lands only over what it read (a sweep run twice, or a chunk taken again,
 * writes nothing twice), a location removed while it is being baselined is dropped by its baseline, and the events
 * of a write are appended with it, in order.
 */
describe('WatchStore', () => {
  let redis: DisposableRedis;
  let client: Redis;
  let store: WatchStore;
  const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  const now = new Date('2026-11-28T06:00:00Z');

  const record = (chunks: number): WatchRecord =>
    newWatchRecord({ id, name: null, include: [], webhookUrl: null, webhookSecret: null, createdAt: now.toISOString(), total: 2, chunks });
  const location = (locationId: string, fingerprint: string, extra: Partial<WatchedLocation> = {}): WatchedLocation => ({
    id: locationId,
    lat: 29.76839,
    lon: -95.377582,
    communities: '480296',
    fingerprint,
    place: '48201|77002|Harris County',
    footprint: undefined,
    problem: 0,
    ...extra,
  });
  const write = (changes: Partial<ChunkWrite> = {}): ChunkWrite => ({
    fingerprints: { fpA: '{"zones":["X"]}', fpB: '{"zones":["AE"]}' },
    cells: ['297:-954'],
    communities: ['480296'],
    events: [],
    counts: {},
    baseline: false,
    ...changes,
  });

  beforeAll(async () => {
    redis = await DisposableRedis.start();
    client = new Redis(redis.url);
    store = new WatchStore(client);
  });
  afterAll(async () => {
    client.disconnect();
    await redis.stop();
  });
  beforeEach(async () => {
    await client.flushall();
    await store.addIds(id, 0, ['a', 'b']);
    await store.storeInput(id, 0, [{ id: 'a' }, { id: 'b' }]);
    await store.open(record(1));
  });

  it('baselines a chunk once: its input goes, the watch is watching, the locations round-trip with their place and footprint', async () => {
    const footprint = {
      type: 'Polygon',
      coordinates: [
        [
          [-95.3776, 29.7683],
          [-95.3775, 29.7683],
          [-95.3775, 29.7684],
          [-95.3776, 29.7683],
        ],
      ],
    };
    const baselined = [location('a', 'fpA', { footprint }), location('b', 'fpB', { lat: null, lon: null, problem: 503, address: '1 Main St' })];
    expect(await store.writeChunk(id, 0, '', baselined, write({ baseline: true, counts: { answered: 1 } }), now)).toEqual({ outcome: 'written', events: 0 });
    expect(await store.inputRows(id, 0)).toBeUndefined();
    expect(await store.record(id)).toEqual(
      expect.objectContaining({ status: 'watching', answered: 1, chunksToBaseline: 0, lastFullCheckAt: now.toISOString() }),
    );
    expect((await store.locations(id, 0)).locations).toEqual(baselined);
    // Taken again by a worker that read nothing: written first by another, so nothing happens.
    expect(await store.writeChunk(id, 0, '', baselined, write({ baseline: true, counts: { answered: 1 } }), now)).toEqual({ outcome: 'conflict', events: 0 });
    expect((await store.record(id))?.answered).toBe(1);
    expect(await store.chunksOf(id, ['297:-954'], [])).toEqual([0]);
    expect(await store.chunksOf(id, [], ['480296'])).toEqual([0]);
    expect(await store.chunksOf(id, ['300:-954'], ['110001'])).toEqual([]);
  });

  it('writes a re-check only over what it read, with its events in order; the same write again is refused', async () => {
    await store.writeChunk(id, 0, '', [location('a', 'fpA'), location('b', 'fpA')], write({ baseline: true }), now);
    const { content } = await store.locations(id, 0);
    const events = ['a', 'b'].map((locationId) => ({
      watchId: id,
      locationId,
      kind: 'entered_sfha' as const,
      before: { zones: ['X'] },
      after: { zones: ['AE'] },
      detectedAt: now.toISOString(),
      effectiveDate: null,
      note: '45 days',
    }));
    const changed = [location('a', 'fpB'), location('b', 'fpB')];
    expect(await store.writeChunk(id, 0, content, changed, write({ events }), now)).toEqual({ outcome: 'written', events: 2 });
    expect(await store.writeChunk(id, 0, content, changed, write({ events }), now)).toEqual({ outcome: 'conflict', events: 0 });
    const feed = await store.events(id, null, 10);
    expect(feed.map((event) => event.locationId)).toEqual(['a', 'b']);
    expect(await store.events(id, feed[0].id, 10)).toEqual([feed[1]]);
    expect(await store.fingerprints(id, ['fpA', 'fpB', 'fpC'])).toEqual(
      new Map([
        ['fpA', { zones: ['X'] }],
        ['fpB', { zones: ['AE'] }],
      ]),
    );
  });

  it('a location removed while its chunk is baselined is dropped by the baseline; one removed later leaves its chunk', async () => {
    expect(await store.removeLocation(id, 'b')).toBe('removed');
    await store.writeChunk(id, 0, '', [location('a', 'fpA'), location('b', 'fpA')], write({ baseline: true }), now);
    expect((await store.locations(id, 0)).locations.map((l) => l.id)).toEqual(['a']);
    expect(await store.removeLocation(id, 'a')).toBe('removed');
    expect((await store.locations(id, 0)).locations).toEqual([]);
    expect(await store.removeLocation(id, 'a')).toBe('not_found');
    expect((await store.record(id))?.total).toBe(0);
  });

  it('a stopped watch takes no write, and its data is gone', async () => {
    await store.stop(id, now);
    expect(await store.writeChunk(id, 0, '', [location('a', 'fpA')], write({ baseline: true }), now)).toEqual({ outcome: 'gone', events: 0 });
    expect((await client.keys(`flood-zone:watch:${id}*`)).sort()).toEqual([`flood-zone:watch:${id}`]);
    expect((await store.record(id))?.status).toBe('stopped');
  });

  it("keeps a sweep's Status Book copy beside its state, which every chunk's worker reads, and for the next sweep once it ends", async () => {
    const previous = { '480296': { participating: 'true', program: 'regular', crsClass: 7 } };
    const read = {
      '480296': { participating: 'false', program: 'regular', crsClass: 7 },
      '480287': { participating: 'true', program: 'regular', crsClass: 5 },
    };
    await store.beginSweep({ id: 's0', startedAt: '2026-11-27T06:00:00.000Z', full: false, areas: [], communities: [], plan: [], upstreamCalls: 8 }, previous);
    await store.endSweep(await store.sweepInProgress().then((state) => state!));
    const state = {
      id: 's1',
      startedAt: now.toISOString(),
      full: false,
      areas: [],
      communities: ['480296'],
      plan: [{ watchId: id, chunks: [0], full: false }],
      upstreamCalls: 9,
    };

    await store.beginSweep(state, read);

    // The workers read the plan alone, not the tens of thousands of communities of the book.
    expect(await store.sweepInProgress()).toEqual(state);
    expect(await store.lastSweep()).toEqual({ at: '2026-11-27T06:00:00.000Z', statusBook: previous });
    await store.endSweep(state);
    expect(await store.sweepInProgress()).toBeUndefined();
    expect(await store.lastSweep()).toEqual({ at: now.toISOString(), statusBook: read });
  });
});
