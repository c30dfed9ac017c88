// Incidents in a real browser: a naive server's session opens an incident; from the Incidents page
// the operator opens it, acknowledges it, adds a note (hostile markup stays text) and resolves it.
// Screenshots at 1440 and 390 wide.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { ADMIN_TOKEN, SERVERS, launch, serversEnv, shot } from './fixtures';

const HOSTILE = '<img src=x onerror="window.__pwned=(window.__pwned||0)+1"><script>window.__pwned=1</script>';

let app: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

before(async () => {
  [app, browser] = await Promise.all([
    startAppServer({ env: { DOORWATCH_SERVERS: serversEnv(), DOORWATCH_ALERT_INTERVAL_MS: '300' } }),
    launch(),
  ]);
  const t = Date.now() - 60_000;
  const ev = (type: string, ms: number, data: Record<string, unknown> = {}) => ({
    id: `inc-${type}-${ms}`,
    token: 'tok-incident-naive',
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
  ]);
  assert.equal(res.status, 200);
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (e) => pageErrors.push(String(e)));
});

after(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
});

test('open the incident from the list, acknowledge, add a note, resolve', async () => {
  await page.goto(`${app.url}/login`);
  await page.fill('[data-testid="login-token"]', ADMIN_TOKEN);
  await page.click('[data-testid="login-submit"]');
  await page.waitForURL((u) => u.pathname === '/');
  await page.getByRole('link', { name: 'Incidents' }).first().click();
  await page.waitForURL((u) => u.pathname === '/incidents');
  const row = page.locator('[data-testid="incident-link"]', { hasText: `Naive resumes on ${SERVERS.naive.name}` });
  await row.waitFor();
  await page.screenshot({ path: shot('60-incidents-1440') });
  await row.click();
  await page.waitForURL((u) => u.pathname.startsWith('/incidents/inc_'));
  await page.locator('[data-testid="incident-page"][data-status="open"]').waitFor();
  assert.match(await page.locator('[data-testid="incident-owner"]').innerText(), /nobody/);

  await page.click('[data-testid="incident-ack"]');
  await page.locator('[data-testid="incident-page"][data-status="acknowledged"]').waitFor();
  assert.match(await page.locator('[data-testid="incident-owner"]').innerText(), /bootstrap admin/);

  await page.fill('[data-testid="incident-note-input"]', HOSTILE);
  await page.click('[data-testid="incident-note-add"]');
  const note = page.locator('[data-testid="incident-timeline"] li[data-kind="note"]');
  await note.waitFor();
  assert.ok((await note.innerText()).includes(HOSTILE), 'the note is shown as text');
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  await page.screenshot({ path: shot('61-incident-1440'), fullPage: true });

  await page.click('[data-testid="incident-resolve"]');
  await page.locator('[data-testid="incident-page"][data-status="resolved"]').waitFor();
  assert.ok(await page.locator('[data-testid="incident-timeline"] li[data-kind="resolved"]').count());

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: shot('62-incident-390'), fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `no sideways scroll at 390 px (overflow ${overflow}px)`);
  assert.deepEqual(pageErrors, []);
});
