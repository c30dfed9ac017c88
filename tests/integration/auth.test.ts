// Operator auth through real HTTP: bearer tokens, roles, revocation, cookie login, CSRF, CLI, bootstrap.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';
import { call as httpCall, type CallOptions } from '../support/http';

const root = join(__dirname, '..', '..');
let app: AppServer;

before(async () => {
  // Trusting X-Forwarded-For lets the bad-token sweep below come from its own addresses: the
  // credential throttle (lib/auth/credential-throttle.ts) would otherwise answer 429 once one
  // address or one token has failed a few times, which is its job, not what this file tests.
  app = await startAppServer({ env: { DOORWATCH_TRUST_PROXY: '1' } });
});
after(async () => {
  await app?.stop();
});

const call = (path: string, o: CallOptions = {}) => httpCall(app.url, path, o);

const READ_PATHS = [
  '/api/v1/stats',
  '/api/v1/sessions',
  '/api/v1/sessions/export',
  '/api/v1/servers',
  '/api/v1/servers/alpha/sessions/tok',
  '/api/v1/operators',
  '/api/auth/me',
];

async function createOperator(role: 'viewer' | 'admin', name = `${role}-${Math.random().toString(36).slice(2, 8)}`) {
  const r = await call('/api/v1/operators', { method: 'POST', token: ADMIN, body: { name, role } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body as { operator: { id: string; role: string }; token: string };
}

async function login(token: string, origin?: string) {
  const r = await call('/api/auth/login', { method: 'POST', body: { token }, origin });
  const setCookie = r.headers.get('set-cookie') ?? '';
  return { ...r, setCookie, cookie: setCookie.split(';')[0] };
}

describe('bearer tokens', () => {
  test('no read endpoint answers without a token; health and the API document stay open', async () => {
    for (const path of READ_PATHS) {
      const r = await call(path);
      assert.equal(r.status, 401, path);
      assert.equal(r.body.error.code, 'unauthorized', path);
      assert.match(r.headers.get('www-authenticate') ?? '', /Bearer/);
    }
    assert.equal((await call('/api/health')).status, 200);
    assert.equal((await call('/api/v1/openapi.json')).status, 200);
  });

  test('a bad or malformed token is 401; the admin token reads everything', async () => {
    for (const [i, path] of READ_PATHS.entries()) {
      const from = { 'x-forwarded-for': `198.51.100.${i + 1}` };
      assert.equal((await call(path, { token: `dw_not_a_real_token_${i}`, headers: from })).status, 401, path);
      assert.equal((await call(path, { headers: { authorization: `Token ${ADMIN}` } })).status, 401, path);
    }
    for (const path of READ_PATHS.filter((p) => !p.includes('/sessions/tok'))) {
      assert.equal((await call(path, { token: ADMIN })).status, 200, path);
    }
  });

  test('viewer reads but gets 403 on admin routes; revoked tokens are 401', async () => {
    const viewer = await createOperator('viewer');
    assert.match(viewer.token, /^dw_/);
    assert.equal((await call('/api/v1/stats', { token: viewer.token })).status, 200);
    assert.equal((await call('/api/v1/sessions', { token: viewer.token })).status, 200);
    for (const [method, path, body] of [
      ['GET', '/api/v1/operators', undefined],
      ['POST', '/api/v1/operators', { name: 'x', role: 'admin' }],
      ['DELETE', `/api/v1/operators/${viewer.operator.id}`, undefined],
    ] as const) {
      const r = await call(path, { method, token: viewer.token, body });
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.body.error.code, 'forbidden');
    }
    const revoked = await call(`/api/v1/operators/${viewer.operator.id}`, { method: 'DELETE', token: ADMIN });
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.operator.revokedAt);
    const r = await call('/api/v1/stats', { token: viewer.token });
    assert.equal(r.status, 401);
    assert.equal(r.body.error.code, 'unauthorized');
  });

  test('operator admin API: list never shows tokens; bad input and unknown ids', async () => {
    const a = await createOperator('admin', 'second-admin');
    assert.equal((await call('/api/v1/operators', { token: a.token })).status, 200);
    const list = await call('/api/v1/operators', { token: ADMIN });
    assert.ok(list.body.operators.some((o: any) => o.id === a.operator.id && o.role === 'admin'));
    assert.ok(list.body.operators.some((o: any) => o.bootstrap === true));
    assert.ok(!JSON.stringify(list.body).includes(a.token));
    assert.ok(!JSON.stringify(list.body).includes('tokenHash'));
    for (const body of [{ name: 'x', role: 'root' }, { role: 'viewer' }, { name: '', role: 'viewer' }]) {
      const r = await call('/api/v1/operators', { method: 'POST', token: ADMIN, body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error.code, 'invalid_body');
    }
    const bad = await fetch(`${app.url}/api/v1/operators`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}` },
      body: '{nope',
    });
    assert.equal(((await bad.json()) as any).error.code, 'invalid_json');
    const missing = await call('/api/v1/operators/op_nope', { method: 'DELETE', token: ADMIN });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'operator_not_found');
  });
});

describe('browser login', () => {
  test('login sets an HTTP-only SameSite=Strict session cookie that reads the API', async () => {
    const l = await login(ADMIN, app.url);
    assert.equal(l.status, 200);
    assert.equal(l.body.operator.role, 'admin');
    assert.match(l.setCookie, /^dw_session=/);
    assert.match(l.setCookie, /HttpOnly/i);
    assert.match(l.setCookie, /SameSite=Strict/i);
    assert.match(l.setCookie, /Path=\//);
    assert.ok(!l.setCookie.includes(ADMIN));
    assert.equal((await call('/api/v1/stats', { cookie: l.cookie })).status, 200);
    const me = await call('/api/auth/me', { cookie: l.cookie });
    assert.equal(me.body.operator.name, 'bootstrap admin');
    assert.ok(me.body.expiresAt);
  });

  test('bad login: unknown token 401, malformed body 400, foreign Origin 403', async () => {
    assert.equal((await login('dw_wrong')).status, 401);
    const r = await call('/api/auth/login', { method: 'POST', body: { nope: 1 } });
    assert.equal(r.status, 400);
    const x = await login(ADMIN, 'https://evil.example');
    assert.equal(x.status, 403);
    assert.equal(x.body.error.code, 'csrf_rejected');
    assert.equal(x.setCookie, '');
  });

  test('the login form posted as HTML: the token in the body, a 303 onward with the cookie, or back with a code', async () => {
    // What the login page sends when Enter comes before its scripts run (lib/auth/form-login.ts).
    const post = (fields: Record<string, string>, o: CallOptions = {}) =>
      call('/api/auth/login/form', {
        method: 'POST',
        origin: app.url,
        redirect: 'manual',
        ...o,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...o.headers },
        body: new URLSearchParams(fields).toString(),
      });
    const ok = await post({ token: ADMIN, next: '/sessions?flag=naive_resume' });
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.get('location'), '/sessions?flag=naive_resume');
    const cookie = (ok.headers.get('set-cookie') ?? '').split(';')[0];
    assert.match(cookie, /^dw_session=/);
    assert.equal((await call('/api/auth/me', { cookie })).body.operator.name, 'bootstrap admin');
    // Never onward to another site, nor back to the login page.
    for (const next of ['https://evil.example/', '//evil.example', '/login?next=/x'])
      assert.equal((await post({ token: ADMIN, next })).headers.get('location'), '/', next);

    const refused = await post({ token: 'dw_wrong_form_token', next: '/alerts' }, { headers: { 'x-forwarded-for': '198.51.100.201' } });
    assert.equal(refused.status, 303);
    assert.equal(refused.headers.get('location'), '/login?error=token_refused&next=%2Falerts');
    assert.equal(refused.headers.get('set-cookie'), null);
    assert.equal(refused.body.error.code, 'token_refused');
    const empty = await post({ token: '  ' });
    assert.equal(empty.headers.get('location'), '/login?error=token_missing');
    assert.equal(empty.body.error.code, 'token_missing');
    // The same wrong token again and again is throttled like the JSON login, and says so.
    const answers = [];
    for (let i = 0; i < 6; i++)
      answers.push(await post({ token: 'dw_wrong_again' }, { headers: { 'x-forwarded-for': `198.51.100.${210 + i}` } }));
    const throttled = answers.find((a) => a.body.error?.code === 'token_throttled');
    assert.ok(throttled, JSON.stringify(answers.map((a) => a.body)));
    assert.equal(throttled.status, 303);
    assert.equal(throttled.headers.get('location'), '/login?error=token_throttled');
    assert.match(throttled.headers.get('retry-after') ?? '', /^\d+$/);

    // Machine-readable refusals for what no login page sends.
    const foreign = await post({ token: ADMIN }, { origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.error.code, 'csrf_rejected');
    assert.equal(foreign.headers.get('set-cookie'), null);
    const json = await call('/api/auth/login/form', { method: 'POST', origin: app.url, body: { token: ADMIN }, redirect: 'manual' });
    assert.equal(json.status, 415);
    assert.equal(json.body.error.code, 'unsupported_media_type');
    const long = await post({ token: 'x'.repeat(600) });
    assert.equal(long.status, 400);
    assert.equal(long.body.error.code, 'invalid_body');
    const big = await post({ token: 'x'.repeat(20_000) });
    assert.equal(big.status, 413);
    const get = await call(`/api/auth/login/form?token=${ADMIN}`);
    assert.equal(get.status, 405);
  });

  test('CSRF: a cookie-authenticated change needs this instance’s Origin', async () => {
    const { cookie } = await login(ADMIN, app.url);
    const body = { name: 'via-browser', role: 'viewer' };
    const none = await call('/api/v1/operators', { method: 'POST', cookie, body });
    assert.equal(none.status, 403);
    assert.equal(none.body.error.code, 'csrf_rejected');
    const evil = await call('/api/v1/operators', { method: 'POST', cookie, body, origin: 'https://evil.example' });
    assert.equal(evil.status, 403);
    assert.equal(evil.body.error.code, 'csrf_rejected');
    const ok = await call('/api/v1/operators', { method: 'POST', cookie, body, origin: app.url });
    assert.equal(ok.status, 201);
    const sameSite = await call(`/api/v1/operators/${ok.body.operator.id}`, {
      method: 'DELETE',
      cookie,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    assert.equal(sameSite.status, 200);
  });

  test('a tampered cookie is 401; revoking the token ends its sessions; logout clears the cookie', async () => {
    const viewer = await createOperator('viewer');
    const { cookie } = await login(viewer.token);
    assert.equal((await call('/api/v1/sessions', { cookie })).status, 200);
    assert.equal((await call('/api/v1/sessions', { cookie: cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) })).status, 401);
    assert.equal((await call('/api/v1/operators', { cookie })).status, 403);
    const out = await call('/api/auth/logout', { method: 'POST', cookie, origin: app.url });
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie') ?? '', /dw_session=;.*Max-Age=0/);
    await call(`/api/v1/operators/${viewer.operator.id}`, { method: 'DELETE', token: ADMIN });
    assert.equal((await call('/api/v1/sessions', { cookie })).status, 401);
  });
});

describe('CLI and bootstrap', () => {
  test('npm run operator: create, list, revoke against the running instance’s database', async () => {
    // Asynchronously: a blocked event loop would keep our idle keep-alive connections from noticing
    // that the server closed them, and the next fetch would reuse a dead one.
    const run = async (...args: string[]) =>
      (
        await promisify(execFile)(
          process.execPath,
          [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'scripts/operator-cli.ts'), ...args],
          {
            cwd: root,
            env: { ...process.env, DATABASE_URL: app.databaseUrl },
            encoding: 'utf8',
          },
        )
      ).stdout;
    const out = await run('create', 'cli-viewer', '--role', 'viewer');
    const token = /dw_[A-Za-z0-9_-]{43}/.exec(out)![0];
    const id = /id (op_\w+)/.exec(out)![1];
    assert.equal((await call('/api/v1/stats', { token })).status, 200);
    assert.equal((await call('/api/v1/operators', { token })).status, 403);
    assert.match(await run('list'), new RegExp(`${id}\\s+viewer\\s+cli-viewer`));
    await run('revoke', id);
    assert.equal((await call('/api/v1/stats', { token })).status, 401);
  });

  test('without DOORWATCH_ADMIN_TOKEN a token is generated at first start, printed once, and works', async () => {
    const other = await startAppServer({ env: { DOORWATCH_ADMIN_TOKEN: '' } });
    try {
      const printed = /bootstrap admin token[^\n]*\n\s+(dw_[A-Za-z0-9_-]{43})/.exec(other.output());
      assert.ok(printed, other.output());
      const res = await fetch(`${other.url}/api/v1/operators`, { headers: { authorization: `Bearer ${printed[1]}` } });
      assert.equal(res.status, 200);
      const wrong = await fetch(`${other.url}/api/v1/operators`, { headers: { authorization: `Bearer ${ADMIN}` } });
      assert.equal(wrong.status, 401);
    } finally {
      await other.stop();
    }
  });
});
