// Database outage. PostgreSQL: on a throwaway cluster of its own, the database is stopped for
// several seconds in the middle of a load of retrying senders and started again: meanwhile ingest
// answers 503 with Retry-After at once (no hang, no 500, the process stays up), health says
// degraded, senders back off; afterwards every event is stored exactly once and every summary
// equals `summarize` of the senders' record. SQLite: another process holds the write lock
// (BEGIN IMMEDIATE) for several seconds: ingest answers 503 with Retry-After within the busy
// timeout, health keeps answering (no frozen event loop), and the same exactly-once check holds.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { generateSecret } from '@/lib/contract/server-secret';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { createRng } from '@/lib/wire/random';
import { startThrowawayCluster, type ThrowawayCluster } from '../../scripts/test-postgres.mjs';
import { TEST_ADMIN_TOKEN, startAppServer, uncaughtLines, type AppServer } from '../support/app-server';
import { testProvider } from '../support/test-database';
import { T0, randomTimelines, shuffled } from '../support/random-timelines';
import { brokenPromises, deliverBatches, senderServers, splitIntoBatches, statusCounts, type Answer } from '../support/retrying-sender';
import { watchHealth } from '../support/dashboard-clients';
import { assertStoredMatches } from '../support/expected-state';

const { secrets, env } = senderServers(['alpha', 'beta'], generateSecret);
const WINDOW = { fromMs: T0 - 3_600_000, toMs: T0 + 86_400_000 };
const OUTAGE_MS = 6_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Retrying senders deliver shuffled random timelines; `fault` runs (not awaited by the senders) once a third is sent. */
async function loadWithFault(app: AppServer, prefix: string, fault: () => Promise<{ from: number; to: number }>) {
  const timelines = randomTimelines({ count: 400, seed: 3001, prefix, servers: ['alpha', 'beta'], maxSteps: 8, spreadMs: 20 * 60_000 });
  const stream = shuffled(timelines.flat(), 3002);
  const batches = splitIntoBatches(stream, 10, createRng(3003));
  const faultAt = Math.floor(batches.length / 3);
  let window: Promise<{ from: number; to: number }> | null = null;
  const health = watchHealth(() => app.url, 30_000);
  const log = await deliverBatches(batches, {
    url: () => app.url,
    secrets,
    concurrency: 4,
    // Senders back off (capped at 1 s) and pace themselves, so the fault falls mid-load.
    eventsPerSecond: 400,
    requestTimeoutMs: 30_000,
    deadlineMs: 180_000,
    beforeBatch(index) {
      if (index === faultAt) window = fault();
    },
  });
  const checks = await health.stop();
  return { stream, batches, log, checks, window: await window! };
}

function report(name: string, r: Awaited<ReturnType<typeof loadWithFault>>, during: Answer[]) {
  const slowest = (xs: number[]) => Math.round(Math.max(0, ...xs));
  console.log(
    `${name}: ${r.stream.length} events in ${r.batches.length} batches, fault ${r.window.to - r.window.from} ms, answers ${JSON.stringify(statusCounts(r.log.answers))}, ` +
      `during the fault ${JSON.stringify(statusCounts(during))} (slowest ${slowest(during.map((a) => a.ms))} ms), ` +
      `health ${r.checks.length} checks (slowest ${slowest(r.checks.map((c) => c.ms))} ms, ${r.checks.filter((c) => c.status === 503).length} degraded)`,
  );
}

