// Once the app is gone every open page goes stale in place: red indicator "offline · as of", hatched
// figures that still read, clocks and the alarm frozen "as of", nothing moves. The overview, a stuck
// session and the sessions list, in both themes, one round per width. The widths are split over two
// files (live-stale-wide, live-stale-narrow) so that each stays well inside the runner's per-file time
// cap under CI's load: all four in one file took 588–714 s of the 1,200 s cap, and load beside CI pushed
// it over once (5 Dec 2026).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startAppServer } from '../support/app-server';
import { SERVERS, launch, seed, serversEnv, shot, signIn } from './fixtures';
import { postEvents } from '../support/post-events';
import { readabilityProblems } from './readability-checks';
import { layoutProblems } from './layout-checks';

/** The stale-in-place rounds at `widths`, as one suite with a browser of its own. */
export function staleRounds(widths: readonly number[]): void {
  describe('live, stale in place', () => {
    let browser: Browser;
    before(async () => {
      browser = await launch();
    });
    after(async () => {
      await browser?.close();
    });

    // Each width is a round of its own: an app of its own, six pages (three kinds × two themes), each in a
    // context of its own, then the app is stopped. Why not all 24 pages on one app: Chromium (156 here) runs
    // every page of a context but its front one at a lower CPU priority (nice +5 in ps, whatever the
    // backgrounding switches say), and a live page at rest still costs its renderer 15–32 ms of main thread
    // a second (CDP Performance metrics: clocks, heartbeats). 24 pages, three to a context, starved each
    // other under CI's load: opening them took over 10 minutes and a back page missed its bound for noticing.
    for (const width of widths)
      test(`when the app goes away every open page goes stale in place at ${width} px: indicator, figures, frozen clocks and alarm "as of", readable, nothing moves`, () =>
        staleRound(browser, width));
  });
}

