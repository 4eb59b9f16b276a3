import type { UpstreamName } from '../common/upstream/upstream-registry';
import { LookupDeadline, UpstreamCallBudget } from '../common/upstream/upstream-call-budget';
import { batchRowUnderWay } from '../batch/batch-lookup.service';
import type { UpstreamCalls } from './job-record';

/**
 * The shared budget as one chunk attempt's work sees it: every turn taken is an attempt sent to that upstream,
 * counted here per upstream and per row of the chunk it was sent for (a cache hit or a reused answer takes no turn,
 * so counts nothing) and told to `called` (the metrics); the turns themselves and the lookups' deadlines are the
 * shared budget's, so that a deadline still leaves out the time every call of this process waits for its turn, not
 * only this chunk's.
 */
export class CountedCallBudget extends UpstreamCallBudget {
  /** Each row's calls, by its index in the chunk (-1: a call sent for no row, counted with the first). */
  private readonly byRow = new Map<number, UpstreamCalls>();

  constructor(
    private readonly shared: UpstreamCallBudget,
    private readonly called: (upstream: UpstreamName) => void,
  ) {
    super();
  }

  admit(upstream: UpstreamName, signal: AbortSignal): Promise<void> {
    return this.shared.admit(upstream, signal);
  }

  /**
   * The shared budget's turn, counted once granted: the attempt is then sent. Not when the attempt's signal aborted
   * meanwhile (its lookup gone while the turn was being granted): such an attempt is never sent.
   */
  override async turn(upstream: UpstreamName, signal: AbortSignal): Promise<void> {
    const row = batchRowUnderWay() ?? -1;
    await this.shared.turn(upstream, signal);
    if (signal.aborted) return;
    let calls = this.byRow.get(row);
    if (!calls) this.byRow.set(row, (calls = {}));
    calls[upstream] = (calls[upstream] ?? 0) + 1;
    this.called(upstream);
  }

  override deadline(ms: number): LookupDeadline {
    return this.shared.deadline(ms);
  }

  /**
   * The calls counted so far, per upstream (a copy): of the chunk's first `rows` rows (and any sent for no row), or
   * of every row without `rows`. A piece loaded for several rows counts with the row that started its load.
   */
  calls(rows = Infinity): UpstreamCalls {
    const sum: UpstreamCalls = {};
    for (const [row, calls] of this.byRow) {
      if (row >= rows) continue;
      for (const [upstream, count] of Object.entries(calls) as Array<[UpstreamName, number]>) sum[upstream] = (sum[upstream] ?? 0) + count;
    }
    return sum;
  }
}
