import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { connect } from 'node:net';
import { UPSTREAM_REGISTRY, UpstreamName } from '../common/upstream/upstream-registry';
import type { AppConfig } from '../config/app-config';

/** Long enough for a DNS answer and a TCP handshake across a continent, short enough to say so soon after start-up. */
export const REACHABILITY_TIMEOUT_MS = 3000;

/** What the one start-up check found: `not_checked` before it ran (as in tests that never listen), `checking` until it ends. */
export type StartUpReachability = { state: 'not_checked' | 'checking' | 'reachable'; host: string } | { state: 'unreachable'; host: string; error: string };

/**
 * Whether each upstream's host could be reached when the service started: one DNS lookup and TCP connect per
 * host, in the background, no retries and nothing sent. A newcomer running the service without network
 * access learns at once why lookups answer 502, instead of from the first failed lookup; readiness never
 * depends on it (the process itself is fine, and the upstream may come back any moment).
 */
@Injectable()
export class UpstreamReachability {
  private readonly logger = new Logger('StartUp');
  private readonly results = new Map<UpstreamName, StartUpReachability>();
  private readonly targets: Array<{ upstream: UpstreamName; whileDown: string; host: string; hostname: string; port: number }>;

  constructor(config: ConfigService<AppConfig, true>) {
    this.targets = UPSTREAM_REGISTRY.map(({ name: upstream, baseUrlVariable, whileDown }) => {
      const url = new URL(config.get(baseUrlVariable, { infer: true }));
      // `host` keeps a non-default port: on one machine (offline mode) the hostname alone tells nothing apart.
      return { upstream, whileDown, host: url.host, hostname: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
    });
    for (const { upstream, host } of this.targets) this.results.set(upstream, { state: 'not_checked', host });
  }

  atStartUp(upstream: UpstreamName): StartUpReachability {
    return this.results.get(upstream) as StartUpReachability;
  }

  /** Checks every upstream once (one connection per distinct host and port) and logs one warning per unreachable upstream. */
  async checkAll(): Promise<void> {
    for (const { upstream, host } of this.targets) this.results.set(upstream, { state: 'checking', host });
    const checks = new Map<string, Promise<string | null>>();
    await Promise.all(
      this.targets.map(async ({ upstream, whileDown, host, hostname, port }) => {
        const key = `${hostname}:${port}`;
        let check = checks.get(key);
        if (!check) checks.set(key, (check = connectionError(hostname, port)));
        const error = await check;
        if (error === null) {
          this.results.set(upstream, { state: 'reachable', host });
          return;
        }
        this.results.set(upstream, { state: 'unreachable', host, error });
        this.logger.warn({ upstream, host, error }, `upstream ${upstream} (${host}) unreachable at start-up: ${error}; ${whileDown}`);
      }),
    );
  }
}

/** Null when a TCP connection to host:port opens within the timeout, else why not (e.g. "getaddrinfo ENOTFOUND host"). */
function connectionError(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (error: string | null) => {
      socket.destroy();
      resolve(error);
    };
    socket.setTimeout(REACHABILITY_TIMEOUT_MS, () => done(`no connection within ${REACHABILITY_TIMEOUT_MS} ms`));
    socket.once('connect', () => done(null));
    socket.once('error', (error) => done(error.message));
  });
}
