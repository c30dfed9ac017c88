// The credential throttle: the pure progressive throttle (lib/auth/failure-throttle.ts), the
// policy over it (lib/auth/credential-throttle.ts), the high-entropy test (lib/auth/tokens.ts)
// and the forwarded-header rule the address key relies on. Time is passed in: no sleeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FailureThrottle } from '@/lib/auth/failure-throttle';
import { ADDRESS_LIMITS, CREDENTIAL_LIMITS, CredentialThrottle, throttled } from '@/lib/auth/credential-throttle';
import { generateOperatorToken, isHighEntropyToken } from '@/lib/auth/tokens';
import { ApiError } from '@/lib/http/api-error';
import { clientAddress, normalizeForwardedHeaders } from '@/lib/http/forwarded';

const opts = { free: 3, baseDelayMs: 1_000, maxDelayMs: 8_000, decayMs: 10_000, maxKeys: 100 };

test('a key is free for its first failures, then each failure doubles its delay up to the bound', () => {
  const t = new FailureThrottle(opts);
  const delays: number[] = [];
  for (let i = 0; i < 8; i++) delays.push(t.fail('k', 0));
  assert.deepEqual(delays, [0, 0, 0, 1_000, 2_000, 4_000, 8_000, 8_000]);
  assert.equal(t.retryAfterMs('k', 7_999), 1);
  assert.equal(t.retryAfterMs('k', 8_000), 0, 'the bound: never locked out for longer than maxDelayMs');
});

test('failures are forgiven at one per decayMs: a persistent guesser is held to about one try per decayMs', () => {
  const t = new FailureThrottle(opts);
  let now = 0;
  for (let i = 0; i < 6; i++) now += t.fail('k', now); // try as soon as allowed
  // Trying again every decayMs forgives one failure per try: the delay stops growing.
  const steady: number[] = [];
  for (let i = 0; i < 5; i++) {
    now += opts.decayMs;
    assert.equal(t.retryAfterMs('k', now), 0);
    steady.push(t.fail('k', now));
  }
  assert.ok(new Set(steady).size === 1, steady.join(','));
  // Quiet for long enough, the key is forgotten entirely.
  assert.equal(t.retryAfterMs('k', now + 100 * opts.decayMs), 0);
  assert.equal(t.size, 0);
});

test('memory is bounded: a flood of distinct keys keeps at most maxKeys, the least recently failed forgotten first', () => {
  const t = new FailureThrottle({ ...opts, maxKeys: 50 });
  for (let i = 0; i < 4; i++) t.fail('hot', 0);
  for (let i = 0; i < 10_000; i++) {
    t.fail(`flood-${i}`, 1);
    if (i % 40 === 0) t.fail('hot', 1); // keeps failing: recently used, so kept
  }
  assert.equal(t.size, 50);
  assert.ok(t.retryAfterMs('hot', 1) > 0, 'a key still failing stays blocked');
  assert.equal(t.retryAfterMs('flood-0', 1), 0, 'the oldest flood keys are gone');
});

