/**
 * Scenarios 12 and 13: the map picture (GET /flood-zone/map, 800x600 by default).
 *
 * 12: a cached picture vs a cached JSON answer of the same point, under the same load (autocannon, as scenario 1),
 * in A-B-B-A rounds (interleaved.ts) so that a drift in the machine's load falls on both. autocannon appends every body chunk to a
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
import type autocannon from 'autocannon';
import PipelinedRequestsQueue from 'autocannon/lib/pipelinedRequestsQueue';
import { CENTRE, CFG, POINTS } from '../config';
import { Rounds, interleave, spreadLabel, spreadText } from '../interleaved';
import { Emulators, HttpAnswer, Service, Tally, TimedBlock, callsOf, expectOk, httpGet, keepAlive, msOf, p50Gap, round, timedBlock } from '../lib';
import { Point, pointPath } from '../points';
import { cannonFigures, coldFigures, log, reqPerSec, results, row } from '../report';
import { loadRound, warmUp } from './cache-hit-vs-express';

const MAP_PATH = '/flood-zone/map';

function picturePath(p: Point): string {
  return `${MAP_PATH}?lat=${p.lat}&lon=${p.lon}`;
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

/** One round of load on `url`, with the service's CPU time per request, which the load generator's own cost does not change. */
async function measureRound(url: string, service: Service): Promise<Measured> {
  const cpuBefore = cpuSeconds(service.pid);
  const result = await loadRound(url);
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

/** The JSON answer's and the picture's req/s and service CPU per request, and the ratio picture / JSON, round by round. */
function pictureVsJson(measured: Rounds<'json' | 'picture', Measured>) {
  const rate = ({ result }: Measured) => reqPerSec(result);
  const cpuUs = ({ serviceCpuUs }: Measured) => serviceCpuUs;
  const kinds = ['json', 'picture'] as const;
  return {
    reqPerSec: Object.fromEntries(kinds.map((k) => [k, measured.figure(k, rate, 0)])),
    serviceCpuUsPerRequest: Object.fromEntries(kinds.map((k) => [k, measured.figure(k, cpuUs, 0)])),
    ratio: measured.compare('picture', 'json', (p, j) => rate(p) / rate(j), 2),
    runs: Object.fromEntries(kinds.map((k) => [k, measured.of(k).map(({ result }) => cannonFigures(result))])),
    bad: kinds.flatMap((k) => measured.of(k)).reduce((n, { result: r }) => n + r.non2xx + r.errors + r.timeouts, 0),
  };
}

export async function cachedPictureVsJson(emulators: Emulators): Promise<void> {
  const S = '12 cached picture vs cached JSON';
  const { rounds, roundSeconds, connections } = CFG.cacheHit;
  log(`${S}: JSON and picture in ${rounds} A-B-B-A rounds of ${roundSeconds} s x ${connections} connections, with autocannon keeping bodies and without`);
  await emulators.setLatency(0);
  const service = await Service.start(emulators.env, { LOG_LEVEL: 'warn' });
  try {
    const agent = keepAlive(2);
    const urls = {
      json: `${service.base}/flood-zone?lat=${CENTRE.lat}&lon=${CENTRE.lon}`,
      picture: `${service.base}${MAP_PATH}?lat=${CENTRE.lat}&lon=${CENTRE.lon}`,
    };
    expectOk(await httpGet(urls.json, agent), 'JSON warm-up');
    const jsonHit = await httpGet(urls.json, agent);
    if (jsonHit.headers['x-cache'] !== 'HIT') throw new Error(`the second lookup was X-Cache ${String(jsonHit.headers['x-cache'])}, not HIT`);
    expectPicture(await httpGet(urls.picture, agent), 'MISS', 'first picture');
    const pictureHit = await httpGet(urls.picture, agent);
    expectPicture(pictureHit, 'HIT', 'second picture');
    const jsonBytes = Buffer.byteLength(jsonHit.body);
    const pngBytes = Number(pictureHit.headers['content-length']);

    await warmUp(Object.values(urls));
    const inRounds = () => interleave(['json', 'picture'] as const, rounds, (kind) => measureRound(urls[kind], service));
    const kept = pictureVsJson(await inRounds());
    const counted = pictureVsJson(await withoutKeptBodies(inRounds));
    results.cachedPictureVsJson = { connections, rounds, roundSeconds, jsonBytes, pngBytes, bodiesKeptByAutocannon: kept, bodiesCountedNotKept: counted };
    const rates = ({ reqPerSec: rps }: typeof kept) => `${spreadText(rps.json)} / ${spreadText(rps.picture)}`;
    const cpu = ({ serviceCpuUsPerRequest: us }: typeof kept) => `${us.json.median} / ${us.picture.median}`;
    const spread = spreadLabel(rounds);
    row(S, `JSON (${jsonBytes} B) / picture (${pngBytes} B) req/s, autocannon as is, ${spread}`, rates(kept));
    row(S, `ratio picture / JSON, autocannon as is, ${spread}`, spreadText(kept.ratio), '>= 0.5', kept.ratio.median >= 0.5);
    row(S, `JSON / picture req/s, bodies counted, not kept, ${spread}`, rates(counted));
    row(S, `ratio picture / JSON, bodies counted, not kept, ${spread}`, spreadText(counted.ratio), '>= 0.5', counted.ratio.median >= 0.5);
    row(S, 'service CPU per request, JSON / picture us, medians (as is; counted)', `${cpu(kept)}; ${cpu(counted)}`);
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
  const { coldRounds: rounds, block } = CFG.picture;
  const n = rounds * block;
  log(`${S}: ${n} cold lookups and ${n} cold pictures of distinct points, sequential, in ${rounds} A-B-B-A rounds of ${block} each`);
  await emulators.setLatency(latency);
  const service = await Service.start(emulators.env);
  const agent = keepAlive(1);
  const ask = async (kind: 'lookup' | 'picture', what: string): Promise<number> => {
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
  let measured: Rounds<'lookup' | 'picture', TimedBlock>;
  let compose: { ms: number; count: number };
  let basemapExport: { ms: number; count: number };
  try {
    // the first of each reads the MapServers' layer lists (once per process) and warms the compositing code
    await ask('lookup', 'warm-up lookup');
    await ask('picture', 'warm-up picture');
    const before = await serviceTotals(service, agent);
    measured = await interleave(['lookup', 'picture'] as const, rounds, (kind, r) =>
      timedBlock(emulators, block, (i) => ask(kind, `cold ${kind} ${r * block + i}`)),
    );
    const after = await serviceTotals(service, agent);
    compose = meanMsBetween(before.compose, after.compose);
    basemapExport = meanMsBetween(before.basemapExport, after.basemapExport);
  } finally {
    await service.stop();
  }
  if (compose.count !== n) throw new Error(`the service composed ${compose.count} pictures, not ${n}`);
  const lookup = coldFigures(msOf(measured.of('lookup')), latency);
  const picture = coldFigures(msOf(measured.of('picture')), latency);
  const calls = { lookup: callsOf(measured.of('lookup')), picture: callsOf(measured.of('picture')) };
  const composeMs = compose.ms;
  const gap = measured.compare('picture', 'lookup', p50Gap, 1);
  const perPicture = (key: string) => round((calls.picture[key] ?? 0) / n, 2);
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
    upstreamCallsPerRequest: { lookup: total(calls.lookup), picture: total(calls.picture) },
    upstreamCalls: calls,
  };
  row(S, `lookup: ${n} distinct points, p50 / p90 ms`, `${lookup.p50Ms} / ${lookup.p90Ms}`);
  row(S, `picture 800x600: ${n} distinct points, p50 / p90 ms`, `${picture.p50Ms} / ${picture.p90Ms}`);
  row(S, "compositing, mean ms (the service's map_picture_compose_seconds)", composeMs);
  row(S, `basemap export as the service waits for it, mean ms (${latency} ms emulated + drawing)`, basemapExport.ms);
  const goal = latency + composeMs;
  row(S, `p50(picture) - p50(lookup) ms, ${spreadLabel(rounds)}`, spreadText(gap), `<= ${round(goal, 1)} (one round trip + compositing)`, gap.median <= goal);
  const one = exports.nfhl === 1 && exports.basemap === 1;
  row(S, 'export calls per picture: NFHL / basemap', `${exports.nfhl} / ${exports.basemap}`, '1 / 1', one);
  row(S, 'upstream calls per request: lookup -> picture', `${total(calls.lookup)} -> ${total(calls.picture)}`);
}
