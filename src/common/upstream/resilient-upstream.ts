import {
  BrokenCircuitError,
  BulkheadPolicy,
  BulkheadRejectedError,
  CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  ExponentialBackoff,
  IPolicy,
  TaskCancelledError,
  TimeoutStrategy,
  bulkhead,
  circuitBreaker,
  handleWhen,
  retry,
  timeout,
  wrap,
} from 'cockatiel';
import { UpstreamName, UpstreamUnavailableError } from '../api-error';
import { recordUpstreamTiming } from '../request-context';

/** A failed upstream call; `transient` failures (network, timeout, 5xx, HTML pages) are worth retrying. */
export class UpstreamFailure extends Error {
  constructor(
    readonly reason: string,
    readonly transient: boolean,
  ) {
    super(reason);
  }
}

export type CircuitStateName = 'closed' | 'open' | 'half_open' | 'isolated';

const STATE_NAME: Record<CircuitState, CircuitStateName> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half_open',
  [CircuitState.Isolated]: 'isolated',
};

export interface UpstreamPolicyOptions {
  timeoutMs: number;
  retries: number;
  maxConcurrency: number;
  /** Consecutive failed operations that open the circuit. */
  breakerThreshold: number;
  halfOpenAfterMs: number;
}

export type CallOutcome = 'success' | 'failure' | 'timeout' | 'rejected';

/** Told about every upstream attempt and circuit change (metrics, logs). */
export interface UpstreamObserver {
  attemptFinished(upstream: UpstreamName, outcome: CallOutcome, seconds: number): void;
  circuitChanged(upstream: UpstreamName, state: CircuitStateName): void;
}

/**
 * Everything between the service and one upstream: per-request timeout, retries with exponential
 * backoff and jitter for transient failures only, bounded concurrency, and a circuit breaker around
 * whole operations (one lookup's calls), so a dead upstream is failed fast instead of waited on.
 */
export class ResilientUpstream {
  private readonly requestPolicy: IPolicy;
  private readonly breaker: CircuitBreakerPolicy;
  private readonly limiter: BulkheadPolicy;

  constructor(
    readonly name: UpstreamName,
    private readonly options: UpstreamPolicyOptions,
    private readonly observer?: UpstreamObserver,
  ) {
    this.limiter = bulkhead(options.maxConcurrency, Number.MAX_SAFE_INTEGER);
    const retryTransient = retry(
      handleWhen((error) => error instanceof UpstreamFailure ? error.transient : error instanceof TaskCancelledError),
      { maxAttempts: options.retries, backoff: new ExponentialBackoff({ initialDelay: 100, maxDelay: 2000 }) },
    );
    this.requestPolicy = wrap(retryTransient, this.limiter, timeout(options.timeoutMs, TimeoutStrategy.Aggressive));
    this.breaker = circuitBreaker(
      handleWhen((error) => error instanceof UpstreamUnavailableError),
      { halfOpenAfter: options.halfOpenAfterMs, breaker: new ConsecutiveBreaker(options.breakerThreshold) },
    );
    this.breaker.onStateChange((state) => observer?.circuitChanged(name, STATE_NAME[state]));
  }

  get circuitState(): CircuitStateName {
    return STATE_NAME[this.breaker.state];
  }

  /**
   * One logical operation against this upstream (for example all NFHL layer queries of one lookup).
   * While the circuit is open it fails at once, without calling the upstream.
   */
  async operation<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await this.breaker.execute(run);
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        throw new UpstreamUnavailableError(this.name, 'circuit open after repeated failures; not called');
      }
      throw error;
    }
  }

  /** One HTTP request, retried when transient, abandoned when the lookup's deadline passes. */
  async request<T>(call: (signal: AbortSignal) => Promise<T>, deadline: AbortSignal): Promise<T> {
    if (deadline.aborted) throw this.deadlineExceeded();
    try {
      return await this.requestPolicy.execute(({ signal }) => this.timed(call, signal), deadline);
    } catch (error) {
      if (error instanceof UpstreamUnavailableError) throw error;
      if (deadline.aborted) throw this.deadlineExceeded();
      if (error instanceof UpstreamFailure) throw new UpstreamUnavailableError(this.name, error.reason);
      if (error instanceof TaskCancelledError) {
        throw new UpstreamUnavailableError(this.name, `no answer within ${this.options.timeoutMs} ms`);
      }
      if (error instanceof BulkheadRejectedError) throw new UpstreamUnavailableError(this.name, 'too many calls waiting');
      throw error;
    }
  }

  private async timed<T>(call: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
    const started = performance.now();
    let outcome: CallOutcome = 'failure';
    try {
      const result = await call(signal);
      outcome = 'success';
      return result;
    } catch (error) {
      if (signal.aborted) outcome = 'timeout';
      throw error;
    } finally {
      const ms = performance.now() - started;
      this.observer?.attemptFinished(this.name, outcome, ms / 1000);
      recordUpstreamTiming(this.name, ms);
    }
  }

  private deadlineExceeded(): UpstreamUnavailableError {
    return new UpstreamUnavailableError(this.name, 'no answer within the lookup deadline');
  }
}
