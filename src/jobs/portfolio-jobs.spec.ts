import type { Queue } from 'bullmq';
import { settledNow } from '../../test/support/settled-now';
import { noNotes } from '../batch/csv-locations';
import type { ApiError } from '../common/api-error';
import type { JobStore } from './job-store';
import type { JobsRedis } from './jobs-redis';
import { ChunkOrder, QueuedPortfolioJobs } from './portfolio-jobs';

/**
 * A submission whose job the Redis stops answering after its input was stored: the 503 is answered as soon as
 * the write fails, never held by the undoing of what was stored, which a hung Redis would hold a command timeout
 * per step.
 */
describe('QueuedPortfolioJobs.submit: a Redis that fails the opening of the job', () => {
  it('answers 503 JOBS_UNAVAILABLE at once, the undoing of the stored input going on in the background', async () => {
    let askedToUndo!: () => void;
    const undoAsked = new Promise<void>((resolve) => (askedToUndo = resolve));
    const hung = () => {
      askedToUndo();
      return new Promise<never>(() => undefined);
    };
    const store = {
      storeInput: () => Promise.resolve({ total: 2, chunks: 1 }),
      open: () => Promise.reject(new Error('Command timed out')),
      end: hung,
      dropInput: hung,
    } as unknown as JobStore;
    const queue = { on: () => undefined } as unknown as Queue<ChunkOrder>;
    const redis = { availability: () => ({ state: 'ready', reason: null }) } as unknown as JobsRedis;
    const jobs = new QueuedPortfolioJobs(store, queue, redis);

    const submitted = jobs.submit((async function* () {})(), { include: new Set(), radiusM: 500 }, noNotes()).then(
      () => 'submitted',
      (error: ApiError) => ({ status: error.getStatus(), code: error.code, retryAfter: error.headers['Retry-After'] }),
    );
    await undoAsked;
    expect(await settledNow(submitted)).toEqual({ status: 503, code: 'JOBS_UNAVAILABLE', retryAfter: '5' });
  });
});
