import { SingleBar } from 'cli-progress';

/** Rows written so far, reported as they are written. */
export interface ScreeningProgress {
  start(total: number, done: number): void;
  rowWritten(): void;
  stop(): void;
}

/** A progress bar on a terminal: rows done of total, rows per second since this run began, time left. */
export function progressBar(terminal: NodeJS.WritableStream): ScreeningProgress {
  const bar = new SingleBar({
    stream: terminal,
    format: '{bar} {value}/{total} rows | {rate} rows/s | {eta_formatted} left',
    hideCursor: true,
    etaBuffer: 1000,
  });
  let began = 0;
  let startedAt = 0;
  let written = 0;
  return {
    start(total, done) {
      began = done;
      written = done;
      startedAt = Date.now();
      bar.start(total, done, { rate: 0 });
    },
    rowWritten() {
      written += 1;
      const seconds = (Date.now() - startedAt) / 1000;
      bar.update(written, { rate: seconds > 0 ? Math.round((written - began) / seconds) : 0 });
    },
    stop: () => bar.stop(),
  };
}
