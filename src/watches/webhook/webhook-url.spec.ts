import { checkWebhookUrl, HostResolver, WebhookUrlPolicy } from './webhook-url';

const STRICT: WebhookUrlPolicy = { allowPrivate: false, allowHttp: false };
const OPEN: WebhookUrlPolicy = { allowPrivate: true, allowHttp: true };

/** A resolver of a fixed table, so no test asks the network; a name not in it does not resolve. */
function resolverOf(table: Record<string, string[]>): HostResolver {
  return (hostname) => {
    const addresses = table[hostname];
    return addresses ? Promise.resolve(addresses) : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  };
}

const resolve = resolverOf({
  'hooks.lender.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'loopback.lender.example': ['127.0.0.1'],
  'mixed.lender.example': ['93.184.216.34', '10.0.0.7'],
  'v6-private.lender.example': ['2606:2800:220:1:248:1893:25c8:1946', 'fd00::7'],
  'rebound.lender.example': ['169.254.169.254'],
  'empty.lender.example': [],
});

describe('checkWebhookUrl', () => {
  it('admits an https URL whose every address is public, with the addresses it checked', async () => {
    const verdict = await checkWebhookUrl('https://hooks.lender.example/flood/events?x=1', STRICT, resolve);
    expect(verdict).toEqual({
      ok: true,
      url: new URL('https://hooks.lender.example/flood/events?x=1'),
      addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    });
  });

  it('admits a public IP address without resolving it', async () => {
    const never: HostResolver = () => Promise.reject(new Error('must not resolve an address'));
    expect(await checkWebhookUrl('https://93.184.216.34:8443/hook', STRICT, never)).toMatchObject({ ok: true, addresses: ['93.184.216.34'] });
    expect(await checkWebhookUrl('https://[2606:4700:4700::1111]/hook', STRICT, never)).toMatchObject({ ok: true, addresses: ['2606:4700:4700::1111'] });
  });

  it.each([
    ['not a url', STRICT, 'the webhook URL is not a URL'],
    ['http://hooks.lender.example/hook', STRICT, 'the webhook URL must be https'],
    ['ftp://hooks.lender.example/hook', OPEN, 'the webhook URL must be http or https'],
    ['https://user:pass@hooks.lender.example/hook', STRICT, 'the webhook URL must not carry a user name or password'],
    ['https://token@hooks.lender.example/hook', STRICT, 'the webhook URL must not carry a user name or password'],
    ['https://127.0.0.1/hook', STRICT, 'the webhook host 127.0.0.1 is a loopback address'],
    // WHATWG URL reads the decimal, hex and short forms of 127.0.0.1 as 127.0.0.1.
    ['https://2130706433/hook', STRICT, 'the webhook host 127.0.0.1 is a loopback address'],
    ['https://0x7f.1/hook', STRICT, 'the webhook host 127.0.0.1 is a loopback address'],
    ['https://localhost/hook', STRICT, 'the webhook host localhost is a loopback name'],
    ['https://LOCALHOST./hook', STRICT, 'the webhook host localhost. is a loopback name'],
    ['https://api.localhost/hook', STRICT, 'the webhook host api.localhost is a loopback name'],
    ['https://[::1]/hook', STRICT, 'the webhook host ::1 is a loopback address'],
    ['https://[::ffff:127.0.0.1]/hook', STRICT, 'the webhook host ::ffff:7f00:1 is a loopback address'],
    ['https://10.1.2.3/hook', STRICT, 'the webhook host 10.1.2.3 is a private address'],
    ['https://172.20.0.5/hook', STRICT, 'the webhook host 172.20.0.5 is a private address'],
    ['https://192.168.0.10/hook', STRICT, 'the webhook host 192.168.0.10 is a private address'],
    ['https://100.64.0.1/hook', STRICT, 'the webhook host 100.64.0.1 is a carrier-grade NAT address'],
    ['https://169.254.10.10/hook', STRICT, 'the webhook host 169.254.10.10 is a link-local address'],
    ['https://[fd00::1]/hook', STRICT, 'the webhook host fd00::1 is a private address'],
    ['https://[fe80::1]/hook', STRICT, 'the webhook host fe80::1 is a link-local address'],
    ['https://0.0.0.0/hook', STRICT, 'the webhook host 0.0.0.0 is the unspecified address'],
    ['https://224.0.0.1/hook', STRICT, 'the webhook host 224.0.0.1 is a multicast address'],
    ['https://169.254.169.254/latest/meta-data/', STRICT, 'the webhook host 169.254.169.254 is a cloud metadata address'],
    ['http://169.254.169.254/latest/meta-data/', OPEN, 'the webhook host 169.254.169.254 is a cloud metadata address'],
    ['http://[::ffff:169.254.169.254]/', OPEN, 'the webhook host ::ffff:a9fe:a9fe is a cloud metadata address'],
    ['http://metadata.google.internal/computeMetadata/v1/', OPEN, 'the webhook host metadata.google.internal is a cloud metadata service'],
    ['https://loopback.lender.example/hook', STRICT, 'the webhook host loopback.lender.example resolves to 127.0.0.1, a loopback address'],
    ['https://mixed.lender.example/hook', STRICT, 'the webhook host mixed.lender.example resolves to 10.0.0.7, a private address'],
    ['https://v6-private.lender.example/hook', STRICT, 'the webhook host v6-private.lender.example resolves to fd00::7, a private address'],
    ['https://rebound.lender.example/hook', OPEN, 'the webhook host rebound.lender.example resolves to 169.254.169.254, a cloud metadata address'],
    ['https://empty.lender.example/hook', STRICT, 'the webhook host empty.lender.example has no address'],
    ['https://unknown.lender.example/hook', STRICT, 'the webhook host unknown.lender.example does not resolve (ENOTFOUND)'],
  ])('refuses %s (%o): %s', async (raw, policy, reason) => {
    expect(await checkWebhookUrl(raw, policy, resolve)).toEqual({ ok: false, reason });
  });

  it.each([
    ['http://127.0.0.1:8080/hook', ['127.0.0.1']],
    ['http://localhost:8080/hook', ['127.0.0.1']],
    ['https://loopback.lender.example/hook', ['127.0.0.1']],
    ['https://10.1.2.3/hook', ['10.1.2.3']],
    ['https://[::1]/hook', ['::1']],
  ])('with private addresses and http allowed, admits %s', async (raw, addresses) => {
    const withLocalhost: HostResolver = (hostname) => (hostname === 'localhost' ? Promise.resolve(['127.0.0.1']) : resolve(hostname));
    expect(await checkWebhookUrl(raw, OPEN, withLocalhost)).toMatchObject({ ok: true, addresses });
  });
});
