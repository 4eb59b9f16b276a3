import { OnApplicationBootstrap, BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { DelayedError, Job } from 'bullmq';
import { BatchLookupService } from '../batch/batch-lookup.service';
import { CsvRecord } from '../batch/batch-row';
import { isDegraded, isLookup, isPolygonsBusy, type RowAnswer } from '../batch/row-answer';
import { asSecondTry } from '../cache/piece-cache';
import { DrainState } from '../common/drain-state';
import { asJobWork } from '../common/upstream/resilient-upstream';
import { UpstreamCallBudget } from '../common/upstream/upstream-call-budget';
import type { AppConfig } from '../config/app-config';
import type { LookupOptions } from '../lookup/location-query';
import { ServiceMetrics } from '../metrics/service-metrics';
import { CHUNK_ROWS } from './job-chunks';
import { ChunkProgress } from './chunk-progress';
import { CountedCallBudget } from './counted-call-budget';
import { JobStore } from './job-store';
import { isRedisOutage, JobsRedis } from './jobs-redis';
import { CHUNK_QUEUE, ChunkOrder } from './portfolio-jobs';

/**
 * How long a worker's hold on a chunk lasts unless renewed (BullMQ renews it every half of this while the
 * worker lives), and how often every worker looks for chunks whose hold lapsed: a chunk whose worker died
 * is taken again by another within about twice this.
 */
export const CHUNK_LOCK_MS = 5000;
/** How many times a chunk may be taken again after its worker died before the job fails. */
const MAX_CHUNK_STALLS = 20;
/** How often a worker checks whether the job of its chunk was cancelled. */
const CANCEL_CHECK_MS = 250;

/**
 * Answers chunks of portfolio jobs, JOB_WORKERS at once: each row exactly as GET /flood-zone answers it,
 * through the batch machinery (the shared cache, one lookup per distinct point, the batch lane of each
 * upstream), within the upstream budget every replica shares; then writes the chunk's answers once.
 */
@Processor(CHUNK_QUEUE, { autorun: false, lockDuration: CHUNK_LOCK_MS, stalledInterval: CHUNK_LOCK_MS, maxStalledCount: MAX_CHUNK_STALLS })
export class ChunkWorker extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ChunkWorker.name);
  private readonly concurrency: number;
  /** Whether the worker has ever reached Redis. */
  private reachedRedis = false;

  constructor(
    private readonly store: JobStore,
    private readonly batches: BatchLookupService,
    private readonly budget: UpstreamCallBudget,
    private readonly drain: DrainState,
    private readonly metrics: ServiceMetrics,
    private readonly redis: JobsRedis,
    config: ConfigService<AppConfig, true>,
  ) {
    super();
    this.concurrency = config.get('JOB_WORKERS', { infer: true });
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.concurrency;
    this.worker.once('ready', () => (this.reachedRedis = true));
    // An outage is logged once, by JobsRedis, not at each failed reconnection.
    this.worker.on('error', (error) => !isRedisOutage(error) && this.logger.warn({ err: error }, 'job chunk worker: Redis error'));
    this.worker.on('failed', (order, error) => void this.failed(order, error));
    // On SIGTERM no chunk is taken any more; the chunks under way are finished or handed back (see process).
    this.drain.stopping.addEventListener('abort', () => void this.worker.close(), { once: true });
    // Never on a Redis that may evict job data: the worker starts once the jobs Redis is accepted.
    void this.redis.accepted.then(() => {
      if (this.drain.stopping.aborted) return;
      this.worker.run().catch((error: unknown) => this.logger.error({ err: error }, 'job chunk worker stopped'));
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    // A worker that never reached Redis has no chunk to finish or hand back, and its close would wait for ever
    // for the connection it is still trying to open.
    if (this.reachedRedis) await this.worker.close();
    else void this.worker.close(true).catch(() => undefined);
  }

  async process(order: Job<ChunkOrder>, token?: string): Promise<void> {
    // A chunk holds the drain as a request does: on SIGTERM its rows under way finish (what they loaded kept for
    // whoever retakes the chunk) before the service stops, and are cut only once the drain's time is up.
    this.drain.entered();
    try {
      await this.answerChunk(order, token);
    } finally {
      this.drain.left();
    }
  }

  private async answerChunk(order: Job<ChunkOrder>, token?: string): Promise<void> {
    const { jobId, chunk } = order.data;
    if (order.attemptsStarted > 1) this.metrics.jobChunkRetried();
    if ((await this.store.beginChunk(jobId, new Date())) !== 'running') return;
    // Taken again after its answers were written (its worker died just after): nothing left to do.
    if (await this.store.chunkAnswered(jobId, chunk)) return;
    const [record, rows] = await Promise.all([this.store.record(jobId), this.store.inputRows(jobId, chunk)]);
    if (!record || !rows) return;
    const options: LookupOptions = { include: new Set(record.include), radiusM: record.radiusM };
    const answers = await this.answer(jobId, chunk, rows, options);
    if (answers.length < rows.length) {
      if (!this.drain.stopping.aborted) return;
      // Shutting down: the chunk goes back to the queue at once, for a worker of another replica.
      await order.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    if ((await this.store.writeAnswers(jobId, chunk, answers, new Date())) !== 'not_written') this.metrics.jobRowsStored(answers.length);
  }

  /**
   * The chunk's answers in input order, each with its index in the whole job; fewer than its rows when the
   * job was cancelled (no row starts after that, and the rows under way stop) or the service is stopping
   * (no row starts; past the drain's end the rows under way stop too). Once every row is answered, the degraded
   * ones and those the polygon pool was too full for are answered a second time (see answerAgain).
   */
  private async answer(jobId: string, chunk: number, rows: unknown[], options: LookupOptions): Promise<RowAnswer[]> {
    const cancelled = new AbortController();
    const stop = () => cancelled.abort();
    let checking = false;
    const watch = setInterval(() => {
      if (checking) return;
      checking = true;
      this.store
        .status(jobId)
        .then((status) => status !== 'running' && stop())
        .catch(() => undefined)
        .finally(() => (checking = false));
    }, CANCEL_CHECK_MS);
    this.drain.overdue.addEventListener('abort', stop, { once: true });
    // This chunk attempt's calls, counted apart from other chunks' in the budget they share.
    const budget = new CountedCallBudget(this.budget, (upstream) => this.metrics.jobUpstreamCalled(upstream));
    const progress = new ChunkProgress(
      (rows) => budget.calls(rows),
      (answered, calls) => this.store.noteProgress(jobId, chunk, answered, calls),
    );
    const answers: RowAnswer[] = [];
    const offset = chunk * CHUNK_ROWS;
    // Taken now: the batch lets go of each row as it starts.
    const otherCells = rows.map((row) => (row instanceof CsvRecord && row.otherCells.length > 0 ? row.otherCells : undefined));
    try {
      await asJobWork(budget, async () => {
        await this.batches.run(
          rows,
          options,
          jobId,
          cancelled.signal,
          (answer) => {
            answers.push({ ...answer, index: answer.index + offset, otherCells: otherCells[answer.index] });
            progress.answered(answers.length);
            return Promise.resolve();
          },
          this.drain.stopping,
        );
        if (answers.length === rows.length) await this.answerAgain(jobId, chunk, answers, options, cancelled.signal);
      });
    } finally {
      clearInterval(watch);
      this.drain.overdue.removeEventListener('abort', stop);
      // Before the chunk is written, so that a completed job's status already counts all its calls.
      await progress.end();
    }
    return answers;
  }

  /**
   * Answers once more, after the chunk's other rows, each row answered with a part unavailable (an upstream that
   * failed for it), reading afresh what was cached of it for a shortened life (see asSecondTry), and each row whose
   * footprint found the polygon pool full (503 POLYGONS_BUSY), the pool by then freed of the chunk's other rows. A
   * degraded row answered the second time takes that answer, in its place (one that fails outright keeps its first,
   * which says more); a busy row takes its second answer whatever it is (still busy, it stays a 503 among the job's
   * errors). As the first time, no row starts once the job is cancelled or the service is stopping.
   */
  private async answerAgain(jobId: string, chunk: number, answers: RowAnswer[], options: LookupOptions, cancelled: AbortSignal): Promise<void> {
    const retried = answers.flatMap((answer, n) => (isDegraded(answer) || isPolygonsBusy(answer) ? [n] : []));
    if (retried.length === 0) return;
    // The batch let go of the rows it answered: they are read again from the job's input, still stored.
    const rows = await this.store.inputRows(jobId, chunk);
    if (!rows) return;
    const again = (answer: RowAnswer) => {
      const first = answers[retried[answer.index]];
      if (isLookup(answer) || isPolygonsBusy(first)) answers[retried[answer.index]] = { ...answer, index: first.index, otherCells: first.otherCells };
      return Promise.resolve();
    };
    const rowsAgain = retried.map((n) => rows[n]);
    await asSecondTry(() => this.batches.run(rowsAgain, options, jobId, cancelled, again, this.drain.stopping));
  }

  /** A chunk that failed for good (every attempt, or stalled too often) fails its job. */
  private async failed(order: Job<ChunkOrder> | undefined, error: Error): Promise<void> {
    if (!order) return;
    this.logger.warn({ err: error, job: order.data.jobId, chunk: order.data.chunk }, 'job chunk failed');
    try {
      if ((await order.getState()) === 'failed') await this.store.end(order.data.jobId, 'failed', new Date());
    } catch (failure) {
      this.logger.error({ err: failure, job: order.data.jobId }, 'job could not be marked failed');
    }
  }
}
