// Lists say how many rows match the filter (all pages), and their times read relative ("20 min ago")
// with the absolute time on hover: the sessions list and the token lookup, in a real browser.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { launch, seed, serversEnv, shot, signIn } from './fixtures';

let app: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

/** Each `<time>` in the rows: relative text, absolute title, ISO datetime. */
async function times(testId: string) {
  return page
    .locator(`time[data-testid="${testId}"]`)
    .evaluateAll((els) =>
      els.map((e) => ({ text: e.textContent ?? '', title: e.getAttribute('title') ?? '', iso: e.getAttribute('datetime') ?? '' })),
    );
}

function assertRelativeWithAbsoluteTitle(rows: { text: string; title: string; iso: string }[]) {
  assert.ok(rows.length > 0);
  for (const r of rows) {
    assert.match(r.text, /^(\d+ s|\d+ min|\d+ h) ago$/, r.text);
    // The browser runs in UTC, so the operator's local zone shows the same wall time as the ISO instant.
    assert.equal(r.title.replace(/ UTC$/, ''), r.iso.slice(0, 23).replace('T', ' '));
  }
}

describe('list totals and relative times', () => {
  before(async () => {
    [app, browser] = await Promise.all([startAppServer({ env: { DOORWATCH_SERVERS: serversEnv() } }), launch()]);
    await seed(app.url);
    context = await browser.newContext({ viewport: { width: 1366, height: 768 }, colorScheme: 'light', timezoneId: 'UTC' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    await signIn(page, app.url);
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  test('the sessions list shows the total over all pages, relative times with the absolute one on hover', async () => {
    await page.goto(`${app.url}/sessions?from=now-1h&to=now&limit=2`);
    await page.locator('[data-testid="session-row"]').first().waitFor();
    assert.equal(await page.locator('[data-testid="session-row"]').count(), 2);
    assert.equal(await page.locator('[data-testid="list-total"]').innerText(), '5 sessions match');
    assertRelativeWithAbsoluteTitle(await times('session-last-event'));
    await page.goto(`${app.url}/sessions?from=now-1h&to=now&limit=2&flag=refused`);
    await page.locator('[data-testid="session-row"]').first().waitFor();
    assert.equal(await page.locator('[data-testid="list-total"]').innerText(), '1 session matches');
    await page.screenshot({ path: shot('list-totals-sessions') });
  });

  test('the token lookup shows how many sessions the prefix matches, with relative times', async () => {
    await page.goto(`${app.url}/tokens/tok-naive`);
    await page.locator('time[data-testid="session-last-event"]').first().waitFor();
    assert.equal(await page.locator('[data-testid="list-total"]').innerText(), '2 sessions match');
    assertRelativeWithAbsoluteTitle(await times('session-last-event'));
    await page.screenshot({ path: shot('list-totals-token-lookup') });
  });

  test('no hydration mismatch or other console error', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
