import type { CircuitStateName } from '../common/upstream/resilient-upstream';
import type { LastAttempt } from '../metrics/service-metrics';
import type { StartUpReachability } from './upstream-reachability';

/**
 * One upstream operation in /health `upstreams`, from what the process already knows (it never calls an
 * upstream to answer /health). `state` is the one word to read first:
 * - `answering`: the latest call succeeded;
 * - `failing`: the latest call failed or timed out (lookups needing it answer 502, or list the part as unavailable);
 * - `circuit_open`: too many outages lately: not called at all until the next probe;
 * - `unreachable`: not called yet, and its host could not be reached at start-up;
 * - `not_called_yet`: no call since start-up (and the start-up check found nothing wrong, or has not ended).
 */
export interface UpstreamState {
  state: 'answering' | 'failing' | 'circuit_open' | 'unreachable' | 'not_called_yet';
  circuit: CircuitStateName;
  /** The latest attempt on this upstream's host since start-up (a retry that succeeded counts as `ok`). */
  lastCall: 'ok' | 'failed' | 'timed_out' | 'none';
  lastCallAt: string | null;
  /** The configured host. */
  host: string;
  /** The one check made at start-up: could a TCP connection to the host be opened? */
  atStartUp: StartUpReachability['state'];
  /** Why the start-up check failed, e.g. "getaddrinfo ENOTFOUND hazards.fema.gov"; null otherwise. */
  startUpError: string | null;
}

const LAST_CALL: Record<LastAttempt['outcome'], UpstreamState['lastCall']> = {
  success: 'ok',
  failure: 'failed',
  rejected: 'failed',
  timeout: 'timed_out',
};

export function upstreamState(circuit: CircuitStateName, last: LastAttempt | undefined, startUp: StartUpReachability): UpstreamState {
  const lastCall = last ? LAST_CALL[last.outcome] : 'none';
  let state: UpstreamState['state'];
  if (circuit === 'open' || circuit === 'isolated') state = 'circuit_open';
  else if (lastCall === 'ok') state = 'answering';
  else if (lastCall !== 'none') state = 'failing';
  else state = startUp.state === 'unreachable' ? 'unreachable' : 'not_called_yet';
  return {
    state,
    circuit,
    lastCall,
    lastCallAt: last ? new Date(last.at).toISOString() : null,
    host: startUp.host,
    atStartUp: startUp.state,
    startUpError: startUp.state === 'unreachable' ? startUp.error : null,
  };
}
