import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventRateLimiter } from '@/lib/ingest/rate-limiter';
import { isWellFormedSecret, generateSecret } from '@/lib/contract/server-secret';

test('the bucket allows its burst, refills at the rate, and says how long to wait', () => {
  const limiter = new EventRateLimiter(1000, 2000);
  assert.equal(limiter.take('a', 1500, 0).allowed, true);
  const refused = limiter.take('a', 1000, 0);
  assert.deepEqual(refused, { allowed: false, retryAfterSeconds: 1 });
  assert.equal(limiter.take('b', 2000, 0).allowed, true, 'buckets are per server');
  assert.equal(limiter.take('a', 1000, 600).allowed, true, '500 left + 600 ms × 1000/s');
  const big = limiter.take('a', 5000, 600);
  assert.equal(big.allowed, false);
  assert.equal(big.retryAfterSeconds, 2, 'a request over the burst waits for a full bucket');
});

test('a zero or unset rate disables limiting', () => {
  assert.equal(new EventRateLimiter(0, 0).take('a', 1e6).allowed, true);
});

test('generated secrets are Standard Webhooks secrets; malformed ones are refused', () => {
  const s = generateSecret();
  assert.ok(isWellFormedSecret(s));
  assert.notEqual(s, generateSecret());
  for (const bad of ['whsec_', 'whsec_short', 'sk_live_abc', `whsec_${Buffer.alloc(80).toString('base64')}`])
    assert.equal(isWellFormedSecret(bad), false, bad);
});
