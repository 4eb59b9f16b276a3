import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HttpService } from '@nestjs/axios';
import axios from 'axios';
import { ResilientUpstream, type UpstreamObserver, type UpstreamPolicyOptions } from './resilient-upstream';
import { getUpstreamJson } from './upstream-json';
import { upstreamHttpOptions } from './upstream-providers';

const POLICY: UpstreamPolicyOptions = {
  timeoutMs: 5000,
  retries: 1,
  maxConcurrency: 4,
  breakerFailureRate: 50,
  breakerWindowMs: 10_000,
  breakerMinCalls: 100,
  halfOpenAfterMs: 100,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A JSON server on loopback that keeps an idle connection `keepsIdleMs` and no longer, advertising it in a
 * `Keep-Alive: timeout=` header or not at all. Its close of an idle connection is one the client has not yet seen when
 * it sends on it (the close crossing the client's request, as on a busy process or behind a load balancer): a request
 * that comes on a connection idle longer than that is met with a reset, never answered.
 */
class IdleClosingServer {
  /** Requests answered, and connections opened. */
  answered = 0;
  connections = 0;
  private readonly server: Server;
  private readonly idleSince = new WeakMap<Socket, number>();

  constructor(
    private readonly keepsIdleMs: number,
    advertised: boolean,
  ) {
    this.server = createServer((req, res) => {
      const since = this.idleSince.get(req.socket);
      if (since !== undefined && Date.now() - since > this.keepsIdleMs) {
        req.socket.resetAndDestroy();
        return;
      }
      this.answered += 1;
      const headers: Record<string, string> = { 'content-type': 'application/json', connection: 'keep-alive' };
      if (advertised) headers['keep-alive'] = `timeout=${keepsIdleMs / 1000}`;
      res.writeHead(200, headers);
      res.end('{"ok":true}', () => this.idleSince.set(req.socket, Date.now()));
    });
    // The server never closes a connection itself (nor says when it would): only the header above tells the client.
    this.server.keepAliveTimeout = 0;
    this.server.on('connection', () => (this.connections += 1));
  }

  async listen(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The upstream's HTTP client as the service makes it, and the attempts its resilience policy sends. */
function upstreamClient() {
  const attempts: string[] = [];
  const observer: UpstreamObserver = { attemptFinished: (_upstream, outcome) => attempts.push(outcome), circuitChanged: () => undefined };
  const upstream = new ResilientUpstream('flood_data', POLICY, observer);
  const http = new HttpService(axios.create(upstreamHttpOptions(POLICY.maxConcurrency)));
  const get = (url: string) =>
    upstream.request((signal) => getUpstreamJson(http, url, {}, signal, { maxBodyBytes: upstream.maxBodyBytes }), new AbortController().signal);
  const destroy = () => {
    const { httpAgent, httpsAgent } = http.axiosRef.defaults as { httpAgent: { destroy(): void }; httpsAgent: { destroy(): void } };
    httpAgent.destroy();
    httpsAgent.destroy();
  };
  return { attempts, get, destroy };
}

describe('the upstreams HTTP agents', () => {
  const servers: IdleClosingServer[] = [];
  const clients: Array<ReturnType<typeof upstreamClient>> = [];
  const started = async (keepsIdleMs: number, advertised: boolean) => {
    const server = new IdleClosingServer(keepsIdleMs, advertised);
    servers.push(server);
    const client = upstreamClient();
    clients.push(client);
    return { server, client, url: await server.listen() };
  };
  afterEach(async () => {
    for (const client of clients.splice(0)) client.destroy();
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('reuse a connection kept alive for the next call', async () => {
    const { server, client, url } = await started(5000, false);
    await client.get(url);
    await client.get(url);
    expect([server.connections, server.answered, client.attempts]).toEqual([1, 2, ['success', 'success']]);
  });

  it("never reuse a connection idle past the server's own Keep-Alive timeout: no attempt is wasted on it", async () => {
    const { server, client, url } = await started(2000, true);
    await client.get(url);
    // Past the 2 s the server said it keeps an idle connection.
    await sleep(2500);
    await client.get(url);
    expect([server.connections, server.answered, client.attempts]).toEqual([2, 2, ['success', 'success']]);
  });

  it('never reuse a connection idle as long as a server that says nothing keeps one (5 s, as many do)', async () => {
    const { server, client, url } = await started(5000, false);
    await client.get(url);
    await sleep(5500);
    await client.get(url);
    expect([server.connections, server.answered, client.attempts]).toEqual([2, 2, ['success', 'success']]);
  });
});
