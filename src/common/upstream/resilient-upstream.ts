import { AsyncLocalStorage } from 'node:async_hooks';
import {
  BrokenCircuitError,
  CircuitBreakerPolicy,
  CircuitState,
  ExponentialBackoff,
  RetryPolicy,
  SamplingBreaker,
  TaskCancelledError,
  TimeoutPolicy,
  TimeoutStrategy,
  circuitBreaker,
  handleType,
  handleWhen,
  retry,
  timeout,
} from 'cockatiel';
import { UpstreamUnavailableError } from '../api-error';
import { ownLoopTurn } from '../event-loop-turns';
import { recordUpstreamTiming } from '../request-context';
import { RequestSlots } from './request-slots';
import { CircuitName, UPSTREAM_BY_NAME, UpstreamName, circuitsOf } from './upstream-registry';
import { LookupDeadline, TimeLeft, UpstreamCallBudget, deadlineIn } from './upstream-call-budget';

/**
 * A failed upstream call. An `outage` (network error, timeout, 5xx, an HTML page instead of JSON, a
 * server error reported inside the answer) is retried and counts toward the circuit breaker; any other
 * failure (an answer unusable at this one place, such as ArcGIS "Failed to execute query" or a
 * malformed body) is neither: retrying will not help, and it says nothing about the service's health.
 */
export class UpstreamFailure extends Error {
  constructor(
    readonly reason: string,
    readonly outage: boolean,
  ) {
    super(reason);
  }
}

/** An answer longer than the upstream's byte cap (see UpstreamEntry.bodyCapBytes): no outage, the same question gets the same body. */
export class AnswerOverCap extends UpstreamFailure {
  constructor(reason: string) {
    super(reason, false);
  }
}

/** An upstream failure that says the service is down or overloaded: the only kind a circuit breaker counts. */
export class UpstreamOutageError extends UpstreamUnavailableError {}

/** An upstream's answer that could not be read within its byte cap: a narrower question may be. */
export class UpstreamOverCapError extends UpstreamUnavailableError {}

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
  /** Percentage (1-100) of a circuit's operations failing as outages within the window that opens it... */
  breakerFailureRate: number;
  breakerWindowMs: number;
  /** ...once the window holds at least this many operations (a few failures under low traffic never open it). */
  breakerMinCalls: number;
  halfOpenAfterMs: number;
  /** The least time left to its lookup with which an attempt is still started (see asLookup); by default a tenth of timeoutMs. */
  minAttemptMs?: number;
}

/**
 * Why a lookup stops its other queries once one of them has failed: nobody waits for their answers any more. An
 * attempt stopped for it is `abandoned`, which says nothing of the upstream (not a timeout of it).
 */
export class QueriesAbandoned extends Error {
  constructor() {
    super('another query of the lookup failed');
  }
}

export type CallOutcome = 'success' | 'failure' | 'timeout' | 'rejected' | 'abandoned';

/** Told about every upstream attempt and circuit change (metrics, logs), and about each circuit when it is created. */
export interface UpstreamObserver {
  attemptFinished(upstream: UpstreamName, outcome: CallOutcome, seconds: number): void;
  circuitChanged(circuit: CircuitName, state: CircuitStateName): void;
}

/** The provider token of the UpstreamObserver every upstream reports to (the metrics provide it). */
export const UPSTREAM_OBSERVER = Symbol('UpstreamObserver');

/** Whether an upstream request is made for a batch. */
const batchWork = new AsyncLocalStorage<true>();

/**
 * Runs `run` as batch work: every upstream request made inside it (however deeply, across awaits) first
 * takes a slot of the upstream's batch lane, half of UPSTREAM_MAX_CONCURRENCY, so interactive lookups
 * always find the other half free. Only the lane: a request stops when the signal it is given aborts,
 * never because some batch was cancelled (a GET may be waiting for the same answer).
 */
export function asBatchWork<T>(run: () => Promise<T>): Promise<T> {
  return batchWork.run(true, run);
}

/** The budget every upstream request of the work under way must fit, if any. */
const jobWork = new AsyncLocalStorage<UpstreamCallBudget>();

/**
 * Runs `run` as work of a portfolio job: every attempt at an upstream made inside it (retries included)
 * first waits for its turn in `budget`, which all replicas share. Run the lookups inside as batch work too,
 * so interactive lookups keep their half of each upstream.
 */
export function asJobWork<T>(budget: UpstreamCallBudget, run: () => Promise<T>): Promise<T> {
  return jobWork.run(budget, run);
}

/** Whether the work under way is a portfolio job's (see asJobWork): work every replica shares. */
export function inJobWork(): boolean {
  return jobWork.getStore() !== undefined;
}

/** The earliest time (epoch ms) an answer read by the work under way may have been fetched at (see asAnsweredSince). */
const answeredSince = new AsyncLocalStorage<number>();

/**
 * Runs `run` so that every cached piece and held square it reads was fetched at or after `since` (epoch ms): an older
 * one is fetched again, and the new one replaces it. A watch's sweep answers so: what was kept may be what FEMA changed.
 */
