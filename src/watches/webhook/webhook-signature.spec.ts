import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newWebhookSecret, signedWebhookHeaders } from './webhook-signature';

describe('newWebhookSecret', () => {
  it('is "whsec_" and the base64 of 32 random bytes, new each time', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});

describe('signedWebhookHeaders', () => {
  it('signs the Standard Webhooks reference vector to its published signature', () => {
    const headers = signedWebhookHeaders(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      new Date(1614265330_000),
      '{"test": 2432232314}',
    );
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      'content-type': 'application/json',
    });
  });

  it('verifies with the reference implementation, and not with another secret or a changed body', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ id: 'evt_1', kind: 'entered_sfha' });
    const headers = signedWebhookHeaders(secret, 'evt_1', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ id: 'evt_1', kind: 'entered_sfha' });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body.replace('entered', 'left'), headers)).toThrow(WebhookVerificationError);
  });
});