async function staleRound(browser: Browser, width: number): Promise<void> {
  // Alerts evaluated every half second: the stuck session's naive resume fires its rule before the pages
  // open, so the shell's alert banner is part of the layout measured below rather than arriving in it
  // (on the default 15 s schedule it came in between, at the evaluation's phase, and moved every figure).
  const round = await startAppServer({ env: { DOORWATCH_SERVERS: serversEnv(), DOORWATCH_ALERT_INTERVAL_MS: '500' } });
  let stopping: Promise<void> | null = null;
  const contexts: BrowserContext[] = [];
  try {
    await seed(round.url);
    const signing = await browser.newContext({ timezoneId: 'UTC' });
    contexts.push(signing);
    await signIn(await signing.newPage(), round.url);
    const cookies = await signing.cookies();
    // A session stuck now: its idle time ticks, until the app goes.
    const stuck = `tok-live-stuck-${width}-${Date.now()}`;
    const O = Date.now() - 60_000;
    const evs = (
      [
        ['session.opened', 0],
        ['upgrade.accepted', 800, { eventId: 4 }],
        ['stream.dropped', 850],
        ['resume.requested', 900, { lastEventId: 4 }],
        ['resume.accepted', 912, { replayed: 0 }],
      ] as const
    ).map(([type, dt, data], i) => ({
      id: `${stuck}-${i}`,
      token: stuck,
      type,
      at: new Date(O + dt).toISOString(),
      ...(data ? { data } : {}),
    }));
    assert.equal((await postEvents(round.url, SERVERS.naive.name, SERVERS.naive.secret, evs)).status, 200);
    // The three pages whose figures age by the clock (the overview's alarm and idle time, the session's
    // deadlock, the list's deadlock chip), in both themes, all watching the same app: stopped once below.
    const stuckRow = `[data-testid="session-row"][data-token="${stuck}"]`;
    const kinds: StaleKind[] = [
      {
        name: 'overview',
        path: '/?from=now-1h&to=now',
        ready: ['[data-testid="chart-boundary"] .recharts-surface', '[data-testid="ongoing-deadlocks"]'],
        fixed: ['[data-testid="ongoing-deadlocks"]', '[data-testid="server-strip"]', '.tiles', '[data-testid="chart-boundary"]'],
        ticking: ['[data-testid="deadlock-idle"]'],
      },
      {
        name: 'session',
        path: `/servers/${SERVERS.naive.name}/sessions/${stuck}`,
        ready: ['[data-testid="timeline-svg"]', '[data-testid="deadlocked-for"]'],
        fixed: ['[data-testid="deadlock-banner"]', '[data-testid="callout-latency"]', '#h-timeline'],
        ticking: ['[data-testid="deadlocked-for"]'],
      },
      {
        name: 'sessions',
        path: '/sessions?from=now-1h&to=now',
        ready: [`${stuckRow} [data-testid="deadlock-chip"]`],
        fixed: ['[data-testid="sessions-table"]', stuckRow],
        // (its "last event" age too: a relative time ages by the data's clock, like every figure)
        ticking: [`${stuckRow} [data-testid="deadlock-chip"]`, `${stuckRow} [data-testid="session-last-event"]`],
      },
    ];
    const boxes = (p: Page, selectors: string[]) =>
      p.evaluate(
        (sels) =>
          sels.map((sel) => {
            const r = document.querySelector(sel)?.getBoundingClientRect();
            return r
              ? [sel, Math.round(r.x), Math.round(r.y + window.scrollY), Math.round(r.width), Math.round(r.height)]
              : [sel, 'missing'];
          }),
        selectors,
      );
    const open: { at: string; scheme: string; kind: StaleKind; p: Page; before: unknown }[] = [];
    const asked: { at: number; page: string; path: string }[] = [];
    for (const scheme of ['light', 'dark'] as const)
      for (const kind of kinds) {
        const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, timezoneId: 'UTC' });
        contexts.push(ctx);
        await ctx.addCookies(cookies);
        const p = await ctx.newPage();
        const label = `${kind.name} ${width} ${scheme}`;
        p.on('request', (r) => asked.push({ at: Date.now(), page: label, path: new URL(r.url()).pathname }));
        await p.goto(`${round.url}${kind.path}`);
        await p.locator('[data-testid="data-age"][data-stream="open"]').waitFor();
        for (const sel of [...kind.ready, '[data-testid="alert-banner"]']) await p.locator(sel).first().waitFor();
        open.push({ at: label, scheme, kind, p, before: null });
      }
    for (const o of open) o.before = await boxes(o.p, o.kind.fixed);
    const level = (p: Page) => p.locator('[data-testid="ongoing-deadlocks"]').getAttribute('data-level');
    const overviews = open.filter((o) => o.kind.name === 'overview');
    const levels = await Promise.all(overviews.map(({ p }) => level(p)));

    // Timed from the app's exit, not from SIGTERM: until it exits, a stopping instance still answers the
    // pages' probe on a connection it had open (by design: behind a balancer another instance may answer
    // the next one), and its shutdown under CI's load took a share of what used to be one 15 s bound
    // (clean-clone CI of 5 Dec 2026: a round missed it). What the page owes is noticing a dead app.
    const t0 = Date.now();
    stopping = round.stop();
    await stopping;
    const exitMs = Date.now() - t0;
    await Promise.all(open.map(({ p }) => p.locator('[data-testid="data-age"][data-stale="true"]').waitFor({ timeout: 15_000 })));
    const noticedMs = Date.now() - t0 - exitMs;
    console.log(`# ${open.length} pages at ${width} px: the app exited ${exitMs} ms after SIGTERM, every page stale ${noticedMs} ms later`);
    // An answer the app sent before it exited can still be on its way into a busy page and land after the
    // page said stale: real figures, newer than those on screen (clean-clone CI of 5 Dec 2026: the alarm's
    // clock moved back 328 ms between the two readings below; such an answer no longer makes the page
    // current, lib/ui/connection.ts afterAnswer). What must not move is a stale page's own clocks, so
    // compare from when nothing is in flight on any page and each is stale. (Until 6 Dec 2026 an offline
    // page's queries kept polling every 5 s with two retries each, so "nothing in flight" could fail to
    // happen for 15 s under load: clean-clone CI of that day, the 390 px round; they now hold still.)
    for (const { p } of open) {
      await p.locator('[data-testid="refresh-indicator"][data-fetching="false"]').waitFor({ timeout: 15_000 });
      await p.locator('[data-testid="data-age"][data-stale="true"]').waitFor({ timeout: 15_000 });
    }

    // Frozen: the clocks stopped with the data, so the alarm's state and every ticking figure no longer move.
    const frozen = await Promise.all(
      overviews.map(({ p }) => p.locator('[data-testid="ongoing-deadlocks"]').getAttribute('data-server-now')),
    );
    const tickingTexts = ({ kind, p }: { kind: StaleKind; p: Page }) =>
      Promise.all(kind.ticking.map((sel) => p.locator(sel).first().innerText()));
    const ticks = await Promise.all(open.map(tickingTexts));

    const problems: string[] = [];
    for (const { at, scheme, kind, p, before } of open) {
      assert.equal(await p.locator('[data-testid="data-age"]').getAttribute('data-tone'), 'red', at);
      // One line or two (up to 1440 px the pill puts its time under its state): the words are the same.
      assert.match((await p.locator('[data-testid="data-age"]').innerText()).replace(/\s+/g, ' '), /^offline · as of \d\d:\d\d:\d\d$/, at);
      assert.equal(await p.locator('main').getAttribute('data-stale'), 'true', at);
      await p.locator('[data-testid="connection-notice"][data-reason="unreachable"]').waitFor();
      if (kind.name === 'overview') {
        const asOf = p.locator('[data-testid="ongoing-deadlocks"] [data-testid="alarm-as-of"]');
        assert.equal(await asOf.getAttribute('data-stale'), 'true', at);
        assert.match(await asOf.innerText(), /as of \d\d:\d\d:\d\d/, at);
      }
      // The figures stay where they were: no error box pushed in, no banner removed.
      assert.deepEqual(await boxes(p, kind.fixed), before, at);
      await p.screenshot({ path: shot(`live-stale-${kind.name}-${width}-${scheme}`), fullPage: width === 390 });
      // Hatched and greyed, the figures still read (contrast on the stripes too); the longer offline
      // state sits in the top bar without covering its neighbours (the layout checks' top bar rule).
      problems.push(...(await readabilityProblems(p)).map((x) => `${at}: ${x}`));
      problems.push(...(await layoutProblems(p, { headsOneLine: false })).filter((x) => x.startsWith('top bar')).map((x) => `${at}: ${x}`));
    }
    // A negative check needs time: let the pages' 1 s clocks tick at least twice more; nothing may change.
    // Longer than the 5 s every query polled at while the stream was down: an offline page's queries hold
    // still and only its probe asks whether Doorwatch answers (components/shell/live-updates.tsx).
    const quietFrom = Date.now();
    await open[0].p.waitForTimeout(6000);
    const since = asked.filter((r) => r.at >= quietFrom && r.path.startsWith('/api/'));
    assert.deepEqual(
      since.filter((r) => r.path !== '/api/live' && r.path !== '/api/v1/changes').map((r) => `${r.page} ${r.path}`),
      [],
      'an offline page asks nothing but its probe',
    );
    for (const { at } of open) assert.ok(since.filter((r) => r.page === at && r.path === '/api/live').length >= 2, `${at}: probing`);
    for (const [k, { at, p }] of overviews.entries()) {
      assert.equal(await p.locator('[data-testid="ongoing-deadlocks"]').getAttribute('data-server-now'), frozen[k], at);
      assert.equal(await level(p), levels[k], at);
    }
    for (const [k, o] of open.entries()) assert.deepEqual(await tickingTexts(o), ticks[k], o.at);
    assert.deepEqual(problems, []);
  } finally {
    for (const ctx of contexts) await ctx.close();
    // Stopped once: awaited above when the pages went stale; a failure before that is the one to report.
    await (stopping ? stopping.catch(() => undefined) : round.stop());
  }
}

/** A page that goes stale in place: where it is, when it has its figures, what must not move, and the figures that tick. */
interface StaleKind {
  name: string;
  path: string;
  ready: string[];
  fixed: string[];
  ticking: string[];
}
