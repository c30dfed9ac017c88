// Operator tokens, bootstrap admin, session cookies, CSRF and requireOperator against a temp database.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDatabaseForFile } from '../support/migrated-database';
import { authenticate, requireOperator } from '@/lib/auth/require-operator';
import { createOperator, listOperators, revokeOperator, BOOTSTRAP_OPERATOR_ID } from '@/lib/auth/operators';
import { ensureBootstrapAdmin } from '@/lib/auth/bootstrap-admin';
import { reloadSettings } from '@/lib/config/settings';
import { hashToken, generateOperatorToken } from '@/lib/auth/tokens';
import { parseSession, signSession, verifySessionMac, SESSION_COOKIE, readCookie } from '@/lib/auth/session-cookie';
import { assertSameOrigin } from '@/lib/auth/csrf';
import { findOperatorById } from '@/lib/store/operators';
import type { AuditContext } from '@/lib/store/audit-log';

const BY_TEST: AuditContext = { actor: { kind: 'cli', name: 'test', id: null }, requestId: null };
const database = migratedDatabaseForFile();

const BASE = 'http://dw.example:3000';
const req = (path: string, init: { method?: string; headers?: Record<string, string> } = {}) => new Request(`${BASE}${path}`, init);
const bearer = (token: string, method = 'GET') => req('/api/v1/stats', { method, headers: { authorization: `Bearer ${token}` } });
const fails = (status: number, code: string) => (e: any) => e.status === status && e.code === code;

describe('tokens', () => {
  test('generated tokens are unique, prefixed, stored as SHA-256', () => {
    const a = generateOperatorToken();
    assert.match(a, /^dw_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a, generateOperatorToken());
    assert.match(hashToken(a), /^[0-9a-f]{64}$/);
  });
});

describe('bootstrap admin', () => {
  test('generated once when DOORWATCH_ADMIN_TOKEN is unset, then kept', async () => {
    const first = await ensureBootstrapAdmin(database(), {});
    assert.equal(first.action, 'generated');
    const op = await authenticate(bearer(first.token!), database());
    assert.equal(op.role, 'admin');
    assert.equal(op.id, BOOTSTRAP_OPERATOR_ID);
    assert.equal((await ensureBootstrapAdmin(database(), {})).action, 'kept');
    const row = await findOperatorById(database(), BOOTSTRAP_OPERATOR_ID);
    assert.equal(row!.tokenHash, hashToken(first.token!)); // never the plain token
  });

  test('DOORWATCH_ADMIN_TOKEN replaces it (rotation by changing the variable)', async () => {
    const env = { DOORWATCH_ADMIN_TOKEN: 'dw_env_admin_token_abcdefghijkl' };
    assert.equal((await ensureBootstrapAdmin(database(), env)).action, 'env');
    assert.equal((await authenticate(bearer(env.DOORWATCH_ADMIN_TOKEN), database())).role, 'admin');
    assert.equal((await ensureBootstrapAdmin(database(), env)).action, 'env'); // idempotent
    await assert.rejects(ensureBootstrapAdmin(database(), { DOORWATCH_ADMIN_TOKEN: 'short' }), /at least 16/);
  });
});

