/**
 * Scenario 7: a 10,000-row batch (half addresses, a third of points repeated), 50 ms upstream latency: upstream
 * calls, wall time against the floor the concurrency limit sets, and the service's memory while it streams.
 */
import * as http from 'node:http';
import { CFG, POINTS } from '../config';
import { Emulators, Service, Tally, expectOk, httpGet, keepAlive, postStreamed, round, sleep } from '../lib';
import { pointPath } from '../points';
import { PORTFOLIO_PLACE, PortfolioRow, portfolio } from '../portfolio';
import { log, results, row } from '../report';

const PORTFOLIO_ZONE = PORTFOLIO_PLACE.expect.floodZone;

/** The JSON request body of a batch of `rows`. */
export function batchBody(rows: PortfolioRow[]): string {
  return JSON.stringify({ locations: rows.map((r) => ('address' in r ? { id: r.id, address: r.address } : { id: r.id, lat: r.lat, lon: r.lon })) });
}

/** Reads a batch's NDJSON lines: in input order, ids echoed, statuses tallied, the first problem kept. */
export function batchReader(rows: PortfolioRow[]) {
  const reader = { next: 0, statuses: {} as Tally, problem: undefined as string | undefined };
  const onLine = (line: string) => {
    const i = reader.next++;
    try {
      const a = JSON.parse(line) as { index: number; id: string | null; status: number; body: Record<string, any> };
      reader.statuses[a.status] = (reader.statuses[a.status] ?? 0) + 1;
      if (a.index !== i || a.id !== rows[i]?.id) reader.problem ??= `line ${i}: index ${a.index}, id ${a.id}; expected ${i}, ${rows[i]?.id}`;
      else if (a.status === 200 && a.body.result.floodZone !== PORTFOLIO_ZONE)
        reader.problem ??= `row ${i}: zone ${a.body.result.floodZone}, not ${PORTFOLIO_ZONE}`;
    } catch (error) {
      reader.problem ??= `line ${i} is not JSON: ${(error as Error).message}`;
    }
  };
  return { reader, onLine };
}

/** A service with the batch scenarios' UPSTREAM_MAX_CONCURRENCY, its NFHL layer lists already read. */
export async function startBatchService(emulators: Emulators, agent: http.Agent): Promise<Service> {
  await emulators.setLatency(CFG.upstreamLatencyMs);
  const service = await Service.start(emulators.env, { UPSTREAM_MAX_CONCURRENCY: String(CFG.batch.concurrency) });
  try {
    expectOk(await httpGet(`${service.base}${pointPath(POINTS.next())}`, agent), 'layer-list warm-up');
    return service;
  } catch (error) {
    await service.stop();
    throw error;
  }
}

