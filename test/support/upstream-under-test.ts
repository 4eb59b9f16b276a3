import { ResilientUpstream, UpstreamPolicyOptions } from '../../src/common/upstream/resilient-upstream';
import type { UpstreamName } from '../../src/common/api-error';

/** An upstream client's policies in its unit specs: one retry, and a breaker that never opens, so each fault is seen as it is. */
const POLICY_UNDER_TEST: UpstreamPolicyOptions = {
  timeoutMs: 2_000,
  retries: 1,
  maxConcurrency: 4,
  breakerFailureRate: 100,
  breakerWindowMs: 10_000,
  breakerMinCalls: 1000,
  halfOpenAfterMs: 1000,
};

/** The resilience wrapper of `name` for a client's unit spec, with `policy` changing what the spec is about. */
export function upstreamUnderTest(name: UpstreamName, policy: Partial<UpstreamPolicyOptions> = {}): ResilientUpstream {
  return new ResilientUpstream(name, { ...POLICY_UNDER_TEST, ...policy });
}

/**
 * How far past a byte cap an emulator may have written before the client's giving up reaches it: what the
 * loopback's socket buffers (the sender's and the receiver's) hold in flight, never read by the client.
 */
export const SOCKET_BUFFERS_BYTES = 12 * 1024 * 1024;
