// /metrics' domain families against a real migrated database (SQLite, or PostgreSQL with
// DOORWATCH_TEST_DATABASE=postgresql): every registered server has every series at 0 from the
// first scrape (a counter born at 1 hides the first naive resume from increase()), gauges print 0,
// every rejection reason is there; with the database gone the scrape still answers, with
// doorwatch_database_up 0 and no domain series. Plus the two helpers an outage leans on:
// databaseErrorLine (pg's empty AggregateError message) and the scrape token's outage grace.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { registerDomainMetrics } from '@/lib/prometheus/domain-metrics';
import { REJECTION_REASONS, REJECTION_STATUS } from '@/lib/contract/api/rejections';
import { databaseErrorLine } from '@/lib/db/database-errors';
import { OUTAGE_GRACE_MS, lookupWithOutageGrace } from '@/lib/auth/outage-grace';
import type { OperatorRecord } from '@/lib/store/operators';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { addServer } from '@/lib/store/servers/server-registry';

let db: Db;
let testDb: TestDatabase;

before(async () => {
  testDb = await createTestDatabase();
  const config = readDatabaseConfig({ DATABASE_URL: testDb.url });
  await runMigrations(config);
  db = openDb(config);
  for (const name of ['alpha', 'beta']) await addServer(db, name);
});

after(async () => {
  await testDb?.drop();
});

function scrapeOf(sql: () => Db['sql']) {
  const registry = new Registry();
  const domain = registerDomainMetrics(registry, { sql, deadlockThresholdMs: () => 10_000 });
  return async () => {
    const up = await domain.refresh();
    return { up, text: await registry.metrics() };
  };
}

const lines = (text: string) => new Set(text.split('\n').filter((l) => l && !l.startsWith('#')));

test('a fresh instance prints every registered server and every rejection reason at 0 from the first scrape', async () => {
  const { up, text } = await scrapeOf(() => db.sql)();
  assert.equal(up, true);
  const have = lines(text);
  const expect = (line: string) => assert.ok(have.has(line), `missing ${line}\n${text}`);
  expect('doorwatch_database_up 1');
  for (const server of ['alpha', 'beta']) {
    expect(`doorwatch_naive_resumes_total{server="${server}"} 0`);
    expect(`doorwatch_dual_negotiations_total{server="${server}"} 0`);
    expect(`doorwatch_boundary_entries_total{server="${server}",outcome="naive_resume"} 0`);
    expect(`doorwatch_deadlocks_ongoing{server="${server}"} 0`);
    expect(`doorwatch_upgrades_pending{server="${server}"} 0`);
    expect(`doorwatch_refusal_latency_seconds_bucket{server="${server}",le="0.05"} 0`);
    expect(`doorwatch_refusal_latency_seconds_count{server="${server}"} 0`);
    for (const reason of REJECTION_REASONS.filter((r) => r !== 'unknown_server'))
      expect(`doorwatch_ingest_rejected_requests_total{server="${server}",status="${REJECTION_STATUS[reason]}",reason="${reason}"} 0`);
    assert.equal(text.includes(`server="${server}",status="401",reason="unknown_server"`), false, 'a registered name is never unknown');
  }
  expect('doorwatch_ingest_rejected_requests_total{server="*unknown*",status="401",reason="unknown_server"} 0');
});

test('a database that cannot be read: the scrape answers with doorwatch_database_up 0 and no domain series', async () => {
  const scrape = scrapeOf(() => db.sql);
  assert.equal((await scrape()).up, true);
  await db.close();
  const { up, text } = await scrape();
  assert.equal(up, false);
  const have = lines(text);
  assert.ok(have.has('doorwatch_database_up 0'), text);
  assert.equal([...have].filter((l) => l.startsWith('doorwatch_') && !l.startsWith('doorwatch_database_up')).length, 0, text);
  assert.match(text, /# TYPE doorwatch_naive_resumes_total counter/);
});

test('databaseErrorLine finds the message of an AggregateError without one (node-pg connection refused)', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  const aggregate = new AggregateError([refused], '');
  assert.equal(aggregate.message, '');
  assert.equal(databaseErrorLine(aggregate), 'connect ECONNREFUSED 127.0.0.1:5432');
  assert.equal(databaseErrorLine(new Error('', { cause: { code: '57P01' } })), '57P01');
  assert.equal(databaseErrorLine(new Error('first\nsecond')), 'first');
  assert.equal(databaseErrorLine('plain'), 'plain');
});

test('a scrape token verified before the database went away is admitted within the grace period only', async () => {
  const record = {
    id: 'op1',
    name: 'prom',
    role: 'scrape',
    tokenHash: 'h',
    revokedAt: null,
    lastUsedAt: null,
  } as unknown as OperatorRecord;
  const down = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
  const token = `dw_grace_${Math.random()}`;
  const t0 = 1_000_000;
  await assert.rejects(lookupWithOutageGrace(token, true, down, t0), /ECONNREFUSED/, 'never verified: no grace');
  assert.equal(await lookupWithOutageGrace(token, true, async () => record, t0), record);
  assert.equal(await lookupWithOutageGrace(token, true, down, t0 + OUTAGE_GRACE_MS), record);
  await assert.rejects(lookupWithOutageGrace(token, false, down, t0 + 1), /ECONNREFUSED/, 'only where the caller allows it');
  await assert.rejects(lookupWithOutageGrace(token, true, down, t0 + OUTAGE_GRACE_MS + 1), /ECONNREFUSED/, 'grace ends');
  await assert.rejects(
    lookupWithOutageGrace(token, true, () => Promise.reject(new Error('syntax error')), t0 + 1),
    /syntax error/,
    'only a retryable error',
  );
  assert.equal(await lookupWithOutageGrace(token, true, async () => null, t0 + 2), null);
  await assert.rejects(lookupWithOutageGrace(token, true, down, t0 + 3), /ECONNREFUSED/, 'a revoked token is forgotten');
});
