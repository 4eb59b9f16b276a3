import { readFileSync } from 'node:fs';
import { ConfigService } from '@nestjs/config';
import type { PieceCache } from '../../src/cache/piece-cache';
import { ResilientUpstream, UpstreamPolicyOptions } from '../../src/common/upstream/resilient-upstream';
import type { UpstreamName } from '../../src/common/upstream/upstream-registry';
import type { AppConfig } from '../../src/config/app-config';
import { HeldLayers } from '../../src/flood-hazard/held-layers.client';
import type { ServiceMetrics } from '../../src/metrics/service-metrics';

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

/** The NFHL client's held squares in its unit specs: none (HELD_POLYGONS_MAX_MB=0), every layer asked at its point. */
export function noHeldLayers(): HeldLayers {
  return new HeldLayers({} as PieceCache, {} as ServiceMetrics, new ConfigService<AppConfig, true>({ HELD_POLYGONS_MAX_MB: 0, CACHE_TTL_SECONDS: 0 }));
}

/**
 * How far past a byte cap an emulator may have written before the client's giving up reaches it: what the
 * kernel may hold in flight on a loopback connection, never read by the client, at most its largest send
 * buffer plus its largest receive buffer (which it grows while the client reads fast).
 */
export const SOCKET_BUFFERS_BYTES = largestSocketBuffer('tcp_wmem') + largestSocketBuffer('tcp_rmem');

/** The third of the kernel's `min default max` sizes of a TCP socket buffer. */
function largestSocketBuffer(name: 'tcp_wmem' | 'tcp_rmem'): number {
  const largest = Number(readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/)[2]);
  if (!Number.isInteger(largest) || largest <= 0) throw new Error(`no largest size in /proc/sys/net/ipv4/${name}`);
  return largest;
}
