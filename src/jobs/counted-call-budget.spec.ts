import type { UpstreamName } from '../common/upstream/upstream-registry';
import { UpstreamCallBudget } from '../common/upstream/upstream-call-budget';
import { asBatchRow } from '../batch/batch-lookup.service';
import { CountedCallBudget } from './counted-call-budget';

/** A shared budget that grants every turn at once, but refuses one whose signal has aborted. */
class GrantingBudget extends UpstreamCallBudget {
  readonly asked: UpstreamName[] = [];

  admit(upstream: UpstreamName, signal: AbortSignal): Promise<void> {
    this.asked.push(upstream);
    signal.throwIfAborted();
    return Promise.resolve();
  }
}

/** A shared budget that holds every turn until the test grants them. */
class HeldBudget extends UpstreamCallBudget {
  private readonly held: Array<() => void> = [];

  admit(): Promise<void> {
    return new Promise((resolve) => this.held.push(resolve));
  }

  grant(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }
}

describe("CountedCallBudget: one chunk attempt's calls, counted per upstream, its turns and deadlines the shared budget's", () => {
  it('counts each turn granted per upstream, tells each one, and takes every turn from the shared budget', async () => {
    const shared = new GrantingBudget();
    const told: UpstreamName[] = [];
    const chunk = new CountedCallBudget(shared, (upstream) => told.push(upstream));
    const signal = new AbortController().signal;
    expect(chunk.calls()).toEqual({});
    for (const upstream of ['flood_data', 'flood_data', 'geocoder', 'flood_data'] as const) await chunk.turn(upstream, signal);
    expect(chunk.calls()).toEqual({ flood_data: 3, geocoder: 1 });
    expect(told).toEqual(['flood_data', 'flood_data', 'geocoder', 'flood_data']);
    expect(shared.asked).toEqual(['flood_data', 'flood_data', 'geocoder', 'flood_data']);
  });

  it('counts no turn given up on (its lookup gone): no attempt is sent', async () => {
    const shared = new GrantingBudget();
    const told: UpstreamName[] = [];
    const chunk = new CountedCallBudget(shared, (upstream) => told.push(upstream));
    const gone = new AbortController();
    gone.abort();
    await expect(chunk.turn('flood_data', gone.signal)).rejects.toThrow();
    expect([chunk.calls(), told, shared.asked]).toEqual([{}, [], ['flood_data']]);
  });

  it('counts no turn granted after its signal aborted (a budget that answers without looking again): the attempt is never sent', async () => {
    const late = new AbortController();
    const shared = new (class extends UpstreamCallBudget {
      async admit(): Promise<void> {
        await Promise.resolve();
        late.abort();
      }
    })();
    const told: UpstreamName[] = [];
    const chunk = new CountedCallBudget(shared, (upstream) => told.push(upstream));
    await chunk.turn('geocoder', late.signal);
    expect([chunk.calls(), told]).toEqual([{}, []]);
  });

  it('counts each call with the row of the chunk it was sent for: the calls of the first rows alone, or of all', async () => {
    const chunk = new CountedCallBudget(new GrantingBudget(), () => undefined);
    const signal = new AbortController().signal;
    await asBatchRow(0, () => chunk.turn('flood_data', signal));
    await asBatchRow(2, async () => {
      await chunk.turn('flood_data', signal);
      // Across awaits, and in what the row's work starts (a piece loaded for it and its neighbours).
      await new Promise((resolve) => setTimeout(resolve, 1));
      await Promise.all([chunk.turn('flood_data', signal), chunk.turn('geocoder', signal)]);
    });
    await asBatchRow(1, () => chunk.turn('geocoder', signal));
    expect([chunk.calls(0), chunk.calls(1), chunk.calls(2), chunk.calls(3)]).toEqual([
      {},
      { flood_data: 1 },
      { flood_data: 1, geocoder: 1 },
      { flood_data: 3, geocoder: 2 },
    ]);
    // A call sent for no row counts with the first.
    await chunk.turn('flood_data', signal);
    expect([chunk.calls(0), chunk.calls()]).toEqual([{ flood_data: 1 }, { flood_data: 4, geocoder: 2 }]);
  });

  it("keeps each chunk's count apart, and hands out a copy", async () => {
    const shared = new GrantingBudget();
    const [first, second] = [new CountedCallBudget(shared, () => undefined), new CountedCallBudget(shared, () => undefined)];
    const signal = new AbortController().signal;
    await first.turn('geocoder', signal);
    await second.turn('flood_data', signal);
    const copy = first.calls();
    copy.geocoder = 99;
    expect([first.calls(), second.calls()]).toEqual([{ geocoder: 1 }, { flood_data: 1 }]);
  });

  it("gives lookups the shared budget's deadline: it leaves out the time any call of the process waits for its turn, not only this chunk's", async () => {
    jest.useFakeTimers();
    try {
      const held = new HeldBudget();
      const [first, second] = [new CountedCallBudget(held, () => undefined), new CountedCallBudget(held, () => undefined)];
      const deadline = first.deadline(1000);
      // The other chunk's call waits 5 s for its turn: the first chunk's lookup is held back as long, its time not spent.
      const waiting = second.turn('flood_data', new AbortController().signal);
      await jest.advanceTimersByTimeAsync(5000);
      expect(deadline.signal.aborted).toBe(false);
      held.grant();
      await waiting;
      await jest.advanceTimersByTimeAsync(999);
      expect(deadline.signal.aborted).toBe(false);
      await jest.advanceTimersByTimeAsync(2);
      expect(deadline.signal.aborted).toBe(true);
      expect([first.calls(), second.calls()]).toEqual([{}, { flood_data: 1 }]);
    } finally {
      jest.useRealTimers();
    }
  });
});
