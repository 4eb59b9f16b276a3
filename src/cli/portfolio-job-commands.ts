import { createReadStream, createWriteStream } from 'node:fs';
import { rename, stat } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { SingleBar } from 'cli-progress';
import { badArguments, CommandFailure, serviceFailed } from './command-failure';
import { errorResponseText, FloodZoneApi } from './flood-zone-api';
import { timeLeftText } from './time-left';

const JOBS_PATH = '/flood-zone/jobs';
/** How often `job wait` asks for the job's counts. */
export const JOB_POLL_MS = 1000;
/**
 * How many "ask again later" answers in a row (503 while the jobs Redis is away, 429) `job wait` rides out, each after
 * its Retry-After: about two minutes at the service's 5 s. The job itself is durable; a waiter need not give up on it.
 */
export const JOB_UNAVAILABLE_RETRIES = 24;

/** A job's status as GET /flood-zone/jobs/{id} answers it (the fields the commands read). */
interface JobStatus {
  id: string;
  status: string;
  total: number;
  done: number;
  errors: number;
  /** What the service's reader of the body warned of (columns it did not read). */
  warnings?: string[];
  etaSeconds: number | null;
}

/** Where `job wait` shows a job's progress: rows done of total and the time left, from the job's own status. */
export interface JobProgress {
  update(job: Pick<JobStatus, 'done' | 'total' | 'etaSeconds'>): void;
  stop(): void;
}

/**
 * A progress bar on a terminal, from the job's `done` and `total`, with the service's own time left (the bar's
 * estimate from a few polls of a job that moves in steps said "0s", then "NFs").
 */
export function jobProgressBar(terminal: NodeJS.WritableStream): JobProgress {
  const bar = new SingleBar({ stream: terminal, format: '{bar} {value}/{total} rows | {timeLeft}', hideCursor: true });
  let started = false;
  return {
    update({ done, total, etaSeconds }) {
      const timeLeft = timeLeftText(etaSeconds);
      if (!started) bar.start(total, done, { timeLeft });
      else bar.update(done, { timeLeft });
      started = true;
    },
    stop: () => started && bar.stop(),
  };
}

/** A refused request as the command's failure: the service's 4xx about the input is a bad argument (2), anything else 1. */
async function refused(response: Response): Promise<CommandFailure> {
  const why = await errorResponseText(response);
  return response.status >= 400 && response.status < 500 && response.status !== 404 && response.status !== 409 ? badArguments(why) : serviceFailed(why);
}

const jobUrl = (api: FloodZoneApi, id: string, rest = '') => `${api.baseUrl}${JOBS_PATH}/${encodeURIComponent(id)}${rest}`;

/** `job submit INPUT.csv`: streams the file to POST /flood-zone/jobs; prints the job's id, and the service's warnings on `stderr`. */
export async function submitJob(input: string, api: FloodZoneApi, stdout: Writable, stderr: Writable): Promise<number> {
  try {
    await stat(input);
  } catch {
    throw badArguments(`cannot read ${input}.`);
  }
  const body = Readable.toWeb(createReadStream(input)) as ReadableStream;
  const response = await api.request(api.urlOf(JOBS_PATH), { method: 'POST', headers: { 'content-type': 'text/csv' }, body, duplex: 'half' } as RequestInit);
  if (response.status !== 202) throw await refused(response);
  const job = (await response.json()) as JobStatus;
  for (const warning of job.warnings ?? []) stderr.write(`flood-zone: ${warning}\n`);
  stdout.write(`${job.id}\n`);
  return 0;
}

/** The service asks to be asked again later: its jobs Redis away (503) or too busy (429), with a Retry-After. */
const askAgainLater = (response: Response) => (response.status === 429 || response.status === 503) && response.headers.has('retry-after');

async function readStatus(api: FloodZoneApi, id: string, retries = 0): Promise<JobStatus> {
  const response = await api.requestPatiently(jobUrl(api, id), {}, { retries, later: askAgainLater });
  if (!response.ok) throw await refused(response);
  return (await response.json()) as JobStatus;
}

/** `job status ID`: the job's status document as JSON. */
export async function showJobStatus(id: string, api: FloodZoneApi, stdout: Writable): Promise<number> {
  stdout.write(`${JSON.stringify(await readStatus(api, id), null, 2)}\n`);
  return 0;
}

/** `job cancel ID`. */
export async function cancelJob(id: string, api: FloodZoneApi, stdout: Writable): Promise<number> {
  const response = await api.request(jobUrl(api, id), { method: 'DELETE' });
  if (response.status !== 202) throw await refused(response);
  stdout.write(`cancelled ${id}\n`);
  return 0;
}

/**
 * `job wait ID [-o OUTPUT.csv]`: polls the job until it completes (progress from its counts), then writes its
 * CSV results with the input's columns, the columns `flood-zone batch` writes (the service writes them, from the
 * input it kept). The file is written beside OUTPUT and renamed into place once whole, so a command killed at any
 * point leaves no half file: run it again and it goes on waiting or downloads again. A service that says "later"
 * (the jobs Redis away) is asked again after its Retry-After. Fails (1) when the job failed or was cancelled.
 */
export async function waitForJob(
  id: string,
  api: FloodZoneApi,
  { output, stdout, progress, pollMs = JOB_POLL_MS }: { output?: string; stdout: Writable; progress?: JobProgress; pollMs?: number },
): Promise<number> {
  let job = await readStatus(api, id, JOB_UNAVAILABLE_RETRIES);
  try {
    while (job.status === 'queued' || job.status === 'running') {
      progress?.update(job);
      await sleep(pollMs);
      job = await readStatus(api, id, JOB_UNAVAILABLE_RETRIES);
    }
    progress?.update(job);
  } finally {
    progress?.stop();
  }
  if (job.status !== 'completed') throw serviceFailed(`job ${id} ${job.status}: it has no results.`);
  const response = await api.requestPatiently(
    jobUrl(api, id, '/results?columns=all'),
    { headers: { accept: 'text/csv' } },
    {
      retries: JOB_UNAVAILABLE_RETRIES,
      later: askAgainLater,
    },
  );
  if (!response.ok || !response.body) throw await refused(response);
  const answer = Readable.fromWeb(response.body as Parameters<typeof Readable.fromWeb>[0]);
  if (!output) {
    await pipeline(answer, stdout, { end: false });
    return 0;
  }
  const partial = `${output}.part`;
  await pipeline(answer, createWriteStream(partial));
  await rename(partial, output);
  return 0;
}
