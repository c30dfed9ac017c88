// UI benchmark: the built app on a scratch SQLite database with demo-like data (three servers,
// a few hundred sessions over the last 15 minutes: clean upgrades, refusals, naive resumes,
// deadlocks, one ongoing), measured in headless Chromium on loopback (launched as the browser tests
// launch it: /usr/bin/chromium, or CHROMIUM_PATH):
// - cold loads of each page (a fresh browser context each time: no HTTP cache, no client state),
//   median and p95 of `--runs` loads, of
//     fcp            first-contentful-paint (PerformanceObserver / paint timing),
//     firstContent   the first animation frame (not before FCP) at which the page's first data
//                    element (PAGES[].selector: a figure or row built from API data) is in the
//                    document with a non-empty box, ms since navigation start;
//     chartsVisible  (pages with charts) the first frame at which every chart is drawn: a chart's
//                    SVG is in the page (drawn by the server, `.chart-static`, or by Recharts) and
//                    no chart box is left without one (nor a `.chart-pending` box, in older builds);
//   plus the JS the page loaded (script resources until the network is idle: bytes on the wire
//   and decoded) and the router prefetch requests it made (RSC requests: `_rsc` in the URL or a
//   Next-Router-Prefetch header);
// - event → visible: an open overview and an open session page, a signed event ingested, ms until
//   the page shows it (median/p95 of `--events`);
// - prefetch requests over `--watch` seconds of an open sessions list (refresh=5s, as in issue 13).
//   npm run bench:ui -- [--runs 7] [--events 5] [--watch 30] [--json]
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { launch } from '../../tests/browser/fixtures';
import { postEvents } from '../../tests/support/post-events';
import { PROBE } from './ui-probe';
import {
  ADMIN_TOKEN,
  buildInfo,
  cleanupSqlite,
  latencySummary,
  log,
  machine,
  num,
  prepareDatabase,
  round,
  startApp,
  tempSqliteUrl,
  type Args,
} from './common';

export const SERVERS = ['demo-us-1', 'demo-eu-1', 'demo-ap-1'].map((name) => ({
  name,
  secret: `whsec_${randomBytes(32).toString('base64')}`,
}));

interface PageSpec {
  name: string;
  path: (s: Seeded) => string;
  /** The page's first data element (built from API data, not the shell). */
  selector: string;
  /** The page draws charts: also measure when all of them are visible. */
  charts?: boolean;
}

const PAGES: PageSpec[] = [
  { name: 'overview', path: () => '/', selector: '[data-testid="tile-sessions"]', charts: true },
  { name: 'sessions', path: () => '/sessions', selector: '[data-testid="session-row"]' },
  {
    name: 'session',
    path: (s) => `/servers/${s.detail.server}/sessions/${s.detail.token}`,
    selector: '[data-testid="callout-outcome"]',
  },
  { name: 'servers', path: () => '/servers', selector: '[data-testid^="server-row-"]' },
  { name: 'alerts', path: () => '/alerts', selector: '[data-testid="no-firing"], [data-testid="firing-alerts"]' },
];

interface Seeded {
  sessions: number;
  events: number;
  detail: { server: string; token: string };
}

// ------------------------------------------------------------------------------ demo-like data

type Ev = { id: string; token: string; type: string; at: string; data?: Record<string, unknown> };

