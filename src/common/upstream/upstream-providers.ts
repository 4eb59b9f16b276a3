import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { HttpModule } from '@nestjs/axios';
import type { DynamicModule, Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/app-config';
import { ResilientUpstream, UPSTREAM_OBSERVER, UpstreamObserver } from './resilient-upstream';
import type { UpstreamName } from './upstream-registry';

/**
 * How long a connection may sit idle before it is closed rather than reused: under the 5 s after which many servers
 * (Node's, several load balancers) drop an idle one, and Node lowers it to a second under a shorter `Keep-Alive:
 * timeout` a server announces. A connection the server has dropped fails the request sent on it: an attempt that
 * never reaches the server, yet is retried and counted against the upstream's budget.
 */
export const UPSTREAM_IDLE_CONNECTION_MS = 4000;

/** The upstreams' HTTP client options: keep-alive connections reused while the server keeps them, at most `maxSockets` per host. */
export function upstreamHttpOptions(maxSockets: number) {
  const agentOptions = { keepAlive: true, maxSockets, timeout: UPSTREAM_IDLE_CONNECTION_MS };
  return { httpAgent: new HttpAgent(agentOptions), httpsAgent: new HttpsAgent(agentOptions), maxRedirects: 0 };
}

/** An HTTP client with keep-alive connections reused, at most UPSTREAM_MAX_CONCURRENCY sockets per host. */
export function upstreamHttpModule(): DynamicModule {
  return HttpModule.registerAsync({
    inject: [ConfigService],
    useFactory: (config: ConfigService<AppConfig, true>) => upstreamHttpOptions(config.get('UPSTREAM_MAX_CONCURRENCY', { infer: true })),
  });
}

/**
 * The resilience policies of one upstream service, built from the configuration and reporting to the
 * UpstreamObserver (the metrics), with the circuits and byte cap of its registry entry.
 */
export function resilientUpstreamProvider(token: symbol, name: UpstreamName): Provider {
  return {
    provide: token,
    inject: [ConfigService, UPSTREAM_OBSERVER],
    useFactory: (config: ConfigService<AppConfig, true>, observer: UpstreamObserver) =>
      new ResilientUpstream(
        name,
        {
          timeoutMs: config.get('UPSTREAM_TIMEOUT_MS', { infer: true }),
          retries: config.get('UPSTREAM_RETRIES', { infer: true }),
          maxConcurrency: config.get('UPSTREAM_MAX_CONCURRENCY', { infer: true }),
          breakerFailureRate: config.get('CIRCUIT_BREAKER_FAILURE_RATE', { infer: true }),
          breakerWindowMs: config.get('CIRCUIT_BREAKER_WINDOW_MS', { infer: true }),
          breakerMinCalls: config.get('CIRCUIT_BREAKER_MIN_CALLS', { infer: true }),
          halfOpenAfterMs: config.get('CIRCUIT_BREAKER_HALF_OPEN_MS', { infer: true }),
          // An attempt with less than a tenth of its time (or of a whole lookup's, if shorter) left is not worth starting.
          minAttemptMs: Math.min(config.get('UPSTREAM_TIMEOUT_MS', { infer: true }), config.get('LOOKUP_DEADLINE_MS', { infer: true })) / 10,
        },
        observer,
      ),
  };
}
