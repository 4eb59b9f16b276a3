/** Scenario 8: interactive GETs while two batches of scenario 7 run: a batch may take only its share of the upstreams. */
import { CFG, POINTS } from '../config';
import { Emulators, keepAlive, percentile, postStreamed, round, sleep } from '../lib';
import { portfolio } from '../portfolio';
import { coldFigures, log, results, row } from '../report';
import { batchBody, batchReader, startBatchService } from './batch';
import { coldGets } from './cold';

export async function batchFairness(emulators: Emulators): Promise<void> {
  const S = '8 GET beside 2 batches';
  const B = CFG.batch;
  const n = B.interactiveLookups;
  log(`${S}: ${n} sequential cold GETs idle, then ${n} while two ${B.rows}-row batches run (UPSTREAM_MAX_CONCURRENCY=${B.concurrency})`);
  const agent = keepAlive(1);
  const service = await startBatchService(emulators, agent);
  const batches = [0, 1].map((set) => {
    const { rows } = portfolio(set, B.rows);
    return { rows, ...batchReader(rows), post: undefined as ReturnType<typeof postStreamed> | undefined, finished: false };
  });
  try {
    const idle = await coldGets(
      service,
      agent,
      Array.from({ length: n }, () => POINTS.next()),
    );
    for (const b of batches) {
      b.post = postStreamed(`${service.base}/flood-zone/batch`, 'application/json', batchBody(b.rows), b.onLine);
      b.post.done.then(
        () => (b.finished = true),
        () => (b.finished = true),
      );
    }
    // measure once both batches stream rows, i.e. both run
    const until = Date.now() + 60_000;
    while (batches.some((b) => !b.finished && b.post!.lines === 0) && Date.now() < until) await sleep(20);
    for (const b of batches) {
      if (b.post!.status !== 200 || b.post!.lines === 0) throw new Error(`a batch did not start streaming: HTTP ${b.post!.status}, ${b.post!.lines} lines`);
    }
    const rowsAtStart = batches.map((b) => b.post!.lines);
    const loaded = await coldGets(
      service,
      agent,
      Array.from({ length: n }, () => POINTS.next()),
    );
    const rowsAtEnd = batches.map((b) => b.post!.lines);
    const ranThroughout = batches.every((b) => !b.finished);
    const problems = batches.map((b) => b.reader.problem).filter(Boolean);
    if (problems.length) throw new Error(`batch answer: ${problems[0]}`);
    const idleP50 = round(percentile(idle, 50), 1);
    const loadedP50 = round(percentile(loaded, 50), 1);
    const ratio = round(loadedP50 / idleP50, 2);
    results.batchFairness = {
      upstreamLatencyMs: CFG.upstreamLatencyMs,
      upstreamMaxConcurrency: B.concurrency,
      rowsPerBatch: B.rows,
      lookups: n,
      idle: coldFigures(idle, CFG.upstreamLatencyMs),
      besideTwoBatches: coldFigures(loaded, CFG.upstreamLatencyMs),
      ratioP50: ratio,
      batchRowsAnsweredDuringMeasurement: rowsAtEnd.map((e, i) => e - rowsAtStart[i]),
      batchesRanThroughout: ranThroughout,
    };
    row(S, `idle: ${n} cold GETs, p50 / p90 ms`, `${idleP50} / ${round(percentile(idle, 90), 1)}`);
    row(S, `beside two batches: ${n} cold GETs, p50 / p90 ms`, `${loadedP50} / ${round(percentile(loaded, 90), 1)}`);
    row(
      S,
      'batch rows answered meanwhile; both still running at the end',
      `${rowsAtEnd.map((e, i) => e - rowsAtStart[i]).join(' + ')}; ${ranThroughout ? 'yes' : 'no'}`,
      'yes',
      ranThroughout,
    );
    row(S, 'p50 beside two batches / p50 idle', ratio, `<= ${B.interactiveGoalFactor}`, ratio <= B.interactiveGoalFactor);
  } finally {
    for (const b of batches) b.post?.abort();
    await service.stop();
  }
}
