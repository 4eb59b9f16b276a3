/**
 * Portfolio jobs (/flood-zone/jobs) as the end-to-end suites drive them: a request answered as it comes (no schema
 * check, so that malformed requests can be sent too), a CSV submitted, a job waited for.
 */
import { JOBS_REDIS_NOT_ANSWERING } from '../../src/jobs/jobs-redis';
import type { ApiResponse } from './api-client';
import { sleep } from './stack';

export const JOBS = '/flood-zone/jobs';

/** One row of a job's results. */
export interface RowLine {
  index: number;
  id: string | null;
  status: number;
  body: any;
}

export async function call(base: string, path: string, init: RequestInit = {}): Promise<ApiResponse> {
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: response.status, headers: response.headers, text, body: isJson && text ? JSON.parse(text) : undefined };
}

/**
 * Submits a CSV; asked again, as a client told to retry would, while the answer is the 503 of a Redis that missed
 * a ping (on a busy machine a ping can outlast the endpoints' bound for a moment). Any other answer is returned as
 * it came, the 503 of jobs not configured too.
 */
export async function submitCsv(base: string, csv: string, query = ''): Promise<ApiResponse> {
  for (let attempt = 1; ; attempt++) {
    const answer = await call(base, `${JOBS}${query}`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: csv });
    if (answer.status !== 503 || answer.body?.error !== JOBS_REDIS_NOT_ANSWERING || attempt === 50) return answer;
    await sleep(200);
  }
}

/**
 * Waits until the job is no longer queued or running; its last status. A 503 is asked again as a client told to
 * retry would: on a busy machine a Redis ping can outlast the endpoints' one-second bound for a moment.
 */
export async function finished(base: string, id: string): Promise<any> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const { status, body } = await call(base, `${JOBS}/${id}`);
    if (status !== 503 && body.status !== 'queued' && body.status !== 'running') return body;
    await sleep(100);
  }
  throw new Error(`job ${id} did not finish`);
}
