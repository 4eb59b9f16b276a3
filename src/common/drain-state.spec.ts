import { DrainState } from './drain-state';

describe('DrainState', () => {
  it('signals `stopping` as the drain begins and `overdue` only once nothing is left in flight', async () => {
    const state = new DrainState();
    state.entered();
    const drained = state.drain(10_000);
    expect({ draining: state.draining, stopping: state.stopping.aborted, overdue: state.overdue.aborted }).toEqual({
      draining: true,
      stopping: true,
      overdue: false,
    });
    state.left();
    await drained;
    expect(state.overdue.aborted).toBe(true);
  });

  it('signals `overdue` when its time is up with requests still in flight', async () => {
    const state = new DrainState();
    state.entered();
    await state.drain(50);
    expect({ stopping: state.stopping.aborted, overdue: state.overdue.aborted }).toEqual({ stopping: true, overdue: true });
  });

  it('signals neither before a drain', () => {
    const state = new DrainState();
    expect({ draining: state.draining, stopping: state.stopping.aborted, overdue: state.overdue.aborted }).toEqual({
      draining: false,
      stopping: false,
      overdue: false,
    });
  });
});
