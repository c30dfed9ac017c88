// Issue 10: hostile strings in every field a sender controls are shown as text, never run, and
// the page's Content-Security-Policy lets only nonce-bearing scripts run (the app still works).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents, postSigned } from '../support/post-events';
import { ADMIN_TOKEN, SERVERS, launch, serversEnv } from './fixtures';

const SCRIPT = '<script>window.__pwned=(window.__pwned||0)+1</script>';
const IMG = '<img src=x onerror="window.__pwned=(window.__pwned||0)+1">';
const TOKEN = `tok-${SCRIPT}`;

let app: AppServer;
let browser: Browser;
let page: Page;
const violations: string[] = [];
const pageErrors: string[] = [];

before(async () => {
  [app, browser] = await Promise.all([startAppServer({ env: { DOORWATCH_SERVERS: serversEnv() } }), launch()]);
  const at = (ms: number) => new Date(Date.now() - 60_000 + ms).toISOString();
  const good = SERVERS.good;
  const stored = await postEvents(app.url, good.name, good.secret, [
    { id: 'hx-1', token: TOKEN, type: 'session.opened', at: at(0), data: { note: IMG } },
    { id: 'hx-2', token: TOKEN, type: 'stream.dropped', at: at(10), data: { reason: SCRIPT } },
    { id: 'hx-3', token: TOKEN, type: 'session.closed', at: at(20), data: { reason: IMG } },
    // Refused events keep their hostile id, type and payload as dead letters.
    { id: SCRIPT, token: IMG, type: IMG, at: at(30), data: { x: SCRIPT } },
  ]);
  assert.equal(stored.status, 207);
  assert.equal((await postSigned(app.url, good.name, good.secret, `{"events": "${IMG}"}`)).status, 400);
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto(`${app.url}/login`);
  await page.fill('[data-testid="login-token"]', ADMIN_TOKEN);
  await page.click('[data-testid="login-submit"]');
  await page.waitForURL((u) => u.pathname === '/');
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

async function visit(path: string, expectText: string) {
  await page.goto(`${app.url}${path}`);
  await page.getByText(expectText, { exact: false }).first().waitFor();
  // The hostile markup is on the page as text…
  assert.ok((await page.locator('body').innerText()).includes(expectText), path);
  // …and nothing of it ran or became an element.
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, path);
  assert.equal(await page.locator('img[src="x"]').count(), 0, path);
}

test('session list, session detail, token lookup and the dead-letter list show hostile strings inert', async () => {
  await visit('/sessions?from=now-1h&to=now', 'tok-<script>');
  await visit(`/servers/${SERVERS.good.name}/sessions/${encodeURIComponent(TOKEN)}?from=now-1h&to=now`, SCRIPT);
  await visit(`/tokens/${encodeURIComponent(TOKEN)}`, TOKEN);
  // The dead-letter page lists the refused events (hostile id, type and payload); nothing of them may run.
  await page.goto(`${app.url}/dead-letters?from=now-1h&to=now`);
  await page.locator('[data-testid="dead-letter-row"]').first().waitFor();
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  assert.deepEqual(pageErrors, []);
});

test('the CSP blocks inline handlers, and the app scripts (with it) run', async () => {
  await page.goto(`${app.url}/`);
  await page.locator('[data-testid="overview"]').waitFor();
  // What an injection would look like: markup with an inline handler. No 'unsafe-inline': it never runs.
  const blocked = await page.evaluate(async () => {
    document.body.insertAdjacentHTML('beforeend', '<img src="/nope.png" onerror="window.__inline = 1">');
    await new Promise((r) => setTimeout(r, 300));
    return (window as unknown as { __inline?: number }).__inline;
  });
  assert.equal(blocked, undefined);
  // The theme boot script carries the nonce and ran before paint.
  assert.ok(await page.evaluate(() => document.documentElement.dataset.theme));
});
