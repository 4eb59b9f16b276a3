import { createWriteStream } from 'node:fs';
import { access, constants, truncate } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { OutputRow, PortfolioChunk, requestChunkAnswer, rowsOf } from './chunk-answer';
import { badArguments, CommandFailure, ROWS_FAILED_STATUS, serviceFailed } from './command-failure';
import type { FloodZoneApi } from './flood-zone-api';
import { Portfolio, PortfolioRow } from './portfolio-input';
import { checkResumable, findResumePoint, ResumePoint } from './resume-point';
import { outputHeader, outputHeaderLine } from './screening-output';
import type { ScreeningProgress } from './screening-progress';

export interface ScreeningOptions {
  input: string;
  /** The output file; without it the output goes to `stdout`. */
  output?: string;
  stdout: Writable;
  /** Where warnings and the closing summary go. */
  stderr: Writable;
  api: FloodZoneApi;
  chunkSize: number;
  /** Chunks requested at once. */
  parallel: number;
  resume: boolean;
  progress?: ScreeningProgress;
}

/** A chunk on its way: its rows, and a way to call it off. */
interface ChunkInFlight {
  chunk: PortfolioChunk;
  answer: Promise<AsyncIterable<OutputRow>>;
  controller: AbortController;
}

/**
 * `flood-zone batch`: the input in chunks to `POST /flood-zone/batch`, `parallel` at a time, written in input
 * order under one header, each row's `index` its position in the whole input. A chunk holds its place in the
 * window until its last row is written, so at most `parallel` chunks are in memory. When a chunk fails as a
 * whole (or its answer breaks off), the rows before it are still written (for `--resume`), the chunks after it
 * are called off, and the failure is exit status 1. The output is opened at its first row, so a run that gets
 * no answer leaves no file (and an existing file as it was). Returns 0, or 3 when rows in the output got a 5xx.
 */
export async function screenPortfolio(options: ScreeningOptions): Promise<0 | typeof ROWS_FAILED_STATUS> {
  const { input, output, stderr, api, chunkSize, parallel, progress } = options;
  if (options.resume && !output) throw badArguments('--resume needs -o OUTPUT: the rows already answered are read from it.');
  const portfolio = await Portfolio.open(input);
  if (output) await checkWritable(output);
  const unread = portfolio.unreadColumnsWarning;
  if (unread) stderr.write(`flood-zone: ${unread}; copied to the output as given.\n`);
  const header = outputHeader(portfolio.columns);
  const resumed: ResumePoint = options.resume && output ? await findResumePoint(output) : { rowsDone: 0, bytes: 0 };
  const statuses = resumed.header ? await checkResumable(output!, resumed, portfolio, header) : [];
  const sink = new OutputSink(
    output ? { path: output, append: options.resume, bytes: resumed.bytes } : undefined,
    options.stdout,
    resumed.header ? '' : outputHeaderLine(portfolio.columns),
  );

  const window: ChunkInFlight[] = [];
  let calledOff = false;
  const send = (chunk: PortfolioChunk): ChunkInFlight => {
    const controller = new AbortController();
    const answer = requestChunkAnswer(api, portfolio, chunk, controller.signal);
    // A failed chunk calls off the ones after it; its own failure is reported when its turn comes.
    answer.catch(() => {
      calledOff = true;
      for (const later of window) if (later.chunk.start > chunk.start) later.controller.abort();
    });
    return { chunk, answer, controller };
  };
  const writeOldest = async () => {
    const { chunk, answer } = window[0];
    try {
      for await (const row of await answer) {
        await sink.write(row.line);
        statuses.push(row.status);
        progress?.rowWritten();
      }
    } catch (error) {
      if (error instanceof CommandFailure) throw error;
      throw serviceFailed(`the answer to ${rowsOf(chunk)} was cut off: ${(error as Error).message}`);
    }
    window.shift();
  };

  progress?.start(portfolio.rowCount, resumed.rowsDone);
  try {
    for await (const chunk of chunksOf(portfolio.rows(resumed.rowsDone), chunkSize)) {
      if (window.length === parallel) await writeOldest();
      if (calledOff) break;
      window.push(send(chunk));
    }
    while (window.length > 0) await writeOldest();
  } finally {
    for (const left of window) left.controller.abort();
    progress?.stop();
    await sink.close();
    if (statuses.length > 0) stderr.write(summary(statuses, portfolio.rowCount, resumed.rowsDone, output));
  }
  return statuses.some((status) => status >= 500) ? ROWS_FAILED_STATUS : 0;
}

