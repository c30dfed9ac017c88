// The access matrix, generated from API_ROUTES: every operation × every kind of credential gets
// the answer docs/api.md documents, so a new route cannot ship without being checked here.
// public → never 401/403; viewer → 401 without a valid credential, 403 for scrape; admin → 401 /
// 403 below admin; scrape (/metrics) → any operator role; webhook → only the server's own
// signature. "Allowed" is any status but 401/403/429 and never a 5xx (dummy path params may 404).
//
// The credential throttle (lib/auth/credential-throttle.ts) keys failures by client address and by
// the presented token. The app runs with DOORWATCH_TRUST_PROXY=1 and every bad-credential request
// claims its own X-Forwarded-For address, every unknown token is new and a revoked token is
// retired before it has failed more often than the throttle lets one credential fail for free; so
// no refusal here may be a 429, and good credentials (never failing) can never meet one either.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { API_ROUTES } from '@/lib/contract/api/routes';
import type { RouteContract } from '@/lib/contract/api/route-contract';
import { CREDENTIAL_LIMITS } from '@/lib/auth/credential-throttle';
import { startAppServer, TEST_ADMIN_TOKEN, type AppServer } from '../support/app-server';
import { postEvents } from '../support/post-events';

type Role = 'viewer' | 'admin' | 'scrape' | 'annotate';
/** Which roles each operator auth kind admits (annotate stands apart from the scrape < viewer < admin ranks). */
const ADMITS: Record<'scrape' | 'viewer' | 'admin' | 'annotate', readonly Role[]> = {
  scrape: ['scrape', 'viewer', 'admin'],
  viewer: ['viewer', 'admin'],
  admin: ['admin'],
  annotate: ['annotate', 'admin'],
};
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SERVER = 'matrix-a';
const OTHER_SERVER = 'matrix-b';

interface Credential {
  name: string;
  /** The role the credential proves, or null when it proves nothing. */
  role: Role | null;
  /** A cookie session without this instance's Origin on unsafe methods (the CSRF check must refuse it). */
  crossSite?: boolean;
  /** Sends a foreign Origin: login and logout refuse that too (login CSRF, after body validation), though they are public. */
  foreignOrigin?: boolean;
  headers(): Record<string, string>;
}

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

let app: AppServer;
let credentials: Credential[] = [];
let secret = '';
let foreignSecret = '';
let addressCounter = 0;

