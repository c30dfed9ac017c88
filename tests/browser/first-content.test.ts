// First content comes with the page: a cold overview, session page, sessions list and server list hold their first data
// in the server's HTML (rendered from the same API reads, hydrated into the browser's query cache),
// so nothing waits for a client fetch. Checked on behaviour, not timing (timing is bench:ui):
// - the HTML as the server sends it holds the figures and the session's rows;
// - in Chromium, with every API read of the page held back unanswered, the first content is there
//   anyway and the console stays clean (no hydration mismatch);
// - the charts' code is not among the scripts the overview's HTML loads; the charts are drawn by the server
//   (plain SVG, at any width without JavaScript), and until Recharts' chunk is in, they follow the data;
// - server-side reads still need a valid login: a forged cookie gets the page shell, no data;
// - rows and tiles are not prefetched as they scroll into view (the top bar's links are).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { PALETTES } from '@/lib/ui/palette';
import { postEvents } from '../support/post-events';
import { ADMIN_TOKEN, SERVERS, TOKENS, launch, seed, serversEnv, shot } from './fixtures';

let app: AppServer;
let browser: Browser;
let cookie: { name: string; value: string };

const SESSION_PATH = () => `/servers/${SERVERS.naive.name}/sessions/${TOKENS.deadlock}`;

async function html(path: string, cookieValue = `${cookie.name}=${cookie.value}`): Promise<{ status: number; body: string }> {
  const res = await fetch(`${app.url}${path}`, { headers: { cookie: cookieValue }, redirect: 'manual' });
  return { status: res.status, body: await res.text() };
}

