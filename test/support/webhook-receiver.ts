/**
 * A webhook receiver for tests: a real HTTP or HTTPS server on a loopback address that keeps every request it gets
 * and answers each as the test says (204 unless told). The HTTPS one presents the certificate in
 * `webhook-receiver-tls/` (made with openssl for the name receiver.webhook.test, valid for a hundred years); a
 * sender trusts it by `RECEIVER_CA`, and reaches the name through a resolver of the test's own.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';

const TLS_FOLDER = join(__dirname, 'webhook-receiver-tls');
/** The name the receiver's certificate is made out to. */
export const RECEIVER_NAME = 'receiver.webhook.test';
/** The receiver's self-signed certificate, for a sender to trust. */
export const RECEIVER_CA = readFileSync(join(TLS_FOLDER, 'cert.pem'));

export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers one request; it may also never answer. */
export type ReceiverAnswer = (request: ReceivedWebhook, response: ServerResponse) => void;

export const answerWith =
  (status: number, headers: Record<string, string> = {}): ReceiverAnswer =>
  (_request, response) =>
    response.writeHead(status, headers).end();

export interface ReceiverOptions {
  /** The loopback address to listen on (127.0.0.1 unless told). */
  host?: string;
  /** A port to listen on (another receiver's, on another address), or any free one. */
  port?: number;
  tls?: boolean;
  answer?: ReceiverAnswer;
}

export class WebhookReceiver {
  private constructor(
    /** Every request, kept before it is answered: once a sender has an answer, its request is here. */
    readonly received: ReceivedWebhook[],
    private readonly server: Server,
    readonly host: string,
    readonly port: number,
    private readonly scheme: 'http' | 'https',
  ) {}

  static async start(options: ReceiverOptions = {}): Promise<WebhookReceiver> {
    const answer = options.answer ?? answerWith(204);
    const received: ReceivedWebhook[] = [];
    const handle = (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const one = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
        received.push(one);
        answer(one, response);
      });
    };
    const server = options.tls ? createHttpsServer({ key: readFileSync(join(TLS_FOLDER, 'key.pem')), cert: RECEIVER_CA }, handle) : createHttpServer(handle);
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
    return new WebhookReceiver(received, server, host, (server.address() as AddressInfo).port, options.tls ? 'https' : 'http');
  }

  /** A URL of this receiver, by its address or by a name the test resolves to it. */
  url(path = '/hook', hostname = this.host): string {
    return `${this.scheme}://${hostname}:${this.port}${path}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
