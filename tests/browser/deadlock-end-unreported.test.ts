// A deadlock whose server never reported its end, past DOORWATCH_DEADLOCK_MAX_MS, reads as such in
// the browser: the session page's banner stops ticking, says "at least" and why, the session list's
// chip says "end unreported", and the overview counts only the client still waiting as stuck now.
// Screenshots at 1440 (light) and 390 (dark). A list row still ticking turns "end unreported" at the
// maximum by its own clock (the browser's, moved on by hand).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { signedIn } from '../support/signed-in';
import { naiveSession } from '../support/naive-session';
import { SERVERS, launch, serversEnv, shot } from './fixtures';

// Two minutes: the client waiting 20 s stays under it for the whole file.
const MAX_MS = 120_000;
let app: AppServer;
let browser: Browser;

before(async () => {
  [app, browser] = await Promise.all([
    startAppServer({ env: { DOORWATCH_SERVERS: serversEnv(), DOORWATCH_DEADLOCK_MAX_MS: String(MAX_MS) } }),
    launch(),
  ]);
  const naive = SERVERS.naive;
  const now = Date.now();
  // Its server died five minutes ago mid-deadlock; another client has waited 20 s (threshold 10 s).
  for (const [token, t] of [
    ['orphan', now - 5 * 60_000],
    ['waiting', now - 20_000],
  ] as const) {
    const r = await postEvents(app.url, naive.name, naive.secret, naiveSession(token, t));
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

for (const [width, height, theme] of [
  [1440, 900, 'light'],
  [390, 844, 'dark'],
] as const) {
  test(`${width} ${theme}: the session page, the list and the overview tell an unreported end from a client stuck now`, async () => {
    const context = await browser.newContext({ viewport: { width, height }, colorScheme: theme });
    const errors: string[] = [];
    const page = await signedIn(context, app.url, errors);
    try {
      const naive = SERVERS.naive.name;
      await page.goto(`${app.url}/servers/${naive}/sessions/orphan?from=now-1h&to=now`);
      const banner = page.locator('[data-testid="deadlock-banner"]');
      await banner.waitFor();
      assert.equal(await banner.getAttribute('data-ongoing'), 'false');
      assert.equal(await banner.getAttribute('role'), null, 'not an alert: nobody is waiting any more');
      assert.equal(await banner.locator('strong').innerText(), 'Deadlocked for at least 2 m 00 s');
      assert.match(await banner.innerText(), /never reported how the session ended/);
      assert.match(await page.locator('[data-testid="callout-latency"]').innerText(), /≥ 2 m 00 s[\s\S]*→ end unreported/);
      await page.screenshot({ path: shot(`deadlock-end-unreported-session-${width}-${theme}`), fullPage: true });
      // It does not tick: the figure is the maximum, not its age.
      await page.waitForTimeout(1_200);
      assert.equal(await banner.locator('[data-testid="deadlocked-for"]').innerText(), '2 m 00 s');

      await page.goto(`${app.url}/sessions?from=now-1h&to=now&server=${naive}`);
      const chips = page.locator('[data-testid="deadlock-chip"]');
      await chips.nth(1).waitFor();
      const texts = (await chips.allInnerTexts()).map((t) => t.trim()).sort();
      assert.equal(texts.length, 2);
      assert.match(texts[0], /^deadlock ≥ 2 m 00 s, end unreported$/);
      assert.match(texts[1], /^deadlocked [\d.]+ s$/);
      await page.screenshot({ path: shot(`deadlock-end-unreported-list-${width}-${theme}`), fullPage: true });

      await page.goto(`${app.url}/?from=now-1h&to=now`);
      await page.getByText('1 stuck now').first().waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('1440 light: an ongoing deadlock in the list turns "end unreported" at the maximum, with no new answer', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const errors: string[] = [];
  const page = await signedIn(context, app.url, errors);
  try {
    // The browser's clock, moved on by hand: the chip must stop at the maximum by its own clock. On an
    // absolute range no refetch comes to correct it (the list used to tick past the maximum for ever).
    await page.clock.install();
    // A client waiting 11 s (threshold 10 s), posted now: the maximum is 109 s away whatever the tests
    // before took. The last test of the file, so the counts above never see it.
    const naive = SERVERS.naive;
    const posted = await postEvents(app.url, naive.name, naive.secret, naiveSession('ticking', Date.now() - 11_250));
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    const range = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    const answers: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/sessions') answers.push(r.url());
    });
    await page.goto(
      `${app.url}/sessions?from=${range(Date.now() - 3_600_000)}&to=${range(Date.now() + 3_600_000)}&server=${naive.name}&token=ticking`,
    );
    const chip = page.locator('[data-testid="deadlock-chip"]');
    await chip.waitFor();
    assert.match((await chip.innerText()).trim(), /^deadlocked [\d.]+ s$/);
    const asked = answers.length;
    await page.clock.fastForward(MAX_MS);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="deadlock-chip"]')?.textContent?.trim() === 'deadlock ≥ 2 m 00 s, end unreported',
      undefined,
      { timeout: 10_000 },
    );
    assert.equal(answers.length, asked, 'the chip changed by its own clock, not by a new answer');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
