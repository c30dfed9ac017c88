// The top bar at the widths an operator uses (issue 27): one row and no control over another at every width
// from 1280 to 1920 px (relative, absolute and two-day ranges), the range label whole unless the token lookup
// has given all its room first (then it ellipsizes, its title whole), and on a phone two rows with every
// control reachable from the row or from "⋯"; between the two (701-1279 px) two rows, the tools under "⋯" below
// 900 px. Every page at every width (layout and readability) is page-sweep.ts' (pages-light, pages-dark).
// Screenshots land in test-output/screenshots/layout-topbar-*.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { signedIn } from '../support/signed-in';
import { SERVERS, launch, seed, serversEnv, shot } from './fixtures';
import { postEvents } from '../support/post-events';
import { layoutProblems, rangeLabelProblems, rangeLabelState, topBarRows } from './layout-checks';

let app: AppServer;
let browser: Browser;
const consoleErrors: string[] = [];

describe('the top bar at every width', () => {
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
  test('the top bar is one row, no control over another, its range whole or giving way last, 1280-1920 px, relative and absolute', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
    const problems: string[] = [];
    const cutAt: string[] = [];
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
            return {
              oneRow: Math.max(...spans.map((r) => r.top)) < Math.min(...spans.map((r) => r.bottom)),
              wide: document.scrollingElement!.scrollWidth,
            };
          });
          const label = await rangeLabelState(page);
          if (!bar.oneRow) problems.push(`${width} px, ${query}: the top bar wraps`);
          problems.push(...(await rangeLabelProblems(page)).map((p) => `${width} px, ${query}: ${p}`));
          if (label.cut) cutAt.push(`${width} px ${query}`);
          if (bar.wide > width) problems.push(`${width} px, ${query}: the page is ${bar.wide} px wide`);
          // Whole and in one row, yet drawn over a neighbour, is not in place either.
          for (const p of await layoutProblems(page, { headsOneLine: false }))
            if (p.startsWith('top bar')) problems.push(`${width} px, ${query}: ${p}`);
        }
        await page.screenshot({
          path: shot(`layout-topbar-1920-${query === twoDays ? 'two-days' : query.startsWith('from=now') ? 'relative' : 'absolute'}`),
          clip: { x: 0, y: 0, width: 1920, height: 60 },
        });
      }
      assert.deepEqual(problems, []);
      // Where the label had to give way (the lookup spent, the live state's text as long as it happened to be).
      if (cutAt.length) console.log(`# range label ellipsized at: ${cutAt.join('; ')}`);
    } finally {
      await context.close();
    }
  });

  test('between phone and desktop (701-1279 px): two rows, no control over another or past the edge, every control reachable', async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 }, colorScheme: 'dark', timezoneId: 'UTC' });
    const problems: string[] = [];
    try {
      const page = await signedIn(context, app.url, consoleErrors);
      const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
      const twoDays = `from=${new Date(today - 86_400_000 + 20 * 3600_000 + 29 * 60_000).toISOString()}&to=${new Date(today + 9 * 3600_000).toISOString()}`;
      const controls = ['tz-toggle', 'theme-toggle', 'sign-out', 'token-lookup', 'time-range-button', 'refresh-select'];
      for (const query of ['from=now-1h&to=now', twoDays]) {
        await page.goto(`${app.url}/sessions?${query}`);
        await page.locator('[data-testid="time-range-button"]').waitFor();
        for (const width of [701, 768, 820, 899, 900, 1024, 1100, 1279]) {
          await page.setViewportSize({ width, height: 800 });
          const at = `${width} px, ${query.startsWith('from=now') ? 'relative' : 'two days'}`;
          const rows = await topBarRows(page);
          if (rows > 2) problems.push(`${at}: the top bar has ${rows} rows`);
          const wide = await page.evaluate(() => document.scrollingElement!.scrollWidth);
          if (wide > width) problems.push(`${at}: the page is ${wide} px wide`);
          for (const p of await layoutProblems(page, { headsOneLine: false })) if (p.startsWith('top bar')) problems.push(`${at}: ${p}`);
          // Each control in view, or (below 900 px) under "⋯"; none cut by the window's edge.
          const hidden: string[] = [];
          for (const id of controls) {
            const el = page.locator(`[data-testid="${id}"]`);
            if (!(await el.isVisible())) hidden.push(id);
            else if ((await el.boundingBox())!.x + (await el.boundingBox())!.width > width + 0.5)
              problems.push(`${at}: ${id} past the edge`);
          }
          if (hidden.length && width >= 900) problems.push(`${at}: ${hidden.join(', ')} not shown`);
          if (hidden.length && width < 900) {
            await page.click('[data-testid="more-toggle"]');
            for (const id of hidden)
              if (!(await page.locator(`[data-testid="${id}"]`).isVisible())) problems.push(`${at}: ${id} unreachable`);
            await page.keyboard.press('Escape');
          }
        }
      }
      await page.setViewportSize({ width: 1024, height: 800 });
      await page.screenshot({ path: shot('layout-topbar-1024-dark-two-days'), clip: { x: 0, y: 0, width: 1024, height: 100 } });
      await page.setViewportSize({ width: 768, height: 800 });
      await page.screenshot({ path: shot('layout-topbar-768-dark-two-days'), clip: { x: 0, y: 0, width: 768, height: 100 } });
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
        // The row starts at Overview: only its right end hides sections, and only it is faded.
        const edges = () => page.evaluate(() => document.querySelector<HTMLElement>('header.topbar .nav')!.dataset.hiddenEdges);
        const fadeUntil = (want: string) =>
          page.waitForFunction((w) => document.querySelector<HTMLElement>('header.topbar .nav')!.dataset.hiddenEdges === w, want);
        await fadeUntil('end');
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
        // Scrolled to its end: the sections cut at the left are faded there, the last one is not.
        await fadeUntil('start');
        await page.screenshot({ path: shot(`layout-topbar-390-${theme}-scrolled`), clip: { x: 0, y: 0, width: 390, height: 120 } });
        // (Computed, "to left" reads as 270deg.)
        const masks = await page.evaluate(() => getComputedStyle(document.querySelector('header.topbar .nav')!).maskImage);
        assert.match(masks, /^linear-gradient\(270deg/, `the row's left end fades: ${masks}`);
        // Between the ends, both fade; the attribute follows the row's own scrolling.
        await page.evaluate(() => {
          const nav = document.querySelector<HTMLElement>('header.topbar .nav')!;
          nav.scrollLeft = (nav.scrollWidth - nav.clientWidth) / 2;
        });
        await fadeUntil('both');
        assert.equal(await edges(), 'both');
      } finally {
        await context.close();
      }
    });

  test('no console errors on the way but the expected ones', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
