// Standard Webhooks headers: the `webhook-*` names and Svix's branded `svix-*` names both verify.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { readWebhookHeaders, verifyWebhook } from '@/lib/ingest/verify-signature';
import { newSecret } from '@/tests/support/receiver';

function signed(secret: string, body: string, prefix: 'webhook' | 'svix'): Headers {
  const now = new Date();
  const id = 'msg_test_1';
  return new Headers({
    [`${prefix}-id`]: id,
    [`${prefix}-timestamp`]: String(Math.floor(now.getTime() / 1000)),
    [`${prefix}-signature`]: new Webhook(secret).sign(id, now, body),
  });
}

describe('webhook signature headers', () => {
  const secret = newSecret();
  const body = '{"events":[]}';

  for (const prefix of ['webhook', 'svix'] as const) {
    test(`${prefix}-* headers are read and verify with the right secret only`, () => {
      const headers = readWebhookHeaders(signed(secret, body, prefix));
      assert.ok(headers);
      assert.equal(headers['webhook-id'], 'msg_test_1');
      assert.equal(verifyWebhook(body, headers, [secret]), true);
      assert.equal(verifyWebhook(body, headers, [newSecret()]), false);
      assert.equal(verifyWebhook(`${body} `, headers, [secret]), false);
    });
  }

  test('an incomplete set is missing headers, and sets are never mixed', () => {
    const svix = signed(secret, body, 'svix');
    svix.delete('svix-signature');
    assert.equal(readWebhookHeaders(svix), null);
    const mixed = signed(secret, body, 'webhook');
    mixed.delete('webhook-signature');
    mixed.set('svix-signature', signed(secret, body, 'svix').get('svix-signature')!);
    assert.equal(readWebhookHeaders(mixed), null);
    assert.equal(readWebhookHeaders(new Headers()), null);
  });

  test('webhook-* wins when both complete sets are present', () => {
    const both = signed(secret, body, 'webhook');
    both.set('svix-id', 'other');
    both.set('svix-timestamp', '1');
    both.set('svix-signature', 'v1,AAAA');
    assert.equal(readWebhookHeaders(both)?.['webhook-id'], 'msg_test_1');
  });
});
