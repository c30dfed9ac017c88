// Single sign-on against a real OpenID provider (oidc-provider on loopback), driven over HTTP as a
// browser would: redirects followed by hand, cookies kept per host. Covers a login and what its
// session can do, the role mapping, a refused user, a tampered or lost state, a provider that is
// down, an expired session and logout; bearer tokens keep working beside it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';
import { call } from '../support/http';
import { CookieJar } from '../support/cookie-jar';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startTestProvider, type TestProvider } from '../support/oidc-provider';
import { parseSession, verifySessionMac } from '@/lib/auth/session-cookie';

const ACCOUNTS = {
  alice: { preferred_username: 'alice', email: 'alice@example.test', groups: ['staff', 'doorwatch-admins'] },
  bob: { preferred_username: 'bob', email: 'bob@example.test', groups: ['doorwatch-viewers'] },
  carol: { preferred_username: 'carol', email: 'carol@example.test', groups: ['marketing'] },
};

let provider: TestProvider;
let app: AppServer;
/** The same, with sessions that last one second. */
let brief: AppServer;

const oidcEnv = (issuer: string, extra: Record<string, string> = {}) => ({
  DOORWATCH_OIDC_ISSUER: issuer,
  DOORWATCH_OIDC_CLIENT_ID: OIDC_CLIENT_ID,
  DOORWATCH_OIDC_CLIENT_SECRET: OIDC_CLIENT_SECRET,
  DOORWATCH_OIDC_SCOPES: 'openid profile email groups',
  DOORWATCH_OIDC_ROLE_MAP: 'doorwatch-admins=admin,doorwatch-viewers=viewer',
  DOORWATCH_OIDC_PROVIDER_NAME: 'Test IdP',
  ...extra,
});

before(async () => {
  provider = await startTestProvider(ACCOUNTS);
  [app, brief] = await Promise.all([
    startAppServer({ env: oidcEnv(provider.issuer) }),
    startAppServer({ env: oidcEnv(provider.issuer, { DOORWATCH_OIDC_SESSION_MS: '1000' }) }),
  ]);
  await provider.serve([app.url, brief.url]);
});
after(async () => {
  await Promise.all([app?.stop(), brief?.stop()]);
  await provider?.close();
});

/** Start a sign-in on `on` and follow the provider's redirects until it sends the browser back: the callback URL. */
async function toCallback(on: AppServer, jar: CookieJar, account: string, next = '/sessions'): Promise<string> {
  provider.signInAs(account);
  let url = `${on.url}/api/auth/oidc/start?next=${encodeURIComponent(next)}`;
  for (let hop = 0; hop < 10; hop++) {
    const res = await jar.browse(url);
    await res.body?.cancel();
    assert.equal(res.status, 303, `${url} answered ${res.status}`);
    url = new URL(res.headers.get('location')!, url).href;
    if (url.startsWith(`${on.url}/api/auth/oidc/callback`)) return url;
  }
  assert.fail('the provider never sent the browser back');
}

/** The callback's answer, read whole, with the session cookie it set (if any). */
async function finish(jar: CookieJar, url: string) {
  const res = await jar.browse(url);
  const text = await res.text();
  const session = res.headers.getSetCookie().find((c) => c.startsWith('dw_session=') && !c.startsWith('dw_session=;'));
  return { status: res.status, location: res.headers.get('location'), text, session, cookie: session?.split(';')[0] };
}

async function signIn(on: AppServer, account: string, jar = new CookieJar()) {
  const done = await finish(jar, await toCallback(on, jar, account));
  assert.equal(done.status, 200, done.text);
  assert.ok(done.cookie, 'a session cookie');
  return { ...done, cookie: done.cookie, jar };
}

/** A refused callback: back to the sign-in page with the code, the JSON error body, and no session. */
function assertRefused(r: Awaited<ReturnType<typeof finish>>, code: string) {
  assert.equal(r.status, 303, r.text);
  assert.equal(r.location, `/login?error=${code}`);
  assert.equal(JSON.parse(r.text).error.code, code);
  assert.equal(r.session, undefined, 'no session cookie');
}

