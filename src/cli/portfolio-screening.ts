import { createWriteStream } from 'node:fs';
import { truncate } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { requestChunkAnswer, rowsOf } from './chunk-answer';
import { badArguments, CommandFailure, serviceFailed } from './command-failure';
import type { FloodZoneService } from './flood-zone-service';
import { checkReadable, countPortfolioRows, PortfolioChunk, portfolioChunks } from './portfolio-input';
import { findResumePoint } from './resume-point';
import type { ScreeningProgress } from './screening-progress';

export interface ScreeningOptions {
  input: string;
  /** The answer file; without it the answer goes to `stdout`. */
  output?: string;
  stdout: Writable;
  service: FloodZoneService;
  chunkSize: number;
  /** Chunks requested at once. */
  parallel: number;
  resume: boolean;
  progress?: ScreeningProgress;
}

/** A chunk on its way: its answer, and a way to call it off. */
interface ChunkInFlight {
  chunk: PortfolioChunk;
  answer: Promise<AsyncIterable<string[]>>;
  controller: AbortController;
}

/**
 * `flood-zone batch`: the input in chunks to `POST /flood-zone/batch`, `parallel` at a time, their CSV answers
 * written in input order under one header, each row's `index` its position in the whole input. A chunk
 * holds its place in the window until its last row is written, so at most `parallel` chunks are in memory.
 * When a chunk fails as a whole, the rows before it are still written (for `--resume`), the chunks after it
 * are called off, and the failure is exit status 1.
 */
export async function screenPortfolio(options: ScreeningOptions): Promise<void> {
  const { input, output, service, chunkSize, parallel, progress } = options;
  await checkReadable(input);
  if (options.resume && !output) throw badArguments('--resume needs -o OUTPUT: the rows already answered are read from it.');
  const resumed = options.resume && output ? await findResumePoint(output) : { rowsDone: 0, bytes: 0, header: undefined };
  if (output && options.resume) await truncateTo(output, resumed.bytes);
  const total = progress ? await countPortfolioRows(input) : 0;
  const sink = output ? createWriteStream(output, { flags: options.resume ? 'a' : 'w' }) : options.stdout;
  const rows = stringify();
  rows.pipe(sink, { end: sink !== options.stdout });

  let header = resumed.header;
  const window: ChunkInFlight[] = [];
  let calledOff = false;
  const send = (chunk: PortfolioChunk): ChunkInFlight => {
    const controller = new AbortController();
    const answer = requestChunkAnswer(service, chunk, controller.signal);
    // A failed chunk calls off the ones after it; its own failure is reported when its turn comes.
    answer.catch(() => {
      calledOff = true;
      for (const later of window) if (later.chunk.start > chunk.start) later.controller.abort();
    });
    return { chunk, answer, controller };
  };
  const writeOldest = async () => {
    const { chunk, answer } = window[0];
    let position = -1;
    try {
      for await (const record of await answer) {
        if (position === -1) {
          if (!header) await write(rows, record);
          header = checkedHeader(record, header, chunk);
        } else {
          await write(rows, renumbered(record, header!, chunk, position));
          progress?.rowWritten();
        }
        position += 1;
      }
    } catch (error) {
      if (error instanceof CommandFailure) throw error;
      throw serviceFailed(`the answer to ${rowsOf(chunk)} was cut off: ${(error as Error).message}`);
    }
    if (position !== chunk.rows) throw serviceFailed(`the service answered ${Math.max(position, 0)} of ${rowsOf(chunk)}.`);
    window.shift();
  };

  progress?.start(total, resumed.rowsDone);
  try {
    for await (const chunk of portfolioChunks(input, chunkSize, resumed.rowsDone)) {
      if (window.length === parallel) await writeOldest();
      if (calledOff) break;
      window.push(send(chunk));
    }
    while (window.length > 0) await writeOldest();
  } finally {
    for (const left of window) left.controller.abort();
    progress?.stop();
    rows.end();
    await (sink === options.stdout ? once(rows, 'end') : finished(sink));
  }
}

/** The first chunk's header starts the output (unless resuming one); every later answer must match it. */
function checkedHeader(record: string[], header: string[] | undefined, chunk: PortfolioChunk): string[] {
  if (!record.includes('index')) throw serviceFailed(`the answer to ${rowsOf(chunk)} is not a CSV batch answer (no index column).`);
  if (header && record.join(',') !== header.join(',')) {
    throw serviceFailed(`the answer to ${rowsOf(chunk)} has other columns than the output so far: ${record.join(',')}`);
  }
  return record;
}

/** A row with its index in the whole input; the service numbers it within the chunk, in order. */
function renumbered(record: string[], header: string[], chunk: PortfolioChunk, position: number): string[] {
  const column = header.indexOf('index');
  if (record[column] !== String(position)) {
    throw serviceFailed(`the answer to ${rowsOf(chunk)} has the index "${record[column]}" where ${position} belongs.`);
  }
  const row = [...record];
  row[column] = String(chunk.start + position);
  return row;
}

async function write(rows: Writable, record: string[]): Promise<void> {
  if (!rows.write(record)) await once(rows, 'drain');
}

async function truncateTo(path: string, bytes: number): Promise<void> {
  try {
    await truncate(path, bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw badArguments(`cannot resume into ${path}: ${(error as Error).message}`);
  }
}