function timeline(kind: number, token: string, t: number, seq: () => number): Ev[] {
  const ev = (type: string, at: number, data?: Record<string, unknown>): Ev => ({
    id: `ev-${token}-${seq()}`,
    token,
    type,
    at: new Date(at).toISOString(),
    ...(data ? { data } : {}),
  });
  const opened = [ev('session.opened', t), ev('upgrade.accepted', t + 900, { eventId: 7 })];
  switch (kind) {
    case 0: // upgraded cleanly
      return [...opened, ev('upgrade.completed', t + 950), ev('session.closed', t + 40_000)];
    case 1: // refused at the boundary (correct)
      return [
        ...opened,
        ev('stream.dropped', t + 1000, { reason: 'tcp reset' }),
        ev('resume.requested', t + 1060, { lastEventId: 7 }),
        ev('resume.refused', t + 1060 + 30 + (t % 40), { reason: 'session-superseded' }),
      ];
    case 2: // naive resume that timed out (deadlock, ended)
      return [
        ...opened,
        ev('stream.dropped', t + 1000),
        ev('resume.requested', t + 1050, { lastEventId: 7 }),
        ev('resume.accepted', t + 1060, { replayed: 0 }),
        ev('session.timeout', t + 301_060, { idleMs: 300_000 }),
      ];
    default: // plain SSE session
      return [ev('session.opened', t), ev('session.closed', t + 20_000)];
  }
}

