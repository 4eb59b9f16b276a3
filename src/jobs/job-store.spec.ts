import { Readable } from 'node:stream';
import Redis from 'ioredis';
import { DisposableRedis } from '../../test/support/redis-server';
import { settledNow } from '../../test/support/settled-now';
import type { RowAnswer } from '../batch/row-answer';
import { CHUNK_ROWS } from './job-chunks';
import { JobStore } from './job-store';

/**
 * A job's `done` on a real Redis: rows answered inside a chunk count before the chunk is written, and `done`
 * never goes back nor passes `total`, whatever the order of notes and writes of workers that take a chunk again;
 * its upstream calls add up over every note, however its chunks end; its degraded rows are those of its written chunks.
 */
describe('JobStore: the rows done and upstream calls of a running job', () => {
  let redis: DisposableRedis;
  let client: Redis;
  let store: JobStore;
  let jobs = 0;

  beforeAll(async () => {
    redis = await DisposableRedis.start();
    client = new Redis(redis.url);
    store = new JobStore(client, 3600);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  const answersOf = (chunk: number, rows: number): RowAnswer[] =>
    Array.from(
      { length: rows },
      (_, n) => ({ index: chunk * CHUNK_ROWS + n, id: null, asked: null, status: 200, body: { result: { unavailable: [] } } }) as unknown as RowAnswer,
    );

  /** A running job of `total` rows (its chunks of CHUNK_ROWS), and a way to read its `done`. */
  async function runningJob(total: number) {
    const id = `00000000-0000-4000-8000-${String((jobs += 1)).padStart(12, '0')}`;
    const chunks = Math.ceil(total / CHUNK_ROWS);
    await store.open({
      id,
      status: 'queued',
      total,
      done: 0,
      errors: 0,
      degradedRows: 0,
      chunks,
      createdAt: new Date().toISOString(),
      startedAt: null,
      finishedAt: null,
      expiresAt: null,
      otherColumns: [],
      warnings: [],
      upstreamCalls: {},
      include: [],
      radiusM: 500,
    });
    await store.beginChunk(id, new Date());
    const done = async () => (await store.record(id))!.done;
    return { id, done };
  }

  it('counts the rows answered in a chunk before it is written, then the chunk once written', async () => {
    const { id, done } = await runningJob(2500);
    await store.noteProgress(id, 0, 120, {});
    await store.noteProgress(id, 2, 40, {});
    expect(await done()).toBe(160);
    await store.noteProgress(id, 0, 700, {});
    expect(await done()).toBe(740);
    expect(await store.writeAnswers(id, 0, answersOf(0, CHUNK_ROWS), new Date())).toBe('written');
    expect(await done()).toBe(1040);
    expect(await store.writeAnswers(id, 1, answersOf(1, CHUNK_ROWS), new Date())).toBe('written');
    expect(await done()).toBe(2040);
    expect(await store.writeAnswers(id, 2, answersOf(2, 500), new Date())).toBe('completed_job');
    expect(await store.record(id)).toEqual(expect.objectContaining({ status: 'completed', done: 2500, total: 2500 }));
  });

  it('never goes back when a chunk is taken again (its new worker starts from row 0), nor counts its rows twice', async () => {
    const { id, done } = await runningJob(1000);
    await store.noteProgress(id, 0, 600, {});
    // The worker died; another takes the chunk again and answers its first rows again.
    await store.noteProgress(id, 0, 200, {});
    expect(await done()).toBe(600);
    await store.noteProgress(id, 0, 800, {});
    expect(await done()).toBe(800);
    expect(await store.writeAnswers(id, 0, answersOf(0, CHUNK_ROWS), new Date())).toBe('completed_job');
    expect(await done()).toBe(1000);
  });

  it('ignores a note that comes after the chunk was written (a slow worker of a chunk taken again), so done never passes total', async () => {
    const { id, done } = await runningJob(1500);
    expect(await store.writeAnswers(id, 0, answersOf(0, CHUNK_ROWS), new Date())).toBe('written');
    await store.noteProgress(id, 0, 900, {});
    expect(await done()).toBe(1000);
    await store.noteProgress(id, 1, 500, {});
    expect(await done()).toBe(1500);
    // A cancelled job's count stays where it was.
    await store.end(id, 'cancelled', new Date());
    await store.noteProgress(id, 1, 300, {});
    expect(await store.record(id)).toEqual(expect.objectContaining({ status: 'cancelled', done: 1500 }));
  });

  it("adds each note's upstream calls to the job's, written, cancelled or not, and never brings back a job deleted whole", async () => {
    const { id } = await runningJob(1500);
    const calls = async () => (await store.record(id))?.upstreamCalls;
    await store.noteProgress(id, 0, 10, { flood_data: 12, geocoder: 3 });
    await store.noteProgress(id, 1, 0, { flood_data: 4 });
    expect(await calls()).toEqual({ flood_data: 16, geocoder: 3 });
    // A chunk's last calls, noted after its rows were written, and those of a chunk cut short by a cancel.
    expect(await store.writeAnswers(id, 0, answersOf(0, CHUNK_ROWS), new Date())).toBe('written');
    await store.noteProgress(id, 0, CHUNK_ROWS, { geocoder: 1 });
    await store.end(id, 'cancelled', new Date());
    await store.noteProgress(id, 1, 200, { flood_data: 5, coastal_barrier: 2 });
    expect(await store.record(id)).toEqual(
      expect.objectContaining({ status: 'cancelled', done: 1000, upstreamCalls: { flood_data: 21, coastal_barrier: 2, geocoder: 4 } }),
    );
    // Cancelling the ended job deletes it whole: a late note does not make its hash again.
    await store.end(id, 'cancelled', new Date());
    await store.noteProgress(id, 1, 300, { flood_data: 1 });
    expect(await client.exists(`flood-zone:job:${id}`)).toBe(0);
  });

  it('counts the degraded rows (answered with a part unavailable) of each chunk as it is written, once', async () => {
    const { id } = await runningJob(1500);
    const degraded = (answer: RowAnswer): RowAnswer => ({ ...answer, body: { result: { unavailable: ['structure'] } } }) as unknown as RowAnswer;
    const first = answersOf(0, CHUNK_ROWS).map((answer, n) => (n === 3 || n === 700 ? degraded(answer) : answer));
    // A 502 row is an error, not a degraded answer.
    first[5] = { ...first[5], status: 502, body: { code: 'UPSTREAM_UNAVAILABLE' } } as unknown as RowAnswer;
    await store.noteProgress(id, 0, 900, {});
    expect(await store.record(id)).toEqual(expect.objectContaining({ degradedRows: 0 }));
    expect(await store.writeAnswers(id, 0, first, new Date())).toBe('written');
    expect(await store.writeAnswers(id, 0, first, new Date())).toBe('not_written');
    expect(await store.record(id)).toEqual(expect.objectContaining({ done: 1000, errors: 1, degradedRows: 2 }));
    expect(await store.writeAnswers(id, 1, answersOf(1, 500).map(degraded), new Date())).toBe('completed_job');
    expect(await store.record(id)).toEqual(expect.objectContaining({ status: 'completed', done: 1500, errors: 1, degradedRows: 502 }));
  });
});

/**
 * A job's input stored on a Redis that stops answering midway: the write's failure (a 503) is answered at once,
 * never held by the deletion of the chunks written, which a hung Redis would hold one more command timeout.
 */
describe('JobStore.storeInput: a Redis that fails a write', () => {
  const rows = (count: number) => Readable.from(Array.from({ length: count }, (_, n) => ({ lat: 29.76, lon: -95.37, n })));

  it('fails with the outage as soon as the write does, the deletion of what it wrote going on in the background', async () => {
    let askedToDelete!: () => void;
    const deletionAsked = new Promise<void>((resolve) => (askedToDelete = resolve));
    const hungRedis = {
      set: () => Promise.reject(new Error('Command timed out')),
      unlink: () => {
        askedToDelete();
        return new Promise<never>(() => undefined);
      },
    } as unknown as Redis;
    const stored = new JobStore(hungRedis, 3600).storeInput('0f0e0d0c-0000-4000-8000-000000000001', rows(CHUNK_ROWS + 1)).then(
      () => 'stored',
      (error: Error) => error.message,
    );
    await deletionAsked;
    expect(await settledNow(stored)).toBe('Command timed out');
  });

  it('awaits the deletion after a fault of the body itself (no outage), so nothing of the job is left when it is answered', async () => {
    let deleted = false;
    const redis = {
      set: () => Promise.resolve('OK'),
      unlink: () => Promise.resolve((deleted = true)),
    } as unknown as Redis;
    async function* breaking() {
      yield* rows(CHUNK_ROWS);
      throw new Error('the body broke');
    }
    await expect(new JobStore(redis, 3600).storeInput('0f0e0d0c-0000-4000-8000-000000000002', breaking())).rejects.toThrow('the body broke');
    expect(deleted).toBe(true);
  });
});
