/** The BullMQ queues of the watches, in the jobs Redis. */

/** Baselines and re-checks of chunks of locations, worked by every replica. */
export const WATCH_WORK_QUEUE = 'flood-zone-watch-work';
/** The sweeps: one job scheduler every WATCH_SWEEP_INTERVAL_SECONDS, one sweep at a time across replicas. */
export const WATCH_SWEEP_QUEUE = 'flood-zone-watch-sweeps';
/** Webhook deliveries: a job per watch to deliver (its events in order), and a patrol that finds the ones left behind. */
export const WATCH_DELIVERY_QUEUE = 'flood-zone-watch-deliveries';

/** Answer a chunk of a watch's locations for the first time, or again in a sweep. */
export type WatchWorkOrder = { kind: 'baseline'; watchId: string; chunk: number } | { kind: 'recheck'; watchId: string; chunk: number; sweepId: string };

/** BullMQ job ids (no ':' allowed): the same order added twice is added once. */
export const workOrderId = (order: WatchWorkOrder) =>
  order.kind === 'baseline' ? `baseline.${order.watchId}.${order.chunk}` : `recheck.${order.sweepId}.${order.watchId}.${order.chunk}`;

/** A sweep; `full` answers every location of every watch again, whatever their last full re-check. */
export interface SweepOrder {
  full?: boolean;
}

/** Deliver a watch's undelivered events (none: the patrol, which looks for watches with some). */
export interface DeliveryOrder {
  watchId?: string;
}

/** The job scheduler of the sweeps and of the delivery patrol. */
export const SWEEP_SCHEDULER = 'watch-sweep';
export const DELIVERY_PATROL = 'watch-delivery-patrol';
