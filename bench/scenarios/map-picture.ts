/**
 * Scenarios 12 and 13: the map picture (GET /flood-zone/map, 800x600 by default).
 *
 * 12: a cached picture vs a cached JSON answer of the same point, under the same load (autocannon, as scenario 1),
 * measured A-B-B-A so that a drift in the machine's load falls on both. autocannon appends every body chunk to a
 * string, which costs the load generator (on the same cores) far more for a PNG than for a JSON answer; so both
 * are also measured with the generator counting the bytes without keeping them, and the service's own CPU time
 * per request is read from /proc, which the generator's cost does not change.
 *
 * 13: cold pictures of distinct points vs cold lookups of distinct points, every upstream answering in 50 ms:
 * a picture's two exports (FEMA's zones, the basemap) go out alongside its lookup's round, so it may cost at
 * most one more round trip plus the compositing; the exports are counted at the emulators.
 */
import * as fs from 'node:fs';
import type * as http from 'node:http';
import autocannon from 'autocannon';
import PipelinedRequestsQueue from 'autocannon/lib/pipelinedRequestsQueue';
import { CENTRE, CFG, POINTS } from '../config';
import { Emulators, HttpAnswer, Service, Tally, expectOk, httpGet, keepAlive, round } from '../lib';
import { Point, pointPath } from '../points';
import { cannonFigures, coldFigures, log, results, row } from '../report';

const MAP_PATH = '/flood-zone/map';

function picturePath(p: Point): string {
  return `${MAP_PATH}?lat=${p.lat}&lon=${p.lon}`;
}

function addTally(into: Tally, from: Tally): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

/** A whole picture: a 200 PNG of the default size with the basemap under it, and the cache status expected. */
function expectPicture(r: HttpAnswer, cacheStatus: string, what: string): void {
  const got = { status: r.status, type: r.headers['content-type'], cache: r.headers['x-cache'], basemap: r.headers['x-map-unavailable'] ?? 'shown' };
  const want = { status: 200, type: 'image/png', cache: cacheStatus, basemap: 'shown' };
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${what}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
}

/** CPU seconds the process has used (user + system, from /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A load run and the service's CPU time per request during it. */
interface Measured {
  result: autocannon.Result;
  serviceCpuUs: number;
}

/**
 * Load on `url` after an unmeasured second of the same load (the JIT warm-up of both sides), as scenario 1,
 * with the service's CPU time per request, which the load generator's own cost does not change.
 */
async function measureWarm(url: string, service: Service): Promise<Measured> {
  await autocannon({ url, connections: CFG.cacheHit.connections, duration: 1, timeout: 10 });
  const cpuBefore = cpuSeconds(service.pid);
  const result = await autocannon({ url, connections: CFG.cacheHit.connections, duration: CFG.cacheHit.seconds, timeout: 10 });
  return { result, serviceCpuUs: ((cpuSeconds(service.pid) - cpuBefore) / result.requests.total) * 1e6 };
}

/** Runs `measure` with autocannon counting each body's bytes without appending it to a string. */
async function withoutKeptBodies<T>(measure: () => Promise<T>): Promise<T> {
  const keep = PipelinedRequestsQueue.prototype.addBody;
  PipelinedRequestsQueue.prototype.addBody = () => undefined;
  try {
    return await measure();
  } finally {
    PipelinedRequestsQueue.prototype.addBody = keep;
  }
}

/** Requests per second and service CPU per request of two runs of the same target, and the figures of both. */
function pair(a: Measured, b: Measured) {
  return {
    reqPerSec: round((a.result.requests.average + b.result.requests.average) / 2, 0),
    serviceCpuUsPerRequest: round((a.serviceCpuUs + b.serviceCpuUs) / 2, 0),
    runs: [a, b].map(({ result, serviceCpuUs }) => ({ ...cannonFigures(result), serviceCpuUsPerRequest: round(serviceCpuUs, 0) })),
  };
}

/** A-B-B-A runs of the cached JSON answer (A) and the cached picture (B). */
async function abba(service: Service, jsonUrl: string, pictureUrl: string) {
  const json1 = await measureWarm(jsonUrl, service);
  const picture1 = await measureWarm(pictureUrl, service);
  const picture2 = await measureWarm(pictureUrl, service);
  const json2 = await measureWarm(jsonUrl, service);
  const json = pair(json1, json2);
  const picture = pair(picture1, picture2);
  const bad = [json1, json2, picture1, picture2].reduce((n, { result: r }) => n + r.non2xx + r.errors + r.timeouts, 0);
  return { json, picture, ratio: round(picture.reqPerSec / json.reqPerSec, 2), bad };
}

