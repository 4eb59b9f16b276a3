import type { WatchEventKind, WatchFingerprint } from './watch-fingerprint';

export type WatchStatus = 'baselining' | 'watching' | 'stopped';

/** A watch as stored (see WatchStore). */
export interface WatchRecord {
  id: string;
  name: string | null;
  status: WatchStatus;
  /** The parts asked for each location beside those the fingerprint reads. */
  include: string[];
  webhookUrl: string | null;
  webhookSecret: string | null;
  createdAt: string;
  stoppedAt: string | null;
  lastSweepAt: string | null;
  lastFullCheckAt: string | null;
  /** The id of the last event delivered (or given up); '0-0' before the first. */
  deliveredUpTo: string;
  webhookLastSuccessAt: string | null;
  webhookNextRetryAt: string | null;
  webhookFailingSince: string | null;
  webhookLastError: string | null;
  /** Locations watched. */
  total: number;
  /** Locations with a fingerprint (answered at least once). */
  answered: number;
  /** Locations that cannot be answered (an address with no match, a point outside the map): never re-checked. */
  unanswerable: number;
  chunks: number;
  chunksToBaseline: number;
  delivered: number;
  deliveryAttemptsFailed: number;
  abandoned: number;
  /** Failed attempts in a row of the event being delivered. */
  webhookFailures: number;
}

/** What a new watch is given; the rest of its record starts as nothing done yet. */
export type NewWatchRecord = Pick<WatchRecord, 'id' | 'name' | 'include' | 'webhookUrl' | 'webhookSecret' | 'createdAt' | 'total' | 'chunks'>;

/** A watch as first stored: baselining every chunk, nothing swept, answered or delivered yet. */
export function newWatchRecord(watch: NewWatchRecord): WatchRecord {
  return {
    ...watch,
    status: 'baselining',
    stoppedAt: null,
    lastSweepAt: null,
    lastFullCheckAt: null,
    deliveredUpTo: '0-0',
    webhookLastSuccessAt: null,
    webhookNextRetryAt: null,
    webhookFailingSince: null,
    webhookLastError: null,
    answered: 0,
    unanswerable: 0,
    chunksToBaseline: watch.chunks,
    delivered: 0,
    deliveryAttemptsFailed: 0,
    abandoned: 0,
    webhookFailures: 0,
  };
}

/** One change of one location's answer, as the feed and the webhook give it. */
export interface WatchEvent {
  id: string;
  watchId: string;
  locationId: string;
  kind: WatchEventKind;
  before: Partial<WatchFingerprint>;
  after: Partial<WatchFingerprint>;
  detectedAt: string;
  effectiveDate: string | null;
  note: string;
}

/** GET /flood-zone/watches/{id}. */
export interface WatchStatusView {
  id: string;
  name: string | null;
  status: WatchStatus;
  createdAt: string;
  locations: { total: number; answered: number; unanswerable: number; baselining: number };
  lastSweepAt: string | null;
  nextSweepAt: string | null;
  lastFullCheckAt: string | null;
  events: number;
  deliveries: { delivered: number; failedAttempts: number; abandoned: number; pending: number } | null;
  webhook: { url: string; lastSuccessAt: string | null; failures: number; nextRetryAt: string | null; lastError: string | null } | null;
}

/** The status view of a watch, with the sweep schedule and its event counts. */
export function watchStatusView(
  record: WatchRecord,
  counts: { events: number; undelivered: number },
  sweepIntervalMs: number,
  lastSweepAt: string | null,
): WatchStatusView {
  const swept = record.lastSweepAt ?? lastSweepAt;
  const nextSweepAt = record.status === 'stopped' ? null : new Date((swept ? Date.parse(swept) : Date.parse(record.createdAt)) + sweepIntervalMs).toISOString();
  return {
    id: record.id,
    name: record.name,
    status: record.status,
    createdAt: record.createdAt,
    locations: {
      total: record.total,
      answered: record.answered,
      unanswerable: record.unanswerable,
      baselining: Math.max(0, record.total - record.answered - record.unanswerable),
    },
    lastSweepAt: record.lastSweepAt,
    nextSweepAt,
    lastFullCheckAt: record.lastFullCheckAt,
    events: counts.events,
    deliveries: record.webhookUrl
      ? { delivered: record.delivered, failedAttempts: record.deliveryAttemptsFailed, abandoned: record.abandoned, pending: counts.undelivered }
      : null,
    webhook: record.webhookUrl
      ? {
          url: record.webhookUrl,
          lastSuccessAt: record.webhookLastSuccessAt,
          failures: record.webhookFailures,
          nextRetryAt: record.webhookNextRetryAt,
          lastError: record.webhookLastError,
        }
      : null,
  };
}
