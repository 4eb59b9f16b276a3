/**
 * Watches across replicas: three built service processes (dist/main.js, as operators run it) sharing one Redis in
 * front of the emulators. FEMA withdraws a preliminary map; during the sweep that finds it, with a delivery to the
 * webhook under way (the receiver holds its answer), one process is SIGKILLed and another SIGTERMed: the third
 * finishes the sweep and the deliveries, and every location the withdrawal changed gets exactly one event, none of
 * the others any, each delivered to the webhook (at least once, always with the same id).
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { DEMO_PLACES, startEmulators, type RunningEmulators } from '../../emulators';
import { BuiltService } from '../../support/built-service';
import { DisposableRedis, redisCli } from '../../support/redis-server';
import { sleep } from '../../support/stack';
import { WATCH_SWEEP_QUEUE } from '../../../src/watches/watch-queues';

const WATCHES = '/flood-zone/watches';
/** Locations of the watch: each demo place's point, moved east a tenth of a metre at a time, so that they fill two chunks. */
const LOCATIONS = 1200;

type Point = { lat: number; lon: number };
const POINTS: Point[] = Array.from({ length: LOCATIONS }, (_, i) => {
  const place = DEMO_PLACES[i % DEMO_PLACES.length];
  return { lat: place.lat, lon: Number((place.lon + Math.floor(i / DEMO_PLACES.length) * 0.000001).toFixed(6)) };
});

let emulators: RunningEmulators;
let redis: DisposableRedis;
let receiver: Server;
const services: BuiltService[] = [];
/** The webhook-id of every delivery received, in order (a repeat is allowed: at least once). */
const deliveries: string[] = [];
/** The first delivery's answer waits for this: the replicas are stopped while it is under way. */
let releaseFirstDelivery!: () => void;
const firstDeliveryReleased = new Promise<void>((resolve) => (releaseFirstDelivery = resolve));

async function json(url: string, init?: RequestInit): Promise<any> {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json() };
}

async function startService(): Promise<BuiltService> {
  const service = await BuiltService.start({
    ...emulators.env,
    JOBS_REDIS_URL: redis.url,
    JOB_UPSTREAM_RATE_PER_SECOND: '1000',
    SHUTDOWN_GRACE_MS: '8000',
    WATCH_WEBHOOK_ALLOW_PRIVATE: 'true',
    WATCH_WEBHOOK_ALLOW_HTTP: 'true',
    LOG_LEVEL: 'warn',
  });
  services.push(service);
  return service;
}

/** Polls `service` (any that still runs) until `until` holds of the watch's status. */
async function waitFor(service: BuiltService, id: string, until: (watch: any) => boolean, timeoutMs = 240_000): Promise<any> {
  const giveUpAt = Date.now() + timeoutMs;
  while (Date.now() < giveUpAt) {
    const response = await fetch(`${service.url}${WATCHES}/${id}`).catch(() => undefined);
    if (response?.ok) {
      const watch = await response.json();
      if (until(watch)) return watch;
    }
    await sleep(200);
  }
  throw new Error(`watch ${id}: condition not met in time`);
}

/** Every event of the watch, paged by cursor. */
async function allEvents(service: BuiltService, id: string): Promise<any[]> {
  const events: any[] = [];
  let after: string | null = null;
  for (;;) {
    const query: string = after === null ? '?limit=1000' : `?limit=1000&after=${after}`;
    const { body } = await json(`${service.url}${WATCHES}/${id}/events${query}`);
    events.push(...body.events);
    if (body.events.length < 1000) return events;
    after = body.next;
  }
}

beforeAll(async () => {
  emulators = await startEmulators({ latencyMs: 10 });
  redis = await DisposableRedis.start();
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries.push(String(req.headers['webhook-id']));
      if (deliveries.length === 1) void firstDeliveryReleased.then(() => res.writeHead(200).end());
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await Promise.all(services.splice(0).map((service) => service.stop()));
  await redis?.stop();
  await emulators?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

it('three processes, one SIGKILLed and one SIGTERMed during the sweep and a delivery: every changed location gets exactly one event, delivered', async () => {
  const [staying, killed, stopped] = [await startService(), await startService(), await startService()];
  const locations = POINTS.map((point, n) => ({ id: `loan-${n}`, ...point }));
  const webhook = { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events` };
  const created = await json(`${staying.url}${WATCHES}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ locations, webhook }),
  });
  expect(created.status).toBe(201);
  const { id } = created.body;
  await waitFor(staying, id, (watch) => watch.status === 'watching');

  // What each distinct place's coming map is before and after FEMA withdraws the Charleston study.
  // The caches are on, as in production: each probe asks at a point of its own (a tenth of a metre west per probe).
  const comingMaps = async (probe: number) =>
    Promise.all(
      DEMO_PLACES.map(async (place) => {
        const lon = Number((place.lon - probe * 0.000001).toFixed(6));
        return (await json(`${staying.url}/flood-zone?lat=${place.lat}&lon=${lon}&include=preliminary`)).body.result?.mapChange ?? null;
      }),
    );
  const before = await comingMaps(1);
  const withdrawn = await fetch(`${new URL(emulators.preliminary.baseUrl).origin}/_emulator/publish`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ change: 'coming_map_withdrawn', dfirmId: '45019C' }),
  });
  expect(withdrawn.status).toBe(201);
  const after = await comingMaps(2);
  const changedPlaces = new Set(DEMO_PLACES.flatMap((_, p) => (JSON.stringify(before[p]) !== JSON.stringify(after[p]) ? [p] : [])));
  expect(changedPlaces.size).toBeGreaterThan(0);
  const changedLocations = locations.filter((_, n) => changedPlaces.has(n % DEMO_PLACES.length)).map((location) => location.id);

  const sweeps = new Queue(WATCH_SWEEP_QUEUE, { connection: { url: redis.url } });
  try {
    await sweeps.add('sweep', { full: true });
  } finally {
    await sweeps.close();
  }
  // Some chunks re-checked: the sweep is under way.
  while (Number(redisCli(redis.port, 'scard', 'flood-zone:watches:sweep:done')) < 1) await sleep(50);
  // And a delivery under way: the first one sent, its answer held.
  while (deliveries.length < 1) await sleep(50);
  killed.process.kill('SIGKILL');
  stopped.process.kill('SIGTERM');
  releaseFirstDelivery();
  expect(await stopped.exited).toEqual({ code: 0, signal: null });

  const swept = await waitFor(staying, id, (watch) => watch.lastSweepAt !== null && watch.deliveries.pending === 0 && watch.events > 0);
  const events = await allEvents(staying, id);
  expect(events.map((event) => event.locationId).sort()).toEqual([...changedLocations].sort());
  expect(new Set(events.map((event) => event.kind))).toEqual(new Set(['map_change_withdrawn']));
  expect(swept.events).toBe(changedLocations.length);
  expect(swept.deliveries).toEqual(expect.objectContaining({ delivered: changedLocations.length, abandoned: 0, pending: 0 }));
  expect([...new Set(deliveries)].sort()).toEqual(events.map((event) => event.id).sort());
  // A hang guard for a loaded machine: two passes over 1,200 locations by the workers of three processes, then one.
}, 480_000);
