// The overview's charts split by server (URL state, legend, colours, the server filter), a bad range
// and an unknown page, a crowded timeline at 1280 and 390 px. Every page at every width is the
// every-page sweep's (page-sweep.ts). Screenshots land in test-output/screenshots/layout-* for a person to look at.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { signedIn } from '../support/signed-in';
import { SERVERS, launch, seed, serversEnv, shot } from './fixtures';
import { postEvents } from '../support/post-events';

let app: AppServer;
let browser: Browser;
const consoleErrors: string[] = [];

const legendOf = (page: Page, chart: string) =>
  page
    .locator(`[data-testid="legend-${chart}"] [data-testid="legend-item"]`)
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-series')));

describe('layout', () => {
  before(async () => {
    [app, browser] = await Promise.all([startAppServer({ env: { DOORWATCH_SERVERS: serversEnv() } }), launch()]);
    await seed(app.url);
  });

  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  test('charts split by server: one series per server in the legend, kept in the URL and across a reload, under the server filter', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
    try {
      const page = await signedIn(context, app.url, consoleErrors);
      await page.goto(`${app.url}/?from=now-1h&to=now`);
      await page.locator('[data-testid="chart-boundary"] .recharts-bar-rectangle').first().waitFor();
      // By outcome first.
      assert.deepEqual(await legendOf(page, 'chart-boundary'), ['Refused (correct)', 'Naive resume', 'Unanswered']);
      assert.equal(await page.locator('[data-testid="split-toggle"]').getAttribute('aria-pressed'), 'false');

      await page.click('[data-testid="split-toggle"]');
      await page.waitForURL(/[?&]split=server/);
      await page.locator('[data-testid="chart-boundary"][aria-label$="split by server"]').waitFor();
      // mcp-naive has 3 boundary entries, mcp-good 1: most first.
      assert.deepEqual(await legendOf(page, 'chart-boundary'), [SERVERS.naive.name, SERVERS.good.name]);
      // Deadlocks only on mcp-naive; the one renegotiation on mcp-good.
      assert.deepEqual(await legendOf(page, 'chart-deadlocks'), [SERVERS.naive.name]);
      assert.deepEqual(await legendOf(page, 'chart-renegotiations'), [SERVERS.good.name]);
      assert.equal(await page.locator('[data-testid="split-toggle"]').getAttribute('aria-pressed'), 'true');
      // One colour per server, the same in every chart.
      const swatch = (chart: string, server: string) =>
        page
          .locator(`[data-testid="legend-${chart}"] [data-series="${server}"] .swatch`)
          .evaluate((e) => getComputedStyle(e).backgroundColor);
      const naiveColour = await swatch('chart-boundary', SERVERS.naive.name);
      assert.notEqual(naiveColour, await swatch('chart-boundary', SERVERS.good.name));
      assert.equal(await swatch('chart-deadlocks', SERVERS.naive.name), naiveColour);
      const fills = await page
        .locator('[data-testid="chart-boundary"] .recharts-bar-rectangle path')
        .evaluateAll((els) => [...new Set(els.map((e) => getComputedStyle(e).fill))]);
      assert.equal(fills.length, 2, `bar colours ${fills.join(', ')}`);
      await page.screenshot({ path: shot('layout-split-1440-light'), fullPage: true });

      // A reload (or a copied link) keeps it.
      await page.reload();
      await page.locator('[data-testid="chart-boundary"][aria-label$="split by server"]').waitFor();
      assert.deepEqual(await legendOf(page, 'chart-boundary'), [SERVERS.naive.name, SERVERS.good.name]);

      // The server filter narrows the split to that server, and the split survives the filter change.
      await page.selectOption('[data-testid="overview-server-filter"]', SERVERS.good.name);
      await page.waitForURL(new RegExp(`server=${SERVERS.good.name}`));
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="legend-chart-boundary"] [data-testid="legend-item"]').length === 1,
      );
      assert.deepEqual(await legendOf(page, 'chart-boundary'), [SERVERS.good.name]);
      assert.match(page.url(), /split=server/);

      // A bar drills into that server's sessions of the bucket.
      await page.locator('[data-testid="chart-boundary"] .recharts-bar-rectangle').first().click();
      await page.waitForURL(/\/sessions\?/);
      const url = new URL(page.url());
      assert.equal(url.searchParams.get('server'), SERVERS.good.name);
      assert.equal(url.searchParams.get('flag'), 'boundary');

      // Off again: back to outcomes, the parameter gone.
      await page.goto(`${app.url}/?from=now-1h&to=now&split=server`);
      await page.locator('[data-testid="chart-boundary"][aria-label$="split by server"]').waitFor();
      await page.click('[data-testid="split-toggle"]');
      await page.waitForURL((u) => !u.searchParams.has('split'));
      // The URL changes before React commits the render it causes: wait for the chart to say it
      // is no longer split before reading its legend.
      await page.locator('[data-testid="chart-boundary"]:not([aria-label$="split by server"])').waitFor();
      assert.deepEqual(await legendOf(page, 'chart-boundary'), ['Refused (correct)', 'Naive resume', 'Unanswered']);
    } finally {
      await context.close();
    }
  });

  test('a bad range offers a way back, an unknown page stays in the shell and theme, latencies under 1 ms read "<1 ms"', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark', timezoneId: 'UTC' });
    try {
      const page = await signedIn(context, app.url, consoleErrors);
      // Not a time, and an inverted range: the message says what is wrong, one click fixes it (no Retry).
      for (const bad of ['from=banana', 'from=now-5m&to=now-1h']) {
        await page.goto(`${app.url}/?${bad}&server=${SERVERS.naive.name}`);
        const error = page.locator('[data-testid="error-state"]');
        await error.waitFor();
        assert.match(await error.innerText(), bad.startsWith('from=banana') ? /from="banana" is not a time/ : /must be before/);
        assert.equal(await error.locator('button', { hasText: 'Retry' }).count(), 0);
        await page.click('[data-testid="reset-range"]');
        await page.waitForURL((u) => !u.searchParams.has('from') && !u.searchParams.has('to'));
        // The other state (the server filter) is kept.
        assert.equal(new URL(page.url()).searchParams.get('server'), SERVERS.naive.name);
        await page.locator('[data-testid="server-strip"]').waitFor();
      }
      // The picker refuses an inverted range inline, the URL stays as it was.
      await page.goto(`${app.url}/?from=now-1h&to=now`);
      await page.locator('[data-testid="server-strip"]').waitFor();
      await page.click('[data-testid="time-range-button"]');
      await page.fill('[data-testid="range-from"]', 'now-5m');
      await page.fill('[data-testid="range-to"]', 'now-1h');
      await page.click('[data-testid="range-apply"]');
      assert.match(await page.locator('.trp-abs .form-error').innerText(), /must be before/);
      assert.equal(new URL(page.url()).searchParams.get('from'), 'now-1h');
      await page.keyboard.press('Escape');

      // An unknown server says so, on the overview and on a session page.
      await page.goto(`${app.url}/?from=now-1h&to=now&server=mcp-nope`);
      assert.match(await page.locator('[data-testid="unknown-server-notice"]').innerText(), /There is no server mcp-nope/);
      await page.goto(`${app.url}/servers/mcp-nope/sessions/tok-x`);
      await page.locator('[data-testid="empty-state"]').waitFor();
      assert.match(await page.locator('[data-testid="empty-state"]').innerText(), /There is no server mcp-nope/);
      await page.goto(`${app.url}/servers/${SERVERS.good.name}/sessions/tok-x`);
      await page.locator('[data-testid="empty-state"]').waitFor();
      assert.match(await page.locator('[data-testid="empty-state"]').innerText(), /No session tok-x on mcp-good/);

      // An unknown route: inside the app shell, in the current (dark) theme.
      await page.goto(`${app.url}/no/such/page`);
      await page.locator('[data-testid="not-found"]').waitFor();
      assert.equal(await page.locator('header.topbar').count(), 1);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
      await page.screenshot({ path: shot('layout-not-found-1440-dark') });

      // The refusal-latency empty state says what is measured, not a promise of "about 50 ms".
      await page.goto(`${app.url}/?from=now-1h&to=now&server=${SERVERS.naive.name}`);
      const empty = page.locator('[data-testid="refusal-latency-empty"]');
      await empty.waitFor();
      assert.match(await empty.innerText(), /resume\.requested to its resume\.refused/);
      assert.doesNotMatch(await empty.innerText(), /in about 50 ms\./);

      // A refusal written in the same millisecond as its request reads "<1 ms", not "0 ms".
      const t = Date.now() - 60_000;
      const token = 'tok-sub-ms-0006';
      const events = [
        ['session.opened', 0, undefined],
        ['upgrade.accepted', 10, { eventId: 2 }],
        ['stream.dropped', 20, undefined],
        ['resume.requested', 30, { lastEventId: 2 }],
        ['resume.refused', 30, { reason: 'session-superseded' }],
      ].map(([type, dt, data], i) => ({
        id: `ev-${token}-${i}`,
        token,
        type,
        at: new Date(t + (dt as number)).toISOString(),
        ...(data ? { data } : {}),
      }));
      assert.equal((await postEvents(app.url, SERVERS.good.name, SERVERS.good.secret, events)).status, 200);
      await page.goto(`${app.url}/sessions?from=now-1h&to=now&flag=refused`);
      const row = page.locator(`[data-testid="session-row"][data-token="${token}"]`);
      await row.waitFor();
      assert.match(await row.innerText(), /refused in <1 ms/);
      await page.goto(`${app.url}/servers/${SERVERS.good.name}/sessions/${token}`);
      assert.match((await page.locator('[data-testid="refusal-bracket"]').textContent()) ?? '', /refused in <1 ms/);
    } finally {
      await context.close();
    }
  });

  test('a crowded timeline: labels never overlap in either spacing, at 1280 and 390 px; only the naive answer is red; one numbering', async () => {
    // Two ordinary resumes before the door, then the naive one, all within about a second.
    const token = 'tok-crowded-0007';
    const t = Date.now() - 10 * 60_000;
    const steps: [string, number, Record<string, unknown>?][] = [
      ['session.opened', 0],
      ['stream.dropped', 100],
      ['resume.requested', 150, { lastEventId: 3 }],
      ['resume.accepted', 160, { replayed: 1 }],
      ['stream.dropped', 400],
      ['resume.requested', 450, { lastEventId: 5 }],
      ['resume.accepted', 460, { replayed: 0 }],
      ['upgrade.accepted', 1000, { eventId: 12 }],
      ['stream.dropped', 1050],
      ['resume.requested', 1100, { lastEventId: 12 }],
      ['resume.accepted', 1110, { replayed: 0 }],
      ['session.timeout', 301_110, { idleMs: 300_000 }],
    ];
    const events = steps.map(([type, dt, data], i) => ({
      id: `ev-${token}-${i}`,
      token,
      type,
      at: new Date(t + dt).toISOString(),
      ...(data ? { data } : {}),
    }));
    assert.equal((await postEvents(app.url, SERVERS.naive.name, SERVERS.naive.secret, events)).status, 200);
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
      try {
        const page = await signedIn(context, app.url, consoleErrors);
        await page.goto(`${app.url}/servers/${SERVERS.naive.name}/sessions/${token}`);
        await page.locator('[data-testid="timeline-svg"]').waitFor();
        for (const spacing of ['time', 'sequence']) {
          await page.selectOption('[data-testid="spacing-select"]', spacing);
          await page.waitForFunction(
            (want) =>
              document.querySelector('[data-testid="spacing-select"]') instanceof HTMLSelectElement &&
              (document.querySelector('[data-testid="spacing-select"]') as HTMLSelectElement).value === want,
            spacing,
            { polling: 100 },
          );
          const boxes = await page
            .locator(
              '[data-testid="timeline-svg"] [data-testid="timeline-label"], [data-testid="timeline-svg"] [data-testid="timeline-gap"]',
            )
            .evaluateAll((els) =>
              els.map((e) => {
                const r = e.getBoundingClientRect();
                return { text: e.textContent ?? '', l: r.left, r: r.right, t: r.top, b: r.bottom };
              }),
            );
          await page.screenshot({ path: shot(`layout-timeline-${width}-${spacing}`), fullPage: true });
          const svg = (await page.locator('[data-testid="timeline-svg"]').boundingBox())!;
          for (const [i, a] of boxes.entries()) {
            assert.ok(
              a.l >= svg.x - 0.5 && a.r <= svg.x + svg.width + 0.5,
              `${width} px, ${spacing}: "${a.text}" (${a.l}…${a.r}) leaves the chart (${svg.x}…${svg.x + svg.width})`,
            );
            for (const b of boxes.slice(i + 1)) {
              const overlap = a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5;
              assert.ok(!overlap, `${width} px, ${spacing}: "${a.text}" overlaps "${b.text}"`);
            }
          }
          // The important labels are all there.
          const texts = boxes.map((b) => b.text);
          for (const want of ['upgrade.accepted', 'boundary entry', 'naive resume'])
            assert.ok(texts.includes(want), `${width} px, ${spacing}: no "${want}" in ${texts.join(' | ')}`);
        }
        assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= width);

        // Only the resume that answered the boundary naively is red, in the table and on the chart.
        const red = await page.locator('[data-testid="event-row"] .chip.bad').allInnerTexts();
        assert.deepEqual(red, ['resume.accepted']);
        const rows = page.locator('[data-testid="event-row"]');
        assert.equal(await rows.nth(10).locator('.chip.bad').count(), 1);
        const naiveDots = await page
          .locator('[data-testid="timeline-svg"] circle.ev-dot')
          .evaluateAll((els) => els.filter((e) => e.getAttribute('fill') === '#c4302b').length);
        assert.equal(naiveDots, 1);

        // One numbering: the door on the chart carries the table's # and the SSE id, the table says the same.
        const note = await page
          .locator('[data-testid="timeline-svg"] [data-testid="timeline-label"]', { hasText: 'the door' })
          .textContent();
        const m = /the door · #(\d+) · SSE id 12/.exec(note ?? '');
        assert.ok(m, note ?? '');
        const doorRow = rows.filter({ hasText: 'the door' });
        assert.equal((await doorRow.locator('td').first().innerText()).trim(), m[1]);
        assert.match(await doorRow.innerText(), /SSE id 12/);
        assert.match(await page.locator('[data-testid="event-table"] th', { hasText: '+Δ' }).innerText(), /since first/i);
      } finally {
        await context.close();
      }
    }
  });

  test("no console errors on the way but the expected ones (the bad ranges' 400s, the unknown page's 404)", () => {
    assert.deepEqual(
      consoleErrors.filter((e) => !/status of (400|404)/.test(e)),
      [],
    );
  });
});
