// Wrong addresses and the operator's time zone. An unknown page or server answers 404 inside the
// app shell, in the current theme, and says which (a page, or a server that does not exist); a
// link to a bad range says what is wrong with a one-click way back. Local times are rendered by
// the server in the browser's zone (the doorwatch-tz cookie), so hydration never meets a differing
// text: the console stays clean in two zones that are not the server's (React's #418 otherwise).
// Screenshots land in test-output/screenshots/errors-*.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { signedIn } from '../support/signed-in';
import { SERVERS, TOKENS, launch, seed, serversEnv, shot } from './fixtures';

// A zone neither browser below is in, with an offset no one would guess (+13:45 / +12:45).
const SERVER_TZ = 'Pacific/Chatham';
const BROWSER_ZONES = ['America/New_York', 'Asia/Kolkata'];

let app: AppServer;
let browser: Browser;
let anchor: number;

/** The page, with the console errors and uncaught errors it logs from now on. */
/** HH:MM:SS.mmm of `ms` in `zone`, by the browser-independent Intl of this test process. */
function clockIn(ms: number, zone: string): string {
  const hms = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(ms);
  return `${hms}.${String(ms % 1000).padStart(3, '0')}`;
}

describe('wrong addresses, time zones', () => {
  before(async () => {
    [app, browser] = await Promise.all([startAppServer({ env: { DOORWATCH_SERVERS: serversEnv(), TZ: SERVER_TZ } }), launch()]);
    anchor = await seed(app.url);
  });

  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  test('an /api path no route serves is a JSON 404 (not_found), never the HTML page', async () => {
    for (const path of ['/api/v1/nope', '/api/nope/deeper', '/api']) {
      const res = await fetch(`${app.url}${path}`);
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/, path);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'not_found', path);
      assert.match(body.error.message, /no API operation at GET/);
    }
  });

  for (const theme of ['light', 'dark'] as const)
    for (const width of [1440, 390])
      test(`${width} px, ${theme}: an unknown page and an unknown server answer 404 in the shell and theme, each saying which`, async () => {
        const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, colorScheme: theme });
        try {
          const errors: string[] = [];
          const page = await signedIn(context, app.url, errors);
          const inShell = async () => {
            assert.equal(await page.locator('header.topbar').count(), 1);
            assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
            assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= width, 'no sideways scroll');
          };

          // An unknown page.
          const missing = await page.goto(`${app.url}/nope/deeper?from=now-1h&to=now`);
          assert.equal(missing?.status(), 404);
          await page.locator('[data-testid="not-found"]').waitFor();
          assert.match(await page.locator('[data-testid="not-found"]').innerText(), /There is no page at this address/);
          await inShell();
          await page.screenshot({ path: shot(`errors-not-found-${width}-${theme}`), fullPage: true });

          // An unknown server's own address: 404, says the server does not exist, links back.
          const server = await page.goto(`${app.url}/servers/mcp-nope?from=now-1h&to=now`);
          assert.equal(server?.status(), 404);
          const notice = page.locator('[data-testid="unknown-server"]');
          await notice.waitFor();
          assert.match(await notice.innerText(), /There is no server mcp-nope/);
          assert.match(await notice.innerText(), /none is configured and none has reported/);
          await inShell();
          await page.screenshot({ path: shot(`errors-unknown-server-${width}-${theme}`), fullPage: true });
          // The way back keeps the link's range and drops the server that does not exist.
          await notice.getByRole('link', { name: 'See the servers it knows' }).click();
          await page.waitForURL((u) => u.pathname === '/servers');
          assert.equal(new URL(page.url()).searchParams.get('from'), 'now-1h');
          await page.locator(`[data-testid="server-row-${SERVERS.good.name}"]`).waitFor();

          // A session on an unknown server: the same 404, not "no such session".
          const session = await page.goto(`${app.url}/servers/mcp-nope/sessions/tok-x`);
          assert.equal(session?.status(), 404);
          await notice.waitFor();
          assert.match(await notice.innerText(), /There is no server mcp-nope/);
          assert.doesNotMatch(await page.locator('main').innerText(), /No session/);

          // An unknown token on a known server says that instead (and stays a live page: the session may report in a moment).
          const token = await page.goto(`${app.url}/servers/${SERVERS.good.name}/sessions/tok-x`);
          assert.equal(token?.status(), 200);
          await page.locator('[data-testid="empty-state"]').waitFor();
          assert.match(await page.locator('[data-testid="empty-state"]').innerText(), /No session tok-x on mcp-good/);

          // A known server's address is its overview, the range kept.
          await page.goto(`${app.url}/servers/${SERVERS.naive.name}?from=now-1h&to=now&tz=utc`);
          await page.waitForURL((u) => u.pathname === '/' && u.searchParams.get('server') === SERVERS.naive.name);
          const url = new URL(page.url());
          assert.deepEqual(
            [url.searchParams.get('from'), url.searchParams.get('to'), url.searchParams.get('tz')],
            ['now-1h', 'now', 'utc'],
          );

          // The only console errors are the browser's notes of the 404 answers.
          assert.deepEqual(
            errors.filter((e) => !/status of 404/.test(e)),
            [],
          );
        } finally {
          await context.close();
        }
      });

  test('a bad range in a link, on every page with a range: what is wrong and one click back, no Retry', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    try {
      const page = await signedIn(context, app.url);
      for (const path of ['/sessions', '/dead-letters', '/'])
        for (const [bad, why] of [
          ['from=banana', /from="banana" is not a time/],
          ['from=now&to=banana', /to="banana" is not a time/],
          ['from=now-5m&to=now-1h', /must be before/],
        ] as const) {
          await page.goto(`${app.url}${path}?${bad}&server=${SERVERS.naive.name}`);
          const error = page.locator('[data-testid="error-state"]').first();
          await error.waitFor();
          assert.match(await error.innerText(), why, `${path}?${bad}`);
          // The picker does not pass the fallback off as the link's range.
          assert.match(await page.locator('[data-testid="time-range-button"]').innerText(), /Invalid time range/, `${path}?${bad}`);
          assert.equal(await page.locator('[data-testid="error-state"] button', { hasText: 'Retry' }).count(), 0, `${path}?${bad}`);
          await error.locator('[data-testid="reset-range"]').click();
          await page.waitForURL((u) => u.pathname === path && !u.searchParams.has('from') && !u.searchParams.has('to'));
          assert.equal(new URL(page.url()).searchParams.get('server'), SERVERS.naive.name);
          await page.locator('[data-testid="error-state"]').waitFor({ state: 'detached' });
        }
      await page.goto(`${app.url}/sessions?from=banana`);
      await page.locator('[data-testid="error-state"]').waitFor();
      await page.screenshot({ path: shot('errors-bad-range-1440-light') });
    } finally {
      await context.close();
    }
  });

  for (const zone of BROWSER_ZONES)
    test(`a browser in ${zone} (the server in ${SERVER_TZ}): the server writes local times in the browser's zone; no console error on any page`, async () => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', timezoneId: zone });
      try {
        const errors: string[] = [];
        const page = await signedIn(context, app.url, errors);
        // The boot script told the server the browser's zone (by the browser's name for it: Chromium says Asia/Calcutta).
        const named = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
        const cookie = (await context.cookies(app.url)).find((c) => c.name === 'doorwatch-tz');
        assert.equal(cookie && decodeURIComponent(cookie.value), named);

        // The first event of the refused session is at the seed's anchor: its time, as the server wrote it.
        const sessionPath = `/servers/${SERVERS.good.name}/sessions/${TOKENS.refused}`;
        const res = await page.goto(`${app.url}${sessionPath}`);
        const html = (await res?.text()) ?? '';
        assert.ok(html.includes(clockIn(anchor, zone)), `the server's HTML has ${clockIn(anchor, zone)} (${zone})`);
        assert.ok(!html.includes(clockIn(anchor, SERVER_TZ)), `the server's HTML has no ${SERVER_TZ} time`);
        const first = page.locator('[data-testid="event-row"]').first().locator('td').nth(1);
        assert.equal((await first.innerText()).trim(), clockIn(anchor, zone));

        for (const path of [
          '/?from=now-1h&to=now',
          '/sessions?from=now-1h&to=now',
          `/servers/${SERVERS.naive.name}/sessions/${TOKENS.ongoing}`,
          '/servers',
          '/alerts',
          '/dead-letters?from=now-1h&to=now',
          `/tokens/${TOKENS.dual}`,
          '/settings',
        ]) {
          await page.goto(`${app.url}${path}`);
          await page.locator('main').waitFor();
        }
        // Lists read relative times, the absolute one on hover: servers (last seen, registered), operators.
        for (const [path, cell] of [
          ['/servers', `[data-testid="server-row-${SERVERS.naive.name}"] [data-testid="server-last-seen"]`],
          ['/settings', 'table time'],
        ]) {
          await page.goto(`${app.url}${path}`);
          const time = page.locator(cell).first();
          await time.waitFor();
          assert.match(await time.innerText(), /^(just now|\d+ (s|min|h|d) ago)$/, `${path}: ${await time.innerText()}`);
          assert.match((await time.getAttribute('title')) ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/, path);
        }
        // Hover on a relative time shows the absolute one, in the browser's zone.
        await page.goto(`${app.url}/sessions?from=now-1h&to=now`);
        const row = page.locator(`[data-testid="session-row"][data-token="${TOKENS.refused}"]`);
        const title = await row.locator('time').first().getAttribute('title');
        assert.equal(title?.slice(11), clockIn(anchor, zone));
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });

  test('no zone cookie yet (a first visit): the server writes its own zone, hydration matches it, then the browser shows its own', async () => {
    const zone = BROWSER_ZONES[1];
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', timezoneId: zone });
    try {
      const errors: string[] = [];
      const page = await signedIn(context, app.url, errors);
      await context.clearCookies({ name: 'doorwatch-tz' });
      const res = await page.goto(`${app.url}/servers/${SERVERS.good.name}/sessions/${TOKENS.refused}`);
      assert.ok(((await res?.text()) ?? '').includes(clockIn(anchor, SERVER_TZ)), "without the cookie, the server's own zone");
      const first = page.locator('[data-testid="event-row"]').first().locator('td').nth(1);
      await page.waitForFunction(
        ([want]) => document.querySelector('[data-testid="event-row"] td:nth-child(2)')?.textContent?.trim() === want,
        [clockIn(anchor, zone)],
      );
      assert.equal((await first.innerText()).trim(), clockIn(anchor, zone));
      // The boot script set the cookie again for the next page.
      const named = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      assert.equal(decodeURIComponent((await context.cookies(app.url)).find((c) => c.name === 'doorwatch-tz')?.value ?? ''), named);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
