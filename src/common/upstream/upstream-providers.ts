import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { HttpModule } from '@nestjs/axios';
import type { DynamicModule, Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/app-config';
import { ResilientUpstream, UPSTREAM_OBSERVER, UpstreamObserver } from './resilient-upstream';
import type { UpstreamName } from './upstream-registry';

/** An HTTP client with keep-alive connections reused, at most UPSTREAM_MAX_CONCURRENCY sockets per host. */
export function upstreamHttpModule(): DynamicModule {
  return HttpModule.registerAsync({
    inject: [ConfigService],
    useFactory: (config: ConfigService<AppConfig, true>) => {
      const agentOptions = { keepAlive: true, maxSockets: config.get('UPSTREAM_MAX_CONCURRENCY', { infer: true }) };
      return { httpAgent: new HttpAgent(agentOptions), httpsAgent: new HttpsAgent(agentOptions), maxRedirects: 0 };
    },
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
