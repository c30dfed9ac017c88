// Lists say how many rows match the filter (all pages), and their times read relative ("20 min ago")
// with the absolute time on hover: sessions, the token lookup, dead letters (with the code filter),
// the alert history (with the kind filter), servers and their probe history, in a real browser.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { launch, seed, serversEnv, shot, signIn, SERVERS } from './fixtures';
import { postEvents } from '../support/post-events';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { insertAlertTransition } from '@/lib/store/alert-transitions';
import { insertProbeRun } from '@/lib/store/probe-runs';

let app: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let db: Db;
const consoleErrors: string[] = [];

/** The API's answer for the page's operator (the browser's session cookie). */
async function api<T>(path: string): Promise<T> {
  const res = await page.request.get(`${app.url}${path}`);
  assert.equal(res.status(), 200, path);
  return (await res.json()) as T;
}

const listTotal = () => page.locator('[data-testid="list-total"]').innerText();

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
    db = openDb(readDatabaseConfig({ DATABASE_URL: app.databaseUrl }));
    context = await browser.newContext({ viewport: { width: 1366, height: 768 }, colorScheme: 'light', timezoneId: 'UTC' });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    await signIn(page, app.url);
  });

  after(async () => {
    await db?.close();
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

  test('dead letters: the total follows the code filter, every code keeps its count', async () => {
    // Three events that fail the contract in two different ways.
    const at = new Date().toISOString();
    const res = await postEvents(app.url, SERVERS.good.name, SERVERS.good.secret, [
      { id: 'ev-dl-1', token: 'tok-dl', type: 'not.a.type', at },
      { id: 'ev-dl-2', token: 'tok-dl', type: 'also.not.a.type', at },
      { id: 'ev-dl-3', token: 'tok-dl', type: 'session.opened', at: 'yesterday-ish' },
    ]);
    assert.equal(res.status, 207);
    const all = await api<{ total: number; byCode: { code: string; count: number }[] }>('/api/v1/admin/dead-letters?from=now-1h&to=now');
    assert.equal(all.total, 3);
    assert.ok(all.byCode.length >= 2, JSON.stringify(all.byCode));
    await page.goto(`${app.url}/dead-letters?from=now-1h&to=now&limit=25`);
    await page.locator('[data-testid="dead-letters-table"]').waitFor();
    assert.equal(await listTotal(), '3 dead letters match');
    // One code: the total is that code's count, the other codes stay offered with theirs.
    const [first] = all.byCode;
    await page.locator('label.flag-toggle', { has: page.locator(`[data-testid="code-${first.code}"]`) }).click();
    await page.waitForURL(new RegExp(`code=${first.code}`));
    await page.waitForFunction(
      (want) => document.querySelector('[data-testid="list-total"]')?.textContent === want,
      `${first.count} ${first.count === 1 ? 'dead letter matches' : 'dead letters match'}`,
    );
    assert.equal(await page.locator('[data-testid="dead-letters-table"] tbody tr').count(), first.count);
    for (const c of all.byCode) assert.equal(await page.locator(`[data-testid="code-${c.code}"]`).count(), 1);
    await page.screenshot({ path: shot('list-totals-dead-letters'), fullPage: true });
  });

  test('alert history: the total counts every matching change (not the newest 200), and follows the kind filter', async () => {
    // Changes of a rule of this test's own, straight into the store (the built-in rules add theirs).
    const now = Date.now();
    const kinds = ['pending', 'cleared', 'pending', 'cleared', 'pending', 'cleared'] as const;
    for (const [i, kind] of kinds.entries())
      await insertAlertTransition(db.sql, {
        id: `tr-list-${i}`,
        ruleId: 'rule-list-totals',
        ruleName: 'List totals rule',
        kind,
        at: now - 60_000 + i * 1000,
        value: 1,
        measure: 'naive_resumes',
        comparison: 'gt',
        threshold: 0,
        windowMs: 300_000,
        server: null,
        series: '',
        sequence: 0,
      });
    await page.goto(`${app.url}/alerts`);
    await page.locator('[data-testid="alert-history"]').waitFor();
    const all = await api<{ total: number; totalCapped: boolean }>('/api/v1/alerts/history');
    assert.ok(all.total >= kinds.length);
    await page.waitForFunction(
      (n) => /^(\d+) state changes? match/.exec(document.querySelector('[data-testid="list-total"]')?.textContent ?? '')?.[1] === String(n),
      all.total,
    );
    await page.locator('label.flag-toggle', { has: page.locator('[data-testid="history-kind-cleared"]') }).click();
    await page.waitForURL(/[?&]kind=cleared/);
    const cleared = await api<{ total: number }>('/api/v1/alerts/history?kind=cleared');
    assert.ok(cleared.total >= 3 && cleared.total < all.total, `${cleared.total} cleared of ${all.total}`);
    await page.waitForFunction(
      (want) => document.querySelector('[data-testid="list-total"]')?.textContent === want,
      `${cleared.total} ${cleared.total === 1 ? 'state change matches' : 'state changes match'}`,
    );
    const shown = await page.locator('[data-testid="alert-history"] tbody tr .chip').allInnerTexts();
    assert.deepEqual([...new Set(shown)], ['cleared']);
    // A reload (or a shared link) keeps the filter.
    await page.reload();
    assert.equal(await page.locator('[data-testid="history-kind-cleared"]').isChecked(), true);
    await page.screenshot({ path: shot('list-totals-alert-history'), fullPage: true });
  });

  test('servers: the list says how many; a probe history says how many runs, beyond the newest shown', async () => {
    const t = Date.now() - 10 * 60_000;
    for (let i = 0; i < 23; i++)
      await insertProbeRun(
        db.sql,
        SERVERS.good.name,
        {
          target: 'http://127.0.0.1:9/mcp',
          startedAt: new Date(t + i * 1000).toISOString(),
          durationMs: 40,
          steps: [],
          classification: { verdict: i % 5 === 0 ? 'fail' : 'pass', steps: [] },
        },
        'schedule',
        `run-list-${i}`,
      );
    await page.goto(`${app.url}/servers`);
    await page.locator(`[data-testid="probe-panel-${SERVERS.good.name}"]`).waitFor();
    assert.equal(await listTotal(), '2 servers');
    // The history shows the newest 20 and says there are 23.
    assert.equal(
      await page.locator(`[data-testid="probe-panel-${SERVERS.good.name}"] [data-testid="probe-run-total"]`).innerText(),
      '23 runs, newest 20 shown',
    );
    const failed = await api<{ total: number; runs: unknown[] }>(`/api/v1/servers/${SERVERS.good.name}/probes?verdict=fail&limit=2`);
    assert.deepEqual([failed.total, failed.runs.length], [5, 2]);
    await page.screenshot({ path: shot('list-totals-servers'), fullPage: true });
  });

  test('no hydration mismatch or other console error', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
