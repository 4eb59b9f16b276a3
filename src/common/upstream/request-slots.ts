/**
 * At most `size` upstream requests at once; the others wait in line, first come first served. A waiter
 * whose signal aborts leaves the line at once, rejecting with the signal's reason, and holds nothing; a
 * finished request hands its slot straight to the next waiter still in line, so no waiter is stranded.
 * (cockatiel 3's bulkhead rejects an aborted waiter only when its turn comes, and then serves nobody else;
 * p-queue, which gets this right, is published as an ES module only.)
 */
export class RequestSlots {
  private running = 0;
  /** Each waiter's way to take the slot it is given, in arrival order. */
  private readonly line = new Set<() => void>();

  constructor(private readonly size: number) {}

  /** Runs `request` once a slot is free, unless `signal` aborts first. */
  async run<T>(request: () => Promise<T>, signal: AbortSignal): Promise<T> {
    await this.take(signal);
    try {
      return await request();
    } finally {
      this.release();
    }
  }

  private take(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const turn = () => {
        signal.removeEventListener('abort', leave);
        this.running++;
        resolve();
      };
      const leave = () => {
        this.line.delete(turn);
        reject(signal.reason);
      };
      this.line.add(turn);
      signal.addEventListener('abort', leave, { once: true });
    });
  }

  private release(): void {
    this.running--;
    const [next] = this.line;
    if (next === undefined) return;
    this.line.delete(next);
    next();
  }
}
