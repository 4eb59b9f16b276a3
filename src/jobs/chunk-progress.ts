import type { UpstreamName } from '../common/upstream/upstream-registry';
import type { UpstreamCalls } from './job-record';

/** How often a worker notes in the job the rows it has answered in its chunk: `done` moves at least this often. */
export const PROGRESS_NOTE_MS = 1000;

/**
 * The rows a worker has answered in the chunk it holds, and the upstream calls made for them, noted in the job every
 * PROGRESS_NOTE_MS while either grows: a chunk of 1,000 rows takes minutes at the upstream budget, and a job's `done`
 * must move while it is answered, not only once it is written. Only the calls of the rows answered are noted with
 * them (those of rows still under way, or answered but waiting for an earlier one, would count against too few
 * rows), as those made since the last note that went through; as the chunk ends (see end), however it ends, every
 * call made is noted: the calls of a chunk cut short count too. One note at a time; a failed note is dropped (the
 * next one carries the count and the calls, and the chunk's write counts its rows anyway).
 */
export class ChunkProgress {
  private answeredRows = 0;
  private notedRows = 0;
  /** The running totals of `calls` as of the last note that went through. */
  private notedCalls: UpstreamCalls = {};
  private noting?: Promise<void>;
  private readonly timer: NodeJS.Timeout;

  /**
   * `calls`: the chunk attempt's calls so far (running totals) of its first `rows` rows, or of all without `rows`;
   * `note`: adds to the job the rows answered and the calls made since the last note.
   */
  constructor(
    private readonly calls: (rows?: number) => UpstreamCalls,
    private readonly note: (answered: number, calls: UpstreamCalls) => Promise<unknown>,
  ) {
    this.timer = setInterval(() => {
      if (!this.noting) void this.noteGrowth();
    }, PROGRESS_NOTE_MS);
  }

  answered(rows: number): void {
    this.answeredRows = rows;
  }

  /** Stops the notes; then, once the note under way is answered, notes what grew since it: every call of the chunk's work. */
  async end(): Promise<void> {
    clearInterval(this.timer);
    await this.noting;
    await this.noteGrowth(true);
  }

  private noteGrowth(ending = false): Promise<void> {
    const answered = this.answeredRows;
    const calls = ending ? this.calls() : this.calls(answered);
    const added = callsSince(calls, this.notedCalls);
    if (answered <= this.notedRows && Object.keys(added).length === 0) return Promise.resolve();
    this.noting = this.note(answered, added)
      .then(() => {
        this.notedRows = answered;
        this.notedCalls = calls;
      })
      .catch(() => undefined)
      .finally(() => (this.noting = undefined));
    return this.noting;
  }
}

/** The calls of `now` not yet in `before` (running totals of one chunk attempt), upstreams with none left out. */
function callsSince(now: UpstreamCalls, before: UpstreamCalls): UpstreamCalls {
  const since: UpstreamCalls = {};
  for (const [upstream, calls] of Object.entries(now) as Array<[UpstreamName, number]>) {
    const added = calls - (before[upstream] ?? 0);
    if (added > 0) since[upstream] = added;
  }
  return since;
}
