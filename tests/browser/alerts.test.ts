// Alerts in a real browser: a naive resume fires the default rule, the banner appears on every
// page, the Alerts page lists the firing alert and its history; admins get the rule editor,
// viewers a read-only page.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { ADMIN_TOKEN, SERVERS, launch, serversEnv, shot } from './fixtures';
import { postEvents } from '../support/post-events';

let app: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

async function login(p: Page, token: string) {
  await p.goto(`${app.url}/login`);
  await p.fill('[data-testid="login-token"]', token);
  await p.click('[data-testid="login-submit"]');
  await p.waitForURL((u) => u.pathname === '/');
}

describe('alerts', () => {
  before(async () => {
    [app, browser] = await Promise.all([
      startAppServer({ env: { DOORWATCH_SERVERS: serversEnv(), DOORWATCH_ALERT_INTERVAL_MS: '300' } }),
      launch(),
    ]);
    const t = Date.now() - 60_000;
    const ev = (type: string, ms: number, data: Record<string, unknown> = {}) => ({
      id: `al-${type}-${ms}`,
      token: 'tok-alert-naive',
      type,
      at: new Date(t + ms).toISOString(),
      data,
    });
    const res = await postEvents(app.url, SERVERS.naive.name, SERVERS.naive.secret, [
      ev('session.opened', 0),
      ev('upgrade.accepted', 100, { eventId: 4 }),
      ev('stream.dropped', 150),
      ev('resume.requested', 200, { lastEventId: 4 }),
      ev('resume.accepted', 212, { replayed: 0 }),
      // Ended (the client gave up), so only the naive-resume rule fires, not the ongoing-deadlock one.
      ev('session.timeout', 30_212, { idleMs: 30_000 }),
    ]);
    assert.equal(res.status, 200);
    context = await browser.newContext({ viewport: { width: 1366, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  test('the banner shows the firing alert on every page and links to the Alerts page', async () => {
    await login(page, ADMIN_TOKEN);
    const banner = page.locator('[data-testid="alert-banner"]');
    await banner.waitFor();
    // A rule for all servers fires per server, and the banner says which one.
    assert.match(await banner.innerText(), new RegExp(`Alert firing: Naive resume on ${SERVERS.naive.name}(?!,)`));
    await page.goto(`${app.url}/servers`);
    await banner.waitFor();
    await page.screenshot({ path: shot('20-alert-banner') });
    await banner.getByRole('link', { name: 'Alerts' }).click();
    await page.waitForURL((u) => u.pathname === '/alerts');
  });

  test('the Alerts page lists the firing alert, its history and the rules; admins can edit', async () => {
    await page.goto(`${app.url}/alerts`);
    const firing = page.locator('[data-testid="firing-alerts"]');
    await firing.waitFor();
    assert.match(await firing.innerText(), new RegExp(`Naive resume on ${SERVERS.naive.name}`));
    const ruleRow = await page.locator('[data-testid="alert-rule-default-naive-resume"]').innerText();
    assert.match(ruleRow, /each server/);
    assert.match(ruleRow, new RegExp(`firing on ${SERVERS.naive.name} since`));
    await page.locator('[data-testid="alert-history"]').getByText('firing').first().waitFor();
    const rules = await page.locator('[data-testid="alert-rules"]').innerText();
    for (const name of ['Ongoing deadlock', 'Naive resume', 'Dual negotiation']) assert.ok(rules.includes(name), `${name} is listed`);
    await page.locator('[data-testid="add-rule"]').waitFor();
    await page.screenshot({ path: shot('21-alerts-page'), fullPage: true });

    // Disabling the rule from the page resolves it: the banner goes away.
    await page.locator('[data-testid="alert-rule-default-naive-resume"]').getByRole('button', { name: 'Disable' }).click();
    await page.locator('[data-testid="no-firing"]').waitFor();
    await page.locator('[data-testid="alert-banner"]').waitFor({ state: 'detached' });
    await page.locator('[data-testid="alert-history"]').getByText('resolved').first().waitFor();
  });

  test('viewers see the Alerts page read-only', async () => {
    const made = await fetch(`${app.url}/api/v1/operators`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'alert-viewer', role: 'viewer' }),
    });
    const { token } = (await made.json()) as { token: string };
    const viewerContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const viewer = await viewerContext.newPage();
    try {
      await login(viewer, token);
      await viewer.goto(`${app.url}/alerts`);
      await viewer.locator('[data-testid="alert-rules"]').waitFor();
      assert.equal(await viewer.locator('[data-testid="add-rule"]').count(), 0);
      assert.equal(await viewer.getByRole('button', { name: 'Disable' }).count(), 0);
    } finally {
      await viewerContext.close();
    }
    assert.deepEqual(consoleErrors, []);
  });
});
