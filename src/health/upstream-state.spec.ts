import { upstreamState } from './upstream-state';

const at = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
const reachable = { state: 'reachable' as const, host: 'hazards.fema.gov' };
const unreachable = { state: 'unreachable' as const, host: 'hazards.fema.gov', error: 'getaddrinfo ENOTFOUND hazards.fema.gov' };

describe('upstreamState', () => {
  it('names the state from the circuit, the latest call and the start-up check, in that order of weight', () => {
    const cases: Array<[Parameters<typeof upstreamState>, string]> = [
      [['closed', undefined, reachable], 'not_called_yet'],
      [['closed', undefined, { state: 'checking', host: 'hazards.fema.gov' }], 'not_called_yet'],
      [['closed', undefined, unreachable], 'unreachable'],
      [['closed', { outcome: 'success', at }, unreachable], 'answering'],
      [['closed', { outcome: 'failure', at }, reachable], 'failing'],
      [['closed', { outcome: 'timeout', at }, reachable], 'failing'],
      [['half_open', { outcome: 'success', at }, reachable], 'answering'],
      [['open', { outcome: 'success', at }, reachable], 'circuit_open'],
      [['isolated', undefined, reachable], 'circuit_open'],
    ];
    expect(cases.map(([args]) => upstreamState(...args).state)).toEqual(cases.map(([, state]) => state));
  });

  it('says what the latest call did and when, and why the start-up check failed', () => {
    expect(upstreamState('closed', { outcome: 'timeout', at }, unreachable)).toStrictEqual({
      state: 'failing',
      circuit: 'closed',
      lastCall: 'timed_out',
      lastCallAt: '2026-01-02T03:04:05.678Z',
      host: 'hazards.fema.gov',
      atStartUp: 'unreachable',
      startUpError: 'getaddrinfo ENOTFOUND hazards.fema.gov',
    });
    expect(upstreamState('closed', { outcome: 'rejected', at }, reachable)).toMatchObject({ lastCall: 'failed', startUpError: null });
    expect(upstreamState('closed', undefined, { state: 'not_checked', host: '127.0.0.1:4010' })).toStrictEqual({
      state: 'not_called_yet',
      circuit: 'closed',
      lastCall: 'none',
      lastCallAt: null,
      host: '127.0.0.1:4010',
      atStartUp: 'not_checked',
      startUpError: null,
    });
  });
});
