import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressRefusal } from './webhook-address';

/** What a webhook URL may be beyond a public https one: both switches exist for tests and private networks only. */
export interface WebhookUrlPolicy {
  allowPrivate: boolean;
  allowHttp: boolean;
}

export type WebhookUrlVerdict = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string };

/** Every address a host name resolves to (A and AAAA); rejects when it does not resolve. */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** The system resolver, as a connection would use it (hosts file included), every address of either family. */
export const systemResolver: HostResolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Names of the cloud metadata services: never a receiver, whatever they resolve to. */
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** A URL whose form is acceptable, with its host as a name or an IP address; still to be resolved and its addresses checked. */
export type WebhookTarget = { ok: true; url: URL; host: string; literal: boolean } | { ok: false; reason: string };

/** The checks that need no resolver: scheme, credentials, and host names whose meaning is fixed. */
export function webhookTarget(raw: string, policy: WebhookUrlPolicy): WebhookTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'the webhook URL is not a URL' };
  }
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) {
    return { ok: false, reason: policy.allowHttp ? 'the webhook URL must be http or https' : 'the webhook URL must be https' };
  }
  if (url.username || url.password) return { ok: false, reason: 'the webhook URL must not carry a user name or password' };
  // WHATWG URL has already written any IPv4 form (decimal, hex, octal) as dotted quads; IPv6 comes in brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const name = host.toLowerCase().replace(/\.$/, '');
  if (METADATA_HOSTS.has(name)) return { ok: false, reason: `the webhook host ${host} is a cloud metadata service` };
  if (!policy.allowPrivate && (name === 'localhost' || name.endsWith('.localhost'))) {
    return { ok: false, reason: `the webhook host ${host} is a loopback name` };
  }
  return { ok: true, url, host, literal: isIP(host) !== 0 };
}

/** Why these addresses of `host` must not be sent to (the first refused one), or null when all may be. */
export function addressesRefusal(host: string, addresses: string[], policy: WebhookUrlPolicy): string | null {
  if (addresses.length === 0) return `the webhook host ${host} has no address`;
  for (const address of addresses) {
    const refusal = addressRefusal(address, policy.allowPrivate);
    if (refusal === null) continue;
    return address === host ? `the webhook host ${host} is ${refusal}` : `the webhook host ${host} resolves to ${address}, ${refusal}`;
  }
  return null;
}

/**
 * Whether the service may send webhooks to `raw`: https (http too with `allowHttp`), no credentials, and a host
 * whose every address (A and AAAA) is public, unless `allowPrivate` admits loopback, private, carrier-grade NAT
 * and link-local ones; cloud metadata addresses and names are never admitted. The addresses returned are the ones
 * checked, so a sender connects to them rather than resolving the name again.
 */
export async function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy, resolve: HostResolver = systemResolver): Promise<WebhookUrlVerdict> {
  const target = webhookTarget(raw, policy);
  if (!target.ok) return target;
  let addresses: string[];
  try {
    addresses = target.literal ? [target.host] : await resolve(target.host);
  } catch (error) {
    return { ok: false, reason: `the webhook host ${target.host} does not resolve (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  const refusal = addressesRefusal(target.host, addresses, policy);
  return refusal === null ? { ok: true, url: target.url, addresses } : { ok: false, reason: refusal };
}