export async function cachedPictureVsJson(emulators: Emulators): Promise<void> {
  const S = '12 cached picture vs cached JSON';
  const { seconds, connections } = CFG.cacheHit;
  log(`${S}: ${seconds} s x ${connections} connections per run, JSON and picture A-B-B-A, with autocannon keeping bodies and without`);
  await emulators.setLatency(0);
  const service = await Service.start(emulators.env, { LOG_LEVEL: 'warn' });
  try {
    const agent = keepAlive(2);
    const jsonUrl = `${service.base}/flood-zone?lat=${CENTRE.lat}&lon=${CENTRE.lon}`;
    const pictureUrl = `${service.base}${MAP_PATH}?lat=${CENTRE.lat}&lon=${CENTRE.lon}`;
    expectOk(await httpGet(jsonUrl, agent), 'JSON warm-up');
    const jsonHit = await httpGet(jsonUrl, agent);
    if (jsonHit.headers['x-cache'] !== 'HIT') throw new Error(`the second lookup was X-Cache ${String(jsonHit.headers['x-cache'])}, not HIT`);
    expectPicture(await httpGet(pictureUrl, agent), 'MISS', 'first picture');
    const pictureHit = await httpGet(pictureUrl, agent);
    expectPicture(pictureHit, 'HIT', 'second picture');
    const jsonBytes = Buffer.byteLength(jsonHit.body);
    const pngBytes = Number(pictureHit.headers['content-length']);

    const kept = await abba(service, jsonUrl, pictureUrl);
    const counted = await withoutKeptBodies(() => abba(service, jsonUrl, pictureUrl));
    results.cachedPictureVsJson = { connections, seconds, jsonBytes, pngBytes, bodiesKeptByAutocannon: kept, bodiesCountedNotKept: counted };
    const rates = ({ json, picture }: typeof kept) => `${json.reqPerSec} / ${picture.reqPerSec}`;
    const cpu = ({ json, picture }: typeof kept) => `${json.serviceCpuUsPerRequest} / ${picture.serviceCpuUsPerRequest}`;
    row(S, `JSON (${jsonBytes} B) / picture (${pngBytes} B) req/s, autocannon as is`, rates(kept));
    row(S, 'ratio picture / JSON, autocannon as is', kept.ratio, '>= 0.5', kept.ratio >= 0.5);
    row(S, 'JSON / picture req/s, bodies counted, not kept', rates(counted));
    row(S, 'ratio picture / JSON, bodies counted, not kept', counted.ratio, '>= 0.5', counted.ratio >= 0.5);
    row(S, 'service CPU per request, JSON / picture us (as is; counted)', `${cpu(kept)}; ${cpu(counted)}`);
    row(S, 'non-2xx + errors + timeouts', kept.bad + counted.bad, '0', kept.bad + counted.bad === 0);
  } finally {
    await service.stop();
  }
}

/** A histogram's total seconds and observations, by series (name and labels as /metrics writes them). */
interface Totals {
  seconds: number;
  count: number;
}

/** What the service measured so far: its compositing (basemap shown) and its basemap exports, as the picture waits for them. */
async function serviceTotals(service: Service, agent: http.Agent): Promise<{ compose: Totals; basemapExport: Totals }> {
  const values = new Map(
    (await httpGet(`${service.base}/metrics`, agent)).body
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))]),
  );
  const totals = (name: string, labels: string) => ({ seconds: values.get(`${name}_sum{${labels}}`) ?? 0, count: values.get(`${name}_count{${labels}}`) ?? 0 });
  return {
    compose: totals('map_picture_compose_seconds', 'basemap="shown"'),
    basemapExport: totals('upstream_request_duration_seconds', 'upstream="basemap",outcome="success"'),
  };
}

/** Mean milliseconds of the observations between two readings. */
function meanMsBetween(before: Totals, after: Totals): { ms: number; count: number } {
  const count = after.count - before.count;
  return { ms: round(((after.seconds - before.seconds) / count) * 1000, 1), count };
}