export async function batch(emulators: Emulators): Promise<void> {
  const S = '7 batch, 50 ms upstream';
  const B = CFG.batch;
  const latency = CFG.upstreamLatencyMs;
  const share = Math.floor(B.concurrency / 2);
  const p = portfolio(0, B.rows);
  log(`${S}: ${B.rows} rows (${p.addresses} addresses, ${p.distinctPoints} distinct points), UPSTREAM_MAX_CONCURRENCY=${B.concurrency}`);
  const agent = keepAlive(1);
  const service = await startBatchService(emulators, agent);
  try {
    // what one lat/lon lookup asks of each upstream: the batch should ask it once per distinct point
    await emulators.resetCalls();
    expectOk(await httpGet(`${service.base}${pointPath(POINTS.next())}`, agent), 'calls of one lookup');
    const perPoint = await emulators.breakdown();
    const expected: Tally = { 'census addressbatch': Math.ceil(p.addresses / B.censusChunkRows) };
    for (const [k, v] of Object.entries(perPoint)) expected[k] = v * (k === 'census coordinates' ? p.distinctLatLonPoints : p.distinctPoints);

    await emulators.resetCalls();
    const rssBefore = service.rssMiB();
    const heapBefore = await service.heapUsedMiB(agent);
    let rssPeak = rssBefore;
    // RSS when each quarter of the rows has been answered: flat, or growing with the rows?
    const rssAtQuarter: number[] = [];
    const { reader, onLine } = batchReader(p.rows);
    const sampler = setInterval(() => {
      const rss = service.rssMiB();
      rssPeak = Math.max(rssPeak, rss);
      while (rssAtQuarter.length < 4 && reader.next >= ((rssAtQuarter.length + 1) * B.rows) / 4) rssAtQuarter.push(rss);
    }, 100);
    let answer;
    try {
      answer = await postStreamed(`${service.base}/flood-zone/batch`, 'application/json', batchBody(p.rows), onLine).done;
    } finally {
      clearInterval(sampler);
    }
    while (rssAtQuarter.length < 4) rssAtQuarter.push(service.rssMiB()); // the last rows came between two samples
    const heapAfter = await service.heapUsedMiB(agent);
    await sleep(200); // let any straggling upstream call land in the log
    const counted = await emulators.breakdown();
    if (answer.status !== 200) throw new Error(`batch answered HTTP ${answer.status}`);
    if (reader.problem) throw new Error(`batch answer: ${reader.problem}`);

    const keys = [...new Set([...Object.keys(expected), ...Object.keys(counted)])].sort();
    const exact = keys.every((k) => (expected[k] ?? 0) === (counted[k] ?? 0));
    const byUpstream = (t: Tally) => {
      const out: Tally = {};
      for (const [k, v] of Object.entries(t)) out[k.split(' ')[0]] = (out[k.split(' ')[0]] ?? 0) + v;
      return out;
    };
    const floors = Object.fromEntries(Object.entries(byUpstream(expected)).map(([u, calls]) => [u, (calls * latency) / share]));
    const floorMs = Math.max(...Object.values(floors));
    const nfhlPerPoint = Object.entries(perPoint)
      .filter(([k]) => k.startsWith('nfhl '))
      .reduce((a, [, v]) => a + v, 0);
    const wallRatio = round(answer.ms / floorMs, 2);
    const growthMB = round(((rssPeak - rssBefore) * 1048576) / 1e6, 1);
    results.batch = {
      rows: B.rows,
      addresses: p.addresses,
      distinctPoints: p.distinctPoints,
      distinctLatLonPoints: p.distinctLatLonPoints,
      upstreamLatencyMs: latency,
      upstreamMaxConcurrency: B.concurrency,
      batchShare: share,
      callsOfOneLatLonLookup: perPoint,
      upstreamCalls: { expected, counted },
      wallMs: round(answer.ms, 0),
      floorMsByUpstream: floors,
      floorMs,
      wallOverFloor: wallRatio,
      statuses: reader.statuses,
      rssBeforeMiB: rssBefore,
      rssPeakMiB: rssPeak,
      rssAtQuarterOfRowsMiB: rssAtQuarter,
      rssGrowthMB: growthMB,
      heapUsedBeforeMiB: heapBefore,
      heapUsedAfterMiB: heapAfter,
    };
    row(S, `rows / addresses / distinct points (of lat/lon rows)`, `${B.rows} / ${p.addresses} / ${p.distinctPoints} (${p.distinctLatLonPoints})`);
    row(S, 'statuses', JSON.stringify(reader.statuses), `{"200":${B.rows}}`, reader.statuses['200'] === B.rows);
    for (const k of keys) {
      row(S, `upstream calls, expected / counted: ${k}`, `${expected[k] ?? 0} / ${counted[k] ?? 0}`, 'exact', (expected[k] ?? 0) === (counted[k] ?? 0));
    }
    row(S, 'upstream calls: one per distinct point per layer + one Census batch call per 1,000 addresses', exact ? 'exact' : 'differ', 'exact', exact);
    row(S, `floor: ${p.distinctPoints} points x ${nfhlPerPoint} NFHL calls x ${latency} ms / ${share} (half of ${B.concurrency}) s`, round(floorMs / 1000, 1));
    row(
      S,
      'wall time s (rows/s); wall / floor',
      `${round(answer.ms / 1000, 1)} (${round(B.rows / (answer.ms / 1000), 0)}); ${wallRatio}`,
      `<= ${B.wallGoalFactor}`,
      wallRatio <= B.wallGoalFactor,
    );
    row(S, 'service RSS at 1/4, 2/4, 3/4, 4/4 of the rows MiB; heap used before / after', `${rssAtQuarter.join(', ')}; ${heapBefore} / ${heapAfter}`);
    row(S, 'service RSS before / peak MiB; growth MB', `${rssBefore} / ${rssPeak}; ${growthMB}`, `<= ${B.rssGrowthGoalMB} MB`, growthMB <= B.rssGrowthGoalMB);
  } finally {
    await service.stop();
  }
}
