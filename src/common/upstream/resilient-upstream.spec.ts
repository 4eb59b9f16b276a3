import { UpstreamUnavailableError } from '../api-error';
import {
  CircuitName,
  CircuitStateName,
  ResilientUpstream,
  UpstreamFailure,
  UpstreamObserver,
  UpstreamOutageError,
  UpstreamPolicyOptions,
  asBatchWork,
} from './resilient-upstream';

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

describe('ResilientUpstream circuit breakers', () => {
  let changes: Array<[CircuitName, CircuitStateName]>;
  let observer: UpstreamObserver;
  beforeEach(() => {
    changes = [];
    observer = { attemptFinished: () => undefined, circuitChanged: (circuit, state) => changes.push([circuit, state]) };
  });

  it('reports every circuit as closed when created', () => {
    const upstream = new ResilientUpstream('geocoder', OPTIONS, observer, ['geocoder_point']);
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
    const upstream = new ResilientUpstream('geocoder', { ...OPTIONS, breakerMinCalls: 2 }, observer, ['geocoder_point']);
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
