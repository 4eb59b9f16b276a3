import { ChunkProgress, PROGRESS_NOTE_MS } from './chunk-progress';

describe('ChunkProgress: the rows a worker has answered in its chunk, noted in the job while the chunk goes on', () => {
  let notes: number[];
  let pending: Array<() => void>;
  /** A note to Redis that is answered when the test says so. */
  const note = (answered: number) => {
    notes.push(answered);
    return new Promise<void>((resolve) => pending.push(resolve));
  };
  /** Lets the promises settle that are ready to (a note's answer and what follows it). */
  const settle = async () => {
    for (let tick = 0; tick < 10; tick++) await Promise.resolve();
  };
  const answerAll = async () => {
    for (const resolve of pending.splice(0)) resolve();
    await settle();
  };

  beforeEach(() => {
    jest.useFakeTimers();
    notes = [];
    pending = [];
  });
  afterEach(() => jest.useRealTimers());

  it('notes the count every PROGRESS_NOTE_MS while rows are answered, so the job moves well within 5 s', async () => {
    expect(PROGRESS_NOTE_MS).toBeLessThanOrEqual(2000);
    const progress = new ChunkProgress(note);
    // A row answered every 250 ms for 6 s.
    for (let row = 1; row <= 24; row++) {
      jest.advanceTimersByTime(250);
      progress.answered(row);
      await answerAll();
    }
    progress.stop();
    expect(notes.length).toBeGreaterThanOrEqual(Math.floor(6000 / PROGRESS_NOTE_MS) - 1);
    // Each note a larger count, none later than 5 s after the previous one's rows.
    expect(notes).toEqual([...notes].sort((a, b) => a - b));
    expect(new Set(notes).size).toBe(notes.length);
    expect(notes[0]).toBeLessThanOrEqual(Math.ceil(5000 / 250));
  });

  it('notes nothing while no row is answered, nor after it stops', async () => {
    const progress = new ChunkProgress(note);
    jest.advanceTimersByTime(10 * PROGRESS_NOTE_MS);
    expect(notes).toEqual([]);
    progress.answered(3);
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    await answerAll();
    jest.advanceTimersByTime(10 * PROGRESS_NOTE_MS);
    expect(notes).toEqual([3]);
    progress.answered(5);
    progress.stop();
    jest.advanceTimersByTime(10 * PROGRESS_NOTE_MS);
    expect(notes).toEqual([3]);
  });

  it('never sends a note while the last one is unanswered (a slow Redis gets no pile of notes)', async () => {
    const progress = new ChunkProgress(note);
    progress.answered(1);
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    progress.answered(2);
    jest.advanceTimersByTime(5 * PROGRESS_NOTE_MS);
    expect(notes).toEqual([1]);
    await answerAll();
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    expect(notes).toEqual([1, 2]);
    progress.stop();
  });

  it('shrugs off a note that fails: the next one carries the count', async () => {
    let fail = true;
    const flaky = (answered: number) => {
      notes.push(answered);
      return fail ? Promise.reject(new Error('Command timed out')) : Promise.resolve();
    };
    const progress = new ChunkProgress(flaky);
    progress.answered(4);
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    await settle();
    fail = false;
    progress.answered(6);
    jest.advanceTimersByTime(PROGRESS_NOTE_MS);
    expect(notes).toEqual([4, 6]);
    progress.stop();
  });
});
