// The Session reads that run on a clock (every /metrics scrape, every alert rule and server each
// pass, the overview filtered to a server) must cost what is in their range or open now, not the
// table's history. SQLite plans without statistics, so the plan is a property of the SQL and the
// indexes: this test takes the statements the real store functions send, against the real
// migrations, and checks the index SQLite picks for each. Before the fix the per-server reads
// walked Session_server_lastEventAt_idx (every session of the server) and the two gauges scanned
// every row: the soak's alert pass grew to seconds of blocked event loop every 15 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import type { SqlExecutor } from '@/lib/db/sql';
import { recordingSql } from '../support/recording-sql';
import { exactLatencyRows, lastDeadlockStarts, nextDeadlockCandidate, ongoingDeadlocks } from '@/lib/store/session-stats';
import { ongoingDeadlocksByServer, upgradesPendingByServer } from '@/lib/store/sessions';
import { versionRefusalLatencies } from '@/lib/store/version-stats';
import { flaggedSessionsSince } from '@/lib/store/flagged-sessions';

const NOW = Date.UTC(2026, 11, 4, 21, 0);
const range = { fromMs: NOW - 900_000, toMs: NOW, server: 'srv-a' };

test('per-server stats reads are led by their time range, the /metrics gauges by partial indexes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-plans-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = readDatabaseConfig({ DATABASE_URL: `file:${join(dir, 'plans.db')}` });
  await runMigrations(config);
  const db = new Database(config.sqliteFile!, { readonly: true });
  t.after(() => db.close());
  const plan = (text: string, params: readonly unknown[]) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');

  const cases: [string, (sql: SqlExecutor) => Promise<unknown>, RegExp][] = [
    [
      'ongoing deadlocks of one server',
      (sql) => ongoingDeadlocks(sql, { ...range, bucketMs: 60_000, cutoffMs: NOW - 10_000 }),
      /Session_deadlock/,
    ],
    [
      'next deadlock candidate of one server',
      (sql) => nextDeadlockCandidate(sql, { ...range, cutoffMs: NOW - 10_000 }),
      /Session_deadlock/,
    ],
    ['last deadlock starts of one server', (sql) => lastDeadlockStarts(sql, { ...range, cutoffMs: NOW - 10_000 }), /Session_deadlock/],
    [
      'exact refusal latencies of one server',
      (sql) => exactLatencyRows(sql, 'refusal', { ...range, bucketMs: 60_000 }),
      /Session_refusedAt/,
    ],
    [
      'exact renegotiation latencies of one server',
      (sql) => exactLatencyRows(sql, 'renegotiation', { ...range, bucketMs: 60_000 }),
      /Session_successorOpenedAt/,
    ],
    [
      'refusal latencies per version of one server',
      (sql) => versionRefusalLatencies(sql, { ...range, bucketMs: 60_000, cutoffMs: NOW - 10_000, versions: [] }),
      /Session_refusedAt/,
    ],
    ['ongoing deadlocks per server (/metrics)', (sql) => ongoingDeadlocksByServer(sql, NOW), /Session_deadlock_unended_idx/],
    ['upgrades pending per server (/metrics)', (sql) => upgradesPendingByServer(sql), /Session_upgrade_pending_idx/],
    // The incident sweep's pages read flagged sessions only: a healthy session written since the
    // cursor costs them nothing (the whole-table "updatedAt" index made them walk every one).
    [
      'flagged sessions since the cursor (incident sweep)',
      (sql) => flaggedSessionsSince(sql, NOW - 60_000, null, 500),
      /Session_flagged_updatedAt_idx/,
    ],
    [
      'the next page of flagged sessions (incident sweep)',
      (sql) => flaggedSessionsSince(sql, NOW - 60_000, { updatedAt: NOW - 30_000, server: 'srv-a', token: 'tok' }, 500),
      /Session_flagged_updatedAt_idx/,
    ],
  ];
  for (const [what, read, index] of cases) {
    const { sql, sent } = recordingSql();
    await read(sql);
    assert.equal(sent.length, 1, what);
    const p = plan(sent[0].text, sent[0].params);
    assert.match(p, index, `${what}: ${p}`);
    // Neither a walk of the server's whole history nor a scan of every row.
    assert.doesNotMatch(p, /Session_server_lastEventAt_idx|^SCAN Session$/, `${what}: ${p}`);
  }
});
