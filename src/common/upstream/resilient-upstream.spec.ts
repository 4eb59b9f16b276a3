import { setMaxListeners } from 'node:events';
import { UpstreamUnavailableError } from '../api-error';
import {
  CircuitStateName,
  QueriesAbandoned,
  ResilientUpstream,
  UpstreamFailure,
  UpstreamObserver,
  UpstreamOutageError,
  UpstreamPolicyOptions,
  asBatchWork,
  asJobWork,
  asLookup,
} from './resilient-upstream';
import { busiestSlidingSecond } from '../../../test/support/sliding-second';
import type { CircuitName, UpstreamName } from './upstream-registry';
import { pause } from '../pause';
import { ownLoopTurn } from '../event-loop-turns';
import { UpstreamCallBudget, deadlineIn } from './upstream-call-budget';

const OPTIONS: UpstreamPolicyOptions = {
  timeoutMs: 1000,
  retries: 0,
  maxConcurrency: 4,
  breakerFailureRate: 50,
  breakerWindowMs: 10_000,
  breakerMinCalls: 4,
  halfOpenAfterMs: 100,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = new AbortController().signal;

/** A fake upstream call that records how many run at once, overall and per lane, and finishes when released. */
class RecordingCalls {
  running = 0;
  peak = 0;
  readonly started: string[] = [];
  private readonly releases: Array<() => void> = [];

  call(label: string): () => Promise<string> {
    return async () => {
      this.started.push(label);
      this.running += 1;
      this.peak = Math.max(this.peak, this.running);
      await new Promise<void>((resolve) => this.releases.push(resolve));
      this.running -= 1;
      return label;
    };
  }

  /** Lets every call started so far finish, then waits for queued calls to take the freed slots. */
  async releaseAll(): Promise<void> {
    for (const release of this.releases.splice(0)) release();
    await sleep(5);
  }
}

function fail(outage: boolean) {
  return () => Promise.reject(new UpstreamFailure(outage ? 'HTTP 503' : 'ArcGIS error 400: Failed to execute query.', outage));
}

/** One operation of one request, as the clients make them; resolves to its outcome instead of throwing. */
async function lookup(upstream: ResilientUpstream, call: () => Promise<unknown>, circuit?: CircuitName): Promise<string> {
  try {
    await upstream.operation(() => upstream.request(call, never), circuit);
    return 'ok';
  } catch (error) {
    if (error instanceof UpstreamOutageError) return 'outage';
    if (error instanceof UpstreamUnavailableError) return error.reason;
    throw error;
  }
}

describe('ResilientUpstream batch lane (asBatchWork)', () => {
  it('lets batch work use at most half of UPSTREAM_MAX_CONCURRENCY, leaving the rest to interactive calls', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, maxConcurrency: 4 });
    const calls = new RecordingCalls();
    const batch = asBatchWork(() => Promise.all(Array.from({ length: 6 }, (_, i) => upstream.request(calls.call(`batch-${i}`), never))));
    await sleep(5);
    expect(calls.started).toEqual(['batch-0', 'batch-1']);

    const interactive = Array.from({ length: 3 }, (_, i) => upstream.request(calls.call(`lookup-${i}`), never));
    await sleep(5);
    // Two batch calls plus two interactive ones fill the upstream's four slots; the third waits.
    expect(calls.started).toEqual(['batch-0', 'batch-1', 'lookup-0', 'lookup-1']);
    expect(calls.running).toBe(4);

    while (calls.started.length < 9) await calls.releaseAll();
    await calls.releaseAll();
    expect(await batch).toEqual(['batch-0', 'batch-1', 'batch-2', 'batch-3', 'batch-4', 'batch-5']);
    expect(await Promise.all(interactive)).toEqual(['lookup-0', 'lookup-1', 'lookup-2']);
    expect(calls.peak).toBe(4);
  });

  it('keeps the batch lane across awaits and nested operations, and one slot when the limit is 1', async () => {
    const upstream = new ResilientUpstream('geocoder', { ...OPTIONS, maxConcurrency: 1 });
    const calls = new RecordingCalls();
    const batch = asBatchWork(async () => {
      await sleep(1);
      return Promise.all([1, 2, 3].map((i) => upstream.operation(() => upstream.request(calls.call(`batch-${i}`), never))));
    });
    await sleep(10);
    expect(calls.started).toEqual(['batch-1']);
    while (calls.started.length < 3) await calls.releaseAll();
    await calls.releaseAll();
    expect(await batch).toEqual(['batch-1', 'batch-2', 'batch-3']);
    expect(calls.peak).toBe(1);
  });

  it('uses floor(UPSTREAM_MAX_CONCURRENCY / 2) slots for batch work, and lanes are per upstream', async () => {
    const nfhl = new ResilientUpstream('flood_data', { ...OPTIONS, maxConcurrency: 5 });
    const census = new ResilientUpstream('geocoder', { ...OPTIONS, maxConcurrency: 5 });
    const calls = new RecordingCalls();
    const batch = asBatchWork(() =>
      Promise.all([
        ...[1, 2, 3, 4].map((i) => nfhl.request(calls.call(`nfhl-${i}`), never)),
        ...[1, 2, 3, 4].map((i) => census.request(calls.call(`census-${i}`), never)),
      ]),
    );
    await sleep(5);
    expect(calls.started.sort()).toEqual(['census-1', 'census-2', 'nfhl-1', 'nfhl-2']);
    while (calls.started.length < 8) await calls.releaseAll();
    await calls.releaseAll();
    await batch;
  });

  it('runs calls outside asBatchWork up to the full limit', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, maxConcurrency: 3 });
    const calls = new RecordingCalls();
    const all = Promise.all([1, 2, 3, 4].map((i) => upstream.request(calls.call(`lookup-${i}`), never)));
    await sleep(5);
    expect(calls.running).toBe(3);
    while (calls.started.length < 4) await calls.releaseAll();
    await calls.releaseAll();
    await all;
  });
});

