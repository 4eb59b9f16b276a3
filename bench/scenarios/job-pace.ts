/**
 * Scenario 12: the pace of a portfolio job at the default upstream budget (JOB_UPSTREAM_RATE_PER_SECOND 20), as
 * whoever submits one will see it: one built service process with the default JOB_WORKERS and concurrency, 50 ms
 * per upstream call, a portfolio of lat/lon rows whose every third row repeats an earlier point (as scenario 11's),
 * watched through GET /flood-zone/jobs/{id} every second for BENCH_JOB_PACE_SECONDS, then cancelled. Figures:
 * rows per hour (the rows done over the run, scaled to an hour), the hours 1,000,000 rows take at that pace, NFHL
 * calls per row, and the longest the job's `done` stood still while rows were answered.
 */
import { DisposableRedis } from '../../test/support/redis-server';
import { csvPieces, postPieces } from '../../test/support/streamed-body';
import { CENTRE, CFG } from '../config';
import { Emulators, Service, expectOk, httpGet, keepAlive, round, sleep } from '../lib';
import { PointGrid } from '../points';
import { log, results, row } from '../report';
import { jobRows } from './jobs';

const S = '12 job pace at the default budget';
const JOBS = '/flood-zone/jobs';
/** The budget every deployment starts with. */
const DEFAULT_RATE = 20;
/** How often the job's status is read, as `job wait` does. */
const POLL_MS = 1000;

export async function jobPace(emulators: Emulators): Promise<void> {
  const P = CFG.jobPace;
  const { points, distinctPoints } = jobRows(new PointGrid(CENTRE), P.rows);
  await emulators.setLatency(CFG.upstreamLatencyMs);
  const agent = keepAlive(2);
  const redis = await DisposableRedis.start();
  let service: Service | undefined;
  try {
    service = await Service.start(emulators.env, { JOBS_REDIS_URL: redis.url, JOB_UPSTREAM_RATE_PER_SECOND: String(DEFAULT_RATE) });
    log(`${S}: ${P.rows} rows (${distinctPoints} distinct points) submitted, watched for ${P.seconds} s`);
    await emulators.resetCalls();
    const submittedAt = performance.now();
    const submitted = await postPieces(
      service.base,
      JOBS,
      'text/csv',
      csvPieces('id,lat,lon', P.rows, (r) => `j${r},${points[r].lat},${points[r].lon}`),
    );
    if (submitted.status !== 202) throw new Error(`job: HTTP ${submitted.status} ${JSON.stringify(submitted.body)}`);
    const id = submitted.body.id as string;

    let done = 0;
    let movedAt = submittedAt;
    let longestStillMs = 0;
    let firstEta: { done: number; etaSeconds: number } | undefined;
    const endAt = submittedAt + P.seconds * 1000;
    while (performance.now() < endAt) {
      await sleep(POLL_MS);
      const status = expectOk(await httpGet(`${service.base}${JOBS}/${id}`, agent), 'job status');
      const now = performance.now();
      if (status.done > done) {
        // Only while rows are answered: the first move includes the upload and the first rows' layer lists.
        if (done > 0) longestStillMs = Math.max(longestStillMs, now - movedAt);
        done = status.done;
        movedAt = now;
      }
      if (!firstEta && status.etaSeconds !== null) firstEta = { done: status.done, etaSeconds: status.etaSeconds };
      if (status.status !== 'running' && status.status !== 'queued') throw new Error(`job ended ${status.status} before the run did`);
    }
    const elapsedS = (performance.now() - submittedAt) / 1000;
    const nfhlCalls = Object.entries(await emulators.breakdown())
      .filter(([key]) => key.startsWith('nfhl query '))
      .reduce((sum, [, count]) => sum + count, 0);
    await fetch(`${service.base}${JOBS}/${id}`, { method: 'DELETE' });

    const rowsPerHour = Math.round((done / elapsedS) * 3600);
    const hoursForAMillion = round(1_000_000 / rowsPerHour, 1);
    const callsPerRow = round(nfhlCalls / Math.max(1, done), 2);
    results.jobPace = {
      rate: DEFAULT_RATE,
      rowsSubmitted: P.rows,
      seconds: round(elapsedS, 1),
      rowsDone: done,
      rowsPerHour,
      hoursForAMillionRows: hoursForAMillion,
      nfhlCallsPerRow: callsPerRow,
      longestStillSeconds: round(longestStillMs / 1000, 1),
      firstEta,
    };
    row(S, `rows done in ${round(elapsedS, 0)} s; NFHL calls per row`, `${done}; ${callsPerRow}`);
    row(S, 'rows per hour (the run scaled to an hour); hours for 1,000,000 rows', `${rowsPerHour}; ${hoursForAMillion}`);
    row(S, 'longest time done stood still while rows were answered, s', round(longestStillMs / 1000, 1), '<= 5', longestStillMs <= 5000);
    row(S, 'first time left given: at rows done; s', firstEta ? `${firstEta.done}; ${firstEta.etaSeconds}` : 'none');
  } finally {
    await service?.stop();
    await redis.stop();
  }
}
