/**
 * The pace every request body is held to (docs/api.md, "Slow uploads"), in place of a fixed time for the whole
 * request: however large a body the API allows, a client that keeps sending gets it in, and one that drips (a
 * slowloris) is cut off. Judged on the service's reading clock: time while the service waits for the body, not while
 * it is busy with what it already has.
 */
export interface UploadPace {
  /** How long a body may take to get going: nothing is judged before. */
  graceMs: number;
  /** The span each judgement looks back over: a body that came fast at first must still keep coming. */
  windowMs: number;
  /** The least a body must bring on average over each window. */
  minBytesPerSecond: number;
}

/** The service's pace after a grace of `graceMs` (BATCH_UPLOAD_GRACE_MS): 1 KiB/s over every 10 s, far below any real uploader's. */
export function uploadPaceAfter(graceMs: number): UploadPace {
  return { graceMs, windowMs: 10_000, minBytesPerSecond: 1024 };
}

/** How much of a body had arrived by a moment of its reading clock. */
export interface PaceSample {
  atMs: number;
  bytes: number;
}

/**
 * Whether a body is too slow `now`: past its grace, it brought less than `minBytesPerSecond` on average since the
 * latest of `earlier` at or before the window's start (its first, at 0 ms, when the window reaches back past it).
 */
export function bodyTooSlow(pace: UploadPace, earlier: readonly PaceSample[], now: PaceSample): boolean {
  if (now.atMs < pace.graceMs) return false;
  const windowStart = now.atMs - pace.windowMs;
  let from = earlier[0];
  for (const sample of earlier) if (sample.atMs <= windowStart) from = sample;
  return (now.bytes - from.bytes) * 1000 < pace.minBytesPerSecond * (now.atMs - from.atMs);
}

/** One body's progress, sample by sample, judged by bodyTooSlow; holds no more samples than one window needs. */
export class BodyPace {
  private readonly samples: PaceSample[] = [{ atMs: 0, bytes: 0 }];

  constructor(private readonly pace: UploadPace) {}

  /** Notes that `bytes` had arrived by `atMs` of the reading clock; whether the body is too slow. */
  record(atMs: number, bytes: number): boolean {
    const now = { atMs, bytes };
    const slow = bodyTooSlow(this.pace, this.samples, now);
    this.samples.push(now);
    // Later windows start later: a sample is needed only while no later one is at or before this window's start.
    while (this.samples.length > 1 && this.samples[1].atMs <= atMs - this.pace.windowMs) this.samples.shift();
    return slow;
  }

  /** How many samples it holds (bounded by a window's worth). */
  get heldSamples(): number {
    return this.samples.length;
  }
}
