import { ApiError } from '../common/api-error';

export const jobNotFound = (id: string) =>
  new ApiError(404, 'JOB_NOT_FOUND', `No job ${id}: it never existed, was cancelled and deleted, or its results expired.`);

export const jobNotFinished = (id: string, status: string, done: number, total: number) =>
  new ApiError(
    409,
    'JOB_NOT_FINISHED',
    status === 'cancelled' || status === 'failed'
      ? `Job ${id} is ${status}: it has no results.`
      : `Job ${id} is ${status} (${done} of ${total} rows done); ask for its results once its status is completed.`,
  );

/** Seconds a client waits before asking again: a Redis away is often back in seconds (a restart, a failover). */
export const JOBS_RETRY_AFTER_SECONDS = 5;

/** 503 JOBS_UNAVAILABLE, saying why (no Redis configured, one not answering, one that evicts keys). */
export const jobsUnavailable = (reason: string) => new ApiError(503, 'JOBS_UNAVAILABLE', reason, {}, { 'Retry-After': String(JOBS_RETRY_AFTER_SECONDS) });

/** Results come only in the batch's formats: an answer in a type the client did not ask for would be taken for one it did. */
export const resultsNotAcceptable = (accept: string, formats: string[]) =>
  new ApiError(
    406,
    'NOT_ACCEPTABLE',
    `The results are answered as ${formats.slice(0, -1).join(', ')} or ${formats.at(-1)} (by Accept), not ${accept.slice(0, 128)}.`,
  );
