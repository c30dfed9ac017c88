// Dashboard pages are not served without a login session: the server redirects to /login.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';

let app: AppServer;
before(async () => {
  app = await startAppServer();
});
after(async () => {
  await app?.stop();
});

test('pages redirect to /login (keeping where you were) without a session, and render with one', async () => {
  for (const path of ['/', '/sessions?flag=refused', '/servers/mcp-a/sessions/tok-1', '/settings']) {
    const res = await fetch(`${app.url}${path}`, { redirect: 'manual' });
    assert.equal(res.status, 307, path);
    const location = new URL(res.headers.get('location')!, app.url);
    assert.equal(location.pathname, '/login', path);
    assert.equal(location.searchParams.get('next'), path);
  }
  const forged = await fetch(`${app.url}/`, { redirect: 'manual', headers: { cookie: 'dw_session=garbage' } });
  assert.equal(forged.status, 307, 'a malformed cookie is no session');
  const loginPage = await fetch(`${app.url}/login`, { redirect: 'manual' });
  assert.equal(loginPage.status, 200);

  const login = await fetch(`${app.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify({ token: ADMIN }),
  });
  assert.equal(login.status, 200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0];
  const page = await fetch(`${app.url}/sessions`, { redirect: 'manual', headers: { cookie } });
  assert.equal(page.status, 200);
  assert.match(await page.text(), /Doorwatch/);
});

test('robots.txt and the icons in public/ are served without a login', async () => {
  const robots = await fetch(`${app.url}/robots.txt`, { redirect: 'manual' });
  assert.equal(robots.status, 200);
  assert.match(await robots.text(), /^User-agent: \*\nDisallow: \/$/m, 'an incident dashboard is not indexed');
  const favicon = await fetch(`${app.url}/favicon.ico`, { redirect: 'manual' });
  assert.equal(favicon.status, 200);
  assert.equal(Buffer.from(await favicon.arrayBuffer()).readUInt16LE(2), 1, 'an ICO file');
  const icon = await fetch(`${app.url}/icon.svg`, { redirect: 'manual' });
  assert.equal(icon.status, 200);
  assert.match(icon.headers.get('content-type') ?? '', /image\/svg\+xml/);
});
