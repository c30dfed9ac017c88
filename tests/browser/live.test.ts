// Live by default, in a real browser against the real app: the overview and a session page
// update by themselves after an event is ingested (no reload), an ongoing deadlock's duration
// ticks from one clock (banner, tile, timeline), and the per-server strip names the broken server
// above the fold at 1440×900. Once the app is gone every page goes stale in place: live-stale-*.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { ADMIN_TOKEN, SERVERS, TOKENS, launch, seed, serversEnv, shot } from './fixtures';
import { postEvents } from '../support/post-events';
import { signedIn } from '../support/signed-in';
import { createTestDatabase } from '../support/test-database';

let app: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const tileValue = (p: Page, testId: string) => p.locator(`[data-testid="${testId}"] .tile-value`).innerText();

describe('live', () => {
  before(async () => {
    [app, browser] = await Promise.all([startAppServer({ env: { DOORWATCH_SERVERS: serversEnv() } }), launch()]);
    await seed(app.url);
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
    page = await context.newPage();
    await page.goto(`${app.url}/login`);
    await page.fill('[data-testid="login-token"]', ADMIN_TOKEN);
    await page.click('[data-testid="login-submit"]');
    await page.waitForURL((u) => u.pathname === '/');
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  test('the status strip is above the fold at 1440×900 and the alarm names the broken server', async () => {
    await page.goto(`${app.url}/?from=now-1h&to=now`);
    const strip = page.locator('[data-testid="server-strip"]');
    // A cold first load on a shared, busy machine can take longer than the default wait.
    await strip.waitFor({ timeout: 30_000 });
    const box = (await strip.boundingBox())!;
    assert.ok(box.y + box.height <= 900, `strip ends at ${box.y + box.height}px`);
    // The broken server first.
    assert.equal(await strip.locator('.strip-card').first().getAttribute('data-testid'), `strip-${SERVERS.naive.name}`);
    assert.match(await page.locator(`[data-testid="strip-stuck-${SERVERS.naive.name}"]`).innerText(), /^1 stuck now/);
    assert.match(await page.locator(`[data-testid="strip-seen-${SERVERS.naive.name}"]`).innerText(), /last seen/);
    const headline = await page.locator('[data-testid="alarm-headline"]').innerText();
    assert.equal(headline, `1 session stuck on ${SERVERS.naive.name}`);
    assert.match(await page.locator('[data-testid="alarm-details"]').innerText(), new RegExp(`${SERVERS.naive.name} resumes naively`));
    // The live indicator is on by default (no refresh= in the URL).
    await page.locator('[data-testid="data-age"][data-stream="open"]').waitFor();
    assert.equal(await page.locator('[data-testid="data-age"]').getAttribute('data-tone'), 'fresh');
    await page.screenshot({ path: shot('live-overview-1440') });

    // The server filter narrows the strip.
    await page.goto(`${app.url}/?from=now-1h&to=now&server=${SERVERS.good.name}`);
    await page.locator(`[data-testid="strip-${SERVERS.good.name}"]`).waitFor();
    assert.equal(await page.locator('[data-testid="server-strip"] .strip-card').count(), 1);
  });

  test('the overview updates by itself after an event is ingested (no reload)', async () => {
    await page.goto(`${app.url}/?from=now-1h&to=now`);
    await page.locator('[data-testid="data-age"][data-stream="open"]').waitFor();
    const before = Number(await tileValue(page, 'tile-sessions'));
    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    const t = Date.now() - 30_000;
    const token = `tok-live-${Date.now()}`;
    const res = await postEvents(app.url, SERVERS.good.name, SERVERS.good.secret, [
      { id: `${token}-o`, token, type: 'session.opened', at: new Date(t).toISOString() },
    ]);
    assert.equal(res.status, 200);
    await page.waitForFunction(([sel, n]) => Number(document.querySelector(sel as string)?.textContent) === n, [
      '[data-testid="tile-sessions"] .tile-value',
      before + 1,
    ] as const);
    assert.equal(navigations, 0, 'the page was not reloaded');
  });

  test('a session page updates by itself and its deadlock duration ticks', async () => {
    // The list's ongoing deadlock counts on too (from its answer, not frozen at it).
    await page.goto(`${app.url}/sessions?from=now-1h&to=now`);
    const cell = page.locator(`[data-testid="session-row"][data-token="${TOKENS.ongoing}"] [data-testid="deadlock-chip"]`);
    const listed = await cell.innerText();
    assert.match(listed, /^deadlocked /);
    await page.waitForFunction(([sel, t]) => document.querySelector(sel as string)?.textContent !== t, [
      `[data-testid="session-row"][data-token="${TOKENS.ongoing}"] [data-testid="deadlock-chip"]`,
      listed,
    ] as const);
    await page.goto(`${app.url}/servers/${SERVERS.naive.name}/sessions/${TOKENS.ongoing}`);
    const dur = page.locator('[data-testid="deadlocked-for"]');
    await dur.waitFor();
    const first = await dur.innerText();
    await page.waitForFunction(([sel, text]) => document.querySelector(sel as string)?.textContent !== text, [
      '[data-testid="deadlocked-for"]',
      first,
    ] as const);
    // One clock: the banner, the deadlock tile, the timeline's bracket and its "now" edge show the
    // same instant, read together, and keep doing so as it ticks.
    const read = () =>
      page
        .evaluate(() =>
          // No named helper inside: the page has no esbuild __name.
          [
            '[data-testid="deadlocked-for"]',
            '[data-testid="callout-latency"] .tile-value',
            '[data-testid="deadlock-bracket"] [data-part="bracket"]',
            '[data-part="axis-end"]',
          ].map((sel) => document.querySelector(sel)?.textContent ?? ''),
        )
        .then(([banner, tile, bracket, axisEnd]) => ({ banner, tile, bracket, axisEnd }));
    for (let i = 0; i < 3; i++) {
      const seen = await read();
      assert.ok(seen.banner, JSON.stringify(seen));
      assert.equal(seen.tile, seen.banner, JSON.stringify(seen));
      assert.equal(seen.bracket, `deadlocked for ${seen.banner}`, JSON.stringify(seen));
      assert.match(seen.axisEnd, /^now · /, JSON.stringify(seen));
      if (i < 2)
        await page.waitForFunction((t) => document.querySelector('[data-testid="deadlocked-for"]')?.textContent !== t, seen.banner);
    }
    const axisEnd = (await read()).axisEnd;
    await page.waitForFunction((t) => document.querySelector('[data-part="axis-end"]')?.textContent !== t, axisEnd);
    await page.locator('[data-testid="data-age"][data-stream="open"]').waitFor();
    const rows = await page.locator('[data-testid="event-row"]').count();
    const timelineTop = async () => (await page.locator('#h-timeline').boundingBox())!.y;
    const topBefore = await timelineTop();
    // The client finally gives up: the session times out, and the page shows it without a reload.
    const res = await postEvents(app.url, SERVERS.naive.name, SERVERS.naive.secret, [
      {
        id: `ev-${TOKENS.ongoing}-closed`,
        token: TOKENS.ongoing,
        type: 'session.closed',
        at: new Date(Date.now() - 1000).toISOString(),
        data: { reason: 'gave up' },
      },
    ]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel as string).length > (n as number), [
      '[data-testid="event-row"]',
      rows,
    ] as const);
    // The banner stays, amber and in the past tense, so nothing under it moves when the deadlock ends.
    await page.locator('[data-testid="deadlock-banner"][data-ongoing="false"]').waitFor();
    assert.match(await page.locator('[data-testid="deadlock-banner"] strong').innerText(), /^Was deadlocked for /);
    assert.ok(Math.abs((await timelineTop()) - topBefore) <= 1, `the timeline moved from ${topBefore} to ${await timelineTop()}`);
    await page.screenshot({ path: shot('live-session-1440') });
  });

  test('a page that lost Doorwatch goes live again by itself when it is back, with what happened meanwhile', async () => {
    // While the app is gone the page's queries hold still and only its probe asks (tests/browser/stale-rounds.ts
    // checks that); this is the other half: the probe's first answer lets every query go again.
    const db = await createTestDatabase();
    const env = { DOORWATCH_SERVERS: serversEnv() };
    let gone: AppServer | null = await startAppServer({ databaseUrl: db.url, env });
    let back: AppServer | null = null;
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: 'UTC' });
    try {
      const p = await signedIn(ctx, gone.url);
      await p.goto(`${gone.url}/?from=now-1h&to=now`);
      await p.locator('[data-testid="data-age"][data-stream="open"]').waitFor();
      const before = Number(await tileValue(p, 'tile-sessions'));
      let navigations = 0;
      p.on('framenavigated', () => navigations++);
      const port = gone.port;
      await gone.stop();
      gone = null;
      await p.locator('[data-testid="data-age"][data-stale="true"]').waitFor({ timeout: 15_000 });
      // "Retry now" asks at once, though the queries hold still while the app is gone.
      const asked = p.waitForRequest((r) => new URL(r.url()).pathname === '/api/v1/stats', { timeout: 10_000 });
      await p.click('[data-testid="connection-notice"] button');
      await asked;
      back = await startAppServer({ databaseUrl: db.url, env, port });
      const token = `tok-back-${Date.now()}`;
      const res = await postEvents(back.url, SERVERS.good.name, SERVERS.good.secret, [
        { id: `${token}-o`, token, type: 'session.opened', at: new Date(Date.now() - 5_000).toISOString() },
      ]);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await p.locator('[data-testid="data-age"][data-stale="false"][data-stream="open"]').waitFor({ timeout: 30_000 });
      await p.waitForFunction(([sel, n]) => Number(document.querySelector(sel as string)?.textContent) === n, [
        '[data-testid="tile-sessions"] .tile-value',
        before + 1,
      ] as const);
      assert.equal(navigations, 0, 'the page was not reloaded');
    } finally {
      await ctx.close();
      await gone?.stop();
      await back?.stop();
      await db.drop();
    }
  });
});
