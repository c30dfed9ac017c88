// Crash recovery: retrying senders stream shuffled random timelines while the Doorwatch process
// is killed with SIGKILL and restarted on the same database, twice at different points, with
// dashboards open. Afterwards every event is stored exactly once, every session row equals
// `summarize` of the senders' own record, the rollups and the stats endpoint equal the sums.
// Then a restart with cold operator tokens (last used long ago, so their first use writes):
// operator requests arriving together with ingest must not freeze the process.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDb } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { generateSecret } from '@/lib/contract/server-secret';
import { createRng } from '@/lib/wire/random';
import { TEST_ADMIN_TOKEN, startAppServer, type AppServer } from '../support/app-server';
import { createTestDatabase, testProvider, type TestDatabase } from '../support/test-database';
import { T0, randomTimelines, shuffled, type SentEvent } from '../support/random-timelines';
import { brokenPromises, deliverBatches, senderServers, splitIntoBatches, statusCounts, type Answer } from '../support/retrying-sender';
import { openDashboards, watchHealth } from '../support/dashboard-clients';
import { assertStoredMatches } from '../support/expected-state';

const { secrets, env: serversEnv } = senderServers(['alpha', 'beta', 'gamma'], generateSecret);
// A lock wait as long as this is unmistakable: no request after a restart may take half of it.
const BUSY_TIMEOUT_MS = 60_000;
const ENV = { ...serversEnv, DOORWATCH_SQLITE_BUSY_TIMEOUT_MS: String(BUSY_TIMEOUT_MS) };
const WINDOW = { fromMs: T0 - 3_600_000, toMs: T0 + 86_400_000 };

let db: TestDatabase;
let app: AppServer | null = null;
const record: SentEvent[] = [];
const answers: Answer[] = [];

const start = async () => (app = await startAppServer({ databaseUrl: db.url, env: ENV }));

before(async () => {
  db = await createTestDatabase();
  await start();
});
after(async () => {
  await app?.stop();
  await db?.drop();
});

test(`${testProvider()}: two SIGKILLs mid-stream with dashboards open lose nothing and store nothing twice`, async () => {
  const timelines = randomTimelines({
    count: 400,
    seed: 1001,
    prefix: 'crash',
    servers: ['alpha', 'beta', 'gamma'],
    maxSteps: 8,
    spreadMs: 20 * 60_000,
  });
  const stream = shuffled(timelines.flat(), 1002);
  const batches = splitIntoBatches(stream, 20, createRng(1003));
  const killAt = [Math.floor(batches.length * 0.3), Math.floor(batches.length * 0.65)];
  const kills: { at: number; down: number; restartMs: number }[] = [];
  let crashes = Promise.resolve();
  const dashboards = openDashboards({ url: () => app!.url, tokens: [TEST_ADMIN_TOKEN, TEST_ADMIN_TOKEN], intervalMs: 250 });

  const log = await deliverBatches(batches, {
    url: () => app!.url,
    secrets,
    concurrency: 4,
    beforeBatch(index) {
      if (!killAt.includes(index)) return;
      // Not awaited: the other senders keep sending (and retrying) while the process is gone.
      crashes = crashes.then(async () => {
        const down = Date.now();
        await app!.crash();
        const restarted = performance.now();
        await start();
        kills.push({ at: index, down, restartMs: Math.round(performance.now() - restarted) });
      });
    },
  });
  await crashes;
  const polled = await dashboards.stop();
  record.push(...log.record);
  answers.push(...log.answers);

  console.log(
    `crash: ${stream.length} events in ${batches.length} batches, kills ${JSON.stringify(kills)}, ingest answers ${JSON.stringify(statusCounts(log.answers))}, dashboard answers ${JSON.stringify(statusCounts(polled.map((p) => ({ ...p, retryAfter: null }))))}`,
  );
  assert.equal(kills.length, 2, 'killed twice');
  assert.deepEqual(log.failed, [], 'every batch acknowledged in the end');
  assert.ok(
    log.answers.some((a) => a.status === 0),
    'some requests were cut off by a kill',
  );
  assert.deepEqual(brokenPromises(log.answers), [], 'ingest answers only 200, or 503 with Retry-After');
  assert.deepEqual(
    polled.filter((p) => p.status !== 200 && p.status !== 0),
    [],
    'dashboards get 200 (or nothing while the process is down)',
  );
  assert.ok(polled.filter((p) => p.status === 200 && p.at > kills[1].down).length > 0, 'dashboards answered again after the last restart');
  // A batch committed just before a kill loses its answer; its retry finds the events stored (duplicates).
  assert.equal(log.accepted + log.duplicates, stream.length, 'each batch acknowledged once');
  assert.ok(log.accepted <= stream.length);

  await assertStoredMatches(db.query, record, 'crash-', { url: app!.url, token: TEST_ADMIN_TOKEN, ...WINDOW });
});