export function asAnsweredSince<T>(since: number, run: () => Promise<T>): Promise<T> {
  return answeredSince.run(since, run);
}

/** The earliest fetch time the work under way takes (see asAnsweredSince); -Infinity outside it. */
export function earliestAnswerTime(): number {
  return answeredSince.getStore() ?? -Infinity;
}

/**
 * One lookup's deadline, `ms` from now; for a portfolio job's work, `ms` not counting the time its calls wait
 * for their turn in the budget (see UpstreamCallBudget.deadline): a job's rows queue for the budget, not for an answer.
 */
export function lookupDeadline(ms: number): LookupDeadline {
  return jobWork.getStore()?.deadline(ms) ?? deadlineIn(ms);
}

/** The time left to the lookup under way, if any (see asLookup). */
const lookupUnderWay = new AsyncLocalStorage<TimeLeft>();

/**
 * Runs `run` as the work of a lookup with `timeLeft` (its deadline): an attempt at an upstream made inside it is
 * not started once the lookup has less time left than an attempt needs (the upstream's minAttemptMs: a tenth of the
 * shorter of UPSTREAM_TIMEOUT_MS and LOOKUP_DEADLINE_MS): it could hardly be answered in time, and would only spend
 * the upstream's time. Such a request fails at once, as it would at the deadline.
 */
export function asLookup<T>(timeLeft: TimeLeft, run: () => Promise<T>): Promise<T> {
  return lookupUnderWay.run(timeLeft, run);
}

/** The time left to the lookup under way (see asLookup); none outside any lookup. */
export function lookupTimeLeft(): TimeLeft | undefined {
  return lookupUnderWay.getStore();
}

/**
 * Out of the lookup's time while waiting for `upstream`: a 502 naming it, and an outage of it (counted by
 * its circuit) only when an attempt had already failed as one.
 */
export function deadlineExceeded(upstream: UpstreamName, outage = false): UpstreamUnavailableError {
  const reason = 'no answer within the lookup deadline';
  return outage ? new UpstreamOutageError(upstream, reason) : new UpstreamUnavailableError(upstream, reason);
}

/**
 * Everything between the service and one upstream: per-request timeout, retries with exponential
 * backoff and jitter for outage-type failures only, bounded concurrency (with a batch lane), and circuit
 * breakers around whole operations (one lookup's calls) that open on the failure rate of outages over a
 * window, so a dead upstream is failed fast, while failures at a few places never stop the healthy rest.
 */
export class ResilientUpstream {
  private readonly retryOutages: RetryPolicy;
  private readonly attemptTimeout: TimeoutPolicy;
  private readonly slots: RequestSlots;
  private readonly batchLane: RequestSlots;
  private readonly circuits = new Map<CircuitName, CircuitBreakerPolicy>();
  /** The most bytes one answer of this upstream may have (its registry entry's `bodyCapBytes`): every request of it passes this on. */
  readonly maxBodyBytes: number;
  private readonly minAttemptMs: number;

  constructor(
    readonly name: UpstreamName,
    private readonly options: UpstreamPolicyOptions,
    private readonly observer?: UpstreamObserver,
  ) {
    this.retryOutages = retry(
      handleWhen((error) => (error instanceof UpstreamFailure ? error.outage : error instanceof TaskCancelledError)),
      { maxAttempts: options.retries, backoff: new ExponentialBackoff({ initialDelay: 100, maxDelay: 2000 }) },
    );
    // A finished attempt's signal is left alone (not aborted on return): the request is over, and an abort per
    // call (its DOMException, its listeners) is pure cost on the busiest path.
    this.attemptTimeout = timeout(options.timeoutMs, { strategy: TimeoutStrategy.Aggressive, abortOnReturn: false });
    this.minAttemptMs = options.minAttemptMs ?? options.timeoutMs / 10;
    this.slots = new RequestSlots(options.maxConcurrency);
    this.batchLane = new RequestSlots(Math.max(1, Math.floor(options.maxConcurrency / 2)));
    for (const circuit of circuitsOf(name)) this.circuits.set(circuit, this.createCircuit(circuit));
    this.maxBodyBytes = UPSTREAM_BY_NAME[name].bodyCapBytes;
  }

  /** Each circuit of this upstream with its state, e.g. [['geocoder', 'closed'], ['geocoder_point', 'open']]. */
  get circuitStates(): Array<[CircuitName, CircuitStateName]> {
    return [...this.circuits].map(([circuit, breaker]) => [circuit, STATE_NAME[breaker.state]]);
  }

