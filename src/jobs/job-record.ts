import { UPSTREAM_REGISTRY, type UpstreamName } from '../common/upstream/upstream-registry';
import { withImpliedParts, type IncludeItem } from '../parts/answer-parts';
import { lookupUpstreams } from '../lookup/lookup-upstreams';

/** Where a job stands. */
export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Upstream calls by upstream (its public name); an upstream not called is absent. */
export type UpstreamCalls = Partial<Record<UpstreamName, number>>;

/** The hash field of a job's calls to one upstream, e.g. `calls:flood_data`. */
export const callsField = (upstream: UpstreamName) => `calls:${upstream}`;

/** A job as its Redis hash holds it (times as ISO 8601 text). */
export interface JobRecord {
  id: string;
  status: JobStatus;
  total: number;
  done: number;
  errors: number;
  /** Rows of the chunks written still answered with a part unavailable after their second try. */
  degradedRows: number;
  chunks: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  expiresAt: string | null;
  /** The lookup options every row is answered with: `include` items and the radius in metres. */
  include: IncludeItem[];
  radiusM: number;
  /** The names of a CSV body's other columns, which results asked for with the input's columns copy. */
  otherColumns: string[];
  /** What the body's reader warned of (columns it did not read). */
  warnings: string[];
  /** Every attempt the job's work sent to each upstream so far, by every chunk attempt of every replica, as far as noted. */
  upstreamCalls: UpstreamCalls;
}

/** What GET /flood-zone/jobs/{id} answers. */
export interface JobStatusView {
  id: string;
  status: JobStatus;
  total: number;
  done: number;
  errors: number;
  degradedRows: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  expiresAt: string | null;
  etaSeconds: number | null;
  /** Per upstream the job's rows ask (and any other called): the calls of the rows done per row done, to 2 decimals; 0 while no row is done. */
  upstreamCallsPerRow: UpstreamCalls;
  /** Only when the body's reader warned of something. */
  warnings?: string[];
}

export const isFinished = (status: JobStatus) => status === 'completed' || status === 'failed' || status === 'cancelled';

/** The record of a job's hash; undefined when there is none (never created, deleted or expired). */
export function jobRecordOf(id: string, hash: Record<string, string>): JobRecord | undefined {
  if (!hash.status) return undefined;
  const time = (field: string) => hash[field] || null;
  return {
    id,
    status: hash.status as JobStatus,
    total: Number(hash.total),
    // The rows of written chunks and those answered so far in chunks under way (see JobStore).
    done: Number(hash.done ?? 0) + Number(hash.answering ?? 0),
    errors: Number(hash.errors ?? 0),
    degradedRows: Number(hash.degraded ?? 0),
    chunks: Number(hash.chunks),
    createdAt: hash.createdAt,
    startedAt: time('startedAt'),
    finishedAt: time('finishedAt'),
    expiresAt: time('expiresAt'),
    include: hash.include ? (hash.include.split(',') as IncludeItem[]) : [],
    radiusM: Number(hash.radiusM),
    otherColumns: listOf(hash.otherColumns),
    warnings: listOf(hash.warnings),
    upstreamCalls: callsOf(hash),
  };
}

/** The calls a job's hash counts, in the registry's order. */
function callsOf(hash: Record<string, string>): UpstreamCalls {
  const calls: UpstreamCalls = {};
  for (const { name } of UPSTREAM_REGISTRY) {
    const count = Number(hash[callsField(name)] ?? 0);
    if (count > 0) calls[name] = count;
  }
  return calls;
}

/** A list the hash holds as JSON (a job stored before it had the field has none). */
const listOf = (json: string | undefined): string[] => (json ? (JSON.parse(json) as string[]) : []);
/** The share of a job's rows done before its time left is estimated: the pace of fewer rows swings too much to be worth showing. */
const ETA_AFTER_SHARE = 0.01;

/**
 * The status answer at `now`: the time left is the rows still to do at the pace the job has kept since it
 * started (null before 1% of its rows are done, and once it is no longer running); the calls per row are
 * what the job's rows have cost each upstream so far.
 */
export function jobStatusView(record: JobRecord, now: number): JobStatusView {
  const { id, status, total, done, errors, degradedRows, createdAt, startedAt, finishedAt, expiresAt, warnings } = record;
  let etaSeconds: number | null = null;
  if (status === 'completed') etaSeconds = 0;
  else if (status === 'running' && startedAt && done > 0 && done >= Math.ceil(total * ETA_AFTER_SHARE)) {
    const elapsedSeconds = Math.max(0, now - Date.parse(startedAt)) / 1000;
    etaSeconds = Math.ceil(((total - done) * elapsedSeconds) / done);
  }
  const upstreamCallsPerRow = callsPerRow(record.upstreamCalls, done, lookupUpstreams(withImpliedParts(record.include)));
  const view: JobStatusView = { id, status, total, done, errors, degradedRows, createdAt, startedAt, finishedAt, expiresAt, etaSeconds, upstreamCallsPerRow };
  if (warnings.length > 0) view.warnings = warnings;
  return view;
}

/**
 * Each upstream's calls per row done, to 2 decimals (one division of the counts, so 21 calls for 20 rows is exactly
 * 1.05), in the registry's order: every upstream `asked` (0 when not called), and any other called.
 */
function callsPerRow(calls: UpstreamCalls, done: number, asked: readonly UpstreamName[]): UpstreamCalls {
  const perRow: UpstreamCalls = {};
  for (const { name } of UPSTREAM_REGISTRY) {
    const count = calls[name];
    if (count === undefined && !asked.includes(name)) continue;
    perRow[name] = done === 0 ? 0 : Math.round(((count ?? 0) * 100) / done) / 100;
  }
  return perRow;
}
