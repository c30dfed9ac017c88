// Operator tokens, bootstrap admin, session cookies, CSRF and requireOperator against a temp database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
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

let db: Db;
let testDb: TestDatabase;
before(async () => {
  testDb = await createTestDatabase(); // SQLite, or PostgreSQL with DOORWATCH_TEST_DATABASE=postgresql
  const config = readDatabaseConfig({ DATABASE_URL: testDb.url });
  await runMigrations(config);
  db = openDb(config);
});
after(async () => {
  await db?.close();
  await testDb?.drop();
});

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
    const first = await ensureBootstrapAdmin(db, {});
    assert.equal(first.action, 'generated');
    const op = await authenticate(bearer(first.token!), db);
    assert.equal(op.role, 'admin');
    assert.equal(op.id, BOOTSTRAP_OPERATOR_ID);
    assert.equal((await ensureBootstrapAdmin(db, {})).action, 'kept');
    const row = await findOperatorById(db, BOOTSTRAP_OPERATOR_ID);
    assert.equal(row!.tokenHash, hashToken(first.token!)); // never the plain token
  });

  test('DOORWATCH_ADMIN_TOKEN replaces it (rotation by changing the variable)', async () => {
    const env = { DOORWATCH_ADMIN_TOKEN: 'dw_env_admin_token_abcdefghijkl' };
    assert.equal((await ensureBootstrapAdmin(db, env)).action, 'env');
    assert.equal((await authenticate(bearer(env.DOORWATCH_ADMIN_TOKEN), db)).role, 'admin');
    assert.equal((await ensureBootstrapAdmin(db, env)).action, 'env'); // idempotent
    await assert.rejects(ensureBootstrapAdmin(db, { DOORWATCH_ADMIN_TOKEN: 'short' }), /at least 16/);
  });
});

describe('requireOperator', () => {
  test('bearer: viewer reads, is refused admin routes; admin does both', async () => {
    const viewer = await createOperator(db, 'vera', 'viewer', BY_TEST);
    const admin = await createOperator(db, 'ada', 'admin', BY_TEST);
    assert.deepEqual(await requireOperator(bearer(viewer.token), 'viewer', db), { id: viewer.operator.id, name: 'vera', role: 'viewer' });
    await assert.rejects(requireOperator(bearer(viewer.token), 'admin', db), fails(403, 'forbidden'));
    assert.equal((await requireOperator(bearer(admin.token), 'admin', db)).role, 'admin');
    assert.equal((await requireOperator(bearer(admin.token, 'POST'), 'admin', db)).role, 'admin'); // no CSRF for bearer
  });

  test('missing, malformed, unknown and revoked tokens are 401', async () => {
    const { token, operator } = await createOperator(db, 'temp', 'viewer', BY_TEST);
    await assert.rejects(requireOperator(req('/x'), 'viewer', db), fails(401, 'unauthorized'));
    await assert.rejects(
      requireOperator(req('/x', { headers: { authorization: `Basic ${token}` } }), 'viewer', db),
      fails(401, 'unauthorized'),
    );
    await assert.rejects(requireOperator(bearer('dw_nope'), 'viewer', db), fails(401, 'unauthorized'));
    await revokeOperator(db, operator.id, BY_TEST);
    await assert.rejects(requireOperator(bearer(token), 'viewer', db), fails(401, 'unauthorized'));
    const listed = (await listOperators(db)).find((o) => o.id === operator.id)!;
    assert.ok(listed.revokedAt);
    await assert.rejects(revokeOperator(db, 'op_missing', BY_TEST), fails(404, 'operator_not_found'));
  });

  test('input validation on create', async () => {
    await assert.rejects(createOperator(db, '  ', 'viewer', BY_TEST), fails(400, 'invalid_name'));
    await assert.rejects(createOperator(db, 'x', 'root' as any, BY_TEST), fails(400, 'invalid_role'));
  });

  test('cookie session: GET works; a change needs a same-origin Origin; revoking kills the session', async () => {
    const { operator } = await createOperator(db, 'browser', 'admin', BY_TEST);
    const rowHash = (await findOperatorById(db, operator.id))!.tokenHash;
    const cookie = `${SESSION_COOKIE}=${signSession(operator.id, rowHash, Date.now() + 60_000)}`;
    assert.equal((await requireOperator(req('/x', { headers: { cookie } }), 'viewer', db)).id, operator.id);
    await assert.rejects(requireOperator(req('/x', { method: 'POST', headers: { cookie } }), 'admin', db), fails(403, 'csrf_rejected'));
    await assert.rejects(
      requireOperator(req('/x', { method: 'POST', headers: { cookie, origin: 'https://evil.example' } }), 'admin', db),
      fails(403, 'csrf_rejected'),
    );
    assert.equal((await requireOperator(req('/x', { method: 'POST', headers: { cookie, origin: BASE } }), 'admin', db)).id, operator.id);
    assert.equal(
      (await requireOperator(req('/x', { method: 'DELETE', headers: { cookie, 'sec-fetch-site': 'same-origin' } }), 'admin', db)).id,
      operator.id,
    );
    await revokeOperator(db, operator.id, BY_TEST);
    await assert.rejects(requireOperator(req('/x', { headers: { cookie } }), 'viewer', db), fails(401, 'unauthorized'));
  });

  test('forged, expired or foreign-key cookies are 401', async () => {
    const { operator } = await createOperator(db, 'c2', 'viewer', BY_TEST);
    const hash = (await findOperatorById(db, operator.id))!.tokenHash;
    const cases = [
      signSession(operator.id, hash, Date.now() - 1),
      signSession(operator.id, 'f'.repeat(64), Date.now() + 60_000),
      signSession(operator.id, hash, Date.now() + 60_000).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      'garbage',
    ];
    for (const v of cases) {
      await assert.rejects(
        requireOperator(req('/x', { headers: { cookie: `${SESSION_COOKIE}=${v}` } }), 'viewer', db),
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
