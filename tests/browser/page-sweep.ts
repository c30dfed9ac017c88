// The every-page sweep (issue 27): each page of the app (and login, signed out) at the widths an operator
// uses (1920, 1440, 1280, 390, and 1024 or 768) in one theme per test file (pages-light, pages-dark: the two
// run side by side). Each page is loaded once per width and judged for both
// - layout (layout-checks.ts): no sideways scroll; no text cut without an ellipsis and a title; a table
//   column out of view has a cue; panel heads and the top bar on one row from 1280 px up, the top bar in
//   at most two rows below; no empty chart gutter; no name broken at its hyphen;
// - readability (readability-checks.ts): AA contrast (axe, SVG text, text on gradients), named controls,
//   no words run together.
// Every page is looked at (and shot, test-output/screenshots/pages-*) before the verdict, so one run
// lists every problem. One load for both checks: they were two files loading the same pages.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { incidentPath } from '@/lib/incidents/incident-kind';
import { TEST_ADMIN_TOKEN, type AppServer } from '../support/app-server';
import { call } from '../support/http';
import { signedIn } from '../support/signed-in';
import { SERVERS, TOKENS, shot } from './fixtures';
import { culpritsPast, rangeLabelProblems, settledLayoutProblems, topBarRows } from './layout-checks';
import { startPopulatedApp, type PopulatedApp } from './populated-app';
import { readabilityProblems } from './readability-checks';

/**
 * Each theme's widths: the desktop ones and the phone in both, and one between in each (1024 px is the top bar's
 * two rows with the whole toolbar, 768 the phone's rows above a desktop page), so the band between phone and
 * desktop, once drawn past the window's edge, is swept too without a fifth width in both files.
 */
const WIDTHS = { light: [1920, 1440, 1280, 1024, 390], dark: [1920, 1440, 1280, 768, 390] } as const;

