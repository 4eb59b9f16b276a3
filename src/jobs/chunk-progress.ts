/** How often a worker notes in the job the rows it has answered in its chunk: `done` moves at least this often. */
export const PROGRESS_NOTE_MS = 1000;

/**
 * The rows a worker has answered in the chunk it holds, noted in the job every PROGRESS_NOTE_MS while the
 * count grows: a chunk of 1,000 rows takes minutes at the upstream budget, and a job's `done` must move while
 * it is answered, not only once it is written. One note at a time; a failed note is dropped (the next one
 * carries the count, and the chunk's write counts its rows anyway).
 */
export class ChunkProgress {
  private answeredRows = 0;
  private notedRows = 0;
  private noting = false;
  private readonly timer: NodeJS.Timeout;

  constructor(note: (answered: number) => Promise<unknown>) {
    this.timer = setInterval(() => {
      if (this.noting || this.answeredRows <= this.notedRows) return;
      const answered = this.answeredRows;
      this.noting = true;
      note(answered)
        .then(() => (this.notedRows = answered))
        .catch(() => undefined)
        .finally(() => (this.noting = false));
    }, PROGRESS_NOTE_MS);
  }

  answered(rows: number): void {
    this.answeredRows = rows;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