  /**
   * One logical operation against this upstream (for example all NFHL layer queries of one lookup),
   * judged by the circuit named `circuit` (default: the upstream's own). While that circuit is open it
   * fails at once, without calling the upstream.
   */
  async operation<T>(run: () => Promise<T>, circuit: CircuitName = this.name): Promise<T> {
    const breaker = this.circuits.get(circuit);
    if (!breaker) throw new Error(`${this.name} has no circuit named ${circuit}`);
    try {
      return await breaker.execute(run);
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        throw new UpstreamUnavailableError(this.name, 'circuit open after an outage; not called');
      }
      throw error;
    }
  }

  /**
   * One HTTP request, retried on outages, abandoned (whether waiting for a slot, running or between
   * attempts) once `deadline` aborts: when nobody waits for its answer any more.
   */
  async request<T>(call: (signal: AbortSignal) => Promise<T>, deadline: AbortSignal): Promise<T> {
    if (deadline.aborted) throw deadlineExceeded(this.name);
    let outageSeen = false;
    const attempt = (signal: AbortSignal) =>
      this.timed(call, signal, deadline).catch((error: unknown) => {
        outageSeen ||= error instanceof UpstreamFailure ? error.outage : signal.aborted && !deadline.aborted;
        throw error;
      });
    const budget = jobWork.getStore();
    const lookup = lookupUnderWay.getStore();
    const send = async (signal: AbortSignal) => {
      if (lookup !== undefined && lookup.msLeft() < this.minAttemptMs) {
        // In a turn of its own, still holding the slot: when lookups run out of time together, each such failure
        // would otherwise hand the slot straight to the next one, failing every waiting lookup in one go.
        await ownLoopTurn();
        throw deadlineExceeded(this.name, outageSeen);
      }
      // A job's turn is taken once the attempt holds its slot, as it is sent: turns taken while waiting for a slot
      // would all come due during a stall and be spent together when it clears, beyond the budget's rate.
      if (budget) await budget.turn(this.name, signal);
      return this.attemptTimeout.execute(({ signal: timed }) => attempt(timed), signal);
    };
    // Slots are taken per attempt, inside the retry, so a backoff pause holds none; the wait for one is not timed.
    const inSlot = (signal: AbortSignal) => this.slots.run(() => send(signal), signal);
    const inLane = batchWork.getStore() ? (signal: AbortSignal) => this.batchLane.run(() => inSlot(signal), signal) : inSlot;
    try {
      // cockatiel's pause between attempts does not listen to the signal: the request is abandoned all the same.
      return await untilAborted(
        this.retryOutages.execute(({ signal }) => inLane(signal), deadline),
        deadline,
      );
    } catch (error) {
      if (error instanceof UpstreamUnavailableError) throw error;
      // Running out of the lookup's time (perhaps spent on another upstream) is an outage of this one
      // only when an attempt had already failed as one.
      if (deadline.aborted) throw deadlineExceeded(this.name, outageSeen);
      if (error instanceof AnswerOverCap) throw new UpstreamOverCapError(this.name, error.reason);
      if (error instanceof UpstreamFailure) {
        throw error.outage ? new UpstreamOutageError(this.name, error.reason) : new UpstreamUnavailableError(this.name, error.reason);
      }
      if (error instanceof TaskCancelledError) {
        throw new UpstreamOutageError(this.name, `no answer within ${this.options.timeoutMs} ms`);
      }
      throw error;
    }
  }

  private createCircuit(circuit: CircuitName): CircuitBreakerPolicy {
    const { breakerFailureRate, breakerWindowMs, breakerMinCalls, halfOpenAfterMs } = this.options;
    const breaker = circuitBreaker(handleType(UpstreamOutageError), {
      halfOpenAfter: halfOpenAfterMs,
      breaker: new SamplingBreaker({
        // SamplingBreaker opens strictly above its threshold, which must stay below 1: a hair less
        // makes the rate "at least", and lets 100% mean "every operation failed".
        threshold: breakerFailureRate / 100 - 1e-9,
        duration: breakerWindowMs,
        // Half a call short, so floating-point rounding of the rate never asks for one call more.
        minimumRps: (breakerMinCalls - 0.5) / (breakerWindowMs / 1000),
      }),
    });
    breaker.onStateChange((state) => this.observer?.circuitChanged(circuit, STATE_NAME[state]));
    this.observer?.circuitChanged(circuit, 'closed');
    return breaker;
  }

  private async timed<T>(call: (signal: AbortSignal) => Promise<T>, signal: AbortSignal, deadline: AbortSignal): Promise<T> {
    const started = performance.now();
    let outcome: CallOutcome = 'failure';
    try {
      const result = await call(signal);
      outcome = 'success';
      return result;
    } catch (error) {
      if (signal.aborted) outcome = deadline.reason instanceof QueriesAbandoned ? 'abandoned' : 'timeout';
      throw error;
    } finally {
      const ms = performance.now() - started;
      this.observer?.attemptFinished(this.name, outcome, ms / 1000);
      recordUpstreamTiming(this.name, ms);
    }
  }
}

/** `work`'s outcome, or the signal's reason as soon as it aborts (the work then goes on unobserved). */
export async function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  let abandon = () => {};
  const aborted = new Promise<never>((_, reject) => {
    abandon = () => reject(signal.reason);
    signal.addEventListener('abort', abandon, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', abandon);
  }
}
