// Single sign-on's pure parts and settings: the role claim (a list, a string, a nested path), the
// strongest role, names, ids per issuer and subject, the sealed state cookie, and the settings'
// checks between values (docs/deploy.md#single-sign-on-openid-connect).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SettingsError, readSettings } from '@/lib/config/settings';
import { claimAt, displayName, roleFor, ssoOperatorId } from '@/lib/auth/oidc-claims';
import { openState, sealState } from '@/lib/auth/oidc-state-cookie';
import type { OidcOptions } from '@/lib/auth/oidc-options';
import { safeNext } from '@/lib/http/safe-next';

const MAP = [
  { value: 'doorwatch-admins', role: 'admin' as const },
  { value: 'doorwatch-viewers', role: 'viewer' as const },
];

test('the role claim: a list or a string, nested by a dotted path or named with dots; admin wins', () => {
  assert.equal(roleFor({ groups: ['x', 'doorwatch-viewers'] }, 'groups', MAP), 'viewer');
  assert.equal(roleFor({ groups: ['doorwatch-viewers', 'doorwatch-admins'] }, 'groups', MAP), 'admin');
  assert.equal(roleFor({ groups: 'doorwatch-admins' }, 'groups', MAP), 'admin');
  assert.equal(roleFor({ realm_access: { roles: ['doorwatch-viewers'] } }, 'realm_access.roles', MAP), 'viewer');
  assert.equal(roleFor({ 'https://example.com/groups': ['doorwatch-admins'] }, 'https://example.com/groups', MAP), 'admin');
  for (const claims of [{}, { groups: [] }, { groups: ['marketing'] }, { groups: 42 }, { groups: [{ name: 'doorwatch-admins' }] }]) {
    assert.equal(roleFor(claims, 'groups', MAP), null, JSON.stringify(claims));
  }
  assert.equal(claimAt({ a: { b: null } }, 'a.b.c'), undefined);
});

test('names and ids: preferred_username first, at most 100 characters; an id per issuer and subject', () => {
  assert.equal(displayName({ sub: 's', email: 'e@x', preferred_username: ' pat ' }), 'pat');
  assert.equal(displayName({ sub: 's', email: 'e@x' }), 'e@x');
  assert.equal(displayName({ sub: 's' }), 's');
  assert.equal(displayName({ sub: 'x'.repeat(300) }).length, 100);
  const id = ssoOperatorId('https://idp.example', 'u1');
  assert.match(id, /^oidc_[\w-]{22}$/);
  assert.equal(ssoOperatorId('https://idp.example', 'u1'), id);
  assert.notEqual(ssoOperatorId('https://other.example', 'u1'), id);
});

test('the state cookie is sealed: it opens with the same key only, not when altered, expired or in clear', () => {
  const o = { clientSecret: 'a-client-secret' } as OidcOptions;
  const state = { state: 's', nonce: 'n', verifier: 'v', next: '/sessions', expiresAt: Date.now() + 60_000 };
  const sealed = sealState(o, state);
  assert.ok(!sealed.includes('"verifier"'));
  assert.deepEqual(openState(o, sealed), state);
  assert.equal(openState({ ...o, clientSecret: 'another-secret' }, sealed), null);
  assert.equal(openState(o, `${sealed.slice(0, -4)}AAA=`), null);
  assert.equal(openState(o, sealed, state.expiresAt), null);
  assert.equal(openState(o, JSON.stringify(state)), null);
  assert.equal(openState(o, null), null);
});

test('after signing in, only a path on this site', () => {
  assert.equal(safeNext('/sessions?flag=refused'), '/sessions?flag=refused');
  for (const bad of [undefined, null, '', 'https://evil.example', '//evil.example', '/\\evil.example', '/login?next=/x']) {
    assert.equal(safeNext(bad), '/', String(bad));
  }
});

function problems(env: Record<string, string>): readonly string[] {
  try {
    readSettings(env);
  } catch (err) {
    assert.ok(err instanceof SettingsError, String(err));
    return err.problems;
  }
  assert.fail(`accepted ${JSON.stringify(env)}`);
}

