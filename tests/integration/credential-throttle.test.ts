// Throttling without lockout (issue 28), on both databases (operators are stored): the app runs
// WITHOUT DOORWATCH_TRUST_PROXY, so every client is 127.0.0.1, as behind an undeclared proxy or a
// shared NAT. A guesser's burst from that address must not deny the real admin's high-entropy
// token, while guessing stays slow: one credential tried again and again, and a flood of distinct
// ones from the address, are both answered 429 + Retry-After; the throttle's memory is capped
// (DOORWATCH_AUTH_THROTTLE_MAX_KEYS, watched through /metrics). The weak-token side (a
// low-entropy admin token from a throttled address waits) is in hardening.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADDRESS_LIMITS } from '@/lib/auth/credential-throttle';
import { generateOperatorToken } from '@/lib/auth/tokens';
import { startAppServer, type AppServer } from '../support/app-server';
import { call as httpCall, type CallOptions } from '../support/http';

const ADMIN = generateOperatorToken();
const MAX_KEYS = 20;
let app: AppServer;
let cookie = '';
const call = (path: string, o: CallOptions = {}) => httpCall(app.url, path, o);
const login = (token: string) => call('/api/auth/login', { method: 'POST', body: { token } });

function throttleKeys(metrics: string, scope: string): number {
  const m = new RegExp(`^doorwatch_auth_throttle_keys\\{scope="${scope}"\\} (\\d+)$`, 'm').exec(metrics);
  assert.ok(m, `doorwatch_auth_throttle_keys{scope="${scope}"} in /metrics`);
  return Number(m[1]);
}

before(async () => {
  app = await startAppServer({ env: { DOORWATCH_ADMIN_TOKEN: ADMIN, DOORWATCH_AUTH_THROTTLE_MAX_KEYS: String(MAX_KEYS) } });
  const signedIn = await login(ADMIN);
  assert.equal(signedIn.status, 200);
  cookie = signedIn.headers.get('set-cookie')!.split(';')[0];
});
after(async () => {
  await app?.stop();
});

test('50 wrong tokens from one address, then the valid admin token from the same address: 200 (login, bearer, and an open session)', async () => {
  const statuses: number[] = [];
  const started = Date.now();
  for (let i = 0; i < 50; i++) statuses.push((await login(`dw_wrong_guess_${i}_xxxxxxxxxxxx`)).status);
  const seconds = (Date.now() - started) / 1000;
  assert.deepEqual(statuses.slice(0, 11), Array(11).fill(401), statuses.join(','));
  // Then blocked: 429, except when a block ran out mid-flood (a slow machine) and one more guess
  // was checked; each such failure doubles the next block (1, 2, 4 ... 60 s) and one failure is
  // forgiven per decayMs, so in `seconds` at most log2(seconds + 1) + 1 + seconds / decay get through.
  const later = statuses.slice(11);
  assert.ok(
    later.every((s) => s === 401 || s === 429),
    statuses.join(','),
  );
  const checked = later.filter((s) => s === 401).length;
  const bound = Math.log2(seconds + 1) + 1 + (seconds * 1000) / ADDRESS_LIMITS.decayMs;
  assert.ok(checked <= bound, `${checked} guesses checked in ${seconds} s: ${statuses.join(',')}`);
  assert.equal((await login(ADMIN)).status, 200);
  assert.equal((await call('/api/v1/operators', { token: ADMIN })).status, 200);
  assert.equal((await call('/api/v1/operators', { cookie })).status, 200, 'a session is never throttled');
});

test('one wrong credential tried again and again: 429 + Retry-After, code too_many_failures, scope credential', async () => {
  const wrong = generateOperatorToken();
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await call('/api/v1/operators', { token: wrong })).status);
  // High-entropy, so it is checked even from this (blocked) address: 401 for wrong; the address
  // block answers 429 to it as well, but the credential's own block comes first once it is blocked.
  assert.ok(
    statuses.every((s) => s === 401 || s === 429),
    statuses.join(','),
  );
  const res = await call('/api/v1/operators', { token: wrong });
  assert.equal(res.status, 429);
  assert.equal(res.body.error.code, 'too_many_failures');
  assert.equal(res.body.error.details.scope, 'credential');
  assert.ok(Number(res.headers.get('retry-after')) >= 1);
  assert.equal((await call('/api/v1/operators', { token: ADMIN })).status, 200, 'the admin is still let in');
});

test('a flood of distinct wrong tokens from one address is throttled per address: 429, scope address', async () => {
  for (const token of ['dw_flood_one_xxxxxxxxxxxxxx', generateOperatorToken()]) {
    const res = await call('/api/v1/operators', { token });
    assert.equal(res.status, 429, token);
    assert.equal(res.body.error.code, 'too_many_failures');
    assert.equal(res.body.error.details.scope, 'address');
    assert.ok(Number(res.headers.get('retry-after')) >= 1);
  }
});

test('memory is capped: a flood of distinct high-entropy tokens keeps at most DOORWATCH_AUTH_THROTTLE_MAX_KEYS credentials', async () => {
  for (let i = 0; i < 3 * MAX_KEYS; i++) assert.equal((await login(generateOperatorToken())).status, 429);
  const metrics = await call('/metrics', { token: ADMIN });
  assert.equal(metrics.status, 200);
  assert.equal(throttleKeys(metrics.text, 'credential'), MAX_KEYS);
  assert.equal(throttleKeys(metrics.text, 'address'), 1);
  assert.equal((await login(ADMIN)).status, 200);
});
