/**
 * A webhook receiver down for an hour of emulated time: the deliveries are retried on the schedule (30 s, then each
 * wait twice the last), never before their time, and once the receiver answers again every event arrives, in order
 * per location, nothing given up. One down for longer than 3 days has the event given up after exactly 3 days, and
 * the next one sent. The days pass in seconds: the test moves the deliverer's clock (DeliveryClock) to each retry's
 * time and lets BullMQ's delayed jobs through as the clock passes them (it promotes them), so no attempt waits for
 * real time and every attempt's time is exact.
 */
import { Queue } from 'bullmq';
import { demoPlace } from '../../emulators';
import { call } from '../../support/portfolio-jobs';
import { DisposableRedis } from '../../support/redis-server';
import { sleep, Stack, startStack } from '../../support/stack';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { allEvents, publish, sweepQueue, WATCHES, watchUntil } from '../../support/watches';
import { WATCH_DELIVERY_QUEUE } from '../../../src/watches/watch-queues';
import { DeliveryClock } from '../../../src/watches/webhook/delivery-clock';

const HOUR_MS = 3_600_000;
/** The retry schedule's waits within the first hour and a bit, in seconds: 30, then each twice the last. */
const WAITS_S = [30, 60, 120, 240, 480, 960, 1920];
/** Its waits over 3 days: doubling up to 6 hours, the last one shortened so that the last attempt falls 3 days after the first. */
const THREE_DAYS_OF_WAITS_S = [...WAITS_S, 3840, 7680, 15360, ...Array<number>(10).fill(21_600), 12_510];

const SACRAMENTO = demoPlace('sacramento-ar');
/** Four loans around the levee district, the first three inside the LOMRs' area, the last 45 m north of it. */
const LOANS = [-0.0001, 0, 0.0001, 0.0004].map((dLat, n) => ({ id: `LN-${n + 1}`, lat: Number((SACRAMENTO.lat + dLat).toFixed(6)), lon: SACRAMENTO.lon }));
const AREA = [SACRAMENTO.lon - 0.0003, SACRAMENTO.lat - 0.0002, SACRAMENTO.lon + 0.0003, SACRAMENTO.lat + 0.0002];
const CHANGED = ['LN-1', 'LN-2', 'LN-3'];

let redis: DisposableRedis;
let stack: Stack;
let receiver: WebhookReceiver;
let deliveries: Queue;
/** The deliverer's time: it stands still unless the test moves it. */
let emulatedNow = Date.now();
/** The receiver answers 503 until this emulated moment, then 204. */
let downUntil = Infinity;
/** The emulated time of each request the receiver got, as it got them. */
const attemptsAt: number[] = [];

beforeAll(async () => {
  redis = await DisposableRedis.start();
  receiver = await WebhookReceiver.start({
    answer: (_request, response) => {
      attemptsAt.push(emulatedNow);
      response.writeHead(emulatedNow < downUntil ? 503 : 204).end();
    },
  });
  stack = await startStack({
    JOBS_REDIS_URL: redis.url,
    JOB_UPSTREAM_RATE_PER_SECOND: '400',
    WATCH_WEBHOOK_ALLOW_PRIVATE: 'true',
    WATCH_WEBHOOK_ALLOW_HTTP: 'true',
  });
  jest.spyOn(stack.app.app.get(DeliveryClock), 'now').mockImplementation(() => new Date(emulatedNow));
  deliveries = new Queue(WATCH_DELIVERY_QUEUE, { connection: { url: redis.url } });
});
afterAll(async () => {
  await deliveries?.close();
  await stack?.close();
  await redis?.stop();
  await receiver?.close();
});

