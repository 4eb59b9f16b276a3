import { Counter, Gauge } from 'prom-client';
import { ServiceMetrics } from '../metrics/service-metrics';
import type { WatchEventKind } from './watch-fingerprint';

export type DeliveryMetricOutcome = 'delivered' | 'failed' | 'refused' | 'abandoned';

/**
 * The watches' metrics, on the service's registry (/metrics): watched locations, sweeps, locations answered again by
 * sweeps, events by kind, deliveries by outcome.
 */
export class WatchMetrics {
  private readonly sweeps: Counter<'outcome'>;
  private readonly rechecks: Counter;
  private readonly events: Counter<'kind'>;
  private readonly deliveries: Counter<'outcome'>;
  private watched: () => Promise<number> = () => Promise.resolve(0);

  constructor(metrics: ServiceMetrics) {
    const registers = [metrics.registry];
    this.sweeps = new Counter({ name: 'watch_sweeps_total', help: 'Sweeps of the watches by outcome (completed, failed)', labelNames: ['outcome'], registers });
    // What sweeps cost beyond their questions to FEMA: a sweep in which nothing changed adds none.
    this.rechecks = new Counter({ name: 'watch_rechecked_locations_total', help: 'Locations answered again by sweeps', registers });
    this.events = new Counter({ name: 'watch_events_total', help: 'Events written to the watches by kind', labelNames: ['kind'], registers });
    this.deliveries = new Counter({
      name: 'watch_deliveries_total',
      help: 'Webhook delivery attempts by outcome (delivered, failed, refused: the URL now refused, abandoned: retries used up)',
      labelNames: ['outcome'],
      registers,
    });
    const read = () => this.watched();
    new Gauge({
      name: 'watched_locations',
      help: 'Locations watched by all watches',
      registers,
      async collect() {
        this.set(await read().catch(() => 0));
      },
    });
  }

  countWatched(read: () => Promise<number>): void {
    this.watched = read;
  }

  swept(outcome: 'completed' | 'failed'): void {
    this.sweeps.inc({ outcome });
  }

  rechecked(locations: number): void {
    this.rechecks.inc(locations);
  }

  eventWritten(kind: WatchEventKind): void {
    this.events.inc({ kind });
  }

  delivery(outcome: DeliveryMetricOutcome): void {
    this.deliveries.inc({ outcome });
  }
}
