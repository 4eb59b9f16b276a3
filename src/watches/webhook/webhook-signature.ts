import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret in the Standard Webhooks form: "whsec_" and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The headers of one signed delivery by the Standard Webhooks scheme: the event id (stable across retries, so a
 * receiver can drop a duplicate), the time of sending in whole seconds, and the HMAC-SHA256 signature of
 * "id.timestamp.body" with the secret, signed by the scheme's own library.
 */
export function signedWebhookHeaders(secret: string, eventId: string, sentAt: Date, body: string): Record<string, string> {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, sentAt, body),
    'content-type': 'application/json',
  };
}