export async function coldPictureVsLookup(emulators: Emulators): Promise<void> {
  const S = '13 cold picture, 50 ms upstream';
  const latency = CFG.upstreamLatencyMs;
  const { cold: n, block } = CFG.picture;
  log(`${S}: ${n} cold lookups and ${n} cold pictures of distinct points, sequential, in alternating blocks of ${block}`);
  await emulators.setLatency(latency);
  const service = await Service.start(emulators.env);
  const agent = keepAlive(1);
  const kinds = {
    lookup: { ms: [] as number[], calls: {} as Tally },
    picture: { ms: [] as number[], calls: {} as Tally },
  };
  const ask = async (kind: keyof typeof kinds, what: string): Promise<number> => {
    const point = POINTS.next();
    if (kind === 'picture') {
      const r = await httpGet(`${service.base}${picturePath(point)}`, agent);
      expectPicture(r, 'MISS', what);
      return r.ms;
    }
    const r = await httpGet(`${service.base}${pointPath(point)}`, agent);
    const body = expectOk(r, what);
    if (r.headers['x-cache'] !== 'MISS' || body.result.floodZone !== CENTRE.expect.floodZone) {
      throw new Error(`${what}: X-Cache ${String(r.headers['x-cache'])}, zone ${body.result.floodZone}`);
    }
    return r.ms;
  };
  let compose: { ms: number; count: number };
  let basemapExport: { ms: number; count: number };
  try {
    // the first of each reads the MapServers' layer lists (once per process) and warms the compositing code
    await ask('lookup', 'warm-up lookup');
    await ask('picture', 'warm-up picture');
    const before = await serviceTotals(service, agent);
    for (let done = 0; done < n; done += block) {
      for (const kind of ['lookup', 'picture'] as const) {
        await emulators.resetCalls();
        for (let i = done; i < Math.min(n, done + block); i++) kinds[kind].ms.push(await ask(kind, `cold ${kind} ${i}`));
        addTally(kinds[kind].calls, await emulators.breakdown());
      }
    }
    const after = await serviceTotals(service, agent);
    compose = meanMsBetween(before.compose, after.compose);
    basemapExport = meanMsBetween(before.basemapExport, after.basemapExport);
  } finally {
    await service.stop();
  }
  if (compose.count !== n) throw new Error(`the service composed ${compose.count} pictures, not ${n}`);
  const lookup = coldFigures(kinds.lookup.ms, latency);
  const picture = coldFigures(kinds.picture.ms, latency);
  const composeMs = compose.ms;
  const gap = round(picture.p50Ms - lookup.p50Ms, 1);
  const perPicture = (key: string) => round((kinds.picture.calls[key] ?? 0) / n, 2);
  const total = (t: Tally) => round(Object.values(t).reduce((a, b) => a + b, 0) / n, 2);
  const exports = { nfhl: perPicture('nfhl export'), basemap: perPicture('basemap export') };
  results.coldPictureVsLookup = {
    upstreamLatencyMs: latency,
    lookup,
    picture,
    p50GapMs: gap,
    composeMeanMs: composeMs,
    basemapExportMeanMs: basemapExport.ms,
    exportCallsPerPicture: exports,
    upstreamCallsPerRequest: { lookup: total(kinds.lookup.calls), picture: total(kinds.picture.calls) },
    upstreamCalls: { lookup: kinds.lookup.calls, picture: kinds.picture.calls },
  };
  row(S, `lookup: ${n} distinct points, p50 / p90 ms`, `${lookup.p50Ms} / ${lookup.p90Ms}`);
  row(S, `picture 800x600: ${n} distinct points, p50 / p90 ms`, `${picture.p50Ms} / ${picture.p90Ms}`);
  row(S, "compositing, mean ms (the service's map_picture_compose_seconds)", composeMs);
  row(S, `basemap export as the service waits for it, mean ms (${latency} ms emulated + drawing)`, basemapExport.ms);
  const goal = latency + composeMs;
  row(S, 'p50(picture) - p50(lookup) ms', gap, `<= ${round(goal, 1)} (one round trip + compositing)`, gap <= goal);
  const one = exports.nfhl === 1 && exports.basemap === 1;
  row(S, 'export calls per picture: NFHL / basemap', `${exports.nfhl} / ${exports.basemap}`, '1 / 1', one);
  row(S, 'upstream calls per request: lookup -> picture', `${total(kinds.lookup.calls)} -> ${total(kinds.picture.calls)}`);
}
