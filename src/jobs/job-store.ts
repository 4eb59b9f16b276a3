import type Redis from 'ioredis';
import { isDegraded, type RowAnswer } from '../batch/row-answer';
import type { UpstreamName } from '../common/upstream/upstream-registry';
import { CHUNK_ROWS, packAnswers, packRows, unpackAnswers, unpackRows } from './job-chunks';
import { undoAfter } from './jobs-redis';
import { callsField, JobRecord, jobRecordOf, JobStatus, UpstreamCalls } from './job-record';

/** Every key of the jobs starts so, beside the queue's own keys (`bull:`) and the shared cache's. */
const PREFIX = 'flood-zone:job:';
/** The ids of the jobs whose hash may still exist, scored by creation time: what the jobs-by-status gauge reads. */
const INDEX = 'flood-zone:jobs';

const hashKey = (id: string) => `${PREFIX}${id}`;
const inputPrefix = (id: string) => `${PREFIX}${id}:in:`;
const answerPrefix = (id: string) => `${PREFIX}${id}:out:`;

/** The first worker to take a chunk of a queued job marks it running; answers the job's status (nil: no job). */
const BEGIN_CHUNK = `
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'queued' then
  redis.call('HSET', KEYS[1], 'status', 'running', 'startedAt', ARGV[1])
  return 'running'
end
return status`;

/**
 * The rows a worker has answered so far in a chunk not yet written (`answering:<chunk>`), kept as the most any
 * worker of that chunk noted, and their sum over the job's chunks (`answering`), which the job's `done`
 * includes: so `done` moves while a chunk is answered, a chunk taken again from row 0 never moves it back, and
 * a note that comes after the chunk was written (or the job ended) is dropped. ARGV: chunk, rows answered.
 * The upstream calls made since the worker's last note (ARGV from the third on: field, calls, ...) are added
 * to the job's `calls:<upstream>` fields whatever its status, while its hash exists: a chunk's calls count however the
 * chunk ends (written, cancelled, handed back), and a job deleted whole is never brought back by them.
 */
const NOTE_PROGRESS = `
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return 0 end
for n = 3, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[n], ARGV[n + 1]) end
if status ~= 'running' then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local field = 'answering:' .. ARGV[1]
local noted = tonumber(redis.call('HGET', KEYS[1], field) or '0')
local answered = tonumber(ARGV[2])
if answered <= noted then return 0 end
redis.call('HSET', KEYS[1], field, answered)
redis.call('HINCRBY', KEYS[1], 'answering', answered - noted)
return 1`;

/**
 * A chunk's answers, written once: only while the job runs, and only if no other worker wrote them first
 * (a chunk is taken again when its worker seemed dead); the counts (rows, 5xx rows, degraded rows) grow only
 * with the write, which replaces the chunk's rows noted as answered (never more than its rows). The last chunk
 * completes the job: its answers and its hash then expire after the TTL, and its input is already gone.
 * Answers 0 (nothing written), 1 (written) or 2 (written, and the job completed).
 */
const WRITE_CHUNK = `
local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'running' and status ~= 'queued' then return 0 end
if not redis.call('SET', KEYS[2], ARGV[1], 'NX') then return 0 end
redis.call('DEL', KEYS[3])
local progress = 'answering:' .. ARGV[8]
local noted = tonumber(redis.call('HGET', KEYS[1], progress) or '0')
if noted > 0 then
  redis.call('HDEL', KEYS[1], progress)
  redis.call('HINCRBY', KEYS[1], 'answering', -noted)
end
redis.call('HINCRBY', KEYS[1], 'done', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'errors', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'degraded', ARGV[9])
local answered = redis.call('HINCRBY', KEYS[1], 'answeredChunks', 1)
local chunks = tonumber(redis.call('HGET', KEYS[1], 'chunks'))
if answered < chunks then return 1 end
redis.call('HSET', KEYS[1], 'status', 'completed', 'finishedAt', ARGV[4], 'expiresAt', ARGV[5])
for n = 0, chunks - 1 do redis.call('EXPIRE', ARGV[7] .. n, ARGV[6]) end
redis.call('EXPIRE', KEYS[1], ARGV[6])
return 2`;