describe('ResilientUpstream waiting for a slot', () => {
  it('gives up on a queued request at its deadline, naming the upstream, and lets the next queued request run', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, maxConcurrency: 1 });
    const calls = new RecordingCalls();
    const running = upstream.request(calls.call('running'), never);
    const deadline = new AbortController();
    const outOfTime = upstream.request(calls.call('out-of-time'), deadline.signal).catch((e: unknown) => e);
    const next = upstream.request(calls.call('next'), never);
    await sleep(5);

    deadline.abort();
    expect(await outOfTime).toEqual(new UpstreamUnavailableError('flood_data', 'no answer within the lookup deadline'));
    await calls.releaseAll();
    expect(calls.started).toEqual(['running', 'next']);
    await calls.releaseAll();
    expect(await Promise.all([running, next])).toEqual(['running', 'next']);
  });

  it('serves the batch lane after a batch request gave up while queued', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, maxConcurrency: 2 });
    const calls = new RecordingCalls();
    const deadline = new AbortController();
    const batch = asBatchWork(() =>
      Promise.all([
        upstream.request(calls.call('batch-running'), never),
        upstream.request(calls.call('batch-abandoned'), deadline.signal).catch(() => 'abandoned'),
        upstream.request(calls.call('batch-next'), never),
      ]),
    );
    await sleep(5);
    expect(calls.started).toEqual(['batch-running']);
    deadline.abort();
    await calls.releaseAll();
    expect(calls.started).toEqual(['batch-running', 'batch-next']);
    await calls.releaseAll();
    expect(await batch).toEqual(['batch-running', 'abandoned', 'batch-next']);
  });
});

/** Turns `spacingMs` apart, each given to the next caller, as the jobs' shared budget gives them (by this process's clock). */
class SpacedBudget extends UpstreamCallBudget {
  private nextFree = 0;

  constructor(private readonly spacingMs: number) {
    super();
  }

  async admit(_upstream: UpstreamName, signal: AbortSignal): Promise<void> {
    const turn = Math.max(Date.now(), this.nextFree);
    this.nextFree = turn + this.spacingMs;
    if (turn > Date.now()) await pause(turn - Date.now(), signal);
  }
}

describe('ResilientUpstream in a job budget (asJobWork)', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('takes a turn when the call is sent, after its wait for a slot: a stall never lets turns pile up and be spent together', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, timeoutMs: 60_000, maxConcurrency: 2 });
    const sentAt: number[] = [];
    // The first two calls stall the upstream for 5 s, holding both slots; the ten queued behind them answer at once.
    const call = (stallMs: number) => async () => {
      sentAt.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, stallMs));
      return 'answered';
    };
    const budget = new SpacedBudget(250);
    const answers = asJobWork(budget, () =>
      Promise.all(Array.from({ length: 12 }, (_, i) => upstream.request(call(i < 2 ? 5000 : 0), new AbortController().signal))),
    );
    await jest.advanceTimersByTimeAsync(20_000);

    expect(await answers).toEqual(Array(12).fill('answered'));
    expect(sentAt).toHaveLength(12);
    // Four turns a second: no sliding second holds a fifth call, before, during or after the stall.
    expect(busiestSlidingSecond(sentAt)).toBe(4);
  });
});

