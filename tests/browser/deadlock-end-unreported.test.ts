// A deadlock whose server never reported its end, past DOORWATCH_DEADLOCK_MAX_MS, reads as such in
// the browser: the session page's banner stops ticking, says "at least" and why, the session list's
// chip says "end unreported", and the overview counts only the client still waiting as stuck now.
// Screenshots at 1440 (light) and 390 (dark). A list row still ticking turns "end unreported" at the
// maximum by its own clock (the browser's, moved on by hand).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Request } from 'playwright-core';
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

test('1440 light: a ticking deadlock in the list turns "end unreported" at the maximum by its own clock, with no new answer', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const errors: string[] = [];
  // The browser's clock, moved on by hand below; the app's is not, so no answer can say "end unreported".
  // Installed before any page loads: installed under the open overview, its first ticks read a clock near
  // 1970 at times ("from=now-15m is outside the supported instants", a page error).
  await context.clock.install();
  const page = await signedIn(context, app.url, errors);
  try {
    // A client waiting 11 s (threshold 10 s), posted now: the maximum is 109 s away whatever the tests
    // before took. The last test of the file, so the counts above never see it.
    const naive = SERVERS.naive;
    const posted = await postEvents(app.url, naive.name, naive.secret, naiveSession('ticking', Date.now() - 11_250));
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    const asked: string[] = [];
    let inFlight = 0;
    const isList = (url: string) => new URL(url).pathname === '/api/v1/sessions';
    page.on('request', (r) => {
      if (!isList(r.url())) return;
      asked.push(r.url());
      inFlight++;
    });
    const settled = (r: Request) => void (isList(r.url()) && inFlight--);
    page.on('requestfinished', settled);
    page.on('requestfailed', settled);
    // An absolute range with auto-refresh off: nothing refetches the list, so only the chip's own clock
    // can move it. Live, two refetches would come: the stream's `ready` refetches what is on screen
    // whenever it arrives (this case's first version, counting requests from the chip's first paint,
    // caught one under load in CI), and the list asks again at its answer's `nextChangeAt`, which the
    // moved clock reaches at once while the app's clock, not moved, still reads the deadlock ongoing.
    const range = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    await page.goto(
      `${app.url}/sessions?from=${range(Date.now() - 3_600_000)}&to=${range(Date.now() + 3_600_000)}&server=${naive.name}&token=ticking&refresh=off`,
    );
    const chip = page.locator('[data-testid="deadlock-chip"]');
    await chip.waitFor();
    assert.match((await chip.innerText()).trim(), /^deadlocked [\d.]+ s$/);
    // Hydrated, and whatever hydration asked for answered (a refetch on mount when the server's answer is
    // over the 2 s staleTime old by then): from here on nothing may ask again.
    await page.locator('html[data-hydrated="1"]').waitFor({ state: 'attached' });
    await quiet(() => inFlight === 0, 500);
    const before = asked.length;
    await page.clock.fastForward(MAX_MS);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="deadlock-chip"]')?.textContent?.trim() === 'deadlock ≥ 2 m 00 s, end unreported',
      undefined,
      { timeout: 10_000 },
    );
    assert.deepEqual(asked.slice(before), [], 'the chip changed by its own clock, not by a new answer');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

/** Resolves once `idle()` has held for `forMs` in a row (real time, checked every 50 ms); 10 s at most. */
async function quiet(idle: () => boolean, forMs: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let since = idle() ? Date.now() : null;
  while (since === null || Date.now() - since < forMs) {
    assert.ok(Date.now() < deadline, 'requests still in flight after 10 s');
    await new Promise((r) => setTimeout(r, 50));
    since = idle() ? (since ?? Date.now()) : null;
  }
}

test('1440 light: a client that gets stuck enters the "stuck now" list by the clock alone, on an absolute range', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const errors: string[] = [];
  const page = await signedIn(context, app.url, errors);
  try {
    // Answered naively 1 s ago: a deadlock 9 s from now (threshold 10 s), and no event will say so.
    const naive = SERVERS.naive;
    const posted = await postEvents(app.url, naive.name, naive.secret, naiveSession('turning', Date.now() - 1_250));
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    const range = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    await page.goto(
      `${app.url}/sessions?from=${range(Date.now() - 3_600_000)}&to=${range(Date.now() + 3_600_000)}&server=${naive.name}&token=turning&deadlock=ongoing`,
    );
    assert.equal(await page.locator('[data-testid="list-total"]').innerText(), '0 sessions match');
    await page.locator('[data-testid="data-age"][data-stream="open"]').waitFor();
    // The answer said when its row turns (nextChangeAt); the list asks again then.
    const row = page.locator('[data-testid="session-row"][data-token="turning"]');
    await row.waitFor({ timeout: 20_000 });
    assert.match((await row.locator('[data-testid="deadlock-chip"]').innerText()).trim(), /^deadlocked [\d.]+ s$/);
    assert.equal(await page.locator('[data-testid="list-total"]').innerText(), '1 session matches');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