/**
 * Ends a job that is still queued or running as ARGV[1] (cancelled or failed): its rows are deleted, its
 * hash kept for the TTL so its status can still be read. Cancelling a job that had already ended deletes
 * it whole. Answers the status the job had (nil: no job).
 */
const END_JOB = `
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return false end
local active = status == 'queued' or status == 'running'
if not active and ARGV[1] ~= 'cancelled' then return status end
local chunks = tonumber(redis.call('HGET', KEYS[1], 'chunks'))
for n = 0, chunks - 1 do redis.call('DEL', ARGV[5] .. n, ARGV[6] .. n) end
if active then
  redis.call('HSET', KEYS[1], 'status', ARGV[1], 'finishedAt', ARGV[2], 'expiresAt', ARGV[3])
  redis.call('EXPIRE', KEYS[1], ARGV[4])
else
  redis.call('DEL', KEYS[1])
end
return status`;

/** What a chunk's write did. */
export type ChunkWrite = 'not_written' | 'written' | 'completed_job';
const CHUNK_WRITES: ChunkWrite[] = ['not_written', 'written', 'completed_job'];

/**
 * The jobs' data in Redis: a hash per job (status, counts, times, options), its input rows and its answers
 * compressed per chunk of CHUNK_ROWS rows. Every change that must not be half done is one Lua script.
 */