describe('ResilientUpstream near the end of a lookup (asLookup)', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  /** A lookup with `deadlineMs` asking `upstream` for one call that answers only when aborted; resolves to what became of it. */
  function lookupAsking(upstream: ResilientUpstream, label: string, deadlineMs: number, sent: string[]): Promise<string> {
    const deadline = deadlineIn(deadlineMs);
    const call = async (signal: AbortSignal) => {
      sent.push(label);
      await pause(3_600_000, signal);
      return label;
    };
    return asLookup(deadline, () => upstream.request(call, deadline.signal)).catch((error: unknown) =>
      error instanceof UpstreamUnavailableError ? `${label}: ${error.reason}` : Promise.reject(error),
    );
  }

  it('does not start a queued attempt whose lookup has less time left than an attempt needs (by default a tenth of the timeout)', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, timeoutMs: 10_000, maxConcurrency: 1 });
    const sent: string[] = [];
    // The first lookup holds the only slot until its deadline at 2000 ms; the next two queue behind it.
    const first = lookupAsking(upstream, 'first', 2000, sent);
    await jest.advanceTimersByTimeAsync(1100);
    const late = lookupAsking(upstream, 'late', 1850, sent);
    await jest.advanceTimersByTimeAsync(100);
    const timely = lookupAsking(upstream, 'timely', 1900, sent);
    await jest.advanceTimersByTimeAsync(800);
    // At 2000 ms the slot is free: 'late' has 950 ms left (less than 10,000 / 10) and is not started; 'timely' has 1100.
    expect(await late).toBe('late: no answer within the lookup deadline');
    expect(await first).toBe('first: no answer within the lookup deadline');
    await jest.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['first', 'timely']);
    await jest.advanceTimersByTimeAsync(1100);
    expect(await timely).toBe('timely: no answer within the lookup deadline');
    expect(sent).toEqual(['first', 'timely']);
  });

  it('starts an attempt with time enough left, and an attempt outside any lookup, however long it waited', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, timeoutMs: 10_000, maxConcurrency: 1 });
    const holder = new AbortController();
    const held = upstream.request(() => pause(3_600_000, holder.signal), never).catch(() => 'released');
    const sent: string[] = [];
    const waited = upstream.request(() => {
      sent.push('outside a lookup');
      return Promise.resolve('answered');
    }, never);
    const inLookup = lookupAsking(upstream, 'in a lookup', 5000, sent);
    await jest.advanceTimersByTimeAsync(3999);
    holder.abort();
    await jest.advanceTimersByTimeAsync(0);
    expect(await held).toBe('released');
    expect(await waited).toBe('answered');
    // 1001 ms left: just over a tenth of the timeout.
    expect(sent).toEqual(['outside a lookup', 'in a lookup']);
    await jest.advanceTimersByTimeAsync(1001);
    expect(await inLookup).toBe('in a lookup: no answer within the lookup deadline');
  });

  it('fails queued lookups that are out of time one per event-loop turn, not all in the turn that freed the slot', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, timeoutMs: 10_000, maxConcurrency: 1 });
    const holder = new AbortController();
    const held = upstream.request(() => pause(3_600_000, holder.signal), never).catch(() => 'released');
    const failed: string[] = [];
    const sent: string[] = [];
    const lookups = ['a', 'b', 'c'].map((label) => lookupAsking(upstream, label, 5000, sent).then((outcome) => failed.push(outcome)));
    // 500 ms left to each: less than an attempt needs, but none has reached its deadline.
    await jest.advanceTimersByTimeAsync(4500);
    holder.abort();
    await jest.advanceTimersByTimeAsync(0);
    const failedAfterEachTurn: string[][] = [];
    for (let turn = 0; turn < 3; turn++) {
      await ownLoopTurn();
      failedAfterEachTurn.push([...failed]);
    }
    const outOfTime = (label: string) => `${label}: no answer within the lookup deadline`;
    expect(failedAfterEachTurn).toEqual([[outOfTime('a')], [outOfTime('a'), outOfTime('b')], [outOfTime('a'), outOfTime('b'), outOfTime('c')]]);
    expect(sent).toEqual([]);
    expect(await held).toBe('released');
    await Promise.all(lookups);
  });

  it('keeps a wait for a slot cheap: no timer per waiter, and a thousand waiters leaving at once free the line', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, maxConcurrency: 1 });
    const holder = new AbortController();
    const held = upstream.request(() => pause(3_600_000, holder.signal), never).catch(() => 'released');
    await jest.advanceTimersByTimeAsync(0);
    const timersWithOneRunning = jest.getTimerCount();
    const leaving = new AbortController();
    setMaxListeners(3000, leaving.signal);
    const waiters = Array.from({ length: 1000 }, () =>
      upstream.request(() => Promise.resolve('sent'), leaving.signal).catch((error: unknown) => (error as UpstreamUnavailableError).reason),
    );
    await jest.advanceTimersByTimeAsync(0);
    expect(jest.getTimerCount()).toBe(timersWithOneRunning);

    leaving.abort();
    expect(new Set(await Promise.all(waiters))).toEqual(new Set(['no answer within the lookup deadline']));
    const next = upstream.request(() => Promise.resolve('next answered'), never);
    holder.abort();
    expect(await held).toBe('released');
    expect(await next).toBe('next answered');
  });
});

