/**
 * Watches across a restart of the jobs Redis (appendonly, as the compose file runs it), twice: in the middle of a
 * sweep, once some of its chunks are re-checked and while the others wait on FEMA; then while the webhook's
 * deliveries wait on the receiver, which holds its answers until Redis is back. Nothing is lost: every location FEMA
 * changed has exactly one event, the receiver gets every event (a repeat only with the same id), and nothing is left
 * pending or given up.
 */
import { demoPlace } from '../../emulators';
import { call } from '../../support/portfolio-jobs';
import { PersistentRedis, redisCli } from '../../support/redis-server';
import { sleep, Stack, startStack } from '../../support/stack';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { allEvents, publish, sweepQueue, WATCHES, watchUntil } from '../../support/watches';

type Point = { lat: number; lon: number };
type Envelope = [number, number, number, number];

/** Points STEP_DEG apart around a place, five north-south by four east-west: all in the place's zone square. */
const STEP_DEG = 0.00015;
const around = (name: string, centre: Point) =>
  Array.from({ length: 20 }, (_, n) => ({
    id: `${name}-${n}`,
    lat: Number((centre.lat + ((n % 5) - 2) * STEP_DEG).toFixed(6)),
    lon: Number((centre.lon + (Math.floor(n / 5) - 1.5) * STEP_DEG).toFixed(6)),
  }));
/** The area of the LOMRs: the middle three rows of the points, every column; the two outer rows stay as they were. */
const lomrArea = (centre: Point): Envelope => [centre.lon - 0.0003, centre.lat - 0.00022, centre.lon + 0.0003, centre.lat + 0.00022];
const inside =
  ([west, south, east, north]: Envelope) =>
  (point: Point) =>
    point.lon > west && point.lon < east && point.lat > south && point.lat < north;

const SACRAMENTO = demoPlace('sacramento-ar');
const DC = demoPlace('dc-white-house-ae');
const SACRAMENTO_POINTS = around('sac', SACRAMENTO);
const DC_POINTS = around('dc', DC);
/** Four chunks (a creation and each addition are chunks of their own): two in Sacramento, then two in Washington. */
const CHUNKS = [SACRAMENTO_POINTS.slice(0, 10), SACRAMENTO_POINTS.slice(10), DC_POINTS.slice(0, 10), DC_POINTS.slice(10)];
const CHANGED = [...SACRAMENTO_POINTS.filter(inside(lomrArea(SACRAMENTO))), ...DC_POINTS.filter(inside(lomrArea(DC)))].map((point) => point.id).sort();

let redis: PersistentRedis;
let stack: Stack;
let receiver: WebhookReceiver;
/** While set, the receiver keeps each request unanswered until the test lets it answer. */
let holding = false;
const held: Array<() => void> = [];

beforeAll(async () => {
  redis = await PersistentRedis.start();
  receiver = await WebhookReceiver.start({
    answer: (_request, response) => {
      const answer = () => response.writeHead(204).end();
      if (holding) held.push(answer);
      else answer();
    },
  });
  stack = await startStack({
    JOBS_REDIS_URL: redis.url,
    JOB_UPSTREAM_RATE_PER_SECOND: '400',
    WATCH_WEBHOOK_ALLOW_PRIVATE: 'true',
    WATCH_WEBHOOK_ALLOW_HTTP: 'true',
  });
});
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
  await receiver?.close();
});

