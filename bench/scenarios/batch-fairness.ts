/**
 * Scenario 8: interactive GETs beside two batches of scenario 7 and idle, in A-B-B-A rounds (interleaved.ts): a
 * batch may take only its share of the upstreams. For each round beside them, both batches start on their next
 * slice of rows and are cut off once the round's GETs are done; the next idle round waits until the upstreams
 * are quiet.
 */
import * as http from 'node:http';
import { CFG, POINTS } from '../config';
import { Rounds, interleave, spreadLabel, spreadText } from '../interleaved';
import { Emulators, Service, keepAlive, percentile, postStreamed, sleep } from '../lib';
import { PortfolioRow, portfolio } from '../portfolio';
import { coldFigures, log, results, row } from '../report';
import { batchBody, batchReader, startBatchService } from './batch';
import { coldGets } from './cold';

const BATCH_SETTLE_MS = 1000;

/** What the batches did while one round's GETs ran beside them. */
interface BatchesMeanwhile {
  rowsAnswered: number[];
  ranThroughout: boolean;
}

/** Returns once the emulators have had no call for 200 ms: the cut-off batches' last calls are done. */
async function upstreamsQuiet(emulators: Emulators): Promise<void> {
  let last = -1;
  for (let i = 0; i < 50; i++) {
    const { nfhlTotal, censusTotal } = await emulators.counts();
    if (nfhlTotal + censusTotal === last) return;
    last = nfhlTotal + censusTotal;
    await sleep(200);
  }
  throw new Error('the upstreams were still called 10 s after the batches were cut off');
}

/** `gets` cold GETs while two batches of `slices` run: both are started, measured a second after both stream rows, then cut off. */
async function besideTwoBatches(
  service: Service,
  agent: http.Agent,
  emulators: Emulators,
  slices: PortfolioRow[][],
  gets: number,
): Promise<{ ms: number[]; meanwhile: BatchesMeanwhile }> {
  const batches = slices.map((rows) => {
    const { reader, onLine } = batchReader(rows);
    const post = postStreamed(`${service.base}/flood-zone/batch`, 'application/json', batchBody(rows), onLine);
    const batch = { reader, post, finished: false };
    post.done.then(
      () => (batch.finished = true),
      () => (batch.finished = true),
    );
    return batch;
  });
  try {
    const until = Date.now() + 60_000;
    while (batches.some((b) => !b.finished && b.post.lines === 0) && Date.now() < until) await sleep(20);
    for (const b of batches) {
      if (b.post.status !== 200 || b.post.lines === 0) throw new Error(`a batch did not start streaming: HTTP ${b.post.status}, ${b.post.lines} lines`);
    }
    // past their start (the body read, the addresses geocoded, the first window of rows at once): the GETs are
    // measured beside batches under way, as a batch is for most of its life
    await sleep(BATCH_SETTLE_MS);
    const rowsAtStart = batches.map((b) => b.post.lines);
    const ms = await coldGets(
      service,
      agent,
      Array.from({ length: gets }, () => POINTS.next()),
    );
    const meanwhile = { rowsAnswered: batches.map((b, i) => b.post.lines - rowsAtStart[i]), ranThroughout: batches.every((b) => !b.finished) };
    const problem = batches.map((b) => b.reader.problem).find(Boolean);
    if (problem) throw new Error(`batch answer: ${problem}`);
    return { ms, meanwhile };
  } finally {
    for (const b of batches) b.post.abort();
    await Promise.allSettled(batches.map((b) => b.post.done));
    await upstreamsQuiet(emulators);
  }
}

export async function batchFairness(emulators: Emulators): Promise<void> {
  const S = '8 GET beside 2 batches';
  const B = CFG.batch;
  const { interactiveRounds: rounds, interactiveBlock: block } = B;
  const n = rounds * block;
  // each round beside the batches takes each batch's next slice of its portfolio, so no round repeats another's rows
  const sliceRows = Math.floor(B.rows / rounds);
  const portfolios = [0, 1].map((set) => portfolio(set, B.rows).rows);
  log(
    `${S}: ${n} sequential cold GETs idle and ${n} beside two batches of ${sliceRows} rows (UPSTREAM_MAX_CONCURRENCY=${B.concurrency}), in ${rounds} A-B-B-A rounds of ${block} each`,
  );
  const agent = keepAlive(1);
  const service = await startBatchService(emulators, agent);
  const meanwhile: BatchesMeanwhile[] = [];
  let measured: Rounds<'idle' | 'beside', number[]>;
  try {
    measured = await interleave(['idle', 'beside'] as const, rounds, async (kind, r) => {
      if (kind === 'idle')
        return coldGets(
          service,
          agent,
          Array.from({ length: block }, () => POINTS.next()),
        );
      const slices = portfolios.map((rows) => rows.slice(r * sliceRows, (r + 1) * sliceRows));
      const beside = await besideTwoBatches(service, agent, emulators, slices, block);
      meanwhile.push(beside.meanwhile);
      return beside.ms;
    });
  } finally {
    await service.stop();
  }
  const p50 = (ms: number[]) => percentile(ms, 50);
  const ratio = measured.compare('beside', 'idle', (beside, idle) => p50(beside) / p50(idle), 2);
  const idle = coldFigures(measured.of('idle').flat(), CFG.upstreamLatencyMs);
  const beside = coldFigures(measured.of('beside').flat(), CFG.upstreamLatencyMs);
  const ranThroughout = meanwhile.every((m) => m.ranThroughout);
  results.batchFairness = {
    upstreamLatencyMs: CFG.upstreamLatencyMs,
    upstreamMaxConcurrency: B.concurrency,
    rowsPerBatchPerRound: sliceRows,
    rounds,
    lookupsPerRound: block,
    idle,
    besideTwoBatches: beside,
    ratioP50: ratio,
    batchesEachRound: meanwhile,
    batchesRanThroughout: ranThroughout,
  };
  row(S, `idle: ${n} cold GETs, p50 / p90 ms`, `${idle.p50Ms} / ${idle.p90Ms}`);
  row(S, `beside two batches: ${n} cold GETs, p50 / p90 ms`, `${beside.p50Ms} / ${beside.p90Ms}`);
  const rowsAnswered = meanwhile.map((m) => m.rowsAnswered.join(' + '));
  row(
    S,
    'batch rows answered meanwhile, each round; both still running at the end of every round',
    `${rowsAnswered.join(', ')}; ${ranThroughout ? 'yes' : 'no'}`,
    'yes',
    ranThroughout,
  );
  row(
    S,
    `p50 beside two batches / p50 idle, ${spreadLabel(rounds)}`,
    spreadText(ratio),
    `<= ${B.interactiveGoalFactor}`,
    ratio.median <= B.interactiveGoalFactor,
  );
}
