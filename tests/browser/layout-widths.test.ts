// Every page (overview, sessions, a session, servers, alerts, dead letters, settings, token lookup,
// login) at the widths an operator uses (1920, 1440, 1280, 390; light and dark): no page scrolls
// sideways; no text is cut without an ellipsis and a title; a table column out of view has a cue;
// panel heads and the top bar are one row from 1280 px up (with a relative and an absolute range);
// on a phone the top bar is two rows with every control reachable; charts keep no empty right
// gutter; names are not broken at a hyphen (layout-checks.ts says how each is measured). Screenshots
// land in test-output/screenshots/layout-* for a person to look at.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { signedIn } from '../support/signed-in';
import { SERVERS, TOKENS, launch, seed, serversEnv, shot } from './fixtures';
import { postEvents } from '../support/post-events';
import { culpritsPast, settledLayoutProblems, topBarRows } from './layout-checks';

let app: AppServer;
let browser: Browser;
const consoleErrors: string[] = [];

describe('layout at every width', () => {
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
      test(`every page at ${width} px, ${theme}: no sideways scroll, nothing cut or hidden without a cue, ${width >= 1280 ? 'the top bar and panel heads on one row' : 'the top bar in two rows'}`, async () => {
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
            // Cut text, columns out of view without a cue, panel heads on two lines (from 1280 px), empty
            // chart gutters, inline code on a line of its own, a name broken at its hyphen.
            for (const problem of await settledLayoutProblems(page, { headsOneLine: width >= 1280 }))
              check(false, `${p.name} at ${width} px: ${problem}`);
            if (width === 390) {
              const rows = await topBarRows(page);
              check(rows <= 2, `${p.name} at 390 px: the top bar takes ${rows} rows`);
            }
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

  for (const theme of ['light', 'dark'] as const)
    test(`the top bar at 390 px, ${theme}: every control reachable, from the row or from "⋯"`, async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: theme, timezoneId: 'UTC' });
      try {
        const page = await signedIn(context, app.url, consoleErrors);
        await page.goto(`${app.url}/?from=now-1h&to=now`);
        await page.locator('[data-testid="server-strip"]').waitFor();
        const controls = ['tz-toggle', 'theme-toggle', 'sign-out', 'token-lookup', 'time-range-button', 'refresh-select'];
        const shown = async () => {
          const out: string[] = [];
          for (const id of controls) if (await page.locator(`[data-testid="${id}"]`).isVisible()) out.push(id);
          if (await page.getByRole('button', { name: 'Keyboard shortcuts' }).isVisible()) out.push('shortcuts');
          return out;
        };
        const before = await shown();
        await page.click('[data-testid="more-toggle"]');
        await page.locator('[data-testid="sign-out"]').waitFor();
        await page.screenshot({ path: shot(`layout-topbar-390-${theme}-more`), clip: { x: 0, y: 0, width: 390, height: 160 } });
        const reachable = new Set([...before, ...(await shown())]);
        assert.deepEqual(
          [...controls, 'shortcuts'].filter((c) => !reachable.has(c)),
          [],
        );
        // The nav links stay in the first two rows, each one reachable by scrolling its row.
        assert.ok((await topBarRows(page)) <= 2);
        // Escape closes the menu.
        await page.keyboard.press('Escape');
        await page.locator('[data-testid="sign-out"]').waitFor({ state: 'hidden' });
        // The current section is scrolled into its row, the last one too.
        await page.goto(`${app.url}/settings`);
        await page.locator('[data-testid="operators-table"]').waitFor();
        const inView = await page.evaluate(() => {
          const nav = document.querySelector('header.topbar .nav')!.getBoundingClientRect();
          const active = document.querySelector('header.topbar .nav-link.active')!.getBoundingClientRect();
          return active.left >= nav.left - 1 && active.right <= nav.right + 1;
        });
        assert.ok(inView, 'the Settings link is in view in the scrolled section row');
      } finally {
        await context.close();
      }
    });

  test('no console errors on the way but the expected ones', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