describe('signing in', () => {
  test('the sign-in page offers the provider beside the token form', async () => {
    const page = await fetch(`${app.url}/login`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /Sign in with (<!-- -->)?Test IdP/);
    assert.match(html, /data-testid="login-token"/);
    // The intro says so too: the provider for people, the token for machines and for when it is down.
    const intro = /data-testid="login-intro"[^>]*>(.*?)<\/p>/s.exec(html)?.[1].replaceAll('<!-- -->', '');
    assert.equal(
      intro,
      'The SSE → WebSocket upgrade boundary of your MCP fleet. Sign in with Test IdP. Operator tokens are for machines, and the way in when Test IdP is down.',
    );
  });

  test('a login: PKCE S256 and a sealed state cookie, then the session reads the API and opens pages', async () => {
    const jar = new CookieJar();
    const start = await jar.browse(`${app.url}/api/auth/oidc/start?next=%2Fsessions`);
    await start.body?.cancel();
    assert.equal(start.status, 303);
    const authorize = new URL(start.headers.get('location')!);
    assert.equal(authorize.origin, provider.issuer);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(authorize.searchParams.get('nonce') && authorize.searchParams.get('state'));
    const stateCookie = start.headers.getSetCookie().find((c) => c.startsWith('dw_oidc='))!;
    assert.match(stateCookie, /HttpOnly/i);
    assert.match(stateCookie, /SameSite=Lax/i);
    assert.match(stateCookie, /Path=\/api\/auth\/oidc/);
    assert.ok(!decodeURIComponent(stateCookie).includes(authorize.searchParams.get('state')!), 'the state is sealed, not readable');

    const done = await signIn(app, 'alice');
    assert.match(done.session!, /HttpOnly/i);
    assert.match(done.session!, /SameSite=Strict/i);
    assert.match(done.text, /http-equiv="refresh" content="0;url=\/sessions"/);
    const me = await call(app.url, '/api/auth/me', { cookie: done.cookie });
    assert.equal(me.status, 200);
    assert.equal(me.body.operator.name, 'alice');
    assert.equal(me.body.operator.role, 'admin');
    assert.match(me.body.operator.id, /^oidc_/);
    assert.equal((await call(app.url, '/api/v1/stats', { cookie: done.cookie })).status, 200);
    const page = await fetch(`${app.url}/sessions`, { redirect: 'manual', headers: { cookie: done.cookie } });
    assert.equal(page.status, 200);
    await page.body?.cancel();
    // Tokens stay for machines: the admin token still works, and lists the person who signed in.
    const list = await call(app.url, '/api/v1/operators', { token: ADMIN });
    assert.ok(list.body.operators.some((o: { id: string; name: string }) => o.id === me.body.operator.id && o.name === 'alice'));
  });

  test('the role mapping: an admin group may write, a viewer group reads and gets 403 on a write', async () => {
    const alice = await signIn(app, 'alice');
    const bob = await signIn(app, 'bob');
    assert.equal((await call(app.url, '/api/auth/me', { cookie: bob.cookie })).body.operator.role, 'viewer');
    assert.equal((await call(app.url, '/api/v1/sessions', { cookie: bob.cookie })).status, 200);
    const body = { name: 'made-by-sso', role: 'viewer' };
    const denied = await call(app.url, '/api/v1/operators', { method: 'POST', cookie: bob.cookie, origin: app.url, body });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.code, 'forbidden');
    const made = await call(app.url, '/api/v1/operators', { method: 'POST', cookie: alice.cookie, origin: app.url, body });
    assert.equal(made.status, 201, JSON.stringify(made.body));
  });

  test('a person in no mapped group is refused: no session, no operator', async () => {
    const jar = new CookieJar();
    assertRefused(await finish(jar, await toCallback(app, jar, 'carol')), 'oidc_no_role');
    const rows = await app.query<{ n: number }>(`SELECT COUNT(*) AS n FROM "OperatorToken" WHERE "name" = ?`, ['carol']);
    assert.equal(Number(rows[0].n), 0);
    const page = await fetch(`${app.url}/login?error=oidc_no_role`);
    assert.match(await page.text(), /no group that has a Doorwatch role/);
  });
});