// A fresh client address per refused attempt, so the per-address throttle never fills.
const freshAddress = () => {
  addressCounter += 1;
  return `10.77.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
};

async function send(method: string, path: string, headers: Record<string, string>, body?: unknown, form = false): Promise<Answer> {
  const h: Record<string, string> = { ...headers };
  if (body !== undefined) h['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
  const encoded = form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: h,
    body: body === undefined ? undefined : encoded,
    redirect: 'manual',
  });
  // The change stream never ends: its status and headers are all we need.
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, headers: res.headers, body: null };
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

const admin = (method: string, path: string, body?: unknown) => send(method, path, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, body);

async function createToken(role: Role, name: string): Promise<{ id: string; token: string }> {
  const r = await admin('POST', '/api/v1/operators', { name, role });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { id: r.body.operator.id, token: r.body.token };
}

async function loginCookie(token: string): Promise<string> {
  const r = await send('POST', '/api/auth/login', { origin: app.url }, { token });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.headers.get('set-cookie') ?? '').split(';')[0];
}

async function registerServer(name: string): Promise<string> {
  const r = await admin('POST', '/api/v1/admin/servers', { name });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.secret;
}

/** Revoked tokens, each retired before it has failed more often than the throttle lets a credential fail for free. */
async function revokedTokens(count: number): Promise<() => string> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const t = await createToken('viewer', `matrix-revoked-${i}`);
    assert.equal((await admin('DELETE', `/api/v1/operators/${t.id}`)).status, 200);
    tokens.push(t.token);
  }
  let uses = 0;
  return () => {
    const perToken = CREDENTIAL_LIMITS.free;
    const token = tokens[Math.floor(uses / perToken)];
    assert.ok(token, 'more revoked-token uses than prepared');
    uses += 1;
    return token;
  };
}

function concretePath(route: RouteContract): string {
  return route.path
    .replace('{server}', route.auth === 'webhook' ? SERVER : 'matrix-unknown-server')
    .replace('{token}', 'matrix-token')
    .replace('{id}', 'matrix-unknown-id');
}

function requestBody(route: RouteContract): unknown {
  if (!UNSAFE.has(route.method) || route.method === 'DELETE') return undefined;
  return route.auth === 'webhook' ? { events: [] } : {};
}

type Expectation = 'allowed' | 'unauthorized' | 'forbidden' | 'csrf_rejected' | 'not_401_403' | 'refused';

function expected(route: RouteContract, cred: Credential): Expectation {
  switch (route.auth) {
    case 'public':
      return cred.foreignOrigin && UNSAFE.has(route.method) ? 'refused' : 'not_401_403';
    case 'webhook':
      // Operator credentials mean nothing to ingest: only the server's own signature does.
      return 'unauthorized';
    case 'scrape':
    case 'viewer':
    case 'admin':
    case 'annotate': {
      if (cred.role === null) return 'unauthorized';
      // Authentication (with its CSRF check) comes before the role check.
      if (cred.crossSite && UNSAFE.has(route.method)) return 'csrf_rejected';
      return ADMITS[route.auth].includes(cred.role) ? 'allowed' : 'forbidden';
    }
    default: {
      const never: never = route.auth;
      throw new Error(`unknown auth kind ${String(never)}`);
    }
  }
}

function scriptSources(csp: string): string {
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map((d) => [d[0].toLowerCase(), d.slice(1).join(' ')]),
  );
  return directives.get('script-src') ?? directives.get('default-src') ?? '';
}

function assertSecurityHeaders(what: string, r: Answer): void {
  const csp = r.headers.get('content-security-policy') ?? '';
  assert.ok(csp, `${what}: no Content-Security-Policy`);
  assert.ok(!scriptSources(csp).includes("'unsafe-inline'"), `${what}: scripts may run inline: ${csp}`);
  assert.match(csp, /frame-ancestors 'none'/, `${what}: ${csp}`);
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff', what);
  assert.ok(r.headers.get('referrer-policy'), `${what}: no Referrer-Policy`);
}

function assertAnswer(what: string, expectation: Expectation, r: Answer): void {
  const detail = `${what} → ${r.status} ${JSON.stringify(r.body)?.slice(0, 200)}`;
  assert.ok(r.status < 500, detail);
  switch (expectation) {
    case 'not_401_403':
      assert.ok(r.status !== 401 && r.status !== 403, detail);
      break;
    case 'allowed':
      assert.ok(![401, 403, 429].includes(r.status), detail);
      break;
    case 'refused':
      // 400 for a dummy body or 403 csrf_rejected, and never a session cookie for a foreign page.
      assert.ok(r.status === 400 || (r.status === 403 && r.body?.error?.code === 'csrf_rejected'), detail);
      assert.equal(r.headers.get('set-cookie'), null, detail);
      break;
    case 'unauthorized':
      assert.equal(r.status, 401, detail);
      assert.equal(typeof r.body?.error?.code, 'string', detail);
      break;
    case 'forbidden':
    case 'csrf_rejected':
      assert.equal(r.status, 403, detail);
      assert.equal(r.body?.error?.code, expectation, detail);
      break;
  }
}

// Unsafe methods last, DELETEs at the very end: nothing here should destroy what others need, but
// if a dummy id ever matched something, only the checks after it could notice.
const ORDER: Record<string, number> = { GET: 0, HEAD: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 };
const ROUTES = [...API_ROUTES].sort((a, b) => ORDER[a.method] - ORDER[b.method]);

before(async () => {
  app = await startAppServer({ env: { DOORWATCH_TRUST_PROXY: '1' } });
  secret = await registerServer(SERVER);
  foreignSecret = await registerServer(OTHER_SERVER);
  const viewer = await createToken('viewer', 'matrix-viewer');
  const scrape = await createToken('scrape', 'matrix-scrape');
  const annotate = await createToken('annotate', 'matrix-annotate');
  const viewerCookie = await loginCookie(viewer.token);
  const adminCookie = await loginCookie(TEST_ADMIN_TOKEN);
  const forgedCookie = viewerCookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
  // Every route draws one, even those that ignore a bearer token.
  const revoked = await revokedTokens(Math.ceil(API_ROUTES.length / CREDENTIAL_LIMITS.free));
  const bad = (h: Record<string, string>) => ({ ...h, 'x-forwarded-for': freshAddress() });
  credentials = [
    { name: 'no credential', role: null, headers: () => bad({}) },
    { name: 'malformed Authorization', role: null, headers: () => bad({ authorization: `Token ${TEST_ADMIN_TOKEN}` }) },
    { name: 'empty Bearer', role: null, headers: () => bad({ authorization: 'Bearer' }) },
    {
      name: 'unknown token',
      role: null,
      headers: () => bad({ authorization: `Bearer dw_${randomBytes(32).toString('base64url')}` }),
    },
    { name: 'revoked token', role: null, headers: () => bad({ authorization: `Bearer ${revoked()}` }) },
    { name: 'forged session cookie', role: null, headers: () => bad({ cookie: forgedCookie, origin: app.url }) },
    { name: 'scrape token', role: 'scrape', headers: () => ({ authorization: `Bearer ${scrape.token}` }) },
    { name: 'annotate token', role: 'annotate', headers: () => ({ authorization: `Bearer ${annotate.token}` }) },
    { name: 'viewer token', role: 'viewer', headers: () => ({ authorization: `Bearer ${viewer.token}` }) },
    { name: 'admin token', role: 'admin', headers: () => ({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` }) },
    { name: 'viewer cookie, same Origin', role: 'viewer', headers: () => ({ cookie: viewerCookie, origin: app.url }) },
    { name: 'viewer cookie, no Origin', role: 'viewer', crossSite: true, headers: () => ({ cookie: viewerCookie }) },
    { name: 'admin cookie, same Origin', role: 'admin', headers: () => ({ cookie: adminCookie, origin: app.url }) },
    { name: 'admin cookie, no Origin', role: 'admin', crossSite: true, headers: () => ({ cookie: adminCookie }) },
    {
      name: 'admin cookie, foreign Origin',
      role: 'admin',
      crossSite: true,
      foreignOrigin: true,
      headers: () => ({ cookie: adminCookie, origin: 'https://evil.example' }),
    },
  ];
});