const post = (path: string, body: unknown) =>
  call(stack.url, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Moves the deliverer's clock to `at`, lets the delayed deliveries through, and waits until the deliverer has done what it would. */
async function passTimeTo(at: number): Promise<void> {
  emulatedNow = at;
  await deliveries.promoteJobs();
  for (;;) {
    const counts = await deliveries.getJobCounts('waiting', 'active', 'prioritized');
    if (counts.waiting + counts.active + counts.prioritized === 0) return;
    await sleep(20);
  }
}

/** Passes the emulated time from retry to retry, each first a second before its time (when nothing may be sent), until `done` holds of the watch. */
async function passRetries(id: string, done: (status: any) => boolean): Promise<any> {
  for (;;) {
    const { body: status } = await call(stack.url, `${WATCHES}/${id}`);
    if (done(status)) return status;
    const retryAt = Date.parse(status.webhook.nextRetryAt);
    const asked = attemptsAt.length;
    await passTimeTo(retryAt - 1000);
    expect(attemptsAt).toHaveLength(asked);
    await passTimeTo(retryAt);
    expect(attemptsAt.length).toBeGreaterThan(asked);
  }
}

/** The waits between attempts, in seconds. */
const waitsBetween = (attempts: number[]) => attempts.slice(1).map((at, n) => (at - attempts[n]) / 1000);

/** A sweep that finds what FEMA published, waited for until the watch says it was swept after `since`. */
async function sweep(id: string, since: string | null): Promise<any> {
  const sweeps = sweepQueue(redis.url);
  try {
    await sweeps.add('sweep', {});
  } finally {
    await sweeps.close();
  }
  return watchUntil(stack.url, id, (status) => status.lastSweepAt !== since, 'its sweep done');
}

it('retries a receiver down for an hour on the schedule, never early, then delivers every event in order per location, none given up', async () => {
  const created = await post(WATCHES, { name: 'Outage', locations: LOANS, webhook: { url: receiver.url('/flood-events') } });
  expect(created.status).toBe(201);
  const { id } = created.body;
  await watchUntil(stack.url, id, (status) => status.status === 'watching');

  // The receiver goes down; FEMA takes the area out of the SFHA, then, while the receiver is still down, back in.
  const downFrom = emulatedNow;
  downUntil = downFrom + HOUR_MS;
  const effective = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await publish(stack.emulators.nfhl.baseUrl, {
    change: 'lomr',
    caseNo: '26-09-0801P',
    effective,
    area: AREA,
    zone: { FLD_ZONE: 'X', ZONE_SUBTY: 'AREA OF MINIMAL FLOOD HAZARD', SFHA_TF: 'F' },
  });
  const first = await sweep(id, null);
  await watchUntil(stack.url, id, (status) => status.deliveries.failedAttempts === 1, 'its first attempt failed');
  await publish(stack.emulators.nfhl.baseUrl, {
    change: 'lomr',
    caseNo: '26-09-0802P',
    effective,
    area: AREA,
    zone: { FLD_ZONE: 'AE', SFHA_TF: 'T', STATIC_BFE: 21, V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' },
  });
  await sweep(id, first.lastSweepAt);
  const events = await allEvents(stack.url, id);
  expect(events.map((event) => [event.locationId, event.kind])).toEqual([
    ...CHANGED.map((loan) => [loan, 'left_sfha']),
    ...CHANGED.map((loan) => [loan, 'entered_sfha']),
  ]);
  // New events do not hurry the retry: the receiver was asked once, when the first event was written.
  expect(attemptsAt).toEqual([downFrom]);

  const delivered = await passRetries(id, (status) => status.deliveries.pending === 0);
  // The attempts of the first event, by emulated time: the schedule's waits, the last one past the hour.
  const firstEventAttempts = attemptsAt.slice(0, WAITS_S.length + 1);
  expect(waitsBetween(firstEventAttempts)).toEqual(WAITS_S);
  expect(firstEventAttempts.at(-1)! - downFrom).toBeGreaterThanOrEqual(HOUR_MS);
  expect(delivered.deliveries).toEqual({ delivered: events.length, failedAttempts: WAITS_S.length, abandoned: 0, pending: 0 });
  expect(delivered.webhook).toEqual(
    expect.objectContaining({ failures: 0, nextRetryAt: null, lastError: null, lastSuccessAt: new Date(firstEventAttempts.at(-1)!).toISOString() }),
  );

  // Every event once the receiver was back, in the feed's order (so in order per location); only the first was repeated.
  const received = receiver.received.map((request) => String(request.headers['webhook-id']));
  expect(received).toEqual([...Array<string>(WAITS_S.length).fill(events[0].id), ...events.map((event) => event.id)]);
  for (const loan of CHANGED) {
    const ofLoan = events.filter((event) => event.locationId === loan).map((event) => event.id);
    expect([...new Set(received)].filter((eventId) => ofLoan.includes(eventId))).toEqual(ofLoan);
  }
  // Each attempt was signed at its emulated time.
  expect(receiver.received.map((request) => Number(request.headers['webhook-timestamp']))).toEqual(attemptsAt.map((at) => Math.floor(at / 1000)));
});

it('gives an event up exactly 3 days after its first attempt, counts it, and sends the next one, delivered once the receiver is back', async () => {
  const a99 = demoPlace('sacramento-a99');
  const loans = [-0.0001, 0.0001].map((dLat, n) => ({ id: `LN-${n + 1}`, lat: Number((a99.lat + dLat).toFixed(6)), lon: a99.lon }));
  const created = await post(WATCHES, { name: 'Long outage', locations: loans, webhook: { url: receiver.url('/flood-events') } });
  const { id } = created.body;
  await watchUntil(stack.url, id, (status) => status.status === 'watching');
  downUntil = Infinity;
  const from = attemptsAt.length;
  const before = receiver.received.length;
  await publish(stack.emulators.nfhl.baseUrl, {
    change: 'lomr',
    caseNo: '26-09-0803P',
    effective: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
    area: [a99.lon - 0.0003, a99.lat - 0.0002, a99.lon + 0.0003, a99.lat + 0.0002],
    zone: { FLD_ZONE: 'X', ZONE_SUBTY: 'AREA OF MINIMAL FLOOD HAZARD', SFHA_TF: 'F' },
  });
  await sweep(id, null);
  const events = await allEvents(stack.url, id);
  expect(events.map((event) => event.kind)).toEqual(['left_sfha', 'left_sfha']);
  await watchUntil(stack.url, id, (status) => status.deliveries.failedAttempts === 1, 'its first attempt failed');

  const gaveUp = await passRetries(id, (status) => status.deliveries.abandoned === 1);
  const firstEventAttempts = attemptsAt.slice(from, from + THREE_DAYS_OF_WAITS_S.length + 1);
  expect(waitsBetween(firstEventAttempts)).toEqual(THREE_DAYS_OF_WAITS_S);
  expect(firstEventAttempts.at(-1)! - firstEventAttempts[0]).toBe(3 * 24 * HOUR_MS);
  // The next event was sent at once, and failed: its own schedule begins.
  expect(attemptsAt.slice(from + firstEventAttempts.length)).toEqual([firstEventAttempts.at(-1)]);
  expect(gaveUp.deliveries).toEqual({ delivered: 0, failedAttempts: firstEventAttempts.length + 1, abandoned: 1, pending: 1 });
  expect(gaveUp.webhook).toEqual(expect.objectContaining({ failures: 1, lastError: 'the receiver answered 503' }));

  downUntil = emulatedNow;
  const done = await passRetries(id, (status) => status.deliveries.pending === 0);
  expect(done.deliveries).toEqual({ delivered: 1, failedAttempts: firstEventAttempts.length + 1, abandoned: 1, pending: 0 });
  expect(receiver.received.slice(before).map((request) => String(request.headers['webhook-id']))).toEqual([
    ...Array<string>(firstEventAttempts.length).fill(events[0].id),
    events[1].id,
    events[1].id,
  ]);
});
