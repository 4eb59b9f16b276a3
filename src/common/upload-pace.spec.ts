import { BodyPace, UploadPace, bodyTooSlow, type PaceSample } from './upload-pace';

/** The rule as served: 10 s to get going, then 1 KiB/s over every 10 s. */
const PACE: UploadPace = { graceMs: 10_000, windowMs: 10_000, minBytesPerSecond: 1024 };
const KiB = 1024;

describe('bodyTooSlow: the pace rule, case by case', () => {
  const at = (atMs: number, bytes: number): PaceSample => ({ atMs, bytes });

  it.each<[string, PaceSample[], PaceSample, boolean]>([
    ['nothing yet, within the grace', [], at(9_999, 0), false],
    ['nothing at all, at the end of the grace', [], at(10_000, 0), true],
    ['1 KiB/s exactly since the start, at the end of the grace', [], at(10_000, 10 * KiB), false],
    ['a byte short of 1 KiB/s since the start', [], at(10_000, 10 * KiB - 1), true],
    ['16 KiB/s, long after 30 s (what a fixed timeout refused)', [at(20_000, 320 * KiB)], at(31_000, 496 * KiB), false],
    [
      'a whole body at once then nothing for a window: the window judges, not the average since the start',
      [at(1_000, 10_000 * KiB)],
      at(11_000, 10_000 * KiB),
      true,
    ],
    ['a whole body at once then 1 KiB/s: enough', [at(1_000, 10_000 * KiB)], at(11_000, 10_010 * KiB), false],
    ['a byte a second (slowloris), an hour in', [at(3_590_000, 3_590)], at(3_600_000, 3_600), true],
    ['the window looks back to the latest sample at or before its start', [at(4_000, 0), at(6_000, 20 * KiB)], at(15_000, 20 * KiB), false],
    ['the same, its start past the burst', [at(4_000, 0), at(6_000, 20 * KiB)], at(16_500, 20 * KiB), true],
  ])('%s', (_case, samples, now, slow) => {
    expect(bodyTooSlow(PACE, [at(0, 0), ...samples], now)).toBe(slow);
  });

  it('a tiny window (as tests set it) judges the last moments alone', () => {
    const tiny: UploadPace = { graceMs: 100, windowMs: 100, minBytesPerSecond: 1024 };
    expect(bodyTooSlow(tiny, [at(0, 0), at(900, 5 * KiB)], at(1_000, 5 * KiB))).toBe(true);
    expect(bodyTooSlow(tiny, [at(0, 0), at(900, 5 * KiB)], at(1_000, 5 * KiB + 103))).toBe(false);
  });
});

describe('BodyPace: a body followed sample by sample', () => {
  /** Feeds `bytesPerTick` every `tickMs` for `ticks`; the tick at which it was found too slow, if any. */
  function slowAt(pace: UploadPace, tickMs: number, bytesAt: (tick: number) => number, ticks: number): number | undefined {
    const body = new BodyPace(pace);
    for (let tick = 1; tick <= ticks; tick += 1) if (body.record(tick * tickMs, bytesAt(tick))) return tick;
    return undefined;
  }

  it('lets a steady 16 KiB/s body go on for an hour', () => {
    expect(slowAt(PACE, 500, (tick) => tick * 8 * KiB, 7_200)).toBeUndefined();
  });

  it('cuts a body dripping a byte every half second at the end of its grace', () => {
    expect(slowAt(PACE, 500, (tick) => tick, 7_200)).toBe(20);
  });

  it('cuts a body sent whole at first then dripped, one window after the drip began', () => {
    // 1 MiB in the first half second, then a byte every half second
    expect(slowAt(PACE, 500, (tick) => 1024 * KiB + tick, 7_200)).toBe(21);
  });

  it('keeps no more samples than one window holds', () => {
    const body = new BodyPace(PACE);
    for (let tick = 1; tick <= 10_000; tick += 1) body.record(tick * 500, tick * 8 * KiB);
    expect(body.heldSamples).toBeLessThanOrEqual(PACE.windowMs / 500 + 2);
  });
});
