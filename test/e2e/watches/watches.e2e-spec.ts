/**
 * Watches (/flood-zone/watches) on the real app, against the emulators and a Redis of the test's own: a watch is
 * baselined then watching; FEMA publishes a change (the emulated preliminary map withdrawn at one place); a sweep then
 * writes exactly one event, for the one location it touched, once however often the sweep runs; the feed pages it by
 * cursor; the webhook receives it signed, verified with the Standard Webhooks reference library. Sweeps are asked for
 * through the sweep queue, as the schedule asks for them.
 */
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { demoPlace } from '../../emulators';
import { call } from '../../support/portfolio-jobs';
import { DisposableRedis, redisCli } from '../../support/redis-server';
import { Stack, startStack } from '../../support/stack';
import { publish, sweepQueue, WATCHES, watchUntil as watchOf } from '../../support/watches';

let redis: DisposableRedis;
let stack: Stack;
let receiver: Server;
let receiverUrl: string;
let sweeps: Queue;
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
const deliveryWaiters: Array<() => void> = [];

beforeAll(async () => {
  redis = await DisposableRedis.start();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
      deliveryWaiters.splice(0).forEach((wake) => wake());
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/flood-events`;
  // The caches on, as deployed: a re-check must see a change the cached pieces of its place do not.
  stack = await startStack({
    JOBS_REDIS_URL: redis.url,
    JOB_UPSTREAM_RATE_PER_SECOND: '400',
    WATCH_WEBHOOK_ALLOW_PRIVATE: 'true',
    WATCH_WEBHOOK_ALLOW_HTTP: 'true',
  });
  sweeps = sweepQueue(redis.url);
});
afterAll(async () => {
  await sweeps?.close();
  await stack?.close();
  await redis?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const post = (path: string, body: unknown, type = 'application/json') =>
  call(stack.url, path, { method: 'POST', headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) });

const watchUntil = (id: string, done: (status: any) => boolean) => watchOf(stack.url, id, done);

/** Runs one sweep (a full re-check unless `full` is false) through the sweep queue and waits until the watch says it was swept after it. */
async function sweep(id: string, full = true): Promise<any> {
  const before = (await call(stack.url, `${WATCHES}/${id}`)).body.lastSweepAt;
  await sweeps.add('sweep', { full });
  return watchUntil(id, (status) => status.lastSweepAt !== null && status.lastSweepAt !== before);
}

const place = (id: string) => {
  const { lat, lon } = demoPlace(id);
  return { lat, lon };
};

it('baselines a watch, then a sweep writes exactly one event for the one location FEMA changed, once, delivered signed to the webhook', async () => {
  const charleston = place('charleston-preliminary-into-sfha');
  const created = await post(WATCHES, {
    name: 'Servicing book',
    locations: [
      { id: 'chs', ...charleston },
      { id: 'dc', ...place('dc-white-house-ae') },
      { id: 'sac', ...place('sacramento-ar') },
    ],
    webhook: { url: receiverUrl },
  });
  expect(created.status).toBe(201);
  expect(created.body).toEqual({
    id: expect.any(String),
    status: 'baselining',
    total: 3,
    webhook: { url: receiverUrl, secret: expect.stringMatching(/^whsec_/) },
  });
  const { id, webhook } = created.body;
  expect(created.headers.get('location')).toBe(`${WATCHES}/${id}`);

  const watching = await watchUntil(id, (status) => status.status === 'watching');
  expect(watching).toEqual(
    expect.objectContaining({
      id,
      name: 'Servicing book',
      locations: { total: 3, answered: 3, unanswerable: 0, baselining: 0 },
      events: 0,
      webhook: expect.objectContaining({ url: receiverUrl, failures: 0 }),
    }),
  );
  expect(JSON.stringify(watching)).not.toContain(webhook.secret);

  // A sweep where nothing changed answers nobody again and writes nothing: its cost is its questions to FEMA.
  stack.emulators.resetCalls();
  await sweep(id, false);
  const everyCall = Object.values(stack.emulators).flatMap((emulator) =>
    typeof emulator === 'object' && 'callsMatching' in emulator ? emulator.callsMatching() : [],
  );
  expect(everyCall.length).toBeLessThanOrEqual(50);
  expect(stack.emulators.nfhl.callsMatching().filter((c) => c.layerName === 'Flood Hazard Zones' && c.point !== undefined)).toEqual([]);
  expect((await call(stack.url, `${WATCHES}/${id}/events`)).body).toEqual({ watchId: id, events: [], next: null });

  // FEMA withdraws the preliminary map over Charleston.
  const availability = stack.emulators.preliminary.data.layers.find((layer) => /Availability/.test(layer.name))!;
  const covering = availability.features.filter(
    ({ bbox }) => bbox.xmin <= charleston.lon && charleston.lon <= bbox.xmax && bbox.ymin <= charleston.lat && charleston.lat <= bbox.ymax,
  );
  expect(covering.length).toBeGreaterThan(0);
  availability.features = availability.features.filter((feature) => !covering.includes(feature));

  const delivered = new Promise<void>((resolve) => deliveryWaiters.push(resolve));
  stack.emulators.resetCalls();
  await sweep(id);
  // Every location answered again (a full re-check), none of them asking the geocoder where it is.
  expect(stack.emulators.nfhl.callsMatching().filter((c) => c.layerName === 'Flood Hazard Zones').length).toBeGreaterThanOrEqual(3);
  expect(stack.emulators.census.callsMatching()).toEqual([]);
  const { body: page } = await call(stack.url, `${WATCHES}/${id}/events`);
  expect(page.events).toEqual([
    {
      id: expect.stringMatching(/^\d+-\d+$/),
      watchId: id,
      locationId: 'chs',
      kind: 'map_change_withdrawn',
      before: { mapChange: 'preliminary AE' },
      after: { mapChange: null },
      detectedAt: expect.any(String),
      effectiveDate: null,
      note: expect.stringContaining('no longer'),
    },
  ]);
  const [event] = page.events;
  expect(page.next).toBe(event.id);

  // Swept again: nothing is written twice.
  await sweep(id);
  expect((await call(stack.url, `${WATCHES}/${id}/events`)).body.events).toEqual([event]);

  // The feed pages by cursor.
  expect((await call(stack.url, `${WATCHES}/${id}/events?limit=1`)).body).toEqual({ watchId: id, events: [event], next: event.id });
  expect((await call(stack.url, `${WATCHES}/${id}/events?after=${event.id}`)).body).toEqual({ watchId: id, events: [], next: event.id });

  // The webhook got it, signed: the reference implementation verifies it.
  await delivered;
  expect(received).toHaveLength(1);
  const [{ headers, body }] = received;
  expect(headers['webhook-id']).toBe(event.id);
  const verified = new Webhook(webhook.secret).verify(body, headers as Record<string, string>);
  expect(verified).toEqual(event);
  expect(() =>
    new Webhook(`whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`).verify(body, headers as Record<string, string>),
  ).toThrow();
  const status = await watchUntil(id, (now) => now.deliveries?.delivered === 1);
  expect(status.deliveries).toEqual({ delivered: 1, failedAttempts: 0, abandoned: 0, pending: 0 });
  expect(status.webhook).toEqual(expect.objectContaining({ lastSuccessAt: expect.any(String), failures: 0, nextRetryAt: null }));
  expect(status.events).toBe(1);
  const metrics = (await call(stack.url, '/metrics')).text;
  expect(metrics).toMatch(/^watch_events_total\{kind="map_change_withdrawn"\} 1$/m);
  expect(metrics).toMatch(/^watch_deliveries_total\{outcome="delivered"\} 1$/m);
  expect(metrics).toMatch(/^watch_sweeps_total\{outcome="completed"\} [3-9]$/m);
  // The sweep where nothing changed answered nobody again; the two full re-checks, the three locations each.
  expect(metrics).toMatch(/^watch_rechecked_locations_total 6$/m);
  expect(metrics).toMatch(/^watched_locations 3$/m);
});

it('re-checks, in a sweep that is not a full re-check, only the locations inside what FEMA published: a LOMR takes one of them out of the SFHA', async () => {
  const sacramento = place('sacramento-ar');
  const farAway = place('toa-baja-ae');
  const created = await post(WATCHES, {
    locations: [
      { id: 'levee', ...sacramento },
      { id: 'pr', ...farAway },
    ],
  });
  const { id } = created.body;
  await watchUntil(id, (status) => status.status === 'watching');
  /** A call about the place: at its point, or for a square of polygons around it (Puerto Rico is far from every other place). */
  const around = (point: { lat: number; lon: number }) => (c: { point?: number[] }) =>
    c.point !== undefined && Math.abs(c.point[0] - point.lon) < 0.2 && Math.abs(c.point[1] - point.lat) < 0.2;

  const d = 0.0004;
  await publish(stack.emulators.nfhl.baseUrl, {
    change: 'lomr',
    caseNo: '26-09-0417P',
    effective: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
    area: [sacramento.lon - d, sacramento.lat - d, sacramento.lon + d, sacramento.lat + d],
    zone: { FLD_ZONE: 'X', ZONE_SUBTY: 'AREA OF MINIMAL FLOOD HAZARD', SFHA_TF: 'F' },
  });
  stack.emulators.resetCalls();
  const rechecked = async () => Number(/^watch_rechecked_locations_total (\d+)$/m.exec((await call(stack.url, '/metrics')).text)?.[1]);
  const before = await rechecked();
  await sweep(id, false);
  // Answered again: the two locations at the levee (this watch's and the first test's), and no other.
  expect((await rechecked()) - before).toBe(2);

  // The place far from the change was not asked again (the one inside it was: its event), and the geocoder never.
  expect(stack.emulators.census.callsMatching()).toEqual([]);
  expect(stack.emulators.nfhl.callsMatching().filter(around(farAway))).toEqual([]);
  const { body } = await call(stack.url, `${WATCHES}/${id}/events`);
  expect(body.events).toEqual([
    expect.objectContaining({
      locationId: 'levee',
      kind: 'left_sfha',
      before: expect.objectContaining({ zones: ['AR'], inSfha: true }),
      after: expect.objectContaining({ zones: ['X'], inSfha: false }),
      effectiveDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
    }),
  ]);
  // The sweep replaced what the cache held of the place: a lookup now answers as the event says.
  const now = await stack.get(`/flood-zone?lat=${sacramento.lat}&lon=${sacramento.lon}`);
  expect([now.body.result.floodZone, now.body.result.inSpecialFloodHazardArea]).toEqual(['X', false]);
});

it("delays only its own watch's deliveries when a receiver answers 500 or hangs: the other watch's event is delivered meanwhile", async () => {
  const failing: string[] = [];
  const hanging: Array<() => void> = [];
  let hangingAsked!: () => void;
  const hangingReached = new Promise<void>((resolve) => (hangingAsked = resolve));
  const other = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/fails') {
        failing.push(String(req.headers['webhook-id']));
        res.writeHead(500).end('down for maintenance');
      } else {
        hanging.push(() => res.destroy());
        hangingAsked();
      }
    });
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  try {
    const a99 = place('sacramento-a99');
    const watchTo = async (url: string) => (await post(WATCHES, { locations: [{ id: 'a99', ...a99 }], webhook: { url } })).body.id as string;
    const [fails, hangs, works] = [await watchTo(`${otherUrl}/fails`), await watchTo(`${otherUrl}/hangs`), await watchTo(receiverUrl)];
    for (const id of [fails, hangs, works]) await watchUntil(id, (status) => status.status === 'watching');
    const d = 0.0004;
    await publish(stack.emulators.nfhl.baseUrl, {
      change: 'lomr',
      caseNo: '26-09-0533P',
      effective: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
      area: [a99.lon - d, a99.lat - d, a99.lon + d, a99.lat + d],
      zone: { FLD_ZONE: 'X', ZONE_SUBTY: 'AREA OF MINIMAL FLOOD HAZARD', SFHA_TF: 'F' },
    });
    const before = received.length;
    const delivered = new Promise<void>((resolve) => deliveryWaiters.push(resolve));
    await sweeps.add('sweep', {});
    await delivered;
    await hangingReached;
    // The working receiver got its watch's event while the hanging one still holds its request.
    expect(received.slice(before).map(({ body }) => JSON.parse(body).watchId)).toEqual([works]);
    expect(hanging).toHaveLength(1);
    const failed = await watchUntil(fails, (status) => status.webhook.failures === 1);
    expect(failed.deliveries).toEqual({ delivered: 0, failedAttempts: 1, abandoned: 0, pending: 1 });
    expect(failed.webhook.lastError).toContain('500');
    // The first retry within a minute of the failure.
    expect(Date.parse(failed.webhook.nextRetryAt) - Date.now()).toBeLessThanOrEqual(60_000);
    expect(failing).toHaveLength(1);
  } finally {
    hanging.forEach((hangUp) => hangUp());
    await new Promise((resolve) => other.close(resolve));
  }
});

it("answers again, when FEMA's Status Book says a community was suspended, only that community's locations: nfip_status_changed", async () => {
  const dc = place('dc-white-house-ae');
  const sacramento = place('sacramento-x-levee');
  const { id } = (
    await post(WATCHES, {
      locations: [
        { id: 'dc', ...dc },
        { id: 'sac', ...sacramento },
      ],
    })
  ).body;
  await watchUntil(id, (status) => status.status === 'watching');
  // A sweep keeps a copy of the Status Book, which the next one compares with.
  await sweep(id, false);

  await publish(stack.emulators.openfema.baseUrl, { change: 'community_suspended', communityId: '110001', effective: new Date().toISOString().slice(0, 10) });
  stack.emulators.resetCalls();
  await sweep(id, false);

  const near = (point: { lat: number; lon: number }) => (c: { point?: number[] }) =>
    c.point !== undefined && Math.abs(c.point[0] - point.lon) < 0.001 && Math.abs(c.point[1] - point.lat) < 0.001;
  expect(stack.emulators.nfhl.callsMatching().filter(near(sacramento))).toEqual([]);
  const { body } = await call(stack.url, `${WATCHES}/${id}/events`);
  expect(body.events).toEqual([
    expect.objectContaining({
      locationId: 'dc',
      kind: 'nfip_status_changed',
      before: expect.objectContaining({ nfipParticipating: true }),
      after: expect.objectContaining({ nfipParticipating: false }),
    }),
  ]);
});

it('adds and removes locations, and stops a watch, deleting its data', async () => {
  const csv = `id,lat,lon\nhou,${place('houston-nearby-hazards').lat},${place('houston-nearby-hazards').lon}\n`;
  const created = await post(`${WATCHES}?name=From%20CSV`, csv, 'text/csv');
  expect([created.status, created.body.total, created.body.webhook]).toEqual([201, 1, null]);
  const { id } = created.body;
  await watchUntil(id, (status) => status.status === 'watching');

  const added = await post(`${WATCHES}/${id}/locations`, { locations: [{ id: 'sac', ...place('sacramento-ar') }] });
  expect([added.status, added.body.locations.total]).toEqual([202, 2]);
  await watchUntil(id, (status) => status.status === 'watching' && status.locations.answered === 2);

  const again = await post(`${WATCHES}/${id}/locations`, { locations: [{ id: 'sac', ...place('sacramento-ar') }] });
  expect([again.status, again.body.code, again.body.error]).toEqual([400, 'INVALID_WATCH', expect.stringContaining('"sac" is already watched')]);

  const removed = await call(stack.url, `${WATCHES}/${id}/locations/sac`, { method: 'DELETE' });
  expect(removed.status).toBe(204);
  expect((await call(stack.url, `${WATCHES}/${id}`)).body.locations.total).toBe(1);
  const gone = await call(stack.url, `${WATCHES}/${id}/locations/sac`, { method: 'DELETE' });
  expect([gone.status, gone.body.code]).toEqual([404, 'LOCATION_NOT_FOUND']);

  const stopped = await call(stack.url, `${WATCHES}/${id}`, { method: 'DELETE' });
  expect([stopped.status, stopped.body.status, stopped.body.nextSweepAt]).toEqual([200, 'stopped', null]);
  expect((await call(stack.url, `${WATCHES}/${id}/events`)).status).toBe(404);
  expect(redisKeysOf(id)).toEqual([`flood-zone:watch:${id}`]);
});

it.each<[string, unknown, number, string, string]>([
  [
    'a location without an id',
    {
      locations: [
        { id: 'a', lat: 29.7, lon: -95.3 },
        { lat: 29.7, lon: -95.3 },
      ],
    },
    400,
    'INVALID_WATCH',
    'locations[1].id',
  ],
  [
    'an id given twice',
    {
      locations: [
        { id: 'a', lat: 29.7, lon: -95.3 },
        { id: 'a', lat: 29.8, lon: -95.3 },
      ],
    },
    400,
    'INVALID_WATCH',
    'locations[1].id',
  ],
  ['a location GET would refuse', { locations: [{ id: 'a', lat: 'north', lon: -95.3 }] }, 400, 'INVALID_WATCH', 'locations[0]'],
  [
    'a footprint POST /flood-zone would refuse',
    {
      locations: [
        { id: 'a', lat: 29.7, lon: -95.3 },
        {
          id: 'b',
          lat: 29.7,
          lon: -95.3,
          footprint: {
            type: 'Polygon',
            coordinates: [
              [
                [-95.3, 29.7],
                [-95.2999, 29.7],
                [-95.2999, 29.7001],
              ],
            ],
          },
        },
      ],
    },
    400,
    'INVALID_WATCH',
    'locations[1]: footprint: ring 1 is not closed',
  ],
  ['a field that is not a watch’s', { locations: [{ id: 'a', lat: 29.7, lon: -95.3 }], color: 'red' }, 400, 'INVALID_WATCH', 'color'],
  ['no locations', { name: 'x' }, 400, 'INVALID_WATCH', 'locations'],
  ['a bad include', { locations: [{ id: 'a', lat: 29.7, lon: -95.3 }], include: ['everything'] }, 400, 'INVALID_WATCH', 'include'],
  [
    'a webhook URL with credentials',
    { locations: [{ id: 'a', lat: 29.7, lon: -95.3 }], webhook: { url: 'https://user:pw@example.com/hook' } },
    422,
    'WEBHOOK_URL_REFUSED',
    'webhook.url',
  ],
  [
    'a webhook URL that is not http(s)',
    { locations: [{ id: 'a', lat: 29.7, lon: -95.3 }], webhook: { url: 'ftp://example.com/hook' } },
    422,
    'WEBHOOK_URL_REFUSED',
    'webhook.url',
  ],
  ['a job that does not exist', { fromJob: '3f2b9c1e-7a4d-4e8b-9c61-0d5e2a7b4f18' }, 404, 'JOB_NOT_FOUND', '3f2b9c1e'],
])('refuses %s', async (_title, body, status, code, named) => {
  const answer = await post(WATCHES, body);
  expect([answer.status, answer.body.code]).toEqual([status, code]);
  expect(answer.body.error).toContain(named);
});

it('answers 404 for an unknown watch, and 400 for a bad cursor or limit', async () => {
  const unknown = await call(stack.url, `${WATCHES}/7c9e6679-7425-40de-944b-e07fc1f90ae7`);
  expect([unknown.status, unknown.body.code]).toEqual([404, 'WATCH_NOT_FOUND']);
  expect((await call(stack.url, `${WATCHES}/not-a-watch/events`)).status).toBe(404);
  const created = await post(WATCHES, { locations: [{ id: 'a', ...place('sacramento-ar') }] });
  expect((await call(stack.url, `${WATCHES}/${created.body.id}/events?after=yesterday`)).body.code).toBe('INVALID_PARAMETERS');
  expect((await call(stack.url, `${WATCHES}/${created.body.id}/events?limit=0`)).body.code).toBe('INVALID_PARAMETERS');
});

function redisKeysOf(id: string): string[] {
  return redisCli(redis.port, '--scan', '--pattern', `flood-zone:watch:${id}*`)
    .split('\n')
    .filter((key) => key !== '')
    .sort();
}