async function* chunksOf(rows: AsyncIterable<PortfolioRow>, size: number): AsyncGenerator<PortfolioChunk> {
  let chunk: PortfolioRow[] = [];
  for await (const row of rows) {
    chunk.push(row);
    if (chunk.length === size) {
      yield { start: chunk[0].position, rows: chunk };
      chunk = [];
    }
  }
  if (chunk.length > 0) yield { start: chunk[0].position, rows: chunk };
}

/** The closing lines: rows in the output of all there are, by status; and why the exit status is 3 when it is. */
function summary(statuses: number[], total: number, resumed: number, output: string | undefined): string {
  const byStatus = new Map<number, number>();
  for (const status of [...statuses].sort((a, b) => a - b)) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  const where = output ? `in ${output}` : 'written';
  const thisRun = resumed > 0 ? ` (${statuses.length - resumed} by this run)` : '';
  const counts = [...byStatus].map(([status, rows]) => `${status}: ${rows}`).join(', ');
  const failed = statuses.filter((status) => status >= 500).length;
  const rest = statuses.length < total && output ? '; run again with --resume for the rest' : '';
  const lines = [`flood-zone: ${statuses.length} of ${total} rows ${where}${thisRun}; by status ${counts}${rest}`];
  if (failed > 0)
    lines.push(
      `flood-zone: ${failed} ${failed === 1 ? 'row' : 'rows'} got a 5xx status (the service or a data source failed): exit status ${ROWS_FAILED_STATUS}.`,
    );
  return lines.map((line) => `${line}\n`).join('');
}

/** Fails early (exit 2) when OUTPUT could not be written, before any request. */
async function checkWritable(path: string): Promise<void> {
  try {
    await access(path, constants.W_OK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw badArguments(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code}`);
    try {
      await access(dirname(path), constants.W_OK);
    } catch (inDirectory) {
      throw badArguments(`cannot write ${path}: ${(inDirectory as NodeJS.ErrnoException).code}`);
    }
  }
}

/**
 * Where the output goes, opened at the first write: the file (`append` continues a resumed one from `bytes`,
 * cutting off a last line written in half) or else stdout. `header` (empty when resuming) goes first.
 */
class OutputSink {
  private stream?: Writable;
  private failure?: NodeJS.ErrnoException;

  constructor(
    private readonly file: { path: string; append: boolean; bytes: number } | undefined,
    private readonly stdout: Writable,
    private header: string,
  ) {}

  async write(text: string): Promise<void> {
    const stream = this.stream ?? (await this.open());
    try {
      if (!stream.write(this.header + text)) await once(stream, 'drain');
    } catch {
      throw this.writeFailure();
    }
    this.header = '';
  }

  async close(): Promise<void> {
    if (!this.stream || !this.file) return;
    this.stream.end();
    await finished(this.stream).catch(() => undefined);
    if (this.failure) throw this.writeFailure();
  }

  private writeFailure(): CommandFailure {
    return new CommandFailure(1, `cannot write ${this.file?.path ?? 'stdout'}: ${this.failure?.code ?? this.failure?.message ?? 'closed'}`);
  }

  private async open(): Promise<Writable> {
    if (!this.file) return (this.stream = this.stdout);
    const { path, append, bytes } = this.file;
    if (append) {
      await truncate(path, bytes).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw new CommandFailure(1, `cannot resume into ${path}: ${error.code}`);
      });
    }
    this.stream = createWriteStream(path, { flags: append ? 'a' : 'w' });
    this.stream.on('error', (error) => (this.failure = error));
    return this.stream;
  }
}
