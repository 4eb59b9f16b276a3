/**
 * No lookup outlives its deadline, and one client's cancellation never reaches another: a batch client that
 * hangs up mid-stream leaves nothing behind that GETs or later batches of its points trip over (no hang, no
 * 502 while the upstream is healthy), and bursts of lookups against a slow FEMA each end by LOOKUP_DEADLINE_MS,
 * after which the service answers as soon as FEMA is healthy again.
 */
import { demoPlace } from '../../emulators';
import type { ApiResponse } from '../../support/api-client';
import { NO_CACHE, Stack, expectErrorEnvelope, sleep, startStack } from '../../support/stack';

const BATCH = '/flood-zone/batch';
/** Generous: this checks that every lookup ends by its deadline, not the machine's speed. */
const MARGIN_MS = 2500;
/** Several slow rounds of many lookups each: more than Jest's default on a busy machine. */
const SLOW_TEST_MS = 120_000;

const dc = demoPlace('dc-white-house-ae');
/** `count` distinct points (each its own cache key) within a few metres of the White House, all in its AE zone. */
const pointsFrom = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ lat: Number((dc.lat + (first + i) * 1e-6).toFixed(6)), lon: dc.lon }));
const pointQuery = (p: { lat: number; lon: number }) => `/flood-zone?lat=${p.lat}&lon=${p.lon}`;

/** An answer, or `answered: false` when none came within the time allowed (a lookup that never ends is the bug). */
type Answer = (ApiResponse & { answered: true }) | { answered: false; status: 0; body: undefined };

/** A GET cut at `withinMs`: resolves with answered false instead of waiting for a lookup that hangs. */
async function timedGet(stack: Stack, pathAndQuery: string, withinMs: number): Promise<Answer> {
  try {
    const res = await fetch(`${stack.url}${pathAndQuery}`, { signal: AbortSignal.timeout(withinMs) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: JSON.parse(text), text, answered: true };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') return { answered: false, status: 0, body: undefined };
    throw error;
  }
}

/** One NDJSON line of a batch answer. */
type BatchRow = Pick<ApiResponse, 'status' | 'body'> & { index: number };

const sendBatch = (stack: Stack, locations: unknown[], signal?: AbortSignal) =>
  fetch(`${stack.url}${BATCH}`, { method: 'POST', body: JSON.stringify({ locations }), headers: { 'content-type': 'application/json' }, signal });

/** A batch's rows (NDJSON), or undefined when it did not finish within `withinMs`. */
async function batchRowsWithin(stack: Stack, locations: unknown[], withinMs: number): Promise<Array<BatchRow> | undefined> {
  try {
    const res = await sendBatch(stack, locations, AbortSignal.timeout(withinMs));
    expect(res.status).toBe(200);
    return (await res.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') return undefined;
    throw error;
  }
}

/** What every healthy answer here says: the White House's AE zone, nothing missing. */
function expectWhiteHouseAnswer(answer: Pick<ApiResponse, 'status' | 'body'>): void {
  expect({ status: answer.status, floodZone: answer.body?.result?.floodZone, unavailable: answer.body?.result?.unavailable }).toEqual({
    status: 200,
    floodZone: dc.expect.floodZone,
    unavailable: [],
  });
}

describe('a batch client that hangs up mid-stream while FEMA is slow', () => {
  const DEADLINE_MS = 6000;
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      ...NO_CACHE,
      // Few slots, so the batch's calls queue in its lane (2 slots) when the client goes.
      UPSTREAM_MAX_CONCURRENCY: '4',
      UPSTREAM_TIMEOUT_MS: '4000',
      LOOKUP_DEADLINE_MS: String(DEADLINE_MS),
      UPSTREAM_RETRIES: '1',
      CIRCUIT_BREAKER_MIN_CALLS: '100000',
    });
  });
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(() => {
    stack.emulators.nfhl.setLatency(0);
    stack.emulators.clearFaults();
  });

  /** Starts a batch of `points`, waits until its first lookups are under way, and returns the way to hang up. */
  async function batchUnderWay(points: Array<{ lat: number; lon: number }>): Promise<() => void> {
    const client = new AbortController();
    const res = await sendBatch(stack, points, client.signal);
    expect(res.status).toBe(200);
    const before = stack.emulators.nfhl.callCount({ endpoint: 'query' });
    for (let waited = 0; stack.emulators.nfhl.callCount({ endpoint: 'query' }) === before && waited < 5000; waited += 50) await sleep(50);
    await sleep(200);
    return () => client.abort();
  }

  it(
    'answers the GETs that joined its lookups with their flood zone, not a 502, once FEMA is healthy',
    async () => {
      const points = pointsFrom(0, 12);
      stack.emulators.nfhl.setLatency(1500);
      const hangUp = await batchUnderWay(points);
      // The first rows' lookups are in flight; these GETs share them.
      const joined = points.slice(0, 4).map((point) => timedGet(stack, pointQuery(point), DEADLINE_MS + MARGIN_MS));
      await sleep(200);
      hangUp();
      stack.emulators.nfhl.setLatency(0);
      const answers = await Promise.all(joined);
      expect(answers.map(({ answered }) => answered)).toEqual([true, true, true, true]);
      for (const answer of answers) expectWhiteHouseAnswer(answer);
    },
    SLOW_TEST_MS,
  );

  it(
    'leaves nothing stuck: GETs and two concurrent batches of its points all answer 200 once FEMA is healthy (its batch slot is free)',
    async () => {
      const points = pointsFrom(100, 40);
      stack.emulators.nfhl.setLatency(1500);
      const hangUp = await batchUnderWay(points);
      hangUp();
      stack.emulators.nfhl.setLatency(0);
      await sleep(200);

      const answers = await Promise.all(points.map((point) => timedGet(stack, pointQuery(point), DEADLINE_MS + MARGIN_MS)));
      expect(answers.filter(({ answered }) => !answered)).toHaveLength(0);
      for (const answer of answers) expectWhiteHouseAnswer(answer);

      // The hung-up batch's slot is free again: BATCH_MAX_CONCURRENT (2) batches at once are both answered, none is 429.
      const batches = await Promise.all([0, 1].map(() => batchRowsWithin(stack, points, DEADLINE_MS + MARGIN_MS)));
      for (const rows of batches) {
        expect(rows?.map((row) => row.index)).toEqual(points.map((_, i) => i));
        for (const row of rows ?? []) expectWhiteHouseAnswer(row);
      }
    },
    SLOW_TEST_MS,
  );
});

