// The overview's charts split by server (URL state, legend, colours, the server filter), and every
// page (overview, sessions, a session, servers, alerts, dead letters, settings, token lookup, login)
// at the widths an operator uses (1920, 1440, 1280, 390; light and dark): no page scrolls sideways,
// the top bar is one row from 1280 px up with a relative and with an absolute range, the alarm wraps at 390 px. Screenshots of each
// land in test-output/screenshots/layout-* for a person to look at.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { signedIn } from '../support/signed-in';
import { SERVERS, TOKENS, launch, seed, serversEnv, shot } from './fixtures';
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
    // One event that fails the contract: the dead-letters page has a row (its payload column is the widest).
    const refused = await postEvents(app.url, SERVERS.good.name, SERVERS.good.secret, [
      { id: 'ev-layout-bad', token: 'tok-layout-bad', type: 'not.a.type', at: new Date().toISOString() },
    ]);
    assert.equal(refused.status, 207);
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

  // An absolute range of this morning's hour (its label is the widest the range button shows on one day).
  const absolute = () => {
    const to = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const from = new Date(to.getTime() - 3600_000);
    return `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
  };
  // Every page of the app (login is checked on its own, signed out).
  const PAGES = [
    { name: 'overview', path: () => '/?from=now-1h&to=now', ready: '[data-testid="chart-boundary"] .recharts-bar-rectangle' },
    { name: 'overview-absolute', path: () => `/?${absolute()}`, ready: '[data-testid="chart-boundary"] .recharts-bar-rectangle' },
    { name: 'sessions', path: () => '/sessions?from=now-1h&to=now', ready: '[data-testid="session-row"]' },
    { name: 'sessions-absolute', path: () => `/sessions?${absolute()}`, ready: '[data-testid="session-row"]' },
    { name: 'session', path: () => `/servers/${SERVERS.naive.name}/sessions/${TOKENS.ongoing}`, ready: '[data-testid="timeline-svg"]' },
    { name: 'servers', path: () => '/servers', ready: `[data-testid="server-row-${SERVERS.good.name}"]` },
    { name: 'alerts', path: () => '/alerts', ready: '[data-testid="alerts"]' },
    { name: 'dead-letters', path: () => '/dead-letters?from=now-1h&to=now', ready: '[data-testid="dead-letters-table"]' },
    { name: 'settings', path: () => '/settings', ready: '[data-testid="operators-table"]' },
    { name: 'token-lookup', path: () => '/tokens/tok-naive', ready: '[data-testid="token-lookup-page"] table' },
  ];

  /** The outermost elements reaching past the right edge (what makes a page scroll sideways). */
  const culpritsPast = (page: Page, width: number): Promise<string[]> =>
    // A string, not a function: the test's transpiler would wrap a nested named function in a helper the page lacks.
    page.evaluate(`(() => {
      const out = [];
      const walk = (el) => {
        if (el.getBoundingClientRect().right > ${width} + 0.5) {
          out.push(el.tagName.toLowerCase() + '.' + [...el.classList].join('.'));
          return;
        }
        if (getComputedStyle(el).overflowX === 'visible') for (const c of el.children) walk(c);
      };
      walk(document.body);
      return out.slice(0, 5);
    })()`);

  test('the top bar is one row, its range whole, at the widths between 1280 and 1440 px, relative and absolute', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
    const problems: string[] = [];
    try {
      const page = await signedIn(context, app.url, consoleErrors);
      // The widest label: an absolute range over two days ("11-30 20:29 → 12-01 09:00").
      const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
      const twoDays = `from=${new Date(today - 86_400_000 + 20 * 3600_000 + 29 * 60_000).toISOString()}&to=${new Date(today + 9 * 3600_000).toISOString()}`;
      for (const query of ['from=now-1h&to=now', absolute(), twoDays]) {
        await page.goto(`${app.url}/sessions?${query}`);
        await page.locator('[data-testid="time-range-button"]').waitFor();
        for (const width of [1280, 1300, 1340, 1366, 1400, 1440, 1920]) {
          await page.setViewportSize({ width, height: 900 });
          const bar = await page.evaluate(() => {
            const spans = [...document.querySelectorAll('header.topbar > *')].map((e) => e.getBoundingClientRect());
            const label = document.querySelector('[data-testid="time-range-button"] .trp-label')!;
            return {
              oneRow: Math.max(...spans.map((r) => r.top)) < Math.min(...spans.map((r) => r.bottom)),
              cut: label.scrollWidth > label.clientWidth + 0.5,
              text: label.textContent,
              wide: document.scrollingElement!.scrollWidth,
            };
          });
          if (!bar.oneRow) problems.push(`${width} px, ${query}: the top bar wraps`);
          if (bar.cut) problems.push(`${width} px, ${query}: the range label "${bar.text}" is cut`);
          if (bar.wide > width) problems.push(`${width} px, ${query}: the page is ${bar.wide} px wide`);
        }
        await page.screenshot({
          path: shot(`layout-topbar-1920-${query === twoDays ? 'two-days' : query.startsWith('from=now') ? 'relative' : 'absolute'}`),
          clip: { x: 0, y: 0, width: 1920, height: 60 },
        });
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  for (const theme of ['light', 'dark'] as const)
    test(`the login page at 390 px, ${theme}: no sideways scroll`, async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: theme, timezoneId: 'UTC' });
      try {
        const page = await context.newPage();
        await page.goto(`${app.url}/login`);
        await page.locator('[data-testid="login-form"]').waitFor();
        await page.screenshot({ path: shot(`layout-login-390-${theme}`), fullPage: true });
        const wide = await page.evaluate(() => document.scrollingElement!.scrollWidth);
        if (wide > 390) assert.fail(`login at 390 px is ${wide} px wide: ${(await culpritsPast(page, 390)).join(', ')}`);
      } finally {
        await context.close();
      }
    });

  for (const theme of ['light', 'dark'] as const)
    for (const width of [1920, 1440, 1280, 390])
      test(`every page at ${width} px, ${theme}: no sideways scroll${width >= 1280 ? ', the top bar on one row' : ''}`, async () => {
        const context = await browser.newContext({
          viewport: { width, height: width === 390 ? 844 : 900 },
          colorScheme: theme,
          timezoneId: 'UTC',
        });
        // Every page is looked at (and shot) before the verdict, so one run lists every problem.
        const problems: string[] = [];
        const check = (ok: boolean, problem: string) => void (ok || problems.push(problem));
        try {
          const page = await signedIn(context, app.url, consoleErrors);
          for (const p of PAGES) {
            await page.goto(`${app.url}${p.path()}`);
            await page.locator(p.ready).first().waitFor();
            assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
            await page.screenshot({ path: shot(`layout-${p.name}-${width}-${theme}`), fullPage: true });
            const wide = await page.evaluate(() => document.scrollingElement!.scrollWidth);
            if (wide > width) check(false, `${p.name} at ${width} px is ${wide} px wide: ${(await culpritsPast(page, width)).join(', ')}`);
            if (width >= 1280) {
              // Every item of the top bar shares one row: their vertical extents all overlap.
              const spans = await page
                .locator('header.topbar > *')
                .evaluateAll((els) => els.map((e) => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]));
              const lowestTop = Math.max(...spans.map(([t]) => t));
              const highestBottom = Math.min(...spans.map(([, b]) => b));
              check(lowestTop < highestBottom, `${p.name} at ${width} px: the top bar wraps (${JSON.stringify(spans)})`);
              // …and the range reads whole (the token lookup gives way first).
              const label = await page
                .locator('[data-testid="time-range-button"] .trp-label')
                .evaluate((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 0.5 }));
              check(!label.cut, `${p.name} at ${width} px: the range label "${label.text}" is cut`);
            }
            if (p.name === 'overview' && width === 390) {
              // The alarm's text wraps inside the alarm, the button below it.
              const alarm = page.locator('[data-testid="ongoing-deadlocks"]');
              const box = (await alarm.boundingBox())!;
              check(box.x >= 0 && box.x + box.width <= width, `alarm spans ${box.x}…${box.x + box.width}`);
              const text = (await alarm.locator('.alarm-text').boundingBox())!;
              check(text.width >= 200, `alarm text is ${text.width} px wide`);
            }
          }
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      });

  test("no console errors on the way but the expected ones (the bad ranges' 400s, the unknown page's 404)", () => {
    assert.deepEqual(
      consoleErrors.filter((e) => !/status of (400|404)/.test(e)),
      [],
    );
  });
});