// An absolute range of the last hour, minute-aligned (its label is the widest the range button shows on one day).
const absolute = () => {
  const to = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const from = new Date(to.getTime() - 3600_000);
  return `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
};

interface SweptPage {
  name: string;
  path: (appUrl: string) => string | Promise<string>;
  ready: string;
  /** Also judged for readability (the absolute-range variants only differ in the top bar's label). */
  readable: boolean;
}

const PAGES: SweptPage[] = [
  { name: 'overview', path: () => '/?from=now-1h&to=now', ready: '[data-testid="chart-boundary"] .recharts-bar-rectangle', readable: true },
  {
    name: 'overview-absolute',
    path: () => `/?${absolute()}`,
    ready: '[data-testid="chart-boundary"] .recharts-bar-rectangle',
    readable: false,
  },
  { name: 'sessions', path: () => '/sessions?from=now-1h&to=now', ready: '[data-testid="session-row"]', readable: true },
  { name: 'sessions-absolute', path: () => `/sessions?${absolute()}`, ready: '[data-testid="session-row"]', readable: false },
  {
    name: 'session-ongoing',
    path: () => `/servers/${SERVERS.naive.name}/sessions/${TOKENS.ongoing}`,
    ready: '[data-testid="timeline-svg"]',
    readable: true,
  },
  {
    name: 'session-deadlock',
    path: () => `/servers/${SERVERS.naive.name}/sessions/${TOKENS.deadlock}`,
    ready: '[data-testid="timeline-svg"]',
    readable: true,
  },
  { name: 'servers', path: () => '/servers', ready: `[data-testid="server-row-${SERVERS.good.name}"]`, readable: true },
  { name: 'alerts', path: () => '/alerts', ready: '[data-testid="firing-alerts"]', readable: true },
  { name: 'incidents', path: () => '/incidents', ready: '[data-testid="incident-row"]', readable: true },
  // After the list: by then its row has shown that an incident is open.
  { name: 'incident', path: firstIncidentPath, ready: '[data-testid="incident-timeline"] li', readable: true },
  { name: 'dead-letters', path: () => '/dead-letters?from=now-1h&to=now', ready: '[data-testid="dead-letters-table"]', readable: true },
  { name: 'settings', path: () => '/settings', ready: '[data-testid="operators-table"]', readable: true },
  { name: 'token-lookup', path: () => '/tokens/tok-naive', ready: '[data-testid="token-lookup-page"] table', readable: true },
];

/** The newest incident's page (the sweep signs in as an admin: its actions panel is shown). */
async function firstIncidentPath(appUrl: string): Promise<string> {
  const r = await call(appUrl, '/api/v1/incidents?limit=1', { token: TEST_ADMIN_TOKEN });
  const id = (r.body as { incidents?: { id: string }[] }).incidents?.[0]?.id;
  assert.ok(id, `an incident to show: ${r.status} ${r.text.slice(0, 200)}`);
  return incidentPath(id);
}

/** Layout problems of a page at `width` beyond layout-checks.ts' general ones: the top bar's rows and range label. */
async function topBarProblems(page: Page, width: number): Promise<string[]> {
  if (width < 1280) {
    const rows = await topBarRows(page);
    return rows <= 2 ? [] : [`the top bar takes ${rows} rows`];
  }
  const out: string[] = [];
  // Every item of the top bar shares one row: their vertical extents all overlap.
  const spans = await page
    .locator('header.topbar > *')
    .evaluateAll((els) => els.map((e) => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]));
  if (Math.max(...spans.map(([t]) => t)) >= Math.min(...spans.map(([, b]) => b))) out.push(`the top bar wraps (${JSON.stringify(spans)})`);
  // …and the range reads whole, unless the token lookup has given all its room first (then it ellipsizes, titled).
  out.push(...(await rangeLabelProblems(page)));
  return out;
}

/** On a phone the alarm's text wraps inside the alarm, its button below it. */
async function alarmProblems(page: Page, width: number): Promise<string[]> {
  const box = (await page.locator('[data-testid="ongoing-deadlocks"]').boundingBox())!;
  const text = (await page.locator('[data-testid="ongoing-deadlocks"] .alarm-text').boundingBox())!;
  return [
    ...(box.x >= 0 && box.x + box.width <= width ? [] : [`alarm spans ${box.x}…${box.x + box.width}`]),
    ...(text.width >= 200 ? [] : [`alarm text is ${text.width} px wide`]),
  ];
}

/** What is wrong with the page now at `width`: sideways scroll, layout, and (when asked) readability. */
async function pageProblems(page: Page, width: number, o: { readable: boolean; topBar: boolean }): Promise<string[]> {
  const out: string[] = [];
  const wide = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  if (wide > width) out.push(`${wide} px wide: ${(await culpritsPast(page, width)).join(', ')}`);
  out.push(...(await settledLayoutProblems(page, { headsOneLine: width >= 1280 })));
  if (o.topBar) out.push(...(await topBarProblems(page, width)));
  if (o.readable) out.push(...(await readabilityProblems(page)));
  return out;
}

/** Defines this theme's sweep: one app, seeded, and a test per width. */
export function sweepEveryPage(theme: 'light' | 'dark'): void {
  let app: AppServer;
  let browser: Browser;
  let populated: PopulatedApp | undefined;
  const consoleErrors: string[] = [];

  describe(`every page in the ${theme} theme`, () => {
    before(async () => {
      populated = await startPopulatedApp();
      ({ app, browser } = populated);
    });

    after(async () => {
      await populated?.close();
    });

    for (const width of WIDTHS[theme])
      test(`at ${width} px: no sideways scroll, nothing cut or hidden without a cue, ${width >= 1280 ? 'one-row heads and top bar' : 'a two-row top bar'}, AA contrast, named controls, no words run together`, async () => {
        const context = await browser.newContext({
          viewport: { width, height: width === 390 ? 844 : 900 },
          colorScheme: theme,
          timezoneId: 'UTC',
        });
        const problems: string[] = [];
        try {
          const login = await context.newPage();
          await login.goto(`${app.url}/login`);
          await login.locator('[data-testid="login-form"]').waitFor();
          await login.screenshot({ path: shot(`pages-login-${width}-${theme}`), fullPage: true });
          problems.push(...(await pageProblems(login, width, { readable: true, topBar: false })).map((x) => `login: ${x}`));
          await login.close();

          const page = await signedIn(context, app.url, consoleErrors);
          for (const p of PAGES) {
            await page.goto(`${app.url}${await p.path(app.url)}`);
            await page.locator(p.ready).first().waitFor();
            // Wait out a refetch's dimmed placeholder, and every panel still loading (the ready element is one
            // panel's: the alerts page was judged with its contact points and history still "Loading…").
            await page.waitForFunction(() => document.querySelector('.stale, .skeleton, [data-testid="loading-state"]') === null);
            assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
            await page.screenshot({ path: shot(`pages-${p.name}-${width}-${theme}`), fullPage: true });
            problems.push(...(await pageProblems(page, width, { readable: p.readable, topBar: true })).map((x) => `${p.name}: ${x}`));
            if (p.name === 'overview' && width === 390) problems.push(...(await alarmProblems(page, width)).map((x) => `${p.name}: ${x}`));
          }
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      });

    test('the readability checks find planted offenders (so a clean sweep means something)', async () => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: theme });
      try {
        const page = await context.newPage();
        await page.goto(`${app.url}/login`);
        await page.locator('[data-testid="login-form"]').waitFor();
        await page.evaluate(() => {
          // On white whatever the theme (the SVG check reads the background of the text's CSS ancestors).
          const planted = document.createElement('div');
          planted.style.background = '#fff';
          planted.innerHTML =
            '<p style="color:#bbb;background:#fff">faint words</p><button></button>' +
            '<svg width="200" height="40"><rect width="200" height="40" fill="#fff"/><text x="4" y="20" fill="#ccc">faint svg</text></svg>' +
            // 4.94:1 on the white, 4.16:1 on the stripes: the stale page's hatching as it was.
            '<p style="color:#68717d;background:#fff repeating-linear-gradient(135deg, transparent 0 9px, #e8ecf0 9px 11px)">striped words</p>';
          document.querySelector('main, body')!.prepend(planted);
        });
        const found = await readabilityProblems(page);
        for (const kind of [/^color-contrast: /, /^button-name: /, /^svg text "faint svg"/, /^text on a gradient "striped words"/])
          assert.ok(
            found.some((x) => kind.test(x)),
            `${kind} not found in ${JSON.stringify(found)}`,
          );
      } finally {
        await context.close();
      }
    });

    test('no console errors on the way', () => {
      assert.deepEqual(consoleErrors, []);
    });
  });
}