describe('bursts of cold lookups while FEMA is slower than the lookup deadline', () => {
  const DEADLINE_MS = 3000;
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      ...NO_CACHE,
      UPSTREAM_MAX_CONCURRENCY: '4',
      UPSTREAM_TIMEOUT_MS: '1200',
      LOOKUP_DEADLINE_MS: String(DEADLINE_MS),
      UPSTREAM_RETRIES: '1',
      CIRCUIT_BREAKER_MIN_CALLS: '100000',
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it(
    'answers each of 80 concurrent GETs by the deadline (502 flood_data), twice, then 200 for all once FEMA is healthy',
    async () => {
      const points = pointsFrom(1000, 80);
      stack.emulators.nfhl.setLatency(DEADLINE_MS + 1000);
      try {
        for (const burst of [1, 2]) {
          const answers = await Promise.all(points.map((point) => timedGet(stack, pointQuery(point), DEADLINE_MS + MARGIN_MS)));
          expect({ burst, unanswered: answers.filter(({ answered }) => !answered).length }).toEqual({ burst, unanswered: 0 });
          for (const answer of answers) {
            if (!answer.answered) continue;
            expectErrorEnvelope(answer, 502, 'UPSTREAM_UNAVAILABLE');
            expect(answer.body.upstream).toBe('flood_data');
          }
        }
      } finally {
        stack.emulators.nfhl.setLatency(0);
      }

      // Calls FEMA already holds finish late; every lookup from now on gets its answer.
      for (let first = 0; first < points.length; first += 8) {
        const answers = await Promise.all(points.slice(first, first + 8).map((point) => timedGet(stack, pointQuery(point), DEADLINE_MS + MARGIN_MS)));
        expect(answers.filter(({ answered }) => !answered)).toHaveLength(0);
        for (const answer of answers) expectWhiteHouseAnswer(answer);
      }
    },
    SLOW_TEST_MS,
  );
});