test('settings: off by default; a full configuration parses; values that cannot work stop the start', () => {
  const off = readSettings({});
  assert.equal(off.DOORWATCH_OIDC_ISSUER, null);
  assert.equal(off.DOORWATCH_OIDC_ROLE_CLAIM, 'groups');
  assert.equal(off.DOORWATCH_OIDC_SESSION_MS, 28_800_000);
  const on = readSettings({
    DOORWATCH_OIDC_ISSUER: 'https://keycloak.example/realms/ops/',
    DOORWATCH_OIDC_CLIENT_ID: 'doorwatch',
    DOORWATCH_OIDC_CLIENT_SECRET: 'hunter2-hunter2',
    DOORWATCH_OIDC_SCOPES: 'openid,profile  groups',
    DOORWATCH_OIDC_ROLE_MAP: ' doorwatch-admins=admin, team=ops=viewer ',
  });
  assert.equal(on.DOORWATCH_OIDC_ISSUER, 'https://keycloak.example/realms/ops');
  assert.equal(on.DOORWATCH_OIDC_SCOPES, 'openid profile groups');
  assert.deepEqual(on.DOORWATCH_OIDC_ROLE_MAP, [
    { value: 'doorwatch-admins', role: 'admin' },
    { value: 'team=ops', role: 'viewer' },
  ]);
  assert.deepEqual(
    problems({
      DOORWATCH_OIDC_ISSUER: 'http://idp.example',
      DOORWATCH_OIDC_REDIRECT_URL: 'https://dw.example/callback',
      DOORWATCH_OIDC_SCOPES: 'profile',
      DOORWATCH_OIDC_ROLE_MAP: 'ops=root',
      DOORWATCH_OIDC_SESSION_MS: '5',
    }),
    [
      'DOORWATCH_OIDC_ISSUER: must be an https:// issuer URL (http:// only on loopback) (got "http://idp.example")',
      'DOORWATCH_OIDC_REDIRECT_URL: must end in /api/auth/oidc/callback (got "https://dw.example/callback")',
      'DOORWATCH_OIDC_SCOPES: must include openid (got "profile")',
      'DOORWATCH_OIDC_ROLE_MAP: entry "ops=root" must look like claim-value=role, role one of admin, viewer (got "ops=root")',
      'DOORWATCH_OIDC_SESSION_MS: must be a whole number from 1000 to 2592000000 (got "5")',
    ],
  );
  assert.deepEqual(problems({ DOORWATCH_OIDC_ISSUER: 'http://127.0.0.1:9000' }), [
    'DOORWATCH_OIDC_CLIENT_ID: needed with DOORWATCH_OIDC_ISSUER',
    'DOORWATCH_OIDC_ROLE_MAP: needed with DOORWATCH_OIDC_ISSUER (without it nobody could sign in)',
    'DOORWATCH_OIDC_CLIENT_SECRET: needed with DOORWATCH_OIDC_ISSUER unless DOORWATCH_SECRET_KEY is set (one of them keys the sign-in state cookie)',
  ]);
  // A public client (no secret) seals its state with DOORWATCH_SECRET_KEY.
  const pub = { DOORWATCH_OIDC_ISSUER: 'https://idp.example', DOORWATCH_OIDC_CLIENT_ID: 'dw', DOORWATCH_OIDC_ROLE_MAP: 'ops=viewer' };
  assert.equal(readSettings({ ...pub, DOORWATCH_SECRET_KEY: randomBytes(32).toString('base64') }).DOORWATCH_OIDC_CLIENT_SECRET, null);
  assert.deepEqual(problems({ DOORWATCH_OIDC_CLIENT_ID: 'dw' }), ['DOORWATCH_OIDC_ISSUER: needed with DOORWATCH_OIDC_CLIENT_ID']);
  const secret = problems({ DOORWATCH_OIDC_ISSUER: 'nope', DOORWATCH_OIDC_CLIENT_SECRET: 'hunter2' });
  assert.ok(!secret.join('\n').includes('hunter2'));
});
