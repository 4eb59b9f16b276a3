import { PassThrough } from 'node:stream';
import { jobProgressBar } from './portfolio-job-commands';
import { timeLeftText } from './time-left';

describe("timeLeftText: a job's time left on the progress bar, from the service's etaSeconds", () => {
  it.each([
    [null, 'estimating time left (after 1% of rows)'],
    [0, '0s left'],
    [42, '42s left'],
    [60, '1m 00s left'],
    [754, '12m 34s left'],
    [3600, '1h 00m left'],
    [7 * 3600 + 5 * 60 + 59, '7h 05m left'],
    [70 * 3600, '2d 22h left'],
    [Number.POSITIVE_INFINITY, 'estimating time left (after 1% of rows)'],
    [Number.NaN, 'estimating time left (after 1% of rows)'],
  ])('%s → %s', (etaSeconds, text) => {
    expect(timeLeftText(etaSeconds)).toBe(text);
  });
});

describe('jobProgressBar: what `job wait` draws on a terminal', () => {
  /** A terminal that keeps what is drawn on it. */
  function terminal() {
    const drawn: string[] = [];
    const stream = Object.assign(new PassThrough(), {
      isTTY: true,
      columns: 120,
      cursorTo: () => true,
      clearLine: () => true,
      clearScreenDown: () => true,
      moveCursor: () => true,
    });
    stream.on('data', (chunk: Buffer) => drawn.push(chunk.toString()));
    return { stream, drawn: () => drawn.join('') };
  }

  it('says it is estimating while the job gives no time left (never "0s left" or "NFs left"), then the time the job gives', () => {
    jest.useFakeTimers();
    try {
      const screen = terminal();
      const progress = jobProgressBar(screen.stream);
      for (let poll = 0; poll < 5; poll++) {
        progress.update({ done: 0, total: 2000, etaSeconds: null });
        jest.advanceTimersByTime(1000);
      }
      expect(screen.drawn()).toContain('0/2000 rows | estimating time left (after 1% of rows)');
      progress.update({ done: 40, total: 2000, etaSeconds: 754 });
      jest.advanceTimersByTime(1000);
      progress.stop();
      expect(screen.drawn()).toContain('40/2000 rows | 12m 34s left');
      expect(screen.drawn()).not.toMatch(/ 0s left|NF/);
    } finally {
      jest.useRealTimers();
    }
  });
});
