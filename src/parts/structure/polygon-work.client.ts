import { extname, join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Piscina } from 'piscina';
import type { AppConfig } from '../../config/app-config';
import { ServiceMetrics } from '../../metrics/service-metrics';
import type { Footprint } from './structure.types';
import { BrokenPolygonError } from './footprint-zones';
import type { PolygonJob } from './polygon.worker';
import { type PolygonTask, type PolygonTaskKind, type PolygonTasks, runPolygonTask } from './polygon-tasks';

/**
 * Polygon work of more vertices than this (all the task's polygons together) runs in a worker thread; less stays on the
 * event loop, where a house's few dozen vertices are checked and clipped in well under a millisecond and a thread hop
 * would cost more than the work.
 */
export const INLINE_MAX_VERTICES = 250;

/** Tasks each worker may have waiting beyond the one it runs; more at once are refused (PolygonWorkRefused 'busy'). */
export const QUEUED_PER_WORKER = 4;

/** A worker left idle this long is stopped (a new one starts with the next large polygon). */
const IDLE_WORKER_MS = 60_000;

/**
 * How much lower the worker threads' CPU priority is than the event loop's (Linux nice, through piscina's optional
 * @napi-rs/nice): on a machine of two cores, polygon work takes what the loop leaves, not the other way round.
 */
const WORKER_NICENESS = 10;

/** The heap a worker thread may fill: a task that needs more is hostile (its thread dies, and is replaced). */
const WORKER_HEAP_MB = 256;

/** Why the pool did not answer a task: past its deadline or its memory (its thread was stopped), or too many tasks waiting. */
export class PolygonWorkRefused extends Error {
  constructor(
    readonly reason: 'deadline' | 'memory' | 'busy',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The worker thread's file, as this module was loaded: the compiled `.js` beside it in production, the `.ts` source
 * under ts-jest or ts-node, which a worker thread can only load with ts-node registered in it.
 */
function workerFile(): { filename: string; execArgv: string[] } {
  const extension = extname(__filename);
  const filename = join(__dirname, `polygon.worker${extension}`);
  return extension === '.ts' ? { filename, execArgv: ['--require', 'ts-node/register/transpile-only'] } : { filename, execArgv: [] };
}

/**
 * How many [lon, lat] positions a task's input holds, wherever they are nested: counted without recursion and without
 * spreading (a county's ring of 200,000 positions is no argument list), so at any depth and any size.
 */
export function positionsIn(input: unknown): number {
  let count = 0;
  const pending: unknown[] = [input];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value) && typeof value[0] === 'number') count += 1;
    else if (typeof value === 'object' && value !== null) for (const inner of Array.isArray(value) ? value : Object.values(value)) pending.push(inner);
  }
  return count;
}

/**
 * Where long polygon work runs: a piscina pool of POLYGON_WORKERS threads, started only when a large polygon comes
 * (an instance that never meets one never starts a thread), each task bounded by POLYGON_DEADLINE_MS. A task past its
 * deadline has its thread stopped and replaced, so no polygon holds the event loop or a thread for long; probes,
 * other lookups and SIGTERM are answered meanwhile.
 */
@Injectable()
export class PolygonWork implements OnModuleDestroy {
  private readonly deadlineMs: number;
  private readonly capacity: number;
  private readonly pool: Piscina<PolygonJob, unknown>;
  /** Tasks handed to the pool and not settled: running and waiting. */
  private inPool = 0;

  constructor(
    config: ConfigService<AppConfig, true>,
    private readonly metrics: ServiceMetrics,
  ) {
    this.deadlineMs = config.get('POLYGON_DEADLINE_MS', { infer: true });
    const workers = config.get('POLYGON_WORKERS', { infer: true });
    this.capacity = workers * (1 + QUEUED_PER_WORKER);
    this.pool = new Piscina({
      ...workerFile(),
      minThreads: 0,
      maxThreads: workers,
      idleTimeout: IDLE_WORKER_MS,
      concurrentTasksPerWorker: 1,
      niceIncrement: WORKER_NICENESS,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 8 },
    });
  }

  /** The pool's deadline, for messages. */
  get deadline(): number {
    return this.deadlineMs;
  }

  /**
   * Runs a task: inline when small, else in a worker within the deadline. Rejects with PolygonWorkRefused past the
   * deadline or when the pool is full, and with the signal's reason when the caller stops waiting (the thread stopped).
   */
  async run<K extends PolygonTaskKind>(kind: K, input: PolygonTasks[K]['input'], signal?: AbortSignal): Promise<PolygonTasks[K]['output']> {
    const task: PolygonTask<K> = { kind, input };
    if (positionsIn(input) <= INLINE_MAX_VERTICES) return runPolygonTask(task);
    if (this.inPool >= this.capacity) {
      this.metrics.polygonTaskSettled('busy');
      throw new PolygonWorkRefused('busy', `${this.capacity} polygon tasks are already running or waiting`);
    }
    const deadline = new AbortController();
    const channel = new MessageChannel();
    let timer: NodeJS.Timeout | undefined;
    // The deadline counts from the task's start in its thread: a wait in the queue, or a thread starting, is no work.
    channel.port1.once('message', () => {
      timer = setTimeout(() => deadline.abort(), this.deadlineMs);
    });
    this.inPool += 1;
    this.metrics.polygonTasksInPool(this.inPool);
    try {
      const job: PolygonJob = { task, started: channel.port2 };
      const answer = await this.pool.run(job, { transferList: [channel.port2], signal: signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal });
      this.metrics.polygonTaskSettled('done');
      return answer as PolygonTasks[K]['output'];
    } catch (error) {
      if (deadline.signal.aborted) {
        this.metrics.polygonTaskSettled('deadline');
        throw new PolygonWorkRefused('deadline', `the polygon work took longer than ${this.deadlineMs} ms`);
      }
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        this.metrics.polygonTaskSettled('memory');
        throw new PolygonWorkRefused('memory', `the polygon work needed more than ${WORKER_HEAP_MB} MiB`);
      }
      this.metrics.polygonTaskSettled(signal?.aborted ? 'abandoned' : 'failed');
      throw signal?.aborted ? signal.reason : error;
    } finally {
      clearTimeout(timer);
      channel.port1.close();
      this.inPool -= 1;
      this.metrics.polygonTasksInPool(this.inPool);
    }
  }

  /**
   * Square metres of the footprint each polygon covers, in the order given. Rejects with BrokenPolygonError when one of
   * the polygons breaks the polygon rules, as footprintAreasCovered throws, and as run rejects.
   */
  async areasCovered(footprint: Footprint, polygons: ReadonlyArray<{ rings: number[][][] }>, signal: AbortSignal): Promise<number[]> {
    const measured = await this.run('areasCovered', { footprint, polygons: polygons.map(({ rings }) => ({ rings })) }, signal);
    if ('broken' in measured) throw new BrokenPolygonError(measured.broken);
    return measured.value;
  }

  /** Stops every worker thread, so the process exits without waiting for one. */
  async onModuleDestroy(): Promise<void> {
    await this.pool.destroy();
  }
}
