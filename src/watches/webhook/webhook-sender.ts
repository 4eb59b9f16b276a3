import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { SecureContextOptions } from 'node:tls';
import { checkWebhookUrl, HostResolver, systemResolver, WebhookUrlPolicy, WebhookUrlVerdict } from './webhook-url';
import { signedWebhookHeaders } from './webhook-signature';

export type DeliveryOutcome =
  | { kind: 'delivered'; status: number }
  /** The URL is refused now (scheme, a name that no longer resolves, an address not allowed): retried later as a failure is. */
  | { kind: 'refused'; reason: string }
  /** No 2xx: an error status (a redirect is one, never followed), no answer in time, a reset, a TLS failure. */
  | { kind: 'failed'; reason: string; status?: number };

export interface WebhookSenderOptions {
  policy: WebhookUrlPolicy;
  /** The whole delivery: resolving, connecting, sending and the receiver's answer. */
  timeoutMs: number;
  /** How much of the receiver's answer is read before the connection is closed; the rest is never read. */
  maxResponseBytes: number;
  resolve?: HostResolver;
  /** Certificates to trust besides the system's (a test's own certificate authority). */
  tls?: Pick<SecureContextOptions, 'ca'>;
}

export interface WebhookDelivery {
  url: string;
  secret: string;
  eventId: string;
  /** The event as JSON, sent and signed byte for byte. */
  body: string;
  sentAt?: Date;
}

const USER_AGENT = 'flood-zone-lookup-webhooks';

/**
 * Sends one signed event to a receiver. The host is resolved and every address checked at each delivery, then
 * the connection goes to the checked addresses only (the name keeps its place in TLS and the Host header), so a
 * name that changes its answer between the check and the send cannot lead the request to a refused address.
 */
export class WebhookSender {
  private readonly resolve: HostResolver;

  constructor(private readonly options: WebhookSenderOptions) {
    this.resolve = options.resolve ?? systemResolver;
  }

  async deliver(delivery: WebhookDelivery): Promise<DeliveryOutcome> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.options.timeoutMs);
    try {
      const verdict = await Promise.race([checkWebhookUrl(delivery.url, this.options.policy, this.resolve), aborted(deadline.signal)]);
      if (verdict === 'timeout') return { kind: 'failed', reason: `the webhook host was not resolved within ${this.options.timeoutMs} ms` };
      if (!verdict.ok) return { kind: 'refused', reason: verdict.reason };
      const headers = signedWebhookHeaders(delivery.secret, delivery.eventId, delivery.sentAt ?? new Date(), delivery.body);
      return await this.post(verdict, headers, delivery.body, deadline.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  private post(
    target: Extract<WebhookUrlVerdict, { ok: true }>,
    headers: Record<string, string>,
    body: string,
    deadline: AbortSignal,
  ): Promise<DeliveryOutcome> {
    return new Promise((resolve) => {
      const { url, addresses } = target;
      let answered: DeliveryOutcome | undefined;
      const settle = (outcome: DeliveryOutcome) => {
        deadline.removeEventListener('abort', onDeadline);
        request.destroy();
        resolve(outcome);
      };
      const onDeadline = () => settle(answered ?? { kind: 'failed', reason: `the receiver did not answer within ${this.options.timeoutMs} ms` });
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': USER_AGENT },
          agent: false,
          lookup: pinnedLookup(addresses),
          ...(url.protocol === 'https:' ? this.options.tls : {}),
        },
        (response) => {
          const outcome = outcomeOf(response);
          answered = outcome;
          this.discard(response, () => settle(outcome));
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => settle(answered ?? { kind: 'failed', reason: describe(error) }));
      deadline.addEventListener('abort', onDeadline);
      if (deadline.aborted) onDeadline();
      else request.end(body);
    });
  }

  /** Reads the receiver's answer up to the cap (a receiver is not owed a reading of an endless body), then calls `done`. */
  private discard(response: IncomingMessage, done: () => void): void {
    let read = 0;
    response.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > this.options.maxResponseBytes) done();
    });
    response.on('end', done);
    response.on('error', done);
  }
}

function outcomeOf(response: IncomingMessage): DeliveryOutcome {
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status >= 300 && status < 400) return { kind: 'failed', status, reason: `the receiver answered ${status}, a redirect, which is not followed` };
  return { kind: 'failed', status, reason: `the receiver answered ${status}` };
}

function describe(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

function aborted(signal: AbortSignal): Promise<'timeout'> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve('timeout'), { once: true }));
}

/** A lookup that answers with the addresses already checked and never asks DNS again. */
function pinnedLookup(addresses: string[]): LookupFunction {
  return (_hostname, options, callback) => {
    const entries = addresses.map((address) => ({ address, family: isIP(address) })).filter((entry) => !options.family || entry.family === options.family);
    if (entries.length === 0) {
      callback(Object.assign(new Error('no checked address of the asked family'), { code: 'ENOTFOUND' }), '');
      return;
    }
    if (options.all) callback(null, entries);
    else callback(null, entries[0].address, entries[0].family);
  };
}
