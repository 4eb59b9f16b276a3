import type Redis from 'ioredis';
import type { UpstreamName } from '../common/upstream/upstream-registry';
import { pause } from '../common/pause';
import { UpstreamCallBudget } from '../common/upstream/upstream-call-budget';

/**
 * Gives each caller the next free moment for a call to the upstream, all replicas together, by Redis's own
 * clock: the moments are spaced evenly, so the calls never come in bursts, and a caller waits exactly its
 * turn instead of asking again and again. Answers the microseconds to wait.
 */
const NEXT_TURN = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
local turn = math.max(now, free)
local after = turn + tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%.0f', after), 'PX', math.ceil((after - now) / 1000) + 1000)
return turn - now`;

/** Rate of spaced calls that keeps every second within `ratePerSecond` at the upstream (see RedisCallBudget). */
export function spacedRate(ratePerSecond: number): number {
  return Math.max(ratePerSecond - Math.max(1, ratePerSecond * 0.1), ratePerSecond / 2);
}

/**
 * How late (ms) a call may go out after its turn: a quarter of the slack that spacing at spacedRate leaves in a
 * second (28 ms at 20 calls a second or more). The other three quarters are for the call's way to the upstream,
 * which counts arrivals: a busy process, its event loop or the network delays some calls more than others.
 */
export function punctualityMs(ratePerSecond: number): number {
  return 250 * (ratePerSecond / spacedRate(ratePerSecond) - 1);
}

/** Told of each wait for a turn (metrics). */
export type BudgetWaitObserver = (upstream: UpstreamName, seconds: number) => void;

/**
 * JOB_UPSTREAM_RATE_PER_SECOND calls per upstream service per second for all job work of every replica,
 * kept in the jobs' Redis. Calls are let through evenly spaced at 90% of the rate (at least one call a
 * second less): a call reaches the upstream a little after its turn, and without that headroom the jitter
 * of those delays could push one second's count at the upstream over the rate (at 95%, three replicas on a busy
 * machine put 53 calls into one second at an upstream whose budget was 50). A call that would go out later
 * than that headroom allows (its process was too busy to hear of its turn or wake for it on time) forfeits the
 * turn and asks for another, as often as it takes: sent late, it would go out together with the calls of the next
 * turns, and the ceiling comes before the pace of a process that busy.
 */
export class RedisCallBudget extends UpstreamCallBudget {
  private readonly spacingMicros: number;
  private readonly punctualityMs: number;

  constructor(
    private readonly redis: Redis,
    ratePerSecond: number,
    private readonly waited: BudgetWaitObserver,
  ) {
    super();
    this.spacingMicros = 1_000_000 / spacedRate(ratePerSecond);
    this.punctualityMs = punctualityMs(ratePerSecond);
  }

  async admit(upstream: UpstreamName, signal: AbortSignal): Promise<void> {
    for (;;) {
      signal.throwIfAborted();
      // Redis grants the turn after it is asked for: counting from the asking errs on the side of lateness.
      const askedAt = performance.now();
      const waitMs = Number(await this.redis.eval(NEXT_TURN, 1, `flood-zone:job-budget:${upstream}`, this.spacingMicros.toFixed(0))) / 1000;
      if (waitMs > 0) {
        this.waited(upstream, waitMs / 1000);
        await pause(waitMs, signal);
      }
      if (performance.now() - (askedAt + Math.max(0, waitMs)) <= this.punctualityMs) return;
    }
  }
}