test('high-entropy tokens: generated and openssl-style random ones pass, short, phrase-like and patterned ones do not', () => {
  for (let i = 0; i < 200; i++) assert.ok(isHighEntropyToken(generateOperatorToken()));
  assert.ok(isHighEntropyToken('e33457635be194a063883378b87a502fa4be8026938bc928c34fa6b58bdf4668'));
  assert.ok(isHighEntropyToken('ebmXBsbwATxS8xr+EPaqiwaYkrFH1nmO77FAhFWX+IY='));
  for (const weak of [
    'dw_short',
    'doorwatch-admin-token-production',
    'dw_test_admin_token_0123456789abcdef',
    'a'.repeat(64),
    'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ])
    assert.equal(isHighEntropyToken(weak), false, weak);
});

/** A throttle with the production limits and a clock the test moves. */
function harness() {
  const throttle = new CredentialThrottle(1_000);
  const clock = { now: 0 };
  let checks = 0;
  const run = (address: string, token: string, valid: string[]) =>
    throttled(
      address,
      token,
      () => {
        checks++;
        return valid.includes(token) ? Promise.resolve('ok') : Promise.reject(new ApiError(401, 'unauthorized', 'no'));
      },
      throttle,
      () => clock.now,
    );
  const outcome = (p: Promise<string>) =>
    p.then(
      () => 200,
      (err: ApiError) => err.status,
    );
  return { throttle, clock, run, outcome, checks: () => checks };
}

test('a burst of wrong tokens from one address does not deny a valid high-entropy token from there; a weak valid one waits', async () => {
  const admin = generateOperatorToken();
  const weak = 'weak-admin-token-16';
  const h = harness();
  const statuses: number[] = [];
  for (let i = 0; i < 50; i++) statuses.push(await h.outcome(h.run('10.0.0.1', `dw_wrong_${i}`, [admin, weak])));
  assert.deepEqual(statuses.slice(0, ADDRESS_LIMITS.free), Array(ADDRESS_LIMITS.free).fill(401));
  assert.ok(
    statuses.slice(ADDRESS_LIMITS.free + 1).every((s) => s === 429),
    statuses.join(','),
  );
  assert.equal(await h.run('10.0.0.1', admin, [admin, weak]), 'ok');
  const before = h.checks();
  await assert.rejects(
    h.run('10.0.0.1', weak, [admin, weak]),
    (err: ApiError) => err.status === 429 && err.headers['retry-after'] !== undefined,
  );
  assert.equal(h.checks(), before, 'a weak token from a blocked address is refused before it is checked');
  assert.equal(await h.run('10.0.0.2', weak, [admin, weak]), 'ok', 'another address is not blocked');
  // A wrong high-entropy token from the blocked address is checked, counted, and refused 429 like the rest.
  await assert.rejects(h.run('10.0.0.1', generateOperatorToken(), [admin]), (err: ApiError) => err.status === 429);
  h.clock.now += ADDRESS_LIMITS.maxDelayMs;
  assert.equal(await h.run('10.0.0.1', weak, [admin, weak]), 'ok', 'the address block ends within maxDelayMs');
});

test('one credential tried again and again is slowed wherever it comes from: 429 + Retry-After, scope "credential"', async () => {
  const h = harness();
  const wrong = generateOperatorToken();
  // `free` failures, then the one that starts the block: all checked and answered 401.
  for (let i = 0; i <= CREDENTIAL_LIMITS.free; i++) assert.equal(await h.outcome(h.run(`10.1.0.${i}`, wrong, [])), 401);
  const before = h.checks();
  await assert.rejects(h.run('10.1.0.99', wrong, []), (err: ApiError) => {
    assert.equal(err.status, 429);
    assert.equal(err.code, 'too_many_failures');
    assert.deepEqual(err.details, { scope: 'credential', retryAfterSeconds: 1 });
    assert.equal(err.headers['retry-after'], '1');
    return true;
  });
  assert.equal(h.checks(), before, 'a blocked credential is not checked');
  // Progressive: each failure after the block doubles the next wait.
  h.clock.now += 1_000;
  assert.equal(await h.outcome(h.run('10.1.0.99', wrong, [])), 401);
  await assert.rejects(h.run('10.1.0.99', wrong, []), (err: ApiError) => err.headers['retry-after'] === '2');
});

test('throttled(): only 401s count; successes and other errors do not', async () => {
  const h = harness();
  const admin = generateOperatorToken();
  for (let i = 0; i < 30; i++) assert.equal(await h.run('a', admin, [admin]), 'ok');
  for (let i = 0; i < 30; i++)
    await assert.rejects(
      throttled(
        'a',
        'dw_x',
        () => Promise.reject(new ApiError(503, 'database_unavailable', 'later')),
        h.throttle,
        () => 0,
      ),
      /later/,
    );
  assert.equal(h.throttle.byAddress.size + h.throttle.byCredential.size, 0);
});

test('credential keys are a keyed hash: never the token, and not the same in another process', () => {
  const token = generateOperatorToken();
  const a = new CredentialThrottle(10).credentialKey(token);
  assert.ok(!a.includes(token.slice(3, 12)));
  assert.equal(a.length, 22);
  assert.notEqual(a, new CredentialThrottle(10).credentialKey(token));
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
