// The credential throttle (lib/auth/failure-throttle.ts) and the forwarded-header rule it relies on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FailureThrottle, attemptKeys, throttled } from '@/lib/auth/failure-throttle';
import { ApiError } from '@/lib/http/api-error';
import { clientAddress, normalizeForwardedHeaders } from '@/lib/http/forwarded';

const opts = { burst: 3, refillMs: 1_000, maxKeys: 100 };

test('a key is blocked after its burst of failures, with the seconds until the next try', () => {
  const t = new FailureThrottle(opts);
  const keys = attemptKeys('10.0.0.1', 'dw_guess');
  for (let i = 0; i < 3; i++) {
    assert.equal(t.retryAfterSeconds(keys, 0), 0);
    t.fail(keys, 0);
  }
  assert.equal(t.retryAfterSeconds(keys, 0), 1);
  assert.equal(t.retryAfterSeconds(keys, 999), 1);
  assert.equal(t.retryAfterSeconds(keys, 1_000), 0, 'one failure earned back after refillMs: never locked out for good');
});

test("one address's failures do not block another address with another token", () => {
  const t = new FailureThrottle(opts);
  for (let i = 0; i < 10; i++) t.fail(attemptKeys('10.0.0.1', `dw_guess${i}`), 0);
  assert.ok(t.retryAfterSeconds(attemptKeys('10.0.0.1', 'dw_real_admin'), 0) > 0);
  assert.equal(t.retryAfterSeconds(attemptKeys('10.0.0.2', 'dw_real_admin'), 0), 0);
});

test('many addresses guessing one token prefix block that prefix, for a while', () => {
  const t = new FailureThrottle(opts);
  for (let i = 0; i < 3; i++) t.fail(attemptKeys(`10.0.1.${i}`, 'dw_samePrefixX-guess'), 0);
  assert.ok(t.retryAfterSeconds(attemptKeys('10.9.9.9', 'dw_samePrefixY'), 0) > 0);
  assert.equal(t.retryAfterSeconds(attemptKeys('10.9.9.9', 'dw_samePrefixY'), 3_000), 0);
});

test('memory is bounded: past maxKeys the quiet keys are forgotten first', () => {
  const t = new FailureThrottle({ burst: 2, refillMs: 1_000, maxKeys: 50 });
  for (let i = 0; i < 1_000; i++) t.fail([`addr:${i}`], i * 10_000);
  assert.ok(t.size <= 50);
});

test('throttled(): 401s count, successes and other errors do not, a blocked key is 429 + Retry-After before the check runs', async () => {
  const t = new FailureThrottle(opts);
  let checks = 0;
  const fail401 = () => {
    checks++;
    return Promise.reject(new ApiError(401, 'unauthorized', 'no'));
  };
  const ok = () => {
    checks++;
    return Promise.resolve('ok');
  };
  for (let i = 0; i < 5; i++) assert.equal(await throttled('a', 'dw_x', ok, t), 'ok');
  await assert.rejects(
    throttled('a', 'dw_x', () => Promise.reject(new ApiError(503, 'database_unavailable', 'later')), t),
    /later/,
  );
  for (let i = 0; i < 3; i++) await assert.rejects(throttled('a', 'dw_x', fail401, t), /no/);
  const before = checks;
  await assert.rejects(
    throttled('a', 'dw_x', ok, t),
    (err: unknown) => err instanceof ApiError && err.status === 429 && Number(err.headers['retry-after']) > 0,
  );
  assert.equal(checks, before, 'a blocked attempt is not even checked');
});

test('forwarded headers: dropped and replaced by the peer unless a proxy is trusted; the last hop is the client', () => {
  const untrusted: Record<string, string> = {
    host: 'dw.example',
    'x-forwarded-host': 'evil.example',
    'x-forwarded-for': '1.2.3.4',
    'x-forwarded-proto': 'https',
    forwarded: 'for=1.2.3.4',
  };
  normalizeForwardedHeaders(untrusted, '10.0.0.5', false);
  assert.deepEqual(untrusted, { host: 'dw.example', 'x-forwarded-for': '10.0.0.5' });
  const trusted: Record<string, string> = { host: 'dw.example', 'x-forwarded-host': 'dw.example', 'x-forwarded-for': '1.2.3.4, 192.0.2.1' };
  normalizeForwardedHeaders(trusted, '10.0.0.5', true);
  assert.equal(trusted['x-forwarded-host'], 'dw.example');
  assert.equal(clientAddress(new Request('http://x/', { headers: trusted })), '192.0.2.1');
  assert.equal(clientAddress(new Request('http://x/')), 'unknown');
});
