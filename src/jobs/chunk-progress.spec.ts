import { ChunkProgress, PROGRESS_NOTE_MS } from './chunk-progress';
import type { UpstreamCalls } from './job-record';

describe('ChunkProgress: the rows a worker has answered in its chunk and the upstream calls it made, noted in the job while the chunk goes on', () => {
  let notes: number[];
  /** The calls each note added, in the order sent. */
  let notedCalls: UpstreamCalls[];
  let pending: Array<() => void>;
  /** A note to Redis that is answered when the test says so. */
  const note = (answered: number, calls: UpstreamCalls) => {
    notes.push(answered);
    notedCalls.push(calls);
    return new Promise<void>((resolve) => pending.push(resolve));
  };
  /** A chunk whose work calls no upstream. */
  const noCalls = () => ({});
  /** Lets the promises settle that are ready to (a note's answer and what follows it). */
  const settle = async () => {
    for (let tick = 0; tick < 10; tick++) await Promise.resolve();
  };
  const answerAll = async () => {
    for (const resolve of pending.splice(0)) resolve();
    await settle();
  };
  /** Ends the progress, answering its notes until it has. */
  const end = async (progress: ChunkProgress) => {
    let ended = false;
    const ending = progress.end().then(() => (ended = true));
    while (!ended) await answerAll();
    await ending;
  };

  beforeEach(() => {
    jest.useFakeTimers();
    notes = [];
    notedCalls = [];
    pending = [];
  });
  afterEach(() => jest.useRealTimers());

  it('notes the count every PROGRESS_NOTE_MS while rows are answered, so the job moves well within 5 s', async () => {
    expect(PROGRESS_NOTE_MS).toBeLessThanOrEqual(2000);
    const progress = new ChunkProgress(noCalls, note);
    // A row answered every 250 ms for 6 s.
    for (let row = 1; row <= 24; row++) {
      jest.advanceTimersByTime(250);
      progress.answered(row);
      await answerAll();
    }
    await end(progress);
    expect(notes.length).toBeGreaterThanOrEqual(Math.floor(6000 / PROGRESS_NOTE_MS) - 1);
    // Each note a larger count, none later than 5 s after the previous one's rows, the last one every row.
    expect(notes).toEqual([...notes].sort((a, b) => a - b));
    expect(new Set(notes).size).toBe(notes.length);
    expect(notes[0]).toBeLessThanOrEqual(Math.ceil(5000 / 250));
    expect(notes.at(-1)).toBe(24);
  });

  it('notes nothing while nothing grows; as it ends, what grew since the last note, then nothing more', async () => {
    const progress = new ChunkProgress(noCalls, note);
    jest.advanceTimersByTime(10 * PROGRESS_NOTE_MS);
    expect(notes).toEqual([]);
    progress.answered(3);
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    await answerAll();
    jest.advanceTimersByTime(10 * PROGRESS_NOTE_MS);
    expect(notes).toEqual([3]);
    progress.answered(5);
    await end(progress);
    expect(notes).toEqual([3, 5]);
    jest.advanceTimersByTime(10 * PROGRESS_NOTE_MS);
    expect(notes).toEqual([3, 5]);

    // Ended with everything noted already: no note.
    const noted = new ChunkProgress(noCalls, note);
    noted.answered(2);
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    await answerAll();
    await end(noted);
    expect(notes).toEqual([3, 5, 2]);
  });

  it('never sends a note while the last one is unanswered (a slow Redis gets no pile of notes)', async () => {
    const progress = new ChunkProgress(noCalls, note);
    progress.answered(1);
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    progress.answered(2);
    jest.advanceTimersByTime(5 * PROGRESS_NOTE_MS);
    expect(notes).toEqual([1]);
    await answerAll();
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    expect(notes).toEqual([1, 2]);
    await end(progress);
  });

  it('shrugs off a note that fails: the next one carries the count and the calls', async () => {
    let fail = true;
    let calls: UpstreamCalls = { flood_data: 4 };
    const flaky = (answered: number, added: UpstreamCalls) => {
      notes.push(answered);
      notedCalls.push(added);
      return fail ? Promise.reject(new Error('Command timed out')) : Promise.resolve();
    };
    const progress = new ChunkProgress(() => calls, flaky);
    progress.answered(4);
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    await settle();
    fail = false;
    progress.answered(6);
    calls = { flood_data: 6, geocoder: 1 };
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    await settle();
    expect(notes).toEqual([4, 6]);
    expect(notedCalls).toEqual([{ flood_data: 4 }, { flood_data: 6, geocoder: 1 }]);
    await progress.end();
    expect(notes).toEqual([4, 6]);
  });

  it('notes the calls made since the last note, also while no row is answered (a row slow to answer)', async () => {
    let calls: UpstreamCalls = {};
    const progress = new ChunkProgress(() => calls, note);
    calls = { flood_data: 5 };
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    await answerAll();
    calls = { flood_data: 8, geocoder: 1 };
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    await answerAll();
    jest.advanceTimersByTime(5 * PROGRESS_NOTE_MS);
    expect(notes).toEqual([0, 0]);
    expect(notedCalls).toEqual([{ flood_data: 5 }, { flood_data: 3, geocoder: 1 }]);
    await end(progress);
  });

  it('notes with the rows answered their calls only; as it ends, every call made (those of rows never answered too)', async () => {
    // The calls of each of the chunk's rows so far.
    const ofRow: UpstreamCalls[] = [{ flood_data: 5, geocoder: 1 }, { flood_data: 6 }, { flood_data: 5, geocoder: 1 }, { flood_data: 2 }];
    const calls = (rows = Infinity) => {
      const sum: UpstreamCalls = {};
      for (const row of ofRow.slice(0, rows))
        for (const [upstream, count] of Object.entries(row)) sum[upstream as 'flood_data'] = (sum[upstream as 'flood_data'] ?? 0) + count;
      return sum;
    };
    const progress = new ChunkProgress(calls, note);
    // Rows 2 and 3 answered, but not yet row 1: none is done, and no call is noted.
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    await answerAll();
    progress.answered(1);
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    await answerAll();
    progress.answered(3);
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    await answerAll();
    // Cut short with row 3 under way.
    await end(progress);
    expect(notes).toEqual([1, 3, 3]);
    expect(notedCalls).toEqual([{ flood_data: 5, geocoder: 1 }, { flood_data: 11, geocoder: 1 }, { flood_data: 2 }]);
  });

  it('as it ends, waits for the note under way, then notes the calls made since: a chunk cut short counts every call once', async () => {
    let calls: UpstreamCalls = { flood_data: 2 };
    const progress = new ChunkProgress(() => calls, note);
    progress.answered(1);
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    calls = { flood_data: 5, coastal_barrier: 1 };
    const ending = progress.end();
    await settle();
    expect(notes).toEqual([1]);
    await answerAll();
    expect(notes).toEqual([1, 1]);
    await answerAll();
    await ending;
    expect(notedCalls).toEqual([{ flood_data: 2 }, { flood_data: 3, coastal_barrier: 1 }]);
  });
});
