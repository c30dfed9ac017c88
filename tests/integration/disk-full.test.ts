// npm test: sqlite only (the test brings its own SQLite database, on a small filesystem of its own)
// Disk full on SQLite. The app's database lives on a tmpfs of the test's own; a third into a paced
// load of retrying senders, a filler file takes every free byte. Then: ingest answers 503
// `database_full` with Retry-After (never a 500, the process stays up), health says the database
// cannot write (503, `writable: false`, `writeError.code: database_full`) while reads still work;
// the filler is deleted and, without a restart, the senders' retries succeed, health is ok again,
// and every event that got a 200 is stored exactly once (the oracle of tests/support/expected-state.ts).
// Mounting needs root (tests/support/small-filesystem.ts): without it the test fails saying so, it is never skipped.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecret } from '@/lib/contract/server-secret';
import { TEST_ADMIN_TOKEN, startAppServer, uncaughtLines, type AppServer } from '../support/app-server';
import { T0 } from '../support/random-timelines';
import { brokenPromises, deliverBatches, senderServers, shuffledBatches, statusCounts } from '../support/retrying-sender';
import { assertStoredMatches } from '../support/expected-state';
import { call } from '../support/http';
import { mountSmallFilesystem, type SmallFilesystem } from '../support/small-filesystem';

const { secrets, env } = senderServers(['alpha', 'beta'], generateSecret);
const WINDOW = { fromMs: T0 - 3_600_000, toMs: T0 + 86_400_000 };
/** Room for the migrated database and a few hundred events; the filler takes the rest. */
const FILESYSTEM_SIZE = '16m';
const WAIT_MS = 60_000;

let fs: SmallFilesystem | null = null;
const cleanups: (() => Promise<void> | void)[] = [];

before(() => {
  fs = mountSmallFilesystem(FILESYSTEM_SIZE, 'disk-full.test.ts');
});

after(async () => {
  for (const c of cleanups.reverse()) await c();
  fs?.unmount();
});

/** Polls /api/health until `ok(body, status)` holds; returns the answer that did. */
async function healthUntil(app: AppServer, ok: (status: number, body: any) => boolean, what: string) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const r = await call(app.url, '/api/health');
    if (ok(r.status, r.body)) return r;
    if (Date.now() > deadline) assert.fail(`health never ${what}: last ${r.status} ${r.text.slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('sqlite: a full disk gives 503 database_full + Retry-After, health says so, and space returning heals it with nothing lost', async () => {
  const app = await startAppServer({ databaseUrl: `file:${join(fs!.dir, 'doorwatch.db')}`, env });
  cleanups.push(() => app.stop());
  const filler = join(fs!.dir, 'filler');

  const batches = shuffledBatches('full', 300, 2811);
  const fullAt = Math.floor(batches.length / 3);
  let fault: Promise<{ from: number; to: number; filled: number; health: any; sessionsWhileFull: number }> | null = null;
  const log = await deliverBatches(batches, {
    url: () => app.url,
    secrets,
    concurrency: 4,
    eventsPerSecond: 300,
    deadlineMs: 180_000,
    beforeBatch(index) {
      if (index !== fullAt) return;
      fault = (async () => {
        const filled = fs!.fill('filler');
        const from = Date.now();
        const full = await healthUntil(
          app,
          (status, body) => status === 503 && body?.database?.writable === false,
          'said the database cannot write',
        );
        // Reads still work on a full disk: the dashboard keeps showing what is stored.
        const sessions = await call(app.url, '/api/v1/sessions?limit=5', { token: TEST_ADMIN_TOKEN });
        assert.equal(sessions.status, 200, sessions.text.slice(0, 300));
        rmSync(filler);
        const to = Date.now();
        return { from, to, filled, health: full.body, sessionsWhileFull: sessions.body.total };
      })();
    },
  });
  const window = await fault!;
  // Space is back: health is ok again once a write succeeded (the senders' retries).
  const healed = await healthUntil(app, (status, body) => status === 200 && body?.database?.writable === true, 'recovered');

  const during = log.answers.filter((a) => a.at > window.from && a.at < window.to);
  console.log(
    `disk full: ${batches.length} batches, filler ${window.filled} bytes, full for ${window.to - window.from} ms, ` +
      `answers ${JSON.stringify(statusCounts(log.answers))}, meanwhile ${JSON.stringify(statusCounts(during))}, ` +
      `health ${JSON.stringify(window.health.database)}`,
  );
  assert.deepEqual(log.failed, [], 'every batch acknowledged once space returned');
  assert.deepEqual(brokenPromises(log.answers), [], 'only 200, or 503 with Retry-After');
  assert.deepEqual(
    log.answers.filter((a) => a.status === 0),
    [],
    'no request hung or lost its connection: the process stayed up',
  );
  const refused = log.answers.filter((a) => a.status === 503);
  assert.ok(refused.length > 0, 'the full disk refused writes');
  assert.deepEqual([...new Set(refused.map((a) => a.code))], ['database_full'], 'a full disk is answered 503 database_full');
  assert.equal(window.health.status, 'degraded');
  assert.equal(window.health.database.reachable, true, 'reads still work');
  assert.equal(window.health.database.writeError.code, 'database_full');
  assert.match(window.health.database.writeError.message, /disk is full/);
  assert.equal(healed.body.database.writeError, undefined);
  await assertStoredMatches(app.query, log.record, 'full-', { url: app.url, token: TEST_ADMIN_TOKEN, ...WINDOW });
  assert.deepEqual(uncaughtLines(app), [], 'no uncaught exception in the app log');
});
