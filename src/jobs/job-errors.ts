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

export const jobsUnavailable = () =>
  new ApiError(503, 'JOBS_UNAVAILABLE', 'Portfolio jobs need a Redis: set JOBS_REDIS_URL (or REDIS_URL) to a redis:// URL and restart the service.');

/** Results come only in the batch's formats: an answer in a type the client did not ask for would be taken for one it did. */
export const resultsNotAcceptable = (accept: string, formats: string[]) =>
  new ApiError(
    406,
    'NOT_ACCEPTABLE',
    `The results are answered as ${formats.slice(0, -1).join(', ')} or ${formats.at(-1)} (by Accept), not ${accept.slice(0, 128)}.`,
  );
