import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { UpstreamName } from '../common/api-error';
import type { CallOutcome, CircuitName, CircuitStateName, UpstreamObserver } from '../common/upstream/resilient-upstream';

const CIRCUIT_VALUE: Record<CircuitStateName, number> = { closed: 0, open: 1, half_open: 2, isolated: 3 };

type RequestLabel = 'route' | 'method' | 'status';

export type CacheName = 'flood' | 'geocode' | 'place';
export type CacheOutcome = 'hit' | 'miss' | 'stale';

export interface LastAttempt {
  outcome: CallOutcome;
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
    this.lastAttempts.set(upstream, { outcome, at: Date.now() });
  }

  /** The latest attempt on an upstream since start-up, if any. */
  lastAttempt(upstream: UpstreamName): LastAttempt | undefined {
    return this.lastAttempts.get(upstream);
  }

  /** Also called once per circuit as it is created, so every circuit has a value before it ever changes. */
  circuitChanged(circuit: CircuitName, state: CircuitStateName): void {
    this.circuit.set({ upstream: circuit }, CIRCUIT_VALUE[state]);
  }

  cacheLookup(cache: CacheName, outcome: CacheOutcome): void {
    this.cacheLookups.inc({ cache, outcome });
  }
}
