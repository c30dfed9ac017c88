// The native digest must sign exactly what the package signs: same secret decoding, same bytes
// (UTF-8 of `id.timestamp.body`), same base64. Checked against the package itself on arbitrary
// bodies (unicode included), ids, times and secrets, with and without the `whsec_` prefix; and a
// secret the package refuses is refused here too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { NativeWebhook } from '@/lib/ingest/native-webhook';

const secretBytes = fc.uint8Array({ minLength: 1, maxLength: 64 });
const when = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms));

test('the native digest signs what standardwebhooks signs', () => {
  fc.assert(
    fc.property(
      secretBytes,
      fc.boolean(),
      fc.string({ maxLength: 40 }),
      when,
      fc.string({ unit: 'grapheme', maxLength: 400 }),
      (bytes, prefixed, id, at, body) => {
        const secret = `${prefixed ? 'whsec_' : ''}${Buffer.from(bytes).toString('base64')}`;
        const theirs = new Webhook(secret).sign(id, at, body);
        assert.equal(new NativeWebhook(secret).sign(id, at, body), theirs);
        assert.equal(new NativeWebhook(secret).sign(id, at, Buffer.from(body)), theirs);
      },
    ),
    { numRuns: 500 },
  );
});

test('a signature made by the package verifies here, and a changed body does not', () => {
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  const at = new Date();
  const body = JSON.stringify({ events: [{ id: 'é-1', data: { note: '日本語 ✓' } }] });
  const headers = {
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('msg_1', at, body),
  };
  assert.doesNotThrow(() => new NativeWebhook(secret).verify(body, headers, { jsonParse: false }));
  assert.throws(() => new NativeWebhook(secret).verify(`${body} `, headers, { jsonParse: false }), /No matching signature/);
});

test('a secret the package refuses is refused', () => {
  for (const bad of ['', 'whsec_', 'whsec_not base64!']) {
    assert.throws(() => new Webhook(bad));
    assert.throws(() => new NativeWebhook(bad));
  }
});