describe('ResilientUpstream circuit breakers', () => {
  let changes: Array<[CircuitName, CircuitStateName]>;
  let observer: UpstreamObserver;
  beforeEach(() => {
    changes = [];
    observer = { attemptFinished: () => undefined, circuitChanged: (circuit, state) => changes.push([circuit, state]) };
  });

  it('reports every circuit as closed when created', () => {
    const upstream = new ResilientUpstream('geocoder', OPTIONS, observer);
    expect(changes).toEqual([
      ['geocoder', 'closed'],
      ['geocoder_point', 'closed'],
    ]);
    expect(upstream.circuitStates).toEqual([
      ['geocoder', 'closed'],
      ['geocoder_point', 'closed'],
    ]);
  });

  it('never opens on failures that are not outages, however many', async () => {
    const upstream = new ResilientUpstream('flood_data', OPTIONS, observer);
    for (let i = 0; i < 20; i += 1) {
      expect(await lookup(upstream, fail(false))).toBe('ArcGIS error 400: Failed to execute query.');
    }
    expect(upstream.circuitStates).toEqual([['flood_data', 'closed']]);
    expect(await lookup(upstream, () => Promise.resolve('answer'))).toBe('ok');
  });

  it('does not open on outages below the minimum number of calls in the window', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, breakerMinCalls: 7 }, observer);
    for (let i = 0; i < 6; i += 1) expect(await lookup(upstream, fail(true))).toBe('outage');
    expect(upstream.circuitStates).toEqual([['flood_data', 'closed']]);
    expect(await lookup(upstream, () => Promise.resolve('answer'))).toBe('ok');
  });

  it('does not open while the outage rate stays below CIRCUIT_BREAKER_FAILURE_RATE', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, breakerFailureRate: 50 }, observer);
    // judged at each failure: 1 of 4, 2 of 5, 3 of 7 calls (at most 43%)
    for (const outcome of [false, false, false, true, true, false, true]) {
      await lookup(upstream, outcome ? fail(true) : () => Promise.resolve('answer'));
    }
    expect(upstream.circuitStates).toEqual([['flood_data', 'closed']]);
  });

  it('opens at the failure rate once the window holds the minimum calls, then fails fast without calling', async () => {
    const upstream = new ResilientUpstream('flood_data', OPTIONS, observer);
    await lookup(upstream, () => Promise.resolve('answer'));
    await lookup(upstream, () => Promise.resolve('answer'));
    await lookup(upstream, fail(true));
    expect(upstream.circuitStates).toEqual([['flood_data', 'closed']]);
    // the 4th call of the window, and 2 of 4 (50%) failed as outages
    await lookup(upstream, fail(true));
    expect(upstream.circuitStates).toEqual([['flood_data', 'open']]);
    expect(changes.at(-1)).toEqual(['flood_data', 'open']);

    let called = false;
    const fast = await lookup(upstream, () => Promise.resolve((called = true)));
    expect(fast).toBe('circuit open after an outage; not called');
    expect(called).toBe(false);
  });

  it('probes after CIRCUIT_BREAKER_HALF_OPEN_MS: closes on success, re-opens on an outage', async () => {
    const upstream = new ResilientUpstream('coastal_barrier', { ...OPTIONS, breakerMinCalls: 2 }, observer);
    await lookup(upstream, fail(true));
    await lookup(upstream, fail(true));
    expect(upstream.circuitStates).toEqual([['coastal_barrier', 'open']]);

    await sleep(OPTIONS.halfOpenAfterMs + 20);
    expect(await lookup(upstream, fail(true))).toBe('outage');
    expect(upstream.circuitStates).toEqual([['coastal_barrier', 'open']]);

    await sleep(OPTIONS.halfOpenAfterMs + 20);
    expect(await lookup(upstream, () => Promise.resolve('answer'))).toBe('ok');
    expect(upstream.circuitStates).toEqual([['coastal_barrier', 'closed']]);
    expect(changes.map(([, state]) => state)).toEqual(['closed', 'open', 'half_open', 'open', 'half_open', 'closed']);
  });

  it('keeps circuits of one upstream apart: an open point circuit does not stop address geocoding', async () => {
    const upstream = new ResilientUpstream('geocoder', { ...OPTIONS, breakerMinCalls: 2 }, observer);
    await lookup(upstream, fail(true), 'geocoder_point');
    await lookup(upstream, fail(true), 'geocoder_point');
    expect(upstream.circuitStates).toEqual([
      ['geocoder', 'closed'],
      ['geocoder_point', 'open'],
    ]);
    expect(await lookup(upstream, () => Promise.resolve('answer'))).toBe('ok');
    expect(await lookup(upstream, () => Promise.resolve('answer'), 'geocoder_point')).toBe('circuit open after an outage; not called');
  });

  it('rejects a circuit the upstream was not created with', async () => {
    const upstream = new ResilientUpstream('flood_data', OPTIONS);
    await expect(upstream.operation(() => Promise.resolve('answer'), 'geocoder_point')).rejects.toThrow('flood_data has no circuit named geocoder_point');
  });
});