test(
  'postgresql: the database stopped for seconds mid-load gives 503 + Retry-After, then every event exactly once',
  {
    skip:
      testProvider() !== 'postgresql' &&
      'outage of a PostgreSQL cluster: runs in the PostgreSQL pass (the SQLite pass runs the lock test below)',
  },
  async () => {
    // A cluster of the test's own: stopping the shared test cluster would break every other test.
    const cluster: ThrowawayCluster = await startThrowawayCluster();
    cleanups.push(() => cluster.stop());
    const app = await startAppServer({ databaseUrl: cluster.url, env });
    cleanups.push(() => app.stop());

    const r = await loadWithFault(app, 'outage', async () => {
      await cluster.pause();
      const from = Date.now();
      await sleep(OUTAGE_MS);
      const to = Date.now();
      await cluster.resume();
      return { from, to };
    });
    const during = r.log.answers.filter((a) => a.at > r.window.from + 500 && a.at < r.window.to);
    report('postgresql outage', r, during);

    assert.deepEqual(r.log.failed, [], 'every batch acknowledged once the database is back');
    assert.deepEqual(brokenPromises(r.log.answers), [], 'only 200, or 503 with Retry-After');
    assert.deepEqual(
      r.log.answers.filter((a) => a.status === 0),
      [],
      'no request hung or lost its connection; the process stayed up',
    );
    assert.ok(during.length > 0 && during.every((a) => a.status === 503), 'while the database is down, ingest answers 503');
    assert.ok(
      r.checks.some((c) => c.status === 503 && c.at > r.window.from && c.at < r.window.to),
      'health said degraded meanwhile',
    );
    assert.deepEqual(
      r.checks.filter((c) => c.status === 0),
      [],
      'health always answered',
    );
    await assertStoredMatches(app.query, r.log.record, 'outage-', { url: app.url, token: TEST_ADMIN_TOKEN, ...WINDOW });
    // A lost connection is handled where it happens, never by Node's last-resort handler.
    assert.deepEqual(uncaughtLines(app), [], 'no uncaught exception in the app log');
  },
);

/** Another process opens the SQLite file and holds the write lock for `holdMs`; resolves once it is held. */
function holdWriteLock(file: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const script = `
    const db = new (require('better-sqlite3'))(process.argv[1]);
    db.exec('BEGIN IMMEDIATE');
    console.log('locked');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));`;
  const child = spawn(process.execPath, ['-e', script, file, String(holdMs)], {
    cwd: join(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const released = new Promise<void>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`lock holder exited with ${code}`)))),
  );
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve({ released }));
    child.once('error', reject);
    released.catch(reject);
  });
}

const BUSY_TIMEOUT_MS = 4_000;

test(
  'sqlite: a write lock held by another process gives 503 + Retry-After promptly, health answers meanwhile',
  { skip: testProvider() !== 'sqlite' && 'a lock on the SQLite file: runs in the SQLite pass (the PostgreSQL pass stops a cluster above)' },
  async () => {
    const app = await startAppServer({ env: { ...env, DOORWATCH_SQLITE_BUSY_TIMEOUT_MS: String(BUSY_TIMEOUT_MS) } });
    cleanups.push(() => app.stop());
    const file = readDatabaseConfig({ DATABASE_URL: app.databaseUrl }).sqliteFile!;

    const r = await loadWithFault(app, 'locked', async () => {
      const held = await holdWriteLock(file, 2.5 * BUSY_TIMEOUT_MS);
      const from = Date.now();
      await held.released;
      return { from, to: Date.now() };
    });
    // Requests that overlapped the time the lock was held.
    const during = r.log.answers.filter((a) => a.at > r.window.from && a.at - a.ms < r.window.to);
    const healthDuring = r.checks.filter((c) => c.at > r.window.from && c.at - c.ms < r.window.to);
    report('sqlite lock', r, during);

    assert.deepEqual(r.log.failed, []);
    assert.deepEqual(brokenPromises(r.log.answers), [], 'only 200, or 503 with Retry-After');
    assert.deepEqual(
      r.log.answers.filter((a) => a.status === 0),
      [],
      'no request hung',
    );
    // Promptly: a write waits at most the busy timeout, and never freezes the process meanwhile.
    assert.ok(
      healthDuring.length > 0 && healthDuring.every((c) => c.status !== 0 && c.ms < BUSY_TIMEOUT_MS / 2),
      `health kept answering while the lock was held (slowest ${Math.round(Math.max(0, ...healthDuring.map((c) => c.ms)))} ms)`,
    );
    const slowest = Math.max(...during.map((a) => a.ms));
    assert.ok(slowest < 2 * BUSY_TIMEOUT_MS, `ingest answered within the busy timeout (slowest ${Math.round(slowest)} ms)`);
    assert.ok(
      during.some((a) => a.status === 503),
      'a write that cannot get the lock is answered 503',
    );
    await assertStoredMatches(app.query, r.log.record, 'locked-', { url: app.url, token: TEST_ADMIN_TOKEN, ...WINDOW });
  },
);