test(`${testProvider()}: after a restart, cold operator tokens used together with ingest do not freeze the process`, async () => {
  // Four viewer tokens, last used two hours ago (as after a quiet night), so each first use writes lastUsedAt.
  const tokens: string[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`${app!.url}/api/v1/operators`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `night-viewer-${i}`, role: 'viewer' }),
    });
    assert.equal(res.status, 201);
    tokens.push((await res.json()).token);
  }
  await app!.crash();
  const direct = openDb(readDatabaseConfig({ DATABASE_URL: db.url }));
  try {
    await direct.prisma.operatorToken.updateMany({ data: { lastUsedAt: new Date(Date.now() - 7_200_000) } });
  } finally {
    await direct.close();
  }
  await start();

  // Senders retrying their backlog, dashboards opened with the cold tokens, a health check: all at once.
  const timelines = randomTimelines({
    count: 200,
    seed: 2001,
    prefix: 'crash-cold',
    servers: ['alpha', 'beta'],
    maxSteps: 6,
    spreadMs: 20 * 60_000,
  });
  const batches = splitIntoBatches(shuffled(timelines.flat(), 2002), 10, createRng(2003));
  const dashboards = openDashboards({ url: () => app!.url, tokens, intervalMs: 20 });
  const health = watchHealth(() => app!.url, BUSY_TIMEOUT_MS);
  const log = await deliverBatches(batches, { url: () => app!.url, secrets, concurrency: 4, deadlineMs: 120_000 });
  const polled = await dashboards.stop();
  const checks = (await health.stop()).map((c) => c.ms);
  record.push(...log.record);
  answers.push(...log.answers);

  const slowest = (xs: number[]) => Math.round(Math.max(0, ...xs));
  console.log(
    `cold tokens: ${polled.length} dashboard requests (slowest ${slowest(polled.map((p) => p.ms))} ms), ${checks.length} health checks (slowest ${slowest(checks)} ms), ingest slowest ${slowest(log.answers.map((a) => a.ms))} ms, answers ${JSON.stringify(statusCounts(log.answers))}`,
  );
  // A frozen event loop shows as requests waiting for the SQLite busy timeout.
  assert.ok(
    slowest(polled.map((p) => p.ms)) < BUSY_TIMEOUT_MS / 2,
    `no operator request waited for a lock (slowest ${slowest(polled.map((p) => p.ms))} ms)`,
  );
  assert.ok(slowest(checks) < BUSY_TIMEOUT_MS / 2, `health kept answering (slowest ${slowest(checks)} ms)`);
  assert.ok(slowest(log.answers.map((a) => a.ms)) < BUSY_TIMEOUT_MS / 2, 'no ingest request waited for a lock');
  assert.deepEqual(log.failed, []);
  assert.deepEqual(brokenPromises(log.answers), []);
  assert.deepEqual(
    polled.filter((p) => p.status !== 200),
    [],
    'every dashboard request answered 200',
  );

  await assertStoredMatches(db.query, record, 'crash', { url: app!.url, token: TEST_ADMIN_TOKEN, ...WINDOW });
});
