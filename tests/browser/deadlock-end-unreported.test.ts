// A deadlock whose server never reported its end, past DOORWATCH_DEADLOCK_MAX_MS, reads as such in
// the browser: the session page's banner stops ticking, says "at least" and why, the session list's
// chip says "end unreported", and the overview counts only the client still waiting as stuck now.
// Screenshots at 1440 (light) and 390 (dark).
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