/** The text of the first element carrying this test id in server HTML (tags stripped). */
function textOf(body: string, testId: string): string | null {
  const at = body.indexOf(`data-testid="${testId}"`);
  if (at < 0) return null;
  const open = body.lastIndexOf('<', at);
  const tag = /^<(\w+)/.exec(body.slice(open))![1];
  const close = body.indexOf(`</${tag}>`, at);
  return body
    .slice(body.indexOf('>', at) + 1, close)
    .replace(/<!--.*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('first content in the server HTML', () => {
  before(async () => {
    [app, browser] = await Promise.all([startAppServer({ env: { DOORWATCH_SERVERS: serversEnv() } }), launch()]);
    await seed(app.url);
    const login = await fetch(`${app.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ token: ADMIN_TOKEN }),
    });
    assert.equal(login.status, 200);
    const m = /^([^=]+)=([^;]*)/.exec(login.headers.get('set-cookie') ?? '')!;
    cookie = { name: m[1], value: m[2] };
  });

  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  test('the overview HTML holds the figures, the session HTML its timeline rows', async () => {
    const overview = await html('/?from=now-1h&to=now');
    assert.equal(overview.status, 200);
    // Five seeded sessions; the tiles are links to the list, rendered from /api/v1/stats.
    assert.match(textOf(overview.body, 'tile-sessions') ?? '', /^Sessions 5\b/);
    assert.match(textOf(overview.body, 'tile-deadlocks') ?? '', /^Deadlocks 2\b/);
    assert.ok(overview.body.includes(`data-testid="strip-${SERVERS.naive.name}"`), 'the per-server strip is in the HTML');
    // The charts are drawn by the server, as plain SVG of their final size (the interactive chart covers it later).
    assert.match(
      overview.body,
      /<div class="chart chart-static cs-series" style="height:210px" role="img" aria-label="Boundary entries per bucket, by outcome"><svg class="cs-plot"/,
    );
    assert.ok((overview.body.match(/<rect class="cs-bar"/g) ?? []).length > 0, 'the bars are in the HTML');
    assert.ok(!overview.body.includes('recharts-surface'), 'no Recharts chart is rendered on the server');
    // The shell knows its operator: the admin-only Settings link is in the first HTML.
    assert.ok(overview.body.includes('href="/settings'), 'the Settings link is rendered for the admin');

    const session = await html(SESSION_PATH());
    assert.equal(session.status, 200);
    assert.equal(textOf(session.body, 'session-token'), TOKENS.deadlock);
    assert.match(textOf(session.body, 'callout-outcome') ?? '', /naive/i);
    assert.equal(session.body.split('data-testid="event-row"').length - 1, 6, 'all six events are rows in the HTML');

    // The list between a chart and a timeline: its rows, filtered as the URL says, and its total.
    const list = await html('/sessions?from=now-1h&to=now');
    assert.equal(list.status, 200);
    assert.equal(list.body.split('data-testid="session-row"').length - 1, 5, 'the five sessions are rows in the HTML');
    const naive = await html(`/sessions?from=now-1h&to=now&server=${SERVERS.naive.name}&limit=25`);
    const naiveRows = naive.body.split('data-testid="session-row"').length - 1;
    assert.ok(naiveRows > 0 && naiveRows < 5, `the server filter applies in the server render: ${naiveRows} rows`);
    const servers = await html('/servers?from=now-1h&to=now');
    assert.equal(servers.status, 200);
    for (const name of [SERVERS.good.name, SERVERS.naive.name])
      assert.ok(servers.body.includes(`data-testid="server-row-${name}"`), `${name} is a row in the HTML`);
  });

  test('a forged login cookie gets no data from the server render', async () => {
    // Structurally valid (the page gate passes it), but the MAC is wrong: the reads refuse it.
    const forged = `${cookie.name}=${cookie.value.slice(0, -2)}${cookie.value.endsWith('AA') ? 'BB' : 'AA'}`;
    const overview = await html('/?from=now-1h&to=now', forged);
    assert.equal(overview.status, 200);
    assert.equal(textOf(overview.body, 'tile-sessions'), null);
    const session = await html(SESSION_PATH(), forged);
    assert.ok(!session.body.includes('data-testid="event-row"'));
    // No cookie at all: the login page, as before.
    const anonymous = await html('/', '');
    assert.equal(anonymous.status, 307);
  });

  for (const [name, path, selector] of [
    ['overview', '/?from=now-1h&to=now', '[data-testid="tile-sessions"]'],
    ['session', SESSION_PATH(), '[data-testid="event-row"]'],
    ['sessions list', '/sessions?from=now-1h&to=now', '[data-testid="session-row"]'],
    ['server list', '/servers?from=now-1h&to=now', `[data-testid="server-row-${SERVERS.naive.name}"]`],
  ] as const) {
    test(`a cold ${name} shows its first data with every API read held back, and a clean console`, async () => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: 'UTC' });
      try {
        await context.addCookies([{ ...cookie, url: app.url }]);
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('console', (msg) => {
          if (msg.type() === 'error') errors.push(msg.text());
        });
        page.on('pageerror', (e) => errors.push(String(e)));
        // Data reads never answer: whatever shows came with the HTML. (The live stream is left alone.)
        const held: string[] = [];
        await page.route(/\/api\/(v1\/(stats|servers|sessions|alerts)|auth\/me)/, (route) => {
          held.push(new URL(route.request().url()).pathname);
        });
        const scripts: string[] = [];
        page.on('request', (r) => {
          if (r.resourceType() === 'script') scripts.push(r.url());
        });
        await page.goto(`${app.url}${path}`, { waitUntil: 'domcontentloaded' });
        await page.locator(selector).first().waitFor();
        if (name === 'overview') {
          assert.equal(await page.locator('[data-testid="tile-sessions"] .tile-value').innerText(), '5');
          // Hydrated, the page is interactive: the server filter lists the servers from the HTML's data.
          await page.waitForFunction(() => document.querySelectorAll('[data-testid="overview-server-filter"] option').length === 3);
        } else if (name === 'session') {
          assert.equal(await page.locator('[data-testid="event-row"]').count(), 6);
          assert.equal(await page.locator('[data-testid="session-token"]').innerText(), TOKENS.deadlock);
        } else if (name === 'sessions list') {
          assert.equal(await page.locator('[data-testid="session-row"]').count(), 5);
        } else {
          assert.equal(await page.locator(`[data-testid="server-row-${SERVERS.good.name}"]`).count(), 1);
        }
        // Give hydration and the live stream time to settle, then check nothing went wrong.
        await page.locator('[data-testid="data-age"][data-stream="open"]').waitFor();
        await page.waitForTimeout(500);
        assert.deepEqual(errors, [], `console errors: ${errors.join('\n')}`);
        if (name === 'overview') {
          // The charts arrive later, from their own chunk, into boxes of their size.
          const chart = page.locator('[data-testid="chart-boundary"]');
          await chart.waitFor();
          const box = await chart.boundingBox();
          assert.ok(box && box.height >= 200, `chart box ${JSON.stringify(box)}`);
        }
      } finally {
        await context.close();
      }
    });
  }

  test('sessions list rows and overview tiles are not prefetched as they scroll into view', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: 'UTC' });
    try {
      await context.addCookies([{ ...cookie, url: app.url }]);
      const page = await context.newPage();
      const prefetched: string[] = [];
      page.on('request', (r) => {
        if (r.headers()['next-router-prefetch'] === undefined) return;
        const u = new URL(r.url());
        u.searchParams.delete('_rsc');
        prefetched.push(`${u.pathname}${u.search}`);
      });
      await page.goto(`${app.url}/sessions?from=now-1h&to=now`);
      await page.locator('[data-testid="session-row"]').first().waitFor();
      await page.goto(`${app.url}/?from=now-1h&to=now`);
      await page.locator('[data-testid="tile-sessions"]').waitFor();
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(1000);
      const rows = prefetched.filter((p) => p.includes('/sessions/') || p.startsWith('/tokens'));
      assert.deepEqual(rows, [], `rows prefetched: ${rows.join(', ')}`);
      // Tiles and panels link to /sessions?flag=…; the top bar's links carry no flag.
      const tiles = prefetched.filter((p) => p.includes('flag='));
      assert.deepEqual(tiles, [], `tiles prefetched: ${tiles.join(', ')}`);
      const sections = new Set(prefetched.map((p) => p.split('?')[0]));
      assert.ok(sections.has('/servers') && sections.has('/alerts'), `the top bar's links are prefetched: ${[...sections].join(', ')}`);
      // Pointing at a row is intent: that one is prefetched.
      await page.goto(`${app.url}/sessions?from=now-1h&to=now`);
      const link = page.locator('[data-testid="session-link"]').first();
      await link.waitFor();
      const before = prefetched.length;
      await link.hover();
      await page.waitForTimeout(1000);
      assert.ok(
        prefetched.slice(before).some((p) => p.includes('/sessions/')),
        `hovering a row prefetches it: ${prefetched.slice(before).join(', ')}`,
      );
    } finally {
      await context.close();
    }
  });
  test('with no JavaScript at all, the overview draws every chart at every width', async () => {
    for (const width of [1920, 1440, 1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, timezoneId: 'UTC', javaScriptEnabled: false });
      try {
        await context.addCookies([{ ...cookie, url: app.url }]);
        const page = await context.newPage();
        // The frame's own goto: the page's waits for hydration (fixtures.ts), which never comes here.
        await page.mainFrame().goto(`${app.url}/?from=now-1h&to=now`);
        const charts = await page.evaluate(() =>
          [...document.querySelectorAll('.chart-static')].map((chart) => {
            const box = chart.getBoundingClientRect();
            const plot = chart.querySelector('svg.cs-plot')!.getBoundingClientRect();
            const bars = [...chart.querySelectorAll('rect.cs-bar')].map((r) => r.getBoundingClientRect());
            const dots = [...chart.querySelectorAll('circle')].map((c) => c.getBoundingClientRect());
            const labels = [...chart.querySelectorAll('text.cs-text')]
              .map((t) => t.getBoundingClientRect())
              .filter((r) => r.top >= plot.bottom);
            const overlaps = labels.filter((a, i) => labels.some((b, j) => j > i && a.right > b.left && b.right > a.left)).length;
            return {
              name: chart.getAttribute('aria-label'),
              role: chart.getAttribute('role'),
              box: [box.left, box.right, box.height],
              plot: [plot.left, plot.right],
              bars: bars.length,
              barsInside: bars.every((r) => r.width > 0 && r.left >= plot.left - 0.5 && r.right <= plot.right + 0.5),
              round: dots.every((r) => Math.abs(r.width - r.height) < 0.5),
              labels: labels.length,
              overlaps,
            };
          }),
        );
        await page.screenshot({ path: shot(`static-charts-${width}`), fullPage: true });
        assert.equal(charts.length, 6, `${width}: five time charts and the histogram: ${JSON.stringify(charts)}`);
        for (const c of charts) {
          const where = `${width} px, ${c.name}: ${JSON.stringify(c)}`;
          assert.equal(c.role, 'img', where);
          assert.ok(c.name && c.name.length > 10, where);
          // The plot spans the box but for the axes (30 px left, at most 16 px right): it scaled to the width.
          assert.ok(Math.abs(c.plot[0] - c.box[0] - 30) < 1 && c.box[1] - c.plot[1] <= 16.5 && c.box[1] - c.plot[1] >= 7.5, where);
          assert.ok(c.barsInside && c.round, where);
          assert.ok(c.labels >= 2 && c.overlaps === 0, where);
        }
        assert.ok(charts.filter((c) => c.bars > 0).length >= 3, 'the count charts and the histogram have bars');
      } finally {
        await context.close();
      }
    }
  });

  test("until Recharts is in, the drawn charts are the charts: the theme's colours, and they follow the data", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: 'UTC', colorScheme: 'dark' });
    try {
      await context.addCookies([{ ...cookie, url: app.url }]);
      const page = await context.newPage();
      // Recharts' chunk never arrives (every other script does): the drawn charts stay, and so does the page.
      let held!: () => void;
      const chunkHeld = new Promise<void>((resolve) => (held = resolve));
      await page.route(/\/_next\/static\/chunks\/.*\.js/, async (route) => {
        const res = await route.fetch();
        const body = await res.text();
        if (body.includes('recharts-surface')) {
          held();
          return route.abort();
        }
        return route.fulfill({ response: res, body });
      });
      await page.goto(`${app.url}/?from=now-1h&to=now`);
      await page.locator('[data-testid="data-age"][data-stream="open"]').waitFor();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="overview-server-filter"] option').length === 3);
      await chunkHeld; // requested, and refused
      assert.equal(await page.locator('.recharts-surface').count(), 0);
      const boundary = page.locator('.chart-static[aria-label="Boundary entries per bucket, by outcome"]');
      assert.ok(await boundary.isVisible());
      // Dark theme: the palette's dark colours, from the same module the interactive chart reads.
      const fills = await boundary.locator('rect.cs-bar').evaluateAll((rs) => [...new Set(rs.map((r) => getComputedStyle(r).fill))]);
      const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
      assert.ok(fills.includes(rgb(PALETTES.dark.refused)) && fills.includes(rgb(PALETTES.dark.naive)), `fills ${fills.join(' ')}`);
      await page.screenshot({ path: shot('static-charts-dark-1440'), fullPage: true });

      // A refusal now: the live feed refetches the stats, and the drawn chart gains its bar.
      const bars = await boundary.locator('rect.cs-bar').count();
      const token = `tok-static-${Date.now()}`;
      const at = Date.now() - 5_000;
      const evs = (
        [
          ['session.opened', 0],
          ['upgrade.accepted', 100, { eventId: 2 }],
          ['stream.dropped', 150],
          ['resume.requested', 200, { lastEventId: 2 }],
          ['resume.refused', 240, { reason: 'session-superseded' }],
        ] as const
      ).map(([type, dt, data], i) => ({
        id: `${token}-${i}`,
        token,
        type,
        at: new Date(at + dt).toISOString(),
        ...(data ? { data } : {}),
      }));
      assert.equal((await postEvents(app.url, SERVERS.good.name, SERVERS.good.secret, evs)).status, 200);
      await page.waitForFunction(
        ([label, before]) => document.querySelectorAll(`.chart-static[aria-label="${label}"] rect.cs-bar`).length > before,
        ['Boundary entries per bucket, by outcome', bars] as const,
      );
      assert.equal(await page.locator('.recharts-surface').count(), 0, 'still no Recharts');
    } finally {
      // A chunk can still be in route.fetch() when the context closes; its rejection would land after the test.
      for (const page of context.pages()) await page.unrouteAll({ behavior: 'ignoreErrors' });
      await context.close();
    }
  });
});