describe('ResilientUpstream failure kinds', () => {
  it('retries outages and counts a timed-out attempt as one', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, retries: 1, timeoutMs: 20 });
    let attempts = 0;
    const slow = (signal: AbortSignal) => {
      attempts += 1;
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    };
    await expect(upstream.request(slow, never)).rejects.toBeInstanceOf(UpstreamOutageError);
    expect(attempts).toBe(2);
  });

  it('does not retry a failure that is not an outage, and does not call it one', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, retries: 3 });
    let attempts = 0;
    const error = await upstream
      .request(() => {
        attempts += 1;
        return fail(false)();
      }, never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).not.toBeInstanceOf(UpstreamOutageError);
    expect(attempts).toBe(1);
  });

  it('calls the lookup deadline an outage only when an attempt had already failed as one', async () => {
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, retries: 5, timeoutMs: 1000 });
    const hang = (signal: AbortSignal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));

    const spentElsewhere = AbortSignal.timeout(30);
    const cut = await upstream.request(hang, spentElsewhere).catch((e: unknown) => e);
    expect(cut).toEqual(new UpstreamUnavailableError('flood_data', 'no answer within the lookup deadline'));
    expect(cut).not.toBeInstanceOf(UpstreamOutageError);

    let attempts = 0;
    const afterOutage = await upstream.request((signal) => (++attempts === 1 ? fail(true)() : hang(signal)), AbortSignal.timeout(300)).catch((e: unknown) => e);
    expect(afterOutage).toBeInstanceOf(UpstreamOutageError);
    expect(attempts).toBe(2);
  });
});

describe('an attempt its lookup abandoned', () => {
  /** What the observer is told of a hanging attempt once its lookup's signal aborts for `reason`. */
  async function outcomeWhenAborted(reason: Error): Promise<string[]> {
    const outcomes: string[] = [];
    const observer: UpstreamObserver = { attemptFinished: (_upstream, outcome) => outcomes.push(outcome), circuitChanged: () => undefined };
    const upstream = new ResilientUpstream('flood_data', { ...OPTIONS, timeoutMs: 60_000 }, observer);
    const lookup = new AbortController();
    const hanging = upstream.request((signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))), lookup.signal);
    await ownLoopTurn();
    lookup.abort(reason);
    await expect(hanging).rejects.toThrow();
    await ownLoopTurn();
    return outcomes;
  }

  it('stopped because another query of the lookup failed: abandoned, not a timeout of this upstream', async () => {
    expect(await outcomeWhenAborted(new QueriesAbandoned())).toEqual(['abandoned']);
  });

  it('stopped because the lookup ran out of time: a timeout', async () => {
    expect(await outcomeWhenAborted(new Error('out of time'))).toEqual(['timeout']);
  });
});