const post = (path: string, body: unknown) =>
  call(stack.url, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A LOMR over each place's area, effective yesterday, mapping it `zone`. */
async function publishLomrs(cases: [string, string], zone: Record<string, string | number>): Promise<void> {
  const effective = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await publish(stack.emulators.nfhl.baseUrl, { change: 'lomr', caseNo: cases[0], effective, area: lomrArea(SACRAMENTO), zone });
  await publish(stack.emulators.nfhl.baseUrl, { change: 'lomr', caseNo: cases[1], effective, area: lomrArea(DC), zone });
}

/** Every event was received, by its id, and whatever came twice came with that id and that body. */
function expectEveryEventReceived(events: any[]): void {
  const byId = new Map(events.map((event) => [event.id, JSON.stringify(event)]));
  const received = receiver.received.map((request) => ({ id: String(request.headers['webhook-id']), body: request.body }));
  expect([...new Set(received.map(({ id }) => id))].sort()).toEqual([...byId.keys()].sort());
  for (const { id, body } of received) expect(body).toBe(byId.get(id));
}

it('loses nothing when Redis restarts mid-sweep and again while deliveries wait on the receiver: one event per changed location, each delivered', async () => {
  const [first, ...added] = CHUNKS;
  const created = await post(WATCHES, { name: 'Across restarts', locations: first, webhook: { url: receiver.url('/flood-events') } });
  expect(created.status).toBe(201);
  const { id } = created.body;
  for (const locations of added) expect((await post(`${WATCHES}/${id}/locations`, { locations })).status).toBe(202);
  await watchUntil(stack.url, id, (status) => status.status === 'watching' && status.locations.answered === 40);
  const sweeps = sweepQueue(redis.url);
  try {
    // 1. FEMA takes both areas out of the SFHA. Washington's answers are slow: its chunks still wait on FEMA when
    // Sacramento's are written, and Redis restarts then.
    await publishLomrs(['26-09-0611P', '26-03-0612P'], { FLD_ZONE: 'X', ZONE_SUBTY: 'AREA OF MINIMAL FLOOD HAZARD', SFHA_TF: 'F' });
    const slowDc = stack.emulators.nfhl.injectFault({ kind: 'delay', ms: 2500, match: { near: [DC.lon, DC.lat], withinM: 5000 } });
    await sweeps.add('sweep', {});
    let swept = 0;
    while (swept < 1) {
      await sleep(20);
      swept = Number(redisCli(redis.port, 'scard', 'flood-zone:watches:sweep:done'));
    }
    expect(swept).toBeLessThan(CHUNKS.length);
    await redis.restart(1000);
    // The restart came mid-sweep: the sweep is still under way, with the chunks done before it.
    expect(redisCli(redis.port, 'exists', 'flood-zone:watches:sweep')).toBe('1');
    expect(Number(redisCli(redis.port, 'scard', 'flood-zone:watches:sweep:done'))).toBeGreaterThanOrEqual(swept);
    stack.emulators.nfhl.removeFault(slowDc);

    const afterSweep = await watchUntil(
      stack.url,
      id,
      (status) => status.lastSweepAt !== null && status.events >= CHANGED.length && status.deliveries.pending === 0,
      'its sweep done and delivered',
    );
    const left = await allEvents(stack.url, id);
    expect(left.map((event) => event.locationId).sort()).toEqual(CHANGED);
    expect(new Set(left.map((event) => event.kind))).toEqual(new Set(['left_sfha']));
    expect(afterSweep.deliveries).toEqual({ delivered: CHANGED.length, failedAttempts: 0, abandoned: 0, pending: 0 });
    expectEveryEventReceived(left);

    // 2. FEMA maps both areas back into the SFHA; Redis restarts while the receiver holds the first delivery.
    holding = true;
    await publishLomrs(['26-09-0713P', '26-03-0714P'], { FLD_ZONE: 'AE', SFHA_TF: 'T', STATIC_BFE: 21, V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' });
    await sweeps.add('sweep', {});
    while (held.length === 0) await sleep(20);
    await redis.restart(1000);
    holding = false;
    held.splice(0).forEach((answer) => answer());

    const afterDeliveries = await watchUntil(
      stack.url,
      id,
      (status) => status.lastSweepAt !== afterSweep.lastSweepAt && status.events >= 2 * CHANGED.length && status.deliveries.pending === 0,
      'its second sweep done and delivered',
    );
    const events = await allEvents(stack.url, id);
    const entered = events.slice(left.length);
    expect(events.slice(0, left.length)).toEqual(left);
    expect(entered.map((event) => event.locationId).sort()).toEqual(CHANGED);
    expect(new Set(entered.map((event) => event.kind))).toEqual(new Set(['entered_sfha']));
    expect(afterDeliveries.deliveries).toEqual({ delivered: events.length, failedAttempts: 0, abandoned: 0, pending: 0 });
    expectEveryEventReceived(events);
  } finally {
    await sweeps.close();
  }
});
