/**
 * What a run reports: the table's rows (with the shortfalls against goals), the figures of each scenario for
 * bench/results.json, and the progress log on stderr.
 */
import type autocannon from 'autocannon';
import { mean, percentile, round } from './lib';

interface Row {
  scenario: string;
  metric: string;
  value: string;
  goal?: string;
  met?: boolean;
}
const rows: Row[] = [];
/** Figures of each scenario, by key, for bench/results.json. */
export const results: Record<string, unknown> = {};
/** Rows below their goal, repeated under the table. */
export const shortfalls: string[] = [];

export function row(scenario: string, metric: string, value: string | number, goal?: string, met?: boolean): void {
  rows.push({ scenario, metric, value: String(value), goal, met });
  if (met === false) shortfalls.push(`${scenario}: ${metric} = ${value} (goal ${goal})`);
}

/** Progress on stderr, so that stdout holds only the table and its summary. */
export function log(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

export function statusCounts(r: autocannon.Result): Record<string, number> {
  return Object.fromEntries(Object.entries(r.statusCodeStats).map(([s, v]) => [s, v.count]));
}

/** Requests answered per second of an autocannon run, over the whole run (autocannon's own average is per sample, not per second). */
export function reqPerSec(r: autocannon.Result): number {
  return r.requests.total / r.duration;
}

/** An autocannon run as it goes into bench/results.json. */
export function cannonFigures(r: autocannon.Result) {
  return {
    requests: r.requests.total,
    durationSeconds: r.duration,
    reqPerSec: round(reqPerSec(r), 0),
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: round(r.latency.mean, 2) },
    statuses: statusCounts(r),
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

/** Times of sequential cold lookups against `idealMs`, the upstream latency each one has to wait for. */
export function coldFigures(ms: number[], idealMs: number) {
  const p50 = percentile(ms, 50);
  return {
    lookups: ms.length,
    idealMs,
    p50Ms: round(p50, 1),
    p90Ms: round(percentile(ms, 90), 1),
    p99Ms: round(percentile(ms, 99), 1),
    maxMs: round(Math.max(...ms), 1),
    meanMs: round(mean(ms), 1),
    overheadP50Ms: round(p50 - idealMs, 1),
    overheadMeanMs: round(mean(ms) - idealMs, 1),
  };
}

/** The rows as an aligned text table, each goal marked ok or MISSED. */
export function printTable(): string {
  const header: Row = { scenario: 'scenario', metric: 'metric', value: 'value', goal: 'goal' };
  const all = [header, ...rows];
  const w = {
    scenario: Math.max(...all.map((r) => r.scenario.length)),
    metric: Math.max(...all.map((r) => r.metric.length)),
    value: Math.max(...all.map((r) => r.value.length)),
  };
  const line = (r: Row) => {
    const goal = r.goal === undefined ? '' : `${r.goal}${r.met === undefined ? '' : r.met ? '  ok' : '  MISSED'}`;
    return `${r.scenario.padEnd(w.scenario)} | ${r.metric.padEnd(w.metric)} | ${r.value.padEnd(w.value)} | ${goal}`.trimEnd();
  };
  const sep = `${'-'.repeat(w.scenario)}-+-${'-'.repeat(w.metric)}-+-${'-'.repeat(w.value)}-+-${'-'.repeat(20)}`;
  return [line(header), sep, ...rows.map(line)].join('\n');
}
