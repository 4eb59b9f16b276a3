import { setImmediate } from 'node:timers';
import { ownLoopTurn } from '../event-loop-turns';
import type { UpstreamName } from './upstream-registry';
import { UpstreamCallBudget, deadlineIn } from './upstream-call-budget';

/** A budget whose turns come when the test says. */
class HeldBudget extends UpstreamCallBudget {
  private readonly granting: Array<() => void> = [];

  admit(_upstream: UpstreamName, _signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => this.granting.push(resolve));
  }

  async grantAll(): Promise<void> {
    for (const grant of this.granting.splice(0)) grant();
    // The turns' own bookkeeping runs once their promises settle.
    await Promise.resolve();
    await Promise.resolve();
  }
}

const never = new AbortController().signal;

describe('UpstreamCallBudget.deadline: a lookup runs out of time for its upstreams, not for its place in the queue', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('ends `ms` after it began when no call waited for a turn', async () => {
    const deadline = new HeldBudget().deadline(100).signal;
    jest.advanceTimersByTime(99);
    expect(deadline.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    await ownLoopTurn();
    expect(deadline.aborted).toBe(true);
    expect((deadline.reason as DOMException).name).toBe('TimeoutError');
  });

  it('does not count the time calls of the process wait for their turn, however they overlap', async () => {
    const budget = new HeldBudget();
    const deadline = budget.deadline(100).signal;
    jest.advanceTimersByTime(40);
    const first = budget.turn('flood_data', never);
    jest.advanceTimersByTime(100);
    const second = budget.turn('geocoder', never);
    jest.advanceTimersByTime(500);
    expect(deadline.aborted).toBe(false);
    await budget.grantAll();
    await Promise.all([first, second]);
    // 40 ms were counted before the wait: 60 are left.
    jest.advanceTimersByTime(59);
    expect(deadline.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    await ownLoopTurn();
    expect(deadline.aborted).toBe(true);
  });

  it('gives a lookup that began during a wait its whole time once the turns are granted', async () => {
    const budget = new HeldBudget();
    const turn = budget.turn('flood_data', never);
    jest.advanceTimersByTime(50);
    const deadline = budget.deadline(100).signal;
    jest.advanceTimersByTime(300);
    await budget.grantAll();
    await turn;
    jest.advanceTimersByTime(99);
    expect(deadline.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    await ownLoopTurn();
    expect(deadline.aborted).toBe(true);
  });

  it('tells the time left, not counting the waits for a turn', async () => {
    const budget = new HeldBudget();
    const deadline = budget.deadline(100);
    jest.advanceTimersByTime(30);
    expect(deadline.msLeft()).toBe(70);
    const turn = budget.turn('flood_data', never);
    jest.advanceTimersByTime(500);
    expect(deadline.msLeft()).toBe(70);
    await budget.grantAll();
    await turn;
    jest.advanceTimersByTime(20);
    expect(deadline.msLeft()).toBe(50);
  });

  it('never aborts once ended, even after a wait moved its end, and holds no timer after that', async () => {
    const budget = new HeldBudget();
    const deadline = budget.deadline(100);
    const turn = budget.turn('flood_data', never);
    jest.advanceTimersByTime(150);
    await budget.grantAll();
    await turn;
    deadline.end();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(1000);
    expect(deadline.signal.aborted).toBe(false);
  });
});

describe('deadlineIn: a lookup deadline outside any budget', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('aborts with a TimeoutError `ms` from now, in an event-loop turn of its own', async () => {
    const { signal } = deadlineIn(100);
    jest.advanceTimersByTime(99);
    expect(signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect(signal.aborted).toBe(false);
    await ownLoopTurn();
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('aborts deadlines that expire together one per event-loop turn, in the order they were set', async () => {
    const signals = [deadlineIn(100), deadlineIn(100), deadlineIn(100)].map((deadline) => deadline.signal);
    jest.advanceTimersByTime(100);
    const abortedAfterEachTurn: boolean[][] = [];
    for (let turn = 0; turn < 3; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      abortedAfterEachTurn.push(signals.map((signal) => signal.aborted));
    }
    expect(abortedAfterEachTurn).toEqual([
      [true, false, false],
      [true, true, false],
      [true, true, true],
    ]);
  });

  it('does not abort when the lookup ends after its time ran out but before its turn came', async () => {
    const deadline = deadlineIn(100);
    jest.advanceTimersByTime(100);
    deadline.end();
    await ownLoopTurn();
    expect(deadline.signal.aborted).toBe(false);
  });

  it('tells the time left', () => {
    const deadline = deadlineIn(100);
    jest.advanceTimersByTime(30);
    expect(deadline.msLeft()).toBe(70);
    jest.advanceTimersByTime(70);
    expect(deadline.msLeft()).toBe(0);
  });

  it('never aborts once ended, and holds no timer after that', () => {
    const deadline = deadlineIn(100);
    deadline.end();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(1000);
    expect(deadline.signal.aborted).toBe(false);
  });
});
