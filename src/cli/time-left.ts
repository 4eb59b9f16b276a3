/** Said until the service gives a time left (it does once 1% of the job's rows are done). */
const NO_ESTIMATE = 'estimating time left (after 1% of rows)';

const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * The time left of a job as `job wait` shows it, from the service's own `etaSeconds` (its pace so far): never
 * a made-up "0s" or "NFs" while there is no estimate yet.
 */
export function timeLeftText(etaSeconds: number | null): string {
  if (etaSeconds === null || !Number.isFinite(etaSeconds)) return NO_ESTIMATE;
  const seconds = Math.max(0, Math.round(etaSeconds));
  if (seconds < 60) return `${seconds}s left`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${twoDigits(seconds % 60)}s left`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ${twoDigits(Math.floor((seconds % 3600) / 60))}m left`;
  return `${Math.floor(seconds / 86_400)}d ${Math.floor((seconds % 86_400) / 3600)}h left`;
}
