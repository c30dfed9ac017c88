// The dashboard says when the database cannot write. The app's SQLite database is on a small
// filesystem of the test's own (tests/support/small-filesystem.ts: needs root, fails saying so
// otherwise); a filler file takes every free byte, a sender's batch is refused 503 database_full,
// and every open page shows the banner (from /api/health) within its poll; space freed, the
// sender's retry is stored and the banner goes. The ingest side under load: tests/integration/disk-full.test.ts.
// Screenshots land in test-output/screenshots/database-full-*.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { signedIn } from '../support/signed-in';
import { mountSmallFilesystem, type SmallFilesystem } from '../support/small-filesystem';
import { SERVERS, launch, seed, serversEnv, shot } from './fixtures';

let fs: SmallFilesystem | null = null;
let app: AppServer | null = null;
let browser: Browser | null = null;

before(async () => {
  fs = mountSmallFilesystem('16m', 'tests/browser/database-full.test.ts');
  [app, browser] = await Promise.all([
    startAppServer({ databaseUrl: `file:${join(fs.dir, 'doorwatch.db')}`, env: { DOORWATCH_SERVERS: serversEnv() } }),
    launch(),
  ]);
  await seed(app.url);
});

after(async () => {
  await browser?.close();
  await app?.stop();
  fs?.unmount();
});

let n = 0;
/** A small batch of new events (a session opened and closed) from mcp-good. */
function batch(): unknown[] {
  const token = `tok-full-${++n}`;
  const at = Date.now() - 60_000;
  return [
    { id: `${token}-1`, token, type: 'session.opened', at: new Date(at).toISOString() },
    { id: `${token}-2`, token, type: 'session.closed', at: new Date(at + 1000).toISOString(), data: { reason: 'done' } },
  ];
}

test('a full disk shows "the database cannot write" on every open page, and it goes once space is freed', async () => {
  const pages: { page: Page; name: string }[] = [];
  for (const [width, scheme] of [
    [1440, 'light'],
    [390, 'dark'],
  ] as const) {
    const context = await browser!.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, colorScheme: scheme });
    // Signed in before the disk fills: a login writes its session.
    pages.push({ page: await signedIn(context, app!.url), name: `${width}-${scheme}` });
  }
  for (const { page } of pages)
    assert.equal(await page.locator('[data-testid="database-banner"]').count(), 0, 'no banner while writes work');

  fs!.fill('filler');
  // SQLite may still fit a few commits in WAL space it already has: send until one is refused.
  let refused: Awaited<ReturnType<typeof postEvents>> | null = null;
  let events: unknown[] = [];
  for (let i = 0; i < 500 && !refused; i++) {
    events = batch();
    const r = await postEvents(app!.url, SERVERS.good.name, SERVERS.good.secret, events);
    if (r.status !== 200) refused = r;
  }
  assert.ok(refused, 'a write was refused on the full disk');
  assert.equal(refused.status, 503, JSON.stringify(refused.body));
  assert.equal(refused.body.error.code, 'database_full');
  assert.ok(refused.headers.get('retry-after'));

  for (const { page, name } of pages) {
    const banner = page.locator('[data-testid="database-banner"]');
    await banner.waitFor({ state: 'visible' });
    assert.match(await banner.innerText(), /The database cannot write: its disk is full[\s\S]*Free disk space/);
    await page.screenshot({ path: shot(`database-full-${name}`) });
  }

  rmSync(join(fs!.dir, 'filler'));
  // The sender's retry of the refused batch is stored, which clears the refusal.
  const retried = await postEvents(app!.url, SERVERS.good.name, SERVERS.good.secret, events);
  assert.equal(retried.status, 200, JSON.stringify(retried.body));
  assert.equal(retried.body.accepted, 2);
  for (const { page } of pages) await page.locator('[data-testid="database-banner"]').waitFor({ state: 'detached' });
});