export class JobStore {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
  ) {}

  /**
   * Stores the input of a new job chunk by chunk as `rows` gives them, so that only one chunk (and the one
   * being written) is held however large the input; nothing runs it until `open` writes its hash. Until then
   * each chunk expires after the TTL, so that the input of a process that died mid-upload does not stay for
   * ever. When `rows` fails (a body that breaks midway) or a write does, the chunks written are deleted (in the
   * background when Redis failed: see undoAfter).
   */
  async storeInput(id: string, rows: AsyncIterable<unknown>): Promise<{ total: number; chunks: number }> {
    let chunk: unknown[] = [];
    let total = 0;
    let chunks = 0;
    let writing: Promise<unknown> = Promise.resolve();
    // One chunk is written while the next is read.
    const write = async () => {
      await writing;
      const packed = packRows(chunk);
      const key = `${inputPrefix(id)}${chunks}`;
      chunks += 1;
      chunk = [];
      writing = packed.then((data) => this.redis.set(key, data, 'EX', this.ttlSeconds));
      writing.catch(() => undefined);
    };
    try {
      for await (const row of rows) {
        chunk.push(row);
        total += 1;
        if (chunk.length === CHUNK_ROWS) await write();
      }
      if (chunk.length > 0) await write();
      await writing;
      return { total, chunks };
    } catch (error) {
      await writing.catch(() => undefined);
      await undoAfter(error, () => this.dropInput(id, chunks));
      throw error;
    }
  }

  /** Forgets an input stored for a job that never opened. */
  async dropInput(id: string, chunks: number): Promise<void> {
    for (let first = 0; first < chunks; first += CHUNK_ROWS) {
      const keys = Array.from({ length: Math.min(CHUNK_ROWS, chunks - first) }, (_, n) => `${inputPrefix(id)}${first + n}`);
      await this.redis.unlink(...keys);
    }
  }

  /** Writes the hash of a job whose input is stored, and keeps its input: from now on its chunks can be answered. */
  async open(record: JobRecord): Promise<void> {
    const { id, status, total, chunks, createdAt, include, radiusM, otherColumns, warnings } = record;
    const fields = { status, total, done: 0, errors: 0, chunks, answeredChunks: 0, createdAt, include: include.join(','), radiusM };
    const opening = this.redis
      .multi()
      .hset(hashKey(id), { ...fields, otherColumns: JSON.stringify(otherColumns), warnings: JSON.stringify(warnings) })
      .zadd(INDEX, Date.parse(createdAt), id);
    for (let chunk = 0; chunk < chunks; chunk++) opening.persist(`${inputPrefix(id)}${chunk}`);
    await opening.exec();
  }

  async record(id: string): Promise<JobRecord | undefined> {
    return jobRecordOf(id, await this.redis.hgetall(hashKey(id)));
  }

  /** The job's status as a worker takes one of its chunks (queued becomes running); undefined when it is gone. */
  async beginChunk(id: string, now: Date): Promise<JobStatus | undefined> {
    const status = (await this.redis.eval(BEGIN_CHUNK, 1, hashKey(id), now.toISOString())) as JobStatus | null;
    return status ?? undefined;
  }

  async status(id: string): Promise<JobStatus | undefined> {
    return ((await this.redis.hget(hashKey(id), 'status')) as JobStatus | null) ?? undefined;
  }

  async chunkAnswered(id: string, chunk: number): Promise<boolean> {
    return (await this.redis.exists(`${answerPrefix(id)}${chunk}`)) === 1;
  }

  /** A chunk's input rows; undefined once deleted (the job was cancelled, or the chunk already answered). */
  async inputRows(id: string, chunk: number): Promise<unknown[] | undefined> {
    const packed = await this.redis.getBuffer(`${inputPrefix(id)}${chunk}`);
    return packed ? unpackRows(packed) : undefined;
  }

  async writeAnswers(id: string, chunk: number, answers: RowAnswer[], now: Date): Promise<ChunkWrite> {
    const errors = answers.filter((answer) => answer.status >= 500).length;
    const degraded = answers.filter(isDegraded).length;
    const written = await this.redis.eval(
      WRITE_CHUNK,
      3,
      hashKey(id),
      `${answerPrefix(id)}${chunk}`,
      `${inputPrefix(id)}${chunk}`,
      await packAnswers(answers),
      answers.length,
      errors,
      now.toISOString(),
      this.expiryFrom(now),
      this.ttlSeconds,
      answerPrefix(id),
      chunk,
      degraded,
    );
    return CHUNK_WRITES[Number(written)];
  }

  /** Notes that `answered` rows of a chunk being answered are done, and the upstream `calls` made since the last note (see NOTE_PROGRESS). */
  async noteProgress(id: string, chunk: number, answered: number, calls: UpstreamCalls): Promise<void> {
    const counts = (Object.entries(calls) as Array<[UpstreamName, number]>).flatMap(([upstream, count]) => [callsField(upstream), count]);
    await this.redis.eval(NOTE_PROGRESS, 2, hashKey(id), `${answerPrefix(id)}${chunk}`, chunk, answered, ...counts);
  }

  /** A completed job's answers of one chunk, in input order. */
  async answers(id: string, chunk: number): Promise<RowAnswer[]> {
    const packed = await this.redis.getBuffer(`${answerPrefix(id)}${chunk}`);
    if (!packed) throw new Error(`job ${id} lost the answers of chunk ${chunk}`);
    return unpackAnswers(packed);
  }

  /** Ends a queued or running job as cancelled or failed (see END_JOB); the status it had, undefined when there was no job. */
  async end(id: string, as: 'cancelled' | 'failed', now: Date): Promise<JobStatus | undefined> {
    const had = await this.redis.eval(END_JOB, 1, hashKey(id), as, now.toISOString(), this.expiryFrom(now), this.ttlSeconds, inputPrefix(id), answerPrefix(id));
    return (had as JobStatus | null) ?? undefined;
  }

  /** How many jobs are in each status, and the rows per second of those running, over every job still kept. */
  async census(now: number): Promise<{ byStatus: Record<JobStatus, number>; rowsPerSecond: number }> {
    const byStatus: Record<JobStatus, number> = { queued: 0, running: 0, completed: 0, failed: 0, cancelled: 0 };
    let rowsPerSecond = 0;
    const ids = await this.redis.zrange(INDEX, 0, -1);
    // Asked all at once: one round trip's wait for every job kept, not one per job, at each scrape.
    const records = await Promise.all(ids.map((id) => this.record(id)));
    const gone: string[] = [];
    for (const [n, record] of records.entries()) {
      if (!record) {
        gone.push(ids[n]);
        continue;
      }
      byStatus[record.status] += 1;
      if (record.status === 'running' && record.startedAt) rowsPerSecond += record.done / Math.max(1, (now - Date.parse(record.startedAt)) / 1000);
    }
    if (gone.length > 0) await this.redis.zrem(INDEX, ...gone);
    return { byStatus, rowsPerSecond };
  }

  private expiryFrom(now: Date): string {
    return new Date(now.getTime() + this.ttlSeconds * 1000).toISOString();
  }
}