after(async () => {
  await app?.stop();
});

describe('access matrix (generated from API_ROUTES)', () => {
  test('every route has one of the documented auth kinds and a distinct method and path', () => {
    const seen = new Set<string>();
    for (const r of API_ROUTES) {
      assert.ok(['public', 'webhook', 'viewer', 'admin', 'scrape', 'annotate'].includes(r.auth), `${r.method} ${r.path}: ${r.auth}`);
      const key = `${r.method} ${r.path}`;
      assert.ok(!seen.has(key), key);
      seen.add(key);
    }
  });

  for (const route of ROUTES) {
    test(`${route.method} ${route.path} (${route.auth})`, async () => {
      const path = concretePath(route);
      for (const cred of credentials) {
        const r = await send(
          route.method,
          path,
          cred.headers(),
          requestBody(route),
          route.bodyType === 'application/x-www-form-urlencoded',
        );
        const what = `${route.method} ${path} with ${cred.name}`;
        assertAnswer(what, expected(route, cred), r);
        assertSecurityHeaders(what, r);
      }
    });
  }

  test('ingest takes only the server’s own signature: another server’s secret or none is 401', async () => {
    const ingest = API_ROUTES.filter((r) => r.auth === 'webhook');
    assert.ok(ingest.length > 0);
    for (const route of ingest) {
      assert.equal(route.path, '/api/v1/ingest/{server}', 'a new webhook route needs its own signing case here');
      const event = (id: string) => ({ id, token: 'matrix-tok', type: 'session.opened', at: new Date().toISOString(), data: {} });
      const foreign = await postEvents(app.url, SERVER, foreignSecret, [event('m1')]);
      assert.equal(foreign.status, 401, JSON.stringify(foreign.body));
      assert.equal(typeof foreign.body?.error?.code, 'string');
      // The same request signed with the right secret passes, so the 401 above is the signature's doing.
      const own = await postEvents(app.url, SERVER, secret, [event('m1')]);
      assert.equal(own.status, 200, JSON.stringify(own.body));
      assert.equal(own.body.accepted, 1);
      assert.equal((await postEvents(app.url, OTHER_SERVER, foreignSecret, [event('m2')])).status, 200);
      assertSecurityHeaders('signed ingest', { ...own, body: own.body });
    }
  });
});

describe('security headers on pages', () => {
  test('the login page and the dashboard carry a nonce CSP without inline scripts, frame-ancestors, nosniff, a referrer policy', async () => {
    const login = await send('GET', '/login', {});
    assert.equal(login.status, 200);
    assertSecurityHeaders('GET /login', login);
    assert.match(scriptSources(login.headers.get('content-security-policy')!), /'nonce-[A-Za-z0-9+/=]+'/);
    const viewerCookie = credentials.find((c) => c.name === 'viewer cookie, same Origin')!.headers();
    const page = await send('GET', '/', viewerCookie);
    assert.equal(page.status, 200);
    assertSecurityHeaders('GET / (logged in)', page);
    const anonymous = await send('GET', '/', {});
    assert.ok(anonymous.status >= 300 && anonymous.status < 400, `anonymous dashboard: ${anonymous.status}`);
    assert.match(anonymous.headers.get('location') ?? '', /\/login/);
    assertSecurityHeaders('GET / (anonymous redirect)', anonymous);
  });
});
