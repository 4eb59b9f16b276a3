import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallOutcome, CircuitStateName, UpstreamObserver } from '../common/upstream/resilient-upstream';
import type { CircuitName, UpstreamName } from '../common/upstream/upstream-registry';

const CIRCUIT_VALUE: Record<CircuitStateName, number> = { closed: 0, open: 1, half_open: 2, isolated: 3 };

type RequestLabel = 'route' | 'method' | 'status';

export type CacheName = 'flood' | 'geocode' | 'place' | 'picture' | 'held';
export type PolygonTaskOutcome = 'done' | 'deadline' | 'memory' | 'busy' | 'abandoned' | 'failed';
export type CacheOutcome = 'hit' | 'miss' | 'stale';

/** Where the job gauges are read from: every job kept in the jobs' Redis, all replicas together. */
export type JobCensus = () => Promise<{ byStatus: Record<string, number>; rowsPerSecond: number }>;

export interface LastAttempt {
  /** An abandoned attempt says nothing of the upstream: never the last call. */
  outcome: Exclude<CallOutcome, 'abandoned'>;
  /** Epoch milliseconds when it ended. */
  at: number;
}

/** Prometheus metrics of one application instance (its own registry, so test apps never collide). */
@Injectable()
export class ServiceMetrics implements UpstreamObserver {
  readonly registry = new Registry();

  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  private readonly requestSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25],
    registers: [this.registry],
  });

  private readonly upstreamSeconds = new Histogram({
    name: 'upstream_request_duration_seconds',
    help: 'Latency of each upstream attempt by upstream and outcome',
    labelNames: ['upstream', 'outcome'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
    registers: [this.registry],
  });

  private readonly cacheLookups = new Counter({
    name: 'cache_lookups_total',
    help: 'Cache lookups by cache and outcome (hit, miss, stale)',
    labelNames: ['cache', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly circuit = new Gauge({
    name: 'upstream_circuit_state',
    help: 'Circuit breaker state per upstream operation (geocoder_point: county and ZIP of a point): 0 closed, 1 open, 2 half-open, 3 isolated',
    labelNames: ['upstream'] as const,
    registers: [this.registry],
  });

  private readonly jobs = new Gauge({
    name: 'jobs',
    help: 'Portfolio jobs kept in Redis by status, all replicas together (read at each scrape)',
    labelNames: ['status'] as const,
    registers: [this.registry],
    collect: () => this.readJobCensus(),
  });

  private readonly jobRowsPerSecond = new Gauge({
    name: 'job_rows_per_second',
    help: 'Rows per second of the running portfolio jobs since each started, all replicas together (read at each scrape)',
    registers: [this.registry],
    collect: () => this.readJobCensus(),
  });

  private readonly jobRowsDone = new Counter({
    name: 'job_rows_done_total',
    help: "Portfolio job rows answered and stored by this process's workers",
    registers: [this.registry],
  });

  private readonly jobChunkRetries = new Counter({
    name: 'job_chunk_retries_total',
    help: 'Portfolio job chunks taken again (their worker died, was stopped or failed) by this process',
    registers: [this.registry],
  });

  private readonly jobLimiterWaits = new Counter({
    name: 'job_limiter_waits_total',
    help: 'Upstream calls of portfolio jobs that waited for their turn in the shared per-upstream rate, by upstream',
    labelNames: ['upstream'] as const,
    registers: [this.registry],
  });

  private readonly jobLimiterWaitSeconds = new Counter({
    name: 'job_limiter_wait_seconds_total',
    help: 'Time upstream calls of portfolio jobs waited for their turn in the shared per-upstream rate, by upstream',
    labelNames: ['upstream'] as const,
    registers: [this.registry],
  });

  private readonly jobUpstreamCalls = new Counter({
    name: 'job_upstream_calls_total',
    help: 'Upstream calls (each attempt sent, retries included) made by portfolio job work of this process, by upstream',
    labelNames: ['upstream'] as const,
    registers: [this.registry],
  });

  private jobCensus?: JobCensus;
  /** The census under way: both job gauges of one scrape read the same one. */
  private censusUnderWay?: Promise<void>;

  private readonly pictureSeconds = new Histogram({
    name: 'map_picture_compose_seconds',
    help: 'Time to composite one map picture (the decoded layers in, the PNG out), by whether the basemap was shown; its count is the pictures composed',
    labelNames: ['basemap'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });

  private readonly heldAnswers = new Counter({
    name: 'nfhl_held_answers_total',
    help: 'NFHL layer answers at a point taken from features held for a whole area instead of a point query: each an upstream call saved, by layer',
    labelNames: ['layer'] as const,
    registers: [this.registry],
  });

  private readonly heldBytes = new Gauge({
    name: 'nfhl_held_bytes',
    help: 'Memory (bytes, estimated) of the NFHL features this process holds for whole areas (bounded by HELD_POLYGONS_MAX_MB)',
    registers: [this.registry],
  });

  private readonly polygonTasks = new Gauge({
    name: 'polygon_tasks_in_pool',
    help: 'Polygon tasks (checks and clipping of large polygons) handed to the worker threads and not yet settled: running and waiting',
    registers: [this.registry],
  });

  private readonly polygonOutcomes = new Counter({
    name: 'polygon_tasks_total',
    help: 'Polygon tasks given to the worker threads by outcome: done, deadline (past POLYGON_DEADLINE_MS, its thread stopped), memory (its thread out of heap), busy (refused, the pool full), abandoned, failed',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Label sets seen so far: prom-client hashes a label object on every call, a hit should not pay for it. */
  private readonly requestSeries = new Map<string, { count: Counter.Internal; seconds: Histogram.Internal<RequestLabel> }>();

  requestFinished(route: string, method: string, status: number, seconds: number): void {
    const key = `${route} ${method} ${status}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels = { route, method, status: String(status) };
      series = { count: this.requests.labels(labels), seconds: this.requestSeconds.labels(labels) };
      this.requestSeries.set(key, series);
    }
    series.count.inc();
    series.seconds.observe(seconds);
  }

  /** Each upstream's latest attempt, for /health: "did FEMA answer the last time it was asked?" */
  private readonly lastAttempts = new Map<UpstreamName, LastAttempt>();

  attemptFinished(upstream: UpstreamName, outcome: CallOutcome, seconds: number): void {
    this.upstreamSeconds.observe({ upstream, outcome }, seconds);
    if (outcome !== 'abandoned') this.lastAttempts.set(upstream, { outcome, at: Date.now() });
  }

  /** The latest attempt on an upstream since start-up, if any. */
  lastAttempt(upstream: UpstreamName): LastAttempt | undefined {
    return this.lastAttempts.get(upstream);
  }

  /** Also called once per circuit as it is created, so every circuit has a value before it ever changes. */
  circuitChanged(circuit: CircuitName, state: CircuitStateName): void {
    this.circuit.set({ upstream: circuit }, CIRCUIT_VALUE[state]);
  }

  pictureComposed(basemapShown: boolean, seconds: number): void {
    this.pictureSeconds.observe({ basemap: basemapShown ? 'shown' : 'unavailable' }, seconds);
  }

  /** A layer answered from held features: one upstream call saved. */
  polygonTasksInPool(count: number): void {
    this.polygonTasks.set(count);
  }

  polygonTaskSettled(outcome: PolygonTaskOutcome): void {
    this.polygonOutcomes.inc({ outcome });
  }

  heldAnswer(layer: string): void {
    this.heldAnswers.inc({ layer });
  }

  heldMemory(bytes: number): void {
    this.heldBytes.set(bytes);
  }

  cacheLookup(cache: CacheName, outcome: CacheOutcome): void {
    this.cacheLookups.inc({ cache, outcome });
  }

  /** Where the job gauges are read from (only when jobs have a Redis). */
  watchJobs(census: JobCensus): void {
    this.jobCensus = census;
  }

  jobRowsStored(rows: number): void {
    this.jobRowsDone.inc(rows);
  }

  jobChunkRetried(): void {
    this.jobChunkRetries.inc();
  }

  jobLimiterWaited(upstream: UpstreamName, seconds: number): void {
    this.jobLimiterWaits.inc({ upstream });
    this.jobLimiterWaitSeconds.inc({ upstream }, seconds);
  }

  jobUpstreamCalled(upstream: UpstreamName): void {
    this.jobUpstreamCalls.inc({ upstream });
  }

  private readJobCensus(): Promise<void> {
    const census = this.jobCensus;
    if (!census) return Promise.resolve();
    this.censusUnderWay ??= (async () => {
      try {
        const { byStatus, rowsPerSecond } = await census();
        for (const [status, count] of Object.entries(byStatus)) this.jobs.set({ status }, count);
        this.jobRowsPerSecond.set(rowsPerSecond);
      } catch {
        // A scrape while Redis is away keeps the last values: the metrics never fail because of it.
      } finally {
        this.censusUnderWay = undefined;
      }
    })();
    return this.censusUnderWay;
  }
}