export async function seedDemo(url: string, now: number): Promise<Seeded> {
  let n = 0;
  const seq = () => ++n;
  let sessions = 0;
  let events = 0;
  let detail = { server: '', token: '' };
  for (const [i, srv] of SERVERS.entries()) {
    const batch: Ev[] = [];
    for (let k = 0; k < 120; k++) {
      const t = now - 14 * 60_000 + k * 6_500 + i * 700;
      // demo-us-1 resumes naively, the others refuse.
      const kind = k % 5 === 0 ? (i === 0 ? 2 : 1) : k % 5 === 1 ? 3 : 0;
      const token = `tok-${srv.name}-${String(k).padStart(4, '0')}`;
      const tl = timeline(kind, token, t, seq).filter((e) => Date.parse(e.at) < now);
      batch.push(...tl);
      sessions++;
      if (i === 0 && kind === 2 && k > 60 && !detail.token) detail = { server: srv.name, token };
    }
    // One ongoing deadlock on the naive server.
    const token = `tok-${srv.name}-ongoing`;
    if (i === 0) {
      batch.push(...timeline(2, token, now - 90_000, seq).filter((e) => Date.parse(e.at) < now));
      sessions++;
    }
    for (let k = 0; k < batch.length; k += 500) {
      const res = await postEvents(url, srv.name, srv.secret, batch.slice(k, k + 500));
      if (res.status !== 200) throw new Error(`seeding ${srv.name}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    events += batch.length;
  }
  return { sessions, events, detail };
}

// ------------------------------------------------------------------------------ the browser side

const isRsc = (r: Request) => r.url().includes('_rsc=') || r.headers()['next-router-prefetch'] !== undefined || r.headers()['rsc'] === '1';
const isPrefetch = (r: Request) => r.headers()['next-router-prefetch'] !== undefined;

async function newContext(browser: Browser, baseUrl: string, cookie: { name: string; value: string }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
  await context.addCookies([{ name: cookie.name, value: cookie.value, url: baseUrl }]);
  return context;
}

interface ColdLoad {
  fcp: number;
  firstContent: number;
  /** -1 on a page without charts. */
  chartsVisible: number;
  jsBytes: number;
  jsDecodedBytes: number;
  jsFiles: number;
  rscRequests: number;
  prefetchRequests: number;
}

async function coldLoad(
  browser: Browser,
  baseUrl: string,
  cookie: { name: string; value: string },
  spec: PageSpec,
  seeded: Seeded,
): Promise<ColdLoad> {
  const context = await newContext(browser, baseUrl, cookie);
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.addInitScript({ content: PROBE(spec.selector, spec.charts === true) });
    let rsc = 0;
    let prefetch = 0;
    page.on('request', (r) => {
      if (isRsc(r)) rsc++;
      if (isPrefetch(r)) prefetch++;
    });
    await page.goto(`${baseUrl}${spec.path(seeded)}`, { waitUntil: 'load' });
    await page.waitForFunction(
      () =>
        (window as any).__dwBench?.content !== null &&
        (window as any).__dwBench?.fcp !== null &&
        (window as any).__dwBench?.charts !== null,
    );
    // Lazy chunks and prefetches follow the load: count them once the network is quiet.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1000);
    const m = await page.evaluate(() => {
      const mark = (window as any).__dwBench as { fcp: number; content: number; charts: number };
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
        (e) => e.initiatorType === 'script' || /\.m?js(\?|$)/.test(new URL(e.name).pathname),
      );
      return {
        fcp: mark.fcp,
        content: mark.content,
        charts: mark.charts,
        jsBytes: scripts.reduce((s, e) => s + e.encodedBodySize, 0),
        jsDecodedBytes: scripts.reduce((s, e) => s + e.decodedBodySize, 0),
        jsFiles: scripts.length,
      };
    });
    return {
      fcp: m.fcp,
      firstContent: Math.max(m.content, m.fcp),
      chartsVisible: m.charts < 0 ? -1 : Math.max(m.charts, m.fcp),
      jsBytes: m.jsBytes,
      jsDecodedBytes: m.jsDecodedBytes,
      jsFiles: m.jsFiles,
      rscRequests: rsc,
      prefetchRequests: prefetch,
    };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => latencySummary(xs).p50;

async function eventToVisible(
  page: Page,
  n: number,
  post: (i: number) => Promise<void>,
  shows: (i: number) => Promise<void>,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await post(i);
    await shows(i);
    out.push(performance.now() - t);
    await page.waitForTimeout(500);
  }
  return out;
}

// ------------------------------------------------------------------------------ the run

export async function benchUi(args: Args) {
  const runs = num(args, 'runs', 7);
  const eventsN = num(args, 'events', 5);
  const watchS = num(args, 'watch', 30);
  const build = buildInfo();
  if (build.fresh === false) log('warning: .next was built from other sources than the tree (run npm run build)');
  const db = tempSqliteUrl();
  await prepareDatabase(db.url, SERVERS);
  const app = await startApp(db.url, { DOORWATCH_RETENTION_DAYS: '0' });
  const browser = await launch();
  const loadBefore = machine().loadavg;
  try {
    const seeded = await seedDemo(app.url, Date.now());
    log(`seeded ${seeded.sessions} sessions, ${seeded.events} events on ${app.url}`);
    const login = await fetch(`${app.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ token: ADMIN_TOKEN }),
    });
    const set = login.headers.get('set-cookie') ?? '';
    const m = /^([^=]+)=([^;]*)/.exec(set);
    if (login.status !== 200 || !m) throw new Error(`login failed: ${login.status} ${set}`);
    const cookie = { name: m[1], value: m[2] };

    // Warm the server (first render of each route compiles nothing in production, but fills caches).
    for (const spec of PAGES) await coldLoad(browser, app.url, cookie, spec, seeded);

    const pages: Record<string, unknown> = {};
    for (const spec of PAGES) {
      const loads: ColdLoad[] = [];
      for (let i = 0; i < runs; i++) loads.push(await coldLoad(browser, app.url, cookie, spec, seeded));
      const fc = latencySummary(loads.map((l) => l.firstContent));
      const fcp = latencySummary(loads.map((l) => l.fcp));
      const charts = latencySummary(loads.map((l) => l.chartsVisible));
      pages[spec.name] = {
        path: spec.path(seeded),
        selector: spec.selector,
        firstContentMs: { p50: fc.p50, p95: fc.p95 },
        fcpMs: { p50: fcp.p50, p95: fcp.p95 },
        ...(spec.charts ? { chartsVisibleMs: { p50: charts.p50, p95: charts.p95, max: charts.max } } : {}),
        jsKb: round(median(loads.map((l) => l.jsBytes)) / 1024),
        jsDecodedKb: round(median(loads.map((l) => l.jsDecodedBytes)) / 1024),
        jsFiles: median(loads.map((l) => l.jsFiles)),
        rscRequests: median(loads.map((l) => l.rscRequests)),
        prefetchRequests: median(loads.map((l) => l.prefetchRequests)),
      };
      log(
        `${spec.name}: first content p50 ${fc.p50} ms p95 ${fc.p95} ms, FCP p50 ${fcp.p50} ms` +
          (spec.charts ? `, charts visible p50 ${charts.p50} ms p95 ${charts.p95} ms` : ''),
      );
    }

    // Event → visible on an open overview and an open session page.
    const context = await newContext(browser, app.url, cookie);
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const srv = SERVERS[1];
    await page.goto(`${app.url}/`);
    await page.locator('[data-testid="data-age"][data-stream="open"]').waitFor();
    const tile = '[data-testid="tile-sessions"] .tile-value';
    const count = async () => Number((await page.locator(tile).innerText()).replace(/,/g, ''));
    let base = await count();
    const overview = await eventToVisible(
      page,
      eventsN,
      async (i) => {
        const token = `tok-live-${Date.now()}-${i}`;
        const r = await postEvents(app.url, srv.name, srv.secret, [
          { id: `${token}-o`, token, type: 'session.opened', at: new Date().toISOString() },
        ]);
        if (r.status !== 200) throw new Error(`ingest ${r.status}`);
      },
      async () => {
        base++;
        await page.waitForFunction(
          ([sel, want]) => Number((document.querySelector(sel as string)?.textContent ?? '').replace(/,/g, '')) >= (want as number),
          [tile, base] as const,
          { polling: 50 },
        );
      },
    );
    const liveToken = `tok-live-session-${Date.now()}`;
    const t0 = Date.now() - 5_000;
    const opened = await postEvents(app.url, srv.name, srv.secret, [
      { id: `${liveToken}-o`, token: liveToken, type: 'session.opened', at: new Date(t0).toISOString() },
    ]);
    if (opened.status !== 200) throw new Error(`ingest ${opened.status}`);
    await page.goto(`${app.url}/servers/${srv.name}/sessions/${liveToken}`);
    await page.locator('[data-testid="data-age"][data-stream="open"]').waitFor();
    const rows = '[data-testid="event-row"]';
    await page.locator(rows).first().waitFor();
    let rowCount = await page.locator(rows).count();
    const session = await eventToVisible(
      page,
      eventsN,
      async (i) => {
        const r = await postEvents(app.url, srv.name, srv.secret, [
          { id: `${liveToken}-x${i}`, token: liveToken, type: 'stream.dropped', at: new Date().toISOString(), data: { reason: 'bench' } },
        ]);
        if (r.status !== 200) throw new Error(`ingest ${r.status} ${JSON.stringify(r.body)}`);
      },
      async () => {
        rowCount++;
        await page.waitForFunction(
          ([sel, want]) => document.querySelectorAll(sel as string).length >= (want as number),
          [rows, rowCount] as const,
          {
            polling: 50,
          },
        );
      },
    );

    // Prefetch requests over an open sessions list (refresh every 5 s, as measured in issue 13).
    let watchRsc = 0;
    let watchPrefetch = 0;
    page.on('request', (r) => {
      if (isRsc(r)) watchRsc++;
      if (isPrefetch(r)) watchPrefetch++;
    });
    await page.goto(`${app.url}/sessions?refresh=5s`);
    await page.locator(PAGES[1].selector).first().waitFor();
    await page.waitForTimeout(watchS * 1000);
    await context.close();

    const ev = (xs: number[]) => {
      const s = latencySummary(xs);
      return { n: s.n, p50: s.p50, p95: s.p95 };
    };
    return {
      bench: 'ui',
      at: new Date().toISOString(),
      machine: { ...machine(), loadavgBefore: loadBefore },
      build: build.buildId,
      data: { servers: SERVERS.length, sessions: seeded.sessions, events: seeded.events },
      runs,
      pages,
      eventToVisibleMs: { overview: ev(overview), session: ev(session) },
      sessionsListWatch: { seconds: watchS, refresh: '5s', rscRequests: watchRsc, prefetchRequests: watchPrefetch },
    };
  } finally {
    await browser.close();
    await app.stop();
    cleanupSqlite(db.dir);
  }
}
