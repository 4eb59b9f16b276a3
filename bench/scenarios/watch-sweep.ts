/**
 * Scenario 17: the sweeps of a watch of 1,000,000 locations (BENCH_WATCH_LOCATIONS) spread over the emulated nation:
 * a loan book's rows (bench/loan-book.ts) over the loan book's three counties, its tail over the conterminous US, and
 * Boulder County, CO (WATCHED_NATION), whose map the emulators serve. The watch is stored straight into the jobs Redis
 * through the store, as its baselines would have stored it (bench/stored-watch.ts): through the API each location
 * would first be answered, hours of lookups. One built service process sweeps it, each sweep asked for through the
 * sweep queue as its schedule asks for one:
 *
 * 1. the first sweep, at the service's start (its schedule's first), which keeps the copy of the Status Book (at the
 *    real table's size) and of the coming maps' studies that the next sweep compares with;
 * 2. a sweep where nothing changed: goal at most 50 upstream calls (every call at every emulator counted) and 60 s;
 * 3. FEMA revises Boulder County's map (every FIRM panel a new suffix and effective date, as a countywide revision is
 *    published): the sweep answers again that county's locations only. Counted: the locations answered again (the
 *    service's watch_rechecked_locations_total) against the county's locations in the watch, and its events, each of
 *    a county location (every stored fingerprint is made up, so every location answered again has changed).
 *
 * The emulators answer in 50 ms for the first two sweeps. For the revision's re-checks time is scaled as in the loan
 * book (k = BENCH_WATCH_TIME_SCALE: a budget of 20 x k calls a second, upstreams answering in 50 / k ms); the minutes
 * they take at the default budget are given back as the busiest upstream's calls over 20 a second.
 */
import * as http from 'node:http';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { WatchStore } from '../../src/watches/watch-store';
import { WATCH_SWEEP_QUEUE } from '../../src/watches/watch-queues';
import { DisposableRedis } from '../../test/support/redis-server';
import { COMMUNITY_STATUS_ROWS } from '../community-status-table';
import { CFG } from '../config';
import { Emulators, Service, Tally, expectOk, httpGet, keepAlive, round, sleep } from '../lib';
import { TAIL_REGION, WATCHED_NATION, loanBook } from '../loan-book';
import { log, results, row } from '../report';
import { baselinedLocation, storeBaselinedWatch, SYNTHETIC_ZONES } from '../stored-watch';
import { byUpstream } from './jobs';

const S = '17 watch sweep';
const WATCHES = '/flood-zone/watches';
const WATCH_ID = '5b1e0c2a-9d4f-4c8e-a7b3-2f6d8e1c9a40';
/** JOB_UPSTREAM_RATE_PER_SECOND's default: the budget the minutes are given for. */
const DEFAULT_RATE = 20;
const REVISED = WATCHED_NATION.findIndex((county) => county.basename === 'Boulder');

/** A loan's id in the watch, by its row in the book. */
const loanId = (n: number) => `LN-${7_000_000 + n}`;

/** The service's count of locations answered again by sweeps. */
async function rechecked(service: Service, agent: http.Agent): Promise<number> {
  const metrics = await httpGet(`${service.base}/metrics`, agent);
  return Number(/^watch_rechecked_locations_total (\d+)$/m.exec(metrics.body)?.[1] ?? NaN);
}

const watchStatus = async (service: Service, agent: http.Agent) => expectOk(await httpGet(`${service.base}${WATCHES}/${WATCH_ID}`, agent), 'watch status');

/** Waits until the watch says it was swept after `since`: how long from `from`, s. */
async function sweptAfter(service: Service, agent: http.Agent, since: string | null, from: number): Promise<number> {
  for (;;) {
    const status = await watchStatus(service, agent);
    if (status.lastSweepAt !== since) return (performance.now() - from) / 1000;
    await sleep(100);
  }
}

/** Every event of the watch, paged by cursor. */
async function allEvents(service: Service, agent: http.Agent): Promise<Array<{ locationId: string; kind: string }>> {
  const events: Array<{ locationId: string; kind: string }> = [];
  for (let after: string | null = null; ;) {
    const page = expectOk(await httpGet(`${service.base}${WATCHES}/${WATCH_ID}/events?limit=1000${after ? `&after=${after}` : ''}`, agent), 'events');
    events.push(...(page.events as typeof events));
    if (page.events.length < 1000) return events;
    after = page.next as string;
  }
}

const total = (tally: Tally) => Object.values(tally).reduce((sum, n) => sum + n, 0);

