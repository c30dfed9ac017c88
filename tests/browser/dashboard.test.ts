// The operator's path through an incident, in a real browser against the real app:
// log in, read the seeded numbers, drill from a chart into the list and one timeline,
// follow the renegotiation chain, change the time range (URL changes), look up a token.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { ADMIN_TOKEN, SERVERS, TOKENS, launch, seed, serversEnv, shot } from './fixtures';
import { postEvents, postSigned } from '../support/post-events';
import { signedIn } from '../support/signed-in';

let app: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

const tileValue = (testId: string) => page.locator(`[data-testid="${testId}"] .tile-value`).innerText();

describe('dashboard', () => {
  before(async () => {
    [app, browser] = await Promise.all([startAppServer({ env: { DOORWATCH_SERVERS: serversEnv() } }), launch()]);
    await seed(app.url);
    context = await browser.newContext({ viewport: { width: 1366, height: 768 }, colorScheme: 'light', timezoneId: 'UTC' });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(`${String(e)} on ${page.url()}`));
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  test('an unauthenticated visit lands on the login page, a wrong token is refused, the admin token signs in', async () => {
    await page.goto(`${app.url}/`);
    await page.waitForURL(/\/login\?next=/);
    await page.screenshot({ path: shot('01-login') });
    // Without single sign-on the token is the way in, and the intro says so (oidc.test.ts: with it).
    assert.match(await page.locator('[data-testid="login-intro"]').innerText(), /Sign in with an operator token\.$/);
    assert.equal(await page.locator('[data-testid="login-sso"]').count(), 0);
    // A demo user is told where the demo keeps its token.
    assert.match(await page.locator('#login-hint').innerText(), /npm run demo.*adminToken.*data\/demo-credentials\.json/);
    await page.fill('[data-testid="login-token"]', 'dw_wrong_token_000000000000000000');
    await page.click('[data-testid="login-submit"]');
    await page.locator('#login-error').waitFor();
    assert.match(await page.locator('#login-error').innerText(), /not accepted/);
    await page.fill('[data-testid="login-token"]', ADMIN_TOKEN);
    await page.click('[data-testid="login-submit"]');
    await page.waitForURL((u) => u.pathname === '/');
    await page.locator('[data-testid="overview"]').waitFor();
    // The one default range (lib/time DEFAULT_RANGE), the same as the API's.
    assert.match(await page.locator('[data-testid="time-range-button"]').innerText(), /Last 15 minutes/);
  });

  test('the overview shows the seeded numbers, the ongoing deadlock first', async () => {
    // The seed starts 20 min ago, before the default 15-minute range.
    await page.goto(`${app.url}/?from=now-1h&to=now`);
    await page.locator('[data-testid="tile-boundary"]').waitFor();
    const alarm = page.locator('[data-testid="ongoing-deadlocks"]');
    await alarm.waitFor();
    assert.match(await alarm.innerText(), /^1\b/);
    assert.equal(await tileValue('tile-boundary'), '4');
    assert.equal(await tileValue('tile-refused'), '1');
    assert.equal(await tileValue('tile-naive'), '2');
    assert.equal(await tileValue('tile-dual'), '1');
    assert.equal(await tileValue('tile-deadlocks'), '2');
    assert.equal(await tileValue('tile-renegotiations'), '1');
    assert.equal(await tileValue('tile-refusal-p95'), '48 ms');
    const strip = page.locator('[data-testid="server-strip"]');
    assert.match(await strip.locator('[data-testid="strip-mcp-naive"]').innerText(), /naive/);
    assert.match(await strip.locator('[data-testid="strip-mcp-good"]').innerText(), /refuses/);
    await page.locator('[data-testid="chart-boundary"] .recharts-bar-rectangle').first().waitFor();
    await page.screenshot({ path: shot('02-overview'), fullPage: true });
  });

  test('clicking a bar drills down to the sessions of that bucket, then to one timeline', async () => {
    // The first rectangle drawn is the "refused" series' only non-empty bucket.
    await page.locator('[data-testid="chart-boundary"] .recharts-bar-rectangle').first().click();
    await page.waitForURL(/\/sessions\?/);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('flag'), 'refused');
    assert.match(url.searchParams.get('from') ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);
    assert.equal(Date.parse(url.searchParams.get('to')!) - Date.parse(url.searchParams.get('from')!), 60_000);
    const rows = page.locator('[data-testid="session-row"]');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 1);
    assert.equal(await rows.first().getAttribute('data-token'), TOKENS.refused);
    await page.screenshot({ path: shot('03-sessions-drilldown') });

    await rows.first().locator('[data-testid="session-link"]').click();
    await page.waitForURL(new RegExp(`/servers/mcp-good/sessions/${TOKENS.refused}`));
    await page.locator('[data-testid="timeline-svg"]').waitFor();
    assert.equal(await page.locator('[data-testid="door-marker"]').count(), 1);
    assert.match((await page.locator('[data-testid="refusal-bracket"]').textContent()) ?? '', /refused in 48 ms/);
    const rowsText = await page.locator('[data-testid="event-row"]').allInnerTexts();
    assert.equal(rowsText.length, 5);
    assert.match(rowsText[4], /resume\.refused[\s\S]*burned[\s\S]*burned/);
    assert.match(await page.locator('[data-testid="callout-renegotiation"]').innerText(), /132 ms/);
    await page.screenshot({ path: shot('04-session-refused'), fullPage: true });
  });

  test('the renegotiation chain links to the successor and back', async () => {
    await page.locator(`[data-testid="chain-link"][data-token="${TOKENS.successor}"]`).click();
    await page.waitForURL(new RegExp(`/sessions/${TOKENS.successor}`));
    await page.locator('[data-testid="session-token"]', { hasText: TOKENS.successor }).waitFor();
    await page.locator(`[data-testid="chain-link"][data-token="${TOKENS.refused}"]`).click();
    await page.waitForURL(new RegExp(`/sessions/${TOKENS.refused}`));
    await page.locator('[data-testid="session-token"]', { hasText: TOKENS.refused }).waitFor();
  });

  test('token lookup (/) finds a session regardless of the time range, the deadlock is drawn', async () => {
    await page.goto(`${app.url}/sessions?from=now-15m&to=now`);
    await page.locator('[data-testid="sessions"]').waitFor();
    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'token-lookup');
    await page.keyboard.type(TOKENS.deadlock);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/servers/mcp-naive/sessions/${TOKENS.deadlock}`));
    const bracket = page.locator('[data-testid="deadlock-bracket"]');
    await bracket.waitFor();
    assert.match((await bracket.textContent()) ?? '', /deadlock 5 m 00 s/);
    const resumeAccepted = page.locator('[data-testid="event-row"][data-type="resume.accepted"]');
    assert.match(await resumeAccepted.innerText(), /WebSocket side\s+SSE side/);
    await page.screenshot({ path: shot('05-session-deadlock'), fullPage: true });

    await page.goto(`${app.url}/tokens/${TOKENS.dual}`);
    await page.waitForURL(new RegExp(`/servers/mcp-naive/sessions/${TOKENS.dual}`));
    await page.locator('[data-testid="timeline-svg"]').waitFor();
    assert.match(await page.locator('[data-testid="event-row"][data-type="upgrade.rejected"]').innerText(), /SSE side\s+WebSocket side/);
    await page.screenshot({ path: shot('06-session-dual'), fullPage: true });
  });

  test('the session list filters, sorts, pages with a cursor and exports the whole filter', async () => {
    await page.goto(`${app.url}/sessions?from=now-1h&to=now&limit=2`);
    const rows = page.locator('[data-testid="session-row"]');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 2);
    const seen = new Set(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-token'))));
    await page.click('[data-testid="next-page"]');
    await page.waitForURL(/cursor=/);
    await page.waitForFunction(
      (first) => document.querySelector('[data-testid="session-row"]')?.getAttribute('data-token') !== first,
      [...seen][0],
    );
    for (const t of await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-token')))) seen.add(t);
    await page.click('[data-testid="next-page"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length === 1);
    for (const t of await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-token')))) seen.add(t);
    assert.equal(seen.size, 5);
    assert.equal(await page.locator('[data-testid="next-page"]').isDisabled(), true);

    // Flag filter (cursor dropped), sort, token prefix: all in the URL.
    const naiveToggle = page.locator('label.flag-toggle', { has: page.locator('[data-testid="flag-naive_resume"]') });
    await naiveToggle.click();
    await page.waitForURL((u) => u.searchParams.get('flag') === 'naive_resume' && !u.searchParams.has('cursor'));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length === 2);
    await page.click('[data-testid="sort-firstEventAt"]');
    await page.waitForURL(/sort=-firstEventAt/);
    await page.waitForFunction(
      (t) => document.querySelector('[data-testid="session-row"]')?.getAttribute('data-token') === t,
      TOKENS.ongoing,
    );
    await page.fill('[data-testid="token-filter"]', 'tok-naive-dead');
    await page.waitForURL(/token=tok-naive-dead/);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length === 1);
    await page.screenshot({ path: shot('12-sessions-filtered') });

    // Export: the links carry the filter, not the page; the cookie session authorises them.
    await naiveToggle.click();
    await page.fill('[data-testid="token-filter"]', '');
    await page.waitForURL((u) => !u.searchParams.has('token') && !u.searchParams.has('flag'));
    const csvHref = await page.locator('[data-testid="export-csv"]').getAttribute('href');
    assert.ok(csvHref && !/cursor=|limit=/.test(csvHref), csvHref ?? '');
    // The window on screen as absolute instants (the page says now-1h): a later download covers
    // the same hour, not the hour before the click. Minute-aligned like the list's own range.
    const exported = new URL(csvHref, app.url).searchParams;
    const [fromMs, toMs] = (['from', 'to'] as const).map((edge) => {
      const v = exported.get(edge) ?? '';
      assert.match(v, /^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/, `${edge} of ${csvHref}`);
      return Date.parse(v);
    });
    assert.ok(toMs - fromMs >= 3_600_000 && toMs - fromMs <= 3_660_000, `${csvHref}: an hour, widened to whole minutes`);
    assert.ok(Math.abs(toMs - Date.now()) < 5 * 60_000, `${csvHref}: ends about now`);
    assert.equal(
      new URL((await page.locator('[data-testid="export-json"]').getAttribute('href')) ?? '', app.url).searchParams.get('from'),
      exported.get('from'),
    );
    // …and the page says which window that is.
    assert.match(
      await page.locator('[data-testid="export-window"]').innerText(),
      /^Export this filter, \d{4}-\d\d-\d\d \d{2}:\d{2}( – \d{4}-\d\d-\d\d |–)\d{2}:\d{2}:$/,
    );
    const csv = await context.request.get(`${app.url}${csvHref}`);
    assert.equal(csv.status(), 200);
    const lines = (await csv.text()).trim().split(/\r?\n/);
    assert.equal(lines.length, 6, 'header + all 5 sessions, not just one page');
    const json = await context.request.get(`${app.url}${await page.locator('[data-testid="export-json"]').getAttribute('href')}`);
    assert.equal(((await json.json()) as unknown[]).length, 5);

    // Several states from a link (any of) are shown as they are, not silently narrowed to one.
    await page.goto(`${app.url}/sessions?from=now-1h&to=now&state=upgrade_pending,terminated`);
    await rows.first().waitFor();
    const state = page.locator('[data-testid="state-select"]');
    assert.equal(await state.inputValue(), 'upgrade_pending,terminated');
    assert.equal(await state.locator('option:checked').innerText(), 'upgrade pending or terminated');
  });

  /**
   * A signed-in page in a fresh context whose scripts wait for `release()`: the server-rendered page is on
   * screen and React not yet listening. Routing turns the page's HTTP cache off, so the held scripts are
   * not served from it.
   */
  async function pageWithHeldScripts({ signIn = true } = {}) {
    const held = await browser.newContext({ timezoneId: 'UTC' });
    const p = signIn ? await signedIn(held, app.url) : await held.newPage();
    let release: () => void = () => undefined;
    let released = Promise.resolve();
    await p.route('**/_next/static/**/*.js', async (route) => {
      await released;
      await route.continue();
    });
    return {
      p,
      held,
      // A held script can still be in route.continue() at close; its rejection would land after the test.
      close: async () => {
        await p.unrouteAll({ behavior: 'ignoreErrors' });
        await held.close();
      },
      release: () => release(),
      /** Loads `path` as a full page with its scripts held (not p.goto: the fixtures' goto waits for hydration). */
      open: async (path: string, loaded: RegExp | ((u: URL) => boolean)) => {
        released = new Promise<void>((r) => (release = r));
        await p.evaluate((u) => (window.location.href = u), `${app.url}${path}`);
        await p.waitForURL(loaded, { waitUntil: 'commit' });
      },
    };
  }

  test('a token typed into the list before the page has hydrated still filters it', async () => {
    // A slow network, or a navigation Next.js turns into a full page load (it does when an RSC
    // answer fails), shows the server-rendered input seconds before React listens to it. Clean-clone
    // CI lost such a token once: the URL never changed and hydration put the empty value back.
    const { p, open, release, close } = await pageWithHeldScripts();
    try {
      await open('/sessions?from=now-1h&to=now&flag=naive_resume', /\/sessions\?/);
      await p.fill('[data-testid="token-filter"]', 'tok-naive-dead');
      assert.equal(await p.locator('html[data-hydrated]').count(), 0, 'typed before hydration');
      release();
      await p.waitForURL(/token=tok-naive-dead/);
      await p.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length === 1);
      assert.equal(await p.locator('[data-testid="session-row"]').getAttribute('data-token'), TOKENS.deadlock);
      assert.equal(await p.inputValue('[data-testid="token-filter"]'), 'tok-naive-dead');
    } finally {
      await close();
    }
  });

  test('the top bar finds a token typed before the page has hydrated, with Enter pressed then or after', async () => {
    const { p, open, release, close } = await pageWithHeldScripts();
    const overviewUnhydrated = async () => {
      await open('/?from=now-1h&to=now', (u) => u.pathname === '/');
      await p.locator('[data-testid="token-lookup"]').waitFor();
    };
    try {
      // Enter before hydration: the form goes as HTML, and /tokens?token=… leads on to the token's page.
      await overviewUnhydrated();
      await p.fill('[data-testid="token-lookup"]', TOKENS.deadlock);
      assert.equal(await p.locator('html[data-hydrated]').count(), 0, 'typed before hydration');
      await p.press('[data-testid="token-lookup"]', 'Enter');
      await p.waitForURL(new RegExp(`/tokens/${TOKENS.deadlock}$`), { waitUntil: 'commit' });
      release();
      await p.waitForURL(new RegExp(`/servers/mcp-naive/sessions/${TOKENS.deadlock}`));
      // Typed before hydration, Enter after it: the text is what the search looks up.
      await overviewUnhydrated();
      await p.fill('[data-testid="token-lookup"]', TOKENS.dual);
      release();
      await p.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await p.press('[data-testid="token-lookup"]', 'Enter');
      await p.waitForURL(new RegExp(`/servers/mcp-naive/sessions/${TOKENS.dual}`));
    } finally {
      await close();
    }
  });

  test('the login form signs in with Enter before the page has hydrated, the token never enters a URL, and a refusal is said once', async () => {
    // Before, the form had no method: Enter before hydration was a GET to /login?token=<the token>,
    // into the browser's history and every access log on the way.
    const { p, held, open, release, close } = await pageWithHeldScripts({ signIn: false });
    const urls: string[] = [];
    held.on('request', (r) => urls.push(r.url()));
    const loginUnhydrated = async (path: string) => {
      // Off the signed-in page first: once its cookie is gone, its next refresh would be sent to /login?next=<itself>.
      await p.goto('about:blank');
      await held.clearCookies();
      await open(path, (u) => `${u.pathname}${u.search}` === path);
      await p.locator('[data-testid="login-token"]').waitFor();
      assert.equal(await p.locator('html[data-hydrated]').count(), 0, 'before hydration');
    };
    try {
      // A wrong token, Enter before hydration: back to the login page, which says why.
      await loginUnhydrated('/login?next=%2Falerts');
      await p.fill('[data-testid="login-token"]', 'dw_wrong_token_typed_early_0000000');
      await p.press('[data-testid="login-token"]', 'Enter');
      await p.waitForURL(/\/login\?error=token_refused&next=%2Falerts$/, { waitUntil: 'commit' });
      await p.locator('#login-error').waitFor();
      assert.match(await p.locator('#login-error').innerText(), /not accepted/);
      // Once the scripts run, the code leaves the URL and the words stay; a reload does not say it again.
      release();
      await p.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await p.waitForURL(/\/login\?next=%2Falerts$/);
      assert.match(await p.locator('#login-error').innerText(), /not accepted/);
      await p.reload();
      await p.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await p.locator('#login-hint').waitFor();
      assert.equal(await p.locator('#login-error').count(), 0, 'a reload repeats no refusal');
      // The right one, Enter before hydration: signed in, on to `next`.
      await loginUnhydrated('/login?next=%2Falerts');
      await p.fill('[data-testid="login-token"]', ADMIN_TOKEN);
      await p.press('[data-testid="login-token"]', 'Enter');
      await p.waitForURL((u) => u.pathname === '/alerts', { waitUntil: 'commit' });
      release();
      await p.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      assert.ok((await held.cookies()).some((c) => c.name === 'dw_session'));
      // Typed before hydration, Enter after it: the script signs in with what was typed.
      await loginUnhydrated('/login?next=%2Fsessions');
      await p.fill('[data-testid="login-token"]', ADMIN_TOKEN);
      release();
      await p.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await p.press('[data-testid="login-token"]', 'Enter');
      await p.waitForURL((u) => u.pathname === '/sessions');
      assert.deepEqual(
        urls.filter((u) => u.includes(ADMIN_TOKEN) || u.includes('dw_wrong_token')),
        [],
      );
    } finally {
      await close();
    }
  });

  test('changing the time range changes the URL, and the URL reproduces the view', async () => {
    await page.goto(`${app.url}/`);
    await page.locator('[data-testid="tile-boundary"]').waitFor();
    await page.click('[data-testid="time-range-button"]');
    await page.click('[data-testid="preset-15m"]');
    await page.waitForURL(/from=now-15m/);
    // Only the ongoing deadlock (2 min ago) entered the boundary in the last 15 minutes.
    await page.waitForFunction(() => document.querySelector('[data-testid="tile-boundary"] .tile-value')?.textContent === '1');
    assert.equal(await tileValue('tile-dual'), '0');
    // Keyboard: 4 = last 7 days.
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('4');
    await page.waitForURL(/from=now-7d/);
    // Absolute range typed into the picker.
    await page.click('[data-testid="time-range-button"]');
    await page.fill('[data-testid="range-from"]', '2020-01-01 00:00');
    await page.fill('[data-testid="range-to"]', '2020-01-02 00:00');
    await page.click('[data-testid="range-apply"]');
    await page.waitForURL(/from=2020-01-01T00%3A00%3A00\.000Z/);
    await page.locator('[data-testid="empty-state"]').first().waitFor();
    // A fresh page from the same URL shows the same range.
    const again = await context.newPage();
    await again.goto(page.url());
    assert.match(await again.locator('[data-testid="time-range-button"]').innerText(), /2020-01-01 00:00/);
    await again.close();
    // Auto-refresh lands in the URL too.
    await page.goto(`${app.url}/?from=now-1h&to=now`);
    await page.locator('[data-testid="tile-boundary"]').waitFor();
    await page.selectOption('[data-testid="refresh-select"]', '5s');
    await page.waitForURL(/refresh=5s/);
    // The next stats request comes by itself within the interval, and the indicator shows it
    // (the answer is held back a little so the indicator is observable).
    await page.route('**/api/v1/stats?*', async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.continue().catch(() => undefined);
    });
    const [refetch] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/api/v1/stats'), { timeout: 8000 }),
      page.waitForSelector('[data-testid="refresh-indicator"][data-fetching="true"]', { timeout: 8000 }),
    ]);
    assert.match(refetch.url(), /from=now-1h/);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  test('a late answer to a request sent before Doorwatch stopped answering does not make an offline page current', async () => {
    await page.goto(`${app.url}/?from=now-1h&to=now&refresh=5s`);
    await page.locator('[data-testid="tile-boundary"]').waitFor();
    const errorsBefore = consoleErrors.length;
    // The next stats request is held in flight; every other API request meets a gateway that
    // cannot reach Doorwatch (502), so the page goes offline while the held request is out.
    let held: Route | null = null;
    let failed = 0;
    let failedAgain: () => void = () => undefined;
    await page.route('**/api/**', async (route) => {
      if (!held && route.request().url().includes('/api/v1/stats')) {
        held = route;
        return;
      }
      await route.fulfill({ status: 502, body: '' });
      failed++;
      failedAgain();
    });
    const age = page.locator('[data-testid="data-age"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="data-age"]')?.getAttribute('data-stale') === 'true');
    assert.match(await age.innerText(), /offline/);
    const late = held as Route | null;
    assert.ok(late, 'the stats request left before the page went offline');
    // Record every value the indicator takes from here on: before the fix a flip to current lasted
    // only until the next failure, so the end state alone would not show it.
    await page.evaluate(() => {
      const el = document.querySelector('[data-testid="data-age"]')!;
      const seen: string[] = [];
      (window as unknown as { staleSeen: string[] }).staleSeen = seen;
      new MutationObserver(() => seen.push(el.getAttribute('data-stale') ?? '')).observe(el, { attributes: true });
    });
    const answered = page.waitForResponse((r) => r.request() === late.request());
    await late.continue();
    assert.equal((await answered).status(), 200, 'the late answer is a real one');
    // The page takes the answer in milliseconds; two more failures (a refetch tick, seconds apart) follow it.
    const after = failed;
    await new Promise<void>((resolve) => {
      failedAgain = () => failed >= after + 2 && resolve();
    });
    const seen = await page.evaluate(() => (window as unknown as { staleSeen: string[] }).staleSeen);
    assert.deepEqual(
      seen.filter((v) => v !== 'true'),
      [],
      'the page never said it was current',
    );
    assert.equal(await age.getAttribute('data-stale'), 'true');
    assert.match(await age.innerText(), /offline/);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    // The browser logs each 502 this test staged; only those are expected.
    const staged = consoleErrors.splice(errorsBefore);
    consoleErrors.push(...staged.filter((e) => !/status of 502 \(Bad Gateway\)/.test(e)));
  });

  test('dead letters: what a sender got wrong is listed, filtered by code, and its payload opens', async () => {
    const { name, secret } = SERVERS.good;
    const bad = { id: 'dl-bad-type', token: 'tok-dl', type: 'upgrade.maybe', at: new Date().toISOString(), data: {} };
    const ok = { id: 'dl-ok', token: 'tok-dl', type: 'session.opened', at: new Date().toISOString(), data: {} };
    assert.equal((await postEvents(app.url, name, secret, [ok, bad])).status, 207);
    assert.equal((await postSigned(app.url, name, secret, '{"events": oops')).status, 400);
    // The overview says that something was refused, and leads there.
    await page.goto(`${app.url}/?from=now-1h&to=now`);
    assert.match(await page.locator('[data-testid="dead-letter-notice"]').innerText(), /^2\s+payloads were refused/);
    await page.click('[data-testid="dead-letter-notice-link"]');
    await page.waitForURL(/\/dead-letters\?from=now-1h/);
    const rows = page.locator('[data-testid="dead-letter-row"]');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    await page.locator('label.flag-toggle', { has: page.locator('[data-testid="code-invalid_type"]') }).click();
    await page.waitForURL(/code=invalid_type/);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="dead-letter-row"]').length === 1);
    await rows.first().locator('summary').click();
    assert.match(await rows.first().locator('[data-testid="dead-letter-payload"]').innerText(), /"type": "upgrade.maybe"/);
    await page.screenshot({ path: shot('13-dead-letters'), fullPage: true });
  });

  test('a viewer reads everything but sees no settings, and cannot change them', async () => {
    const made = await fetch(`${app.url}/api/v1/operators`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'night-shift', role: 'viewer' }),
    });
    assert.equal(made.status, 201);
    const { token } = await made.json();
    const viewerContext = await browser.newContext({ viewport: { width: 1366, height: 768 }, timezoneId: 'UTC' });
    try {
      const viewer = await viewerContext.newPage();
      await viewer.goto(`${app.url}/login`);
      await viewer.fill('[data-testid="login-token"]', token);
      await viewer.click('[data-testid="login-submit"]');
      await viewer.locator('[data-testid="overview"]').waitFor();
      await viewer.waitForLoadState('networkidle'); // who we are (/api/auth/me) is known
      const nav = await viewer.locator('nav').innerText();
      assert.match(nav, /Sessions/);
      assert.match(nav, /Dead letters/);
      assert.doesNotMatch(nav, /Settings/);
      await viewer.goto(`${app.url}/settings`);
      assert.match(await viewer.locator('[data-testid="empty-state"]').innerText(), /Administrators only/);
      // The cookie session of a viewer is refused by the admin API too, not only hidden in the UI.
      const status = await viewer.evaluate(
        async () =>
          (
            await fetch('/api/v1/admin/servers', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{"name":"sneaky"}',
            })
          ).status,
      );
      assert.equal(status, 403);
      await viewer.screenshot({ path: shot('14-settings-viewer') });
    } finally {
      await viewerContext.close();
    }
  });

  test('servers, settings, help and the dark theme render', async () => {
    // A reporter that lost events says so; the server row warns that its verdict may rest on partial data.
    const { name, secret } = SERVERS.naive;
    const batch = {
      events: [{ id: 'loss-1', token: 'tok-loss', type: 'stream.dropped', at: new Date().toISOString(), data: {} }],
      reporter: { instance: 'naive-host-1', dropped: 3, failed: 1 },
    };
    assert.equal((await postSigned(app.url, name, secret, JSON.stringify(batch))).status, 200);
    await page.goto(`${app.url}/servers`);
    await page.locator('[data-testid="server-row-mcp-good"]').waitFor();
    assert.equal(await page.locator('[data-testid="server-row-mcp-naive"] [data-testid="reporter-loss"]').innerText(), '⚠ 4 lost');
    assert.equal(await page.locator('[data-testid="server-row-mcp-good"] [data-testid="reporter-loss"]').count(), 0);
    await page.screenshot({ path: shot('07-servers') });
    await page.goto(`${app.url}/settings`);
    await page.locator('[data-testid="operators-table"]').waitFor();
    await page.screenshot({ path: shot('08-settings'), fullPage: true });
    await page.goto(`${app.url}/?from=now-1h&to=now`);
    await page.locator('[data-testid="tile-boundary"]').waitFor();
    await page.keyboard.press('u');
    await page.waitForURL(/tz=utc/);
    // Wait for the render the URL change causes rather than reading the toggle at once.
    await page.locator('[data-testid="tz-toggle"]', { hasText: /^UTC$/ }).waitFor();
    await page.keyboard.press('?');
    await page.locator('[data-testid="help-dialog"]').waitFor();
    await page.screenshot({ path: shot('09-help') });
    await page.keyboard.press('Escape');
    await page.click('[data-testid="theme-toggle"]');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await page.locator('[data-testid="chart-boundary"] .recharts-bar-rectangle').first().waitFor();
    await page.screenshot({ path: shot('10-overview-dark'), fullPage: true });
    await page.goto(`${app.url}/servers/mcp-naive/sessions/${TOKENS.ongoing}`);
    await page.locator('[data-testid="timeline-svg"]').waitFor();
    await page.screenshot({ path: shot('11-session-ongoing-dark'), fullPage: true });
    // Error and empty states.
    await page.goto(`${app.url}/?from=yesterday-ish`);
    assert.match(await page.locator('[data-testid="error-state"]').innerText(), /not a time/);
    await page.goto(`${app.url}/servers/mcp-good/sessions/tok-does-not-exist`);
    assert.match(await page.locator('[data-testid="empty-state"]').innerText(), /No session tok-does-not-exist/);
    // Only the expected failures above (401 before login, the 400 and the 404) reached the console.
    assert.deepEqual(
      consoleErrors.filter((e) => !/status of (400|401|404)/.test(e)),
      [],
    );
  });
});