describe('requireOperator', () => {
  test('bearer: viewer reads, is refused admin routes; admin does both', async () => {
    const viewer = await createOperator(database(), 'vera', 'viewer', BY_TEST);
    const admin = await createOperator(database(), 'ada', 'admin', BY_TEST);
    assert.deepEqual(await requireOperator(bearer(viewer.token), 'viewer', database()), {
      id: viewer.operator.id,
      name: 'vera',
      role: 'viewer',
    });
    await assert.rejects(requireOperator(bearer(viewer.token), 'admin', database()), fails(403, 'forbidden'));
    assert.equal((await requireOperator(bearer(admin.token), 'admin', database())).role, 'admin');
    assert.equal((await requireOperator(bearer(admin.token, 'POST'), 'admin', database())).role, 'admin'); // no CSRF for bearer
  });

  test('missing, malformed, unknown and revoked tokens are 401', async () => {
    const { token, operator } = await createOperator(database(), 'temp', 'viewer', BY_TEST);
    await assert.rejects(requireOperator(req('/x'), 'viewer', database()), fails(401, 'unauthorized'));
    await assert.rejects(
      requireOperator(req('/x', { headers: { authorization: `Basic ${token}` } }), 'viewer', database()),
      fails(401, 'unauthorized'),
    );
    await assert.rejects(requireOperator(bearer('dw_nope'), 'viewer', database()), fails(401, 'unauthorized'));
    await revokeOperator(database(), operator.id, BY_TEST);
    await assert.rejects(requireOperator(bearer(token), 'viewer', database()), fails(401, 'unauthorized'));
    const listed = (await listOperators(database())).find((o) => o.id === operator.id)!;
    assert.ok(listed.revokedAt);
    await assert.rejects(revokeOperator(database(), 'op_missing', BY_TEST), fails(404, 'operator_not_found'));
  });

  test('input validation on create', async () => {
    await assert.rejects(createOperator(database(), '  ', 'viewer', BY_TEST), fails(400, 'invalid_name'));
    await assert.rejects(createOperator(database(), 'x', 'root' as any, BY_TEST), fails(400, 'invalid_role'));
  });

  test('cookie session: GET works; a change needs a same-origin Origin; revoking kills the session', async () => {
    const { operator } = await createOperator(database(), 'browser', 'admin', BY_TEST);
    const rowHash = (await findOperatorById(database(), operator.id))!.tokenHash;
    const cookie = `${SESSION_COOKIE}=${signSession(operator.id, rowHash, Date.now() + 60_000)}`;
    assert.equal((await requireOperator(req('/x', { headers: { cookie } }), 'viewer', database())).id, operator.id);
    await assert.rejects(
      requireOperator(req('/x', { method: 'POST', headers: { cookie } }), 'admin', database()),
      fails(403, 'csrf_rejected'),
    );
    await assert.rejects(
      requireOperator(req('/x', { method: 'POST', headers: { cookie, origin: 'https://evil.example' } }), 'admin', database()),
      fails(403, 'csrf_rejected'),
    );
    assert.equal(
      (await requireOperator(req('/x', { method: 'POST', headers: { cookie, origin: BASE } }), 'admin', database())).id,
      operator.id,
    );
    assert.equal(
      (await requireOperator(req('/x', { method: 'DELETE', headers: { cookie, 'sec-fetch-site': 'same-origin' } }), 'admin', database()))
        .id,
      operator.id,
    );
    await revokeOperator(database(), operator.id, BY_TEST);
    await assert.rejects(requireOperator(req('/x', { headers: { cookie } }), 'viewer', database()), fails(401, 'unauthorized'));
  });

  test('forged, expired or foreign-key cookies are 401', async () => {
    const { operator } = await createOperator(database(), 'c2', 'viewer', BY_TEST);
    const hash = (await findOperatorById(database(), operator.id))!.tokenHash;
    const cases = [
      signSession(operator.id, hash, Date.now() - 1),
      signSession(operator.id, 'f'.repeat(64), Date.now() + 60_000),
      signSession(operator.id, hash, Date.now() + 60_000).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      'garbage',
    ];
    for (const v of cases) {
      await assert.rejects(
        requireOperator(req('/x', { headers: { cookie: `${SESSION_COOKIE}=${v}` } }), 'viewer', database()),
        fails(401, 'unauthorized'),
        v,
      );
    }
  });
});

describe('session cookie and CSRF helpers', () => {
  test('sign/parse/verify', () => {
    const v = signSession('op_1', 'h', 2_000);
    const p = parseSession(v)!;
    assert.equal(p.operatorId, 'op_1');
    assert.equal(verifySessionMac(p, 'h', 1_999), true);
    assert.equal(verifySessionMac(p, 'h', 2_000), false);
    assert.equal(verifySessionMac(p, 'other', 1_000), false);
    assert.equal(parseSession('v1.x.y.z'), null);
    assert.equal(readCookie(req('/', { headers: { cookie: `a=1; ${SESSION_COOKIE}=abc; b=2` } }), SESSION_COOKIE), 'abc');
  });

  test('Origin check honours forwarded host/proto only with DOORWATCH_TRUST_PROXY=1, and DOORWATCH_PUBLIC_ORIGIN', () => {
    assert.doesNotThrow(() => assertSameOrigin(req('/', { method: 'POST', headers: { origin: BASE } })));
    const forwarded = () =>
      assertSameOrigin(
        req('/', { method: 'POST', headers: { origin: 'https://dw.corp', 'x-forwarded-host': 'dw.corp', 'x-forwarded-proto': 'https' } }),
      );
    assert.throws(forwarded, fails(403, 'csrf_rejected'), 'a client-sent X-Forwarded-Host is not believed');
    process.env.DOORWATCH_TRUST_PROXY = '1';
    reloadSettings();
    try {
      assert.doesNotThrow(forwarded);
    } finally {
      delete process.env.DOORWATCH_TRUST_PROXY;
      reloadSettings();
    }
    assert.throws(
      () => assertSameOrigin(req('/', { method: 'POST', headers: { origin: 'http://dw.example:3001' } })),
      fails(403, 'csrf_rejected'),
    );
    assert.throws(
      () => assertSameOrigin(req('/', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } })),
      fails(403, 'csrf_rejected'),
    );
    process.env.DOORWATCH_PUBLIC_ORIGIN = 'https://doorwatch.example.com/';
    reloadSettings();
    try {
      assert.doesNotThrow(() => assertSameOrigin(req('/', { method: 'POST', headers: { origin: 'https://doorwatch.example.com' } })));
    } finally {
      delete process.env.DOORWATCH_PUBLIC_ORIGIN;
      reloadSettings();
    }
  });
});