export async function watchSweep(emulators: Emulators): Promise<void> {
  const W = CFG.watchSweep;
  const k = W.timeScale;
  const book = loanBook(W.locations, WATCHED_NATION);
  const county = WATCHED_NATION[REVISED];
  const countyIds = new Set(book.rows.flatMap((r, n) => (r.region === REVISED ? [loanId(n)] : [])));
  log(`${S}: building the nation's map for ${W.locations} locations`);
  const features = await emulators.loadLoanBookMap(W.locations, 'watched');
  await emulators.setCommunityStatusRows(COMMUNITY_STATUS_ROWS);
  await emulators.setLatency(CFG.upstreamLatencyMs);
  const redis = await DisposableRedis.start();
  const client = new Redis(redis.url);
  const sweeps = new Queue(WATCH_SWEEP_QUEUE, { connection: { url: redis.url } });
  const agent = keepAlive(4);
  let service: Service | undefined;
  try {
    log(`${S}: storing the watch straight into Redis through the store`);
    // Where each location's first answer placed it: a county of the map (the tail's points lie in none).
    const places = WATCHED_NATION.map((c) => `${c.state}${c.county}||${c.name}`);
    const loadStarted = performance.now();
    await storeBaselinedWatch(
      new WatchStore(client),
      { id: WATCH_ID, name: 'National servicing book', include: [], webhookUrl: null, webhookSecret: null, createdAt: new Date().toISOString() },
      W.locations,
      (n) => {
        const { point, region } = book.rows[n];
        return baselinedLocation(loanId(n), Number(point.lat), Number(point.lon), SYNTHETIC_ZONES[n % SYNTHETIC_ZONES.length], places[region] ?? '||');
      },
    );
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const redisMiB = Number(/^used_memory:(\d+)/m.exec(await client.info('memory'))?.[1]) / 1048576;

    // 1. The first sweep: the schedule's first, asked for as the service starts.
    await emulators.resetCalls();
    const firstStarted = performance.now();
    service = await Service.start(emulators.env, { JOBS_REDIS_URL: redis.url, JOB_UPSTREAM_RATE_PER_SECOND: String(DEFAULT_RATE * k) });
    const firstSeconds = await sweptAfter(service, agent, null, firstStarted);
    const first = { seconds: firstSeconds, calls: await emulators.breakdown(), rechecked: await rechecked(service, agent) };

    // 2. Nothing changed.
    const sweep = async () => {
      const since = (await watchStatus(service!, agent)).lastSweepAt as string;
      const before = await rechecked(service!, agent);
      await emulators.resetCalls();
      const started = performance.now();
      await sweeps.add('sweep', {});
      const seconds = await sweptAfter(service!, agent, since, started);
      return { seconds, calls: await emulators.breakdown(), rechecked: (await rechecked(service!, agent)) - before };
    };
    log(`${S}: a sweep where nothing changed`);
    const quiet = await sweep();

    // 3. Boulder County's map revised.
    const effective = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const { panels } = await emulators.reviseCountyMap(`${county.state}${county.county}C`, effective);
    await emulators.setLatency(CFG.upstreamLatencyMs / k);
    log(`${S}: ${county.name}'s ${panels} panels revised; the sweep re-checks its ${countyIds.size} locations`);
    const revised = await sweep();
    const events = await allEvents(service, agent);
    const countyEvents = events.filter((event) => countyIds.has(event.locationId)).length;
    const busiest = Object.entries(byUpstream(revised.calls)).sort((a, b) => b[1] - a[1])[0] ?? ['none', 0];
    const minutesAtDefault = busiest[1] / DEFAULT_RATE / 60;

    const tail = book.rows.filter((r) => r.region === TAIL_REGION).length;
    row(
      S,
      'watched locations (in the three loan-book counties / tail / Boulder County); distinct points',
      `${W.locations} (${W.locations - tail - countyIds.size} / ${tail} / ${countyIds.size}); ${book.distinctPoints}`,
    );
    row(
      S,
      "the nation's NFHL map: features per layer",
      Object.entries(features)
        .map(([layer, count]) => `${layer} ${count}`)
        .join(', '),
    );
    row(S, 'stored straight into Redis through the store: s; Redis used MiB', `${round(loadSeconds, 1)}; ${round(redisMiB, 1)}`);
    row(
      S,
      'first sweep (at start-up, with the start-up calls): s; upstream calls; locations re-checked',
      `${round(first.seconds, 1)}; ${total(first.calls)}; ${first.rechecked}`,
    );
    row(
      S,
      'nothing changed: upstream calls (by emulator)',
      `${total(quiet.calls)} (${JSON.stringify(byUpstream(quiet.calls))})`,
      `<= ${W.callsGoal}`,
      total(quiet.calls) <= W.callsGoal,
    );
    row(S, 'nothing changed: sweep s', round(quiet.seconds, 1), `<= ${W.secondsGoal}`, quiet.seconds <= W.secondsGoal);
    row(S, 'nothing changed: locations re-checked', quiet.rechecked, '0', quiet.rechecked === 0);
    row(
      S,
      `${county.name} revised (${panels} panels): locations re-checked / the county's locations`,
      `${revised.rechecked} / ${countyIds.size}`,
      `${countyIds.size} / ${countyIds.size}`,
      revised.rechecked === countyIds.size,
    );
    row(
      S,
      `${county.name} revised: events / of the county's locations`,
      `${events.length} / ${countyEvents}`,
      `${countyIds.size} / ${countyIds.size}`,
      events.length === countyIds.size && countyEvents === countyIds.size,
    );
    row(
      S,
      `${county.name} revised: sweep s (k = ${k}); upstream calls; busiest upstream's calls`,
      `${round(revised.seconds, 1)}; ${total(revised.calls)}; ${busiest[1]} (${busiest[0]})`,
    );
    row(S, `${county.name} revised: minutes at the default budget (busiest upstream's calls / 20 / 60)`, round(minutesAtDefault, 1));
    results.watchSweep = {
      locations: W.locations,
      distinctPoints: book.distinctPoints,
      countyLocations: countyIds.size,
      mapFeatures: features,
      loadSeconds,
      redisMiB,
      first,
      nothingChanged: quiet,
      countyRevised: { county: county.name, panels, ...revised, events: events.length, countyEvents, minutesAtDefault, timeScale: k },
    };
  } finally {
    await service?.stop();
    await sweeps.close();
    client.disconnect();
    await redis.stop();
    await emulators.loadDemoMap();
  }
}
