/**
 * Webhook delivery over real HTTP and HTTPS to receivers on loopback: what reaches a receiver verifies with the
 * Standard Webhooks reference implementation; refused URLs never reach one, also when a name changes its answer
 * between the check and the send; redirects, hangs, endless bodies and error statuses end as the sender says.
 * Host names are resolved by the tests' own resolvers, so nothing here asks the network.
 */
import { ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { checkWebhookUrl, HostResolver, WebhookUrlPolicy } from '../../../src/watches/webhook/webhook-url';
import { newWebhookSecret } from '../../../src/watches/webhook/webhook-signature';
import { WebhookSender, WebhookSenderOptions } from '../../../src/watches/webhook/webhook-sender';
import { closedPort } from '../../support/redis-server';
import { answerWith, RECEIVER_CA, RECEIVER_NAME, WebhookReceiver } from '../../support/webhook-receiver';

const STRICT: WebhookUrlPolicy = { allowPrivate: false, allowHttp: false };
const PRIVATE_HTTPS: WebhookUrlPolicy = { allowPrivate: true, allowHttp: false };
const OPEN: WebhookUrlPolicy = { allowPrivate: true, allowHttp: true };
/** A hang guard only: every delivery here ends by an event long before it. */
const GUARD_MS = 10 * 60 * 1000;
const PUBLIC_ADDRESS = '93.184.216.34';

/** A resolver answering the listed answers in turn (the last one from then on), counting its calls. */
function resolverInTurn(...answers: string[][]): HostResolver & { calls: number } {
  const resolver = Object.assign(
    () => {
      const answer = answers[Math.min(resolver.calls, answers.length - 1)];
      resolver.calls += 1;
      return Promise.resolve(answer);
    },
    { calls: 0 },
  );
  return resolver;
}

function sender(options: Partial<WebhookSenderOptions> = {}): WebhookSender {
  return new WebhookSender({ policy: OPEN, timeoutMs: GUARD_MS, maxResponseBytes: 64 * 1024, tls: { ca: RECEIVER_CA }, ...options });
}

/** An event as the watches send it; its note is not ASCII, so the signature is checked over UTF-8 bytes, not characters. */
const event = (id: string) =>
  JSON.stringify({ id, watchId: 'w1', locationId: 'loan-1', kind: 'entered_sfha', before: { zone: 'X' }, after: { zone: 'AE' }, note: 'Cañon City — 45 days' });

describe('webhook delivery to real receivers', () => {
  const receivers: WebhookReceiver[] = [];
  const start = async (...args: Parameters<typeof WebhookReceiver.start>) => {
    const receiver = await WebhookReceiver.start(...args);
    receivers.push(receiver);
    return receiver;
  };
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });

  describe('a receiver that accepts', () => {
    it('gets the event over http (private addresses and http allowed) with a signature the reference implementation verifies', async () => {
      const receiver = await start();
      const secret = newWebhookSecret();
      const body = event('evt_01');

      const outcome = await sender().deliver({ url: receiver.url(), secret, eventId: 'evt_01', body });

      expect(outcome).toEqual({ kind: 'delivered', status: 204 });
      expect(receiver.received).toHaveLength(1);
      const [request] = receiver.received;
      expect(request).toMatchObject({ method: 'POST', path: '/hook', body });
      expect(request.headers).toMatchObject({ 'webhook-id': 'evt_01', 'content-type': 'application/json', 'user-agent': 'flood-zone-lookup-webhooks' });
      expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toEqual(JSON.parse(body));
    });

    it('gets the event over https by its name, the connection going to the checked address with the name in TLS and Host', async () => {
      const receiver = await start({ tls: true, answer: answerWith(200) });
      const resolve = resolverInTurn(['127.0.0.1']);
      const secret = newWebhookSecret();
      const body = event('evt_02');
      const url = receiver.url('/flood/events', RECEIVER_NAME);

      const outcome = await sender({ policy: PRIVATE_HTTPS, resolve }).deliver({ url, secret, eventId: 'evt_02', body });

      expect(outcome).toEqual({ kind: 'delivered', status: 200 });
      expect(resolve.calls).toBe(1);
      const [request] = receiver.received;
      expect(request.headers.host).toBe(`${RECEIVER_NAME}:${receiver.port}`);
      expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toEqual(JSON.parse(body));
    });

    it('connects to the address it checked, not to what the name resolves to afterwards', async () => {
      const checked = await start({ host: '127.0.0.1' });
      const other = await start({ host: '127.0.0.2', port: checked.port });
      const resolve = resolverInTurn(['127.0.0.1'], ['127.0.0.2']);

      const outcome = await sender({ resolve }).deliver({
        url: checked.url('/hook', 'pinned.webhook.test'),
        secret: newWebhookSecret(),
        eventId: 'evt_03',
        body: event('evt_03'),
      });

      expect(outcome).toEqual({ kind: 'delivered', status: 204 });
      expect(checked.received).toHaveLength(1);
      expect(other.received).toHaveLength(0);
    });
  });

  describe('refused URLs never reach the receiver', () => {
    it('http without http allowed', async () => {
      const receiver = await start();

      const outcome = await sender({ policy: PRIVATE_HTTPS }).deliver({
        url: receiver.url(),
        secret: newWebhookSecret(),
        eventId: 'evt_10',
        body: event('evt_10'),
      });

      expect(outcome).toEqual({ kind: 'refused', reason: 'the webhook URL must be https' });
      expect(receiver.received).toHaveLength(0);
    });

    it.each([
      ['127.0.0.1', STRICT, (r: WebhookReceiver) => `https://127.0.0.1:${r.port}/hook`, 'the webhook host 127.0.0.1 is a loopback address'],
      ['localhost', STRICT, (r: WebhookReceiver) => `https://localhost:${r.port}/hook`, 'the webhook host localhost is a loopback name'],
      ['[::1]', STRICT, (r: WebhookReceiver) => `https://[::1]:${r.port}/hook`, 'the webhook host ::1 is a loopback address'],
      ['::ffff:127.0.0.1', STRICT, (r: WebhookReceiver) => `https://[::ffff:127.0.0.1]:${r.port}/hook`, 'the webhook host ::ffff:7f00:1 is a loopback address'],
      ['10.x', STRICT, () => 'https://10.0.0.1/hook', 'the webhook host 10.0.0.1 is a private address'],
      ['169.254.169.254', STRICT, () => 'https://169.254.169.254/latest/meta-data/', 'the webhook host 169.254.169.254 is a cloud metadata address'],
      [
        '169.254.169.254, private addresses allowed',
        OPEN,
        () => 'http://169.254.169.254/latest/meta-data/',
        'the webhook host 169.254.169.254 is a cloud metadata address',
      ],
      [
        'a name resolving to 127.0.0.1',
        STRICT,
        (r: WebhookReceiver) => r.url('/hook', RECEIVER_NAME),
        `the webhook host ${RECEIVER_NAME} resolves to 127.0.0.1, a loopback address`,
      ],
    ])('%s', async (_name, policy, urlOf, reason) => {
      const receiver = await start({ tls: true });
      const resolve = resolverInTurn(['127.0.0.1']);

      const outcome = await sender({ policy, resolve }).deliver({ url: urlOf(receiver), secret: newWebhookSecret(), eventId: 'evt_10', body: event('evt_10') });

      expect(outcome).toEqual({ kind: 'refused', reason });
      expect(receiver.received).toHaveLength(0);
    });

    it.each([
      ['127.0.0.1', STRICT, '127.0.0.1, a loopback address'],
      ['169.254.169.254', PRIVATE_HTTPS, '169.254.169.254, a cloud metadata address'],
    ])('a name that was public when checked and resolves to %s at the send', async (address, policy, refusal) => {
      const receiver = await start({ tls: true });
      const resolve = resolverInTurn([PUBLIC_ADDRESS], [address]);
      const url = receiver.url('/hook', RECEIVER_NAME);
      expect(await checkWebhookUrl(url, policy, resolve)).toMatchObject({ ok: true, addresses: [PUBLIC_ADDRESS] });

      const outcome = await sender({ policy, resolve }).deliver({ url, secret: newWebhookSecret(), eventId: 'evt_11', body: event('evt_11') });

      expect(outcome).toEqual({ kind: 'refused', reason: `the webhook host ${RECEIVER_NAME} resolves to ${refusal}` });
      expect(receiver.received).toHaveLength(0);
    });
  });

  describe('a receiver that does not acknowledge', () => {
    it('a redirect fails with its status, and its target is never called', async () => {
      const target = await start();
      const receiver = await start({ answer: answerWith(302, { location: target.url('/target') }) });

      const outcome = await sender().deliver({ url: receiver.url(), secret: newWebhookSecret(), eventId: 'evt_20', body: event('evt_20') });

      expect(outcome).toEqual({ kind: 'failed', status: 302, reason: 'the receiver answered 302, a redirect, which is not followed' });
      expect(receiver.received).toHaveLength(1);
      expect(target.received).toHaveLength(0);
    });

    it('a 500 fails with its status', async () => {
      const receiver = await start({ answer: answerWith(500) });

      const outcome = await sender().deliver({ url: receiver.url(), secret: newWebhookSecret(), eventId: 'evt_21', body: event('evt_21') });

      expect(outcome).toEqual({ kind: 'failed', status: 500, reason: 'the receiver answered 500' });
    });

    it('a receiver that never answers fails once the time is up', async () => {
      const receiver = await start({ answer: () => undefined });

      const outcome = await sender({ timeoutMs: 300 }).deliver({ url: receiver.url(), secret: newWebhookSecret(), eventId: 'evt_22', body: event('evt_22') });

      expect(outcome).toEqual({ kind: 'failed', reason: 'the receiver did not answer within 300 ms' });
    });

    it('a name that never resolves fails once the time is up, and nothing is sent', async () => {
      const receiver = await start();
      const never: HostResolver = () => new Promise(() => undefined);

      const outcome = await sender({ timeoutMs: 300, resolve: never }).deliver({
        url: receiver.url('/hook', 'slow-dns.webhook.test'),
        secret: newWebhookSecret(),
        eventId: 'evt_23',
        body: event('evt_23'),
      });

      expect(outcome).toEqual({ kind: 'failed', reason: 'the webhook host was not resolved within 300 ms' });
      expect(receiver.received).toHaveLength(0);
    });

    it('a closed port fails with the connection refused', async () => {
      const port = await closedPort();

      const outcome = await sender().deliver({ url: `http://127.0.0.1:${port}/hook`, secret: newWebhookSecret(), eventId: 'evt_24', body: event('evt_24') });

      expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^ECONNREFUSED: /) });
    });

    it('a certificate the sender does not trust fails before anything is sent', async () => {
      const receiver = await start({ tls: true });

      const outcome = await sender({ policy: PRIVATE_HTTPS, resolve: resolverInTurn(['127.0.0.1']), tls: undefined }).deliver({
        url: receiver.url('/hook', RECEIVER_NAME),
        secret: newWebhookSecret(),
        eventId: 'evt_25',
        body: event('evt_25'),
      });

      expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^DEPTH_ZERO_SELF_SIGNED_CERT: /) });
      expect(receiver.received).toHaveLength(0);
    });
  });

  it('an endless answer is read up to the cap and the connection closed; its 2xx acknowledges', async () => {
    let closed!: Promise<void>;
    const endless = (_request: unknown, response: ServerResponse) => {
      closed = new Promise((resolve) => response.once('close', resolve));
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pour = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', pour);
      };
      pour();
    };
    const receiver = await start({ answer: endless });

    // Only the cap can end this delivery: the time allowed is beyond the test's own hang guard.
    const outcome = await sender({ maxResponseBytes: 64 * 1024 }).deliver({
      url: receiver.url(),
      secret: newWebhookSecret(),
      eventId: 'evt_30',
      body: event('evt_30'),
    });

    expect(outcome).toEqual({ kind: 'delivered', status: 200 });
    await closed;
  });
});