describe('refusals', () => {
  test('a tampered state is refused, and the spent state cannot be replayed', async () => {
    const jar = new CookieJar();
    const callback = new URL(await toCallback(app, jar, 'alice'));
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    assertRefused(await finish(jar, tampered.href), 'oidc_state_mismatch');
    // The refusal cleared the state cookie: the genuine answer now finds no sign-in to finish.
    assertRefused(await finish(jar, callback.href), 'oidc_state_missing');
  });

  test('a forged state cookie, a missing code and the provider’s own refusal each have their code', async () => {
    const jar = new CookieJar();
    const callback = new URL(await toCallback(app, jar, 'alice'));
    const forged = new CookieJar();
    forged.store(app.url, new Response(null, { headers: { 'set-cookie': 'dw_oidc=dwsealed%3Av1%3Aa%3Ab%3Ac; Path=/api/auth/oidc' } }));
    assertRefused(await finish(forged, callback.href), 'oidc_state_missing');
    assertRefused(await finish(new CookieJar(), `${app.url}/api/auth/oidc/callback`), 'oidc_state_missing');
    const noCode = new URL(callback);
    noCode.searchParams.delete('code');
    assertRefused(await finish(jar, noCode.href), 'oidc_callback_invalid');
    const other = new CookieJar();
    await toCallback(app, other, 'alice');
    const denied = await finish(other, `${app.url}/api/auth/oidc/callback?error=access_denied&error_description=nope&state=x`);
    assertRefused(denied, 'oidc_provider_error');
    assert.match(JSON.parse(denied.text).error.message, /access_denied: nope/);
  });

  test('a code used twice is refused by the provider: no second session', async () => {
    const jar = new CookieJar();
    const callback = await toCallback(app, jar, 'bob');
    const state = jar.get('127.0.0.1', 'dw_oidc')!;
    assert.equal((await finish(jar, callback)).status, 200);
    jar.store(app.url, new Response(null, { headers: { 'set-cookie': `dw_oidc=${state}; Path=/api/auth/oidc` } }));
    assertRefused(await finish(jar, callback), 'oidc_token_rejected');
  });

  test('a provider that is down: a clear refusal at the start and at the callback, never a 5xx', async () => {
    // `brief` has not talked to the provider yet: its discovery fails.
    provider.setDown(true);
    try {
      const start = await new CookieJar().browse(`${brief.url}/api/auth/oidc/start`);
      assert.equal(start.status, 303);
      assert.equal(start.headers.get('location'), '/login?error=oidc_provider_unavailable');
      assert.equal(((await start.json()) as { error: { code: string } }).error.code, 'oidc_provider_unavailable');
    } finally {
      provider.setDown(false);
    }
    const jar = new CookieJar();
    const callback = await toCallback(app, jar, 'alice');
    provider.setDown(true);
    try {
      assertRefused(await finish(jar, callback), 'oidc_provider_unavailable');
    } finally {
      provider.setDown(false);
    }
  });
});

describe('session end', () => {
  test('an expired session is refused, and pages send the person back to sign in', async () => {
    const done = await signIn(brief, 'bob');
    assert.match(done.session!, /Max-Age=1(;|$)/);
    const session = parseSession(decodeURIComponent(done.cookie.slice('dw_session='.length)))!;
    // The cookie is genuine (signed with the person's session key); only time ends it.
    const [row] = await brief.query<{ tokenHash: string }>(`SELECT "tokenHash" FROM "OperatorToken" WHERE "id" = ?`, [session.operatorId]);
    assert.ok(verifySessionMac(session, row.tokenHash, session.expiresAt - 1));
    await new Promise((r) => setTimeout(r, Math.max(0, session.expiresAt - Date.now()) + 50));
    const r = await call(brief.url, '/api/v1/stats', { cookie: done.cookie });
    assert.equal(r.status, 401);
    assert.equal(r.body.error.code, 'unauthorized');
    const page = await fetch(`${brief.url}/sessions`, { redirect: 'manual', headers: { cookie: done.cookie } });
    assert.equal(page.status, 307);
    assert.equal(new URL(page.headers.get('location')!, brief.url).pathname, '/login');
  });

  test('logout ends the session on the server (a kept copy of the cookie fails too) and names the provider’s end-session URL', async () => {
    const first = await signIn(app, 'bob');
    const second = await signIn(app, 'bob');
    assert.equal((await call(app.url, '/api/v1/stats', { cookie: first.cookie })).status, 200);
    const out = await call(app.url, '/api/auth/logout', { method: 'POST', cookie: first.cookie, origin: app.url });
    assert.equal(out.status, 200, out.text);
    assert.match(out.headers.get('set-cookie') ?? '', /dw_session=;.*Max-Age=0/);
    const end = new URL(out.body.endSessionUrl);
    assert.equal(end.origin, provider.issuer);
    assert.equal(end.searchParams.get('post_logout_redirect_uri'), `${app.url}/login`);
    for (const cookie of [first.cookie, second.cookie]) {
      const r = await call(app.url, '/api/v1/stats', { cookie });
      assert.equal(r.status, 401, 'every session of that person ended');
    }
    // Signing in again works, and the old cookies stay dead.
    const again = await signIn(app, 'bob');
    assert.equal((await call(app.url, '/api/v1/stats', { cookie: again.cookie })).status, 200);
    assert.equal((await call(app.url, '/api/v1/stats', { cookie: first.cookie })).status, 401);
  });
});
