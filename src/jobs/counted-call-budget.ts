import type { UpstreamName } from '../common/upstream/upstream-registry';
import { LookupDeadline, UpstreamCallBudget } from '../common/upstream/upstream-call-budget';
import type { UpstreamCalls } from './job-record';

/**
 * The shared budget as one chunk attempt's work sees it: every turn taken is an attempt sent to that upstream,
 * counted here per upstream (a cache hit or a reused answer takes no turn, so counts nothing) and told to
 * `called` (the metrics); the turns themselves and the lookups' deadlines are the shared budget's, so that a
 * deadline still leaves out the time every call of this process waits for its turn, not only this chunk's.
 */
export class CountedCallBudget extends UpstreamCallBudget {
  private readonly counted: UpstreamCalls = {};

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
    await this.shared.turn(upstream, signal);
    if (signal.aborted) return;
    this.counted[upstream] = (this.counted[upstream] ?? 0) + 1;
    this.called(upstream);
  }

  override deadline(ms: number): LookupDeadline {
    return this.shared.deadline(ms);
  }

  /** The calls counted so far, per upstream (a copy). */
  calls(): UpstreamCalls {
    return { ...this.counted };
  }
}
