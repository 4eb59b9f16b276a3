/**
 * An expiring lookup does not spend FEMA's time: when FEMA stalls and lookups queue for its few slots, a queued
 * attempt is started only while its lookup has time enough left for it (a tenth of the shorter of UPSTREAM_TIMEOUT_MS
 * and LOOKUP_DEADLINE_MS), so the slots freed as the first deadlines pass are not handed to lookups about to end (or already past their end, their
 * deadline's timer not yet run on a busy process); and /health answers meanwhile.
 */
import { demoPlace } from '../../emulators';
import { NO_CACHE, Stack, expectErrorEnvelope, sleep, startStack } from '../../support/stack';

const LOOKUPS = 20;

/** Attempts the service has made at FEMA's NFHL so far, whatever became of them (its metrics' count). */
async function nfhlAttempts(stack: Stack): Promise<number> {
  const metrics = await (await fetch(`${stack.url}/metrics`)).text();
  const counts = metrics.split('\n').filter((line) => line.startsWith('upstream_request_duration_seconds_count{') && line.includes('upstream="flood_data"'));
  return counts.reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}
const dc = demoPlace('dc-white-house-ae');
/** Distinct points (each its own cache key) a few metres apart, all in the White House's AE zone. */
const POINTS = Array.from({ length: LOOKUPS }, (_, i) => ({ lat: Number((dc.lat + i * 1e-6).toFixed(6)), lon: dc.lon }));

describe('lookups queued behind a stalled FEMA, all ending together', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      ...NO_CACHE,
      // Two slots: every lookup but the first queues for them.
      UPSTREAM_MAX_CONCURRENCY: '2',
      // An attempt needs 2 s left to be started (a tenth of the deadline); FEMA never answers a query in time.
      UPSTREAM_TIMEOUT_MS: '30000',
      LOOKUP_DEADLINE_MS: '20000',
      UPSTREAM_RETRIES: '0',
      CIRCUIT_BREAKER_MIN_CALLS: '100000',
    });
  });
  afterAll(() => stack?.close());

  it('sends FEMA no call for a lookup with less time left than an attempt needs: only the two that held the slots', async () => {
    // Answer the service root (layer ids) at once so the first lookups reach their queries; stall every query.
    await stack.get(`/flood-zone?lat=${dc.lat}&lon=${dc.lon}`);
    stack.emulators.nfhl.resetCalls();
    const attemptsBefore = await nfhlAttempts(stack);
    stack.emulators.nfhl.injectFault({ kind: 'delay', ms: 600_000, match: 'query' });

    // One lookup every 50 ms, so each deadline passes while later lookups still wait with a little time left.
    const answers: Array<ReturnType<Stack['get']>> = [];
    for (const p of POINTS) {
      answers.push(stack.get(`/flood-zone?lat=${p.lat}&lon=${p.lon}`));
      await sleep(50);
    }
    expect(stack.emulators.nfhl.callCount({ endpoint: 'query' })).toBe(2);
    const health = await stack.get('/health');
    expect(health.status).toBe(200);

    for (const answer of await Promise.all(answers)) expectErrorEnvelope(answer, 502, 'UPSTREAM_UNAVAILABLE');
    // When the first deadline passed, every lookup still queued had begun under 2 s after it (1 s at the pace
    // above), so had under 2 s left: none was sent, not even as far as the service's own pool of connections.
    expect(stack.emulators.nfhl.callCount({ endpoint: 'query' })).toBe(2);
    expect((await nfhlAttempts(stack)) - attemptsBefore).toBe(2);
  });
});
