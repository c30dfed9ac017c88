// The Session reads that run on a clock (every /metrics scrape, every alert rule and server each
// pass, the overview filtered to a server) must cost what is in their range or open now, not the
// table's history. SQLite plans without statistics, so the plan is a property of the SQL and the
// indexes: this test takes the statements the real store functions send, against the real
// migrations, and checks the index SQLite picks for each. Before the fix the per-server reads
// walked Session_server_lastEventAt_idx (every session of the server) and the two gauges scanned
// every row: the soak's alert pass grew to seconds of blocked event loop every 15 s.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import type { SqlExecutor } from '@/lib/db/sql';
import { recordingSql } from '../support/recording-sql';
import { exactLatencyRows, lastDeadlockStarts, nextDeadlockCandidate, ongoingDeadlocks, stuckDeadlocks } from '@/lib/store/session-stats';
import { sessionsNamingPredecessors, upgradesPendingByServer } from '@/lib/store/sessions';
import { versionCounts, versionRefusalLatencies } from '@/lib/store/version-stats';
import { flaggedSessionsSince } from '@/lib/store/flagged-sessions';
import { recomputeHistogramExtremes } from '@/lib/store/histogram-recompute';
import { countSessions, sessionPage, type SessionFilter } from '@/lib/store/session-pages';

const NOW = Date.UTC(2026, 11, 4, 21, 0);
const range = { fromMs: NOW - 900_000, toMs: NOW, server: 'srv-a' };

/** A fresh SQLite file with the real migrations, and the plan of a statement on it (its steps joined by " | "). */
async function migratedPlans(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'dw-plans-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = readDatabaseConfig({ DATABASE_URL: `file:${join(dir, 'plans.db')}` });
  await runMigrations(config);
  const db = new Database(config.sqliteFile!, { readonly: true });
  t.after(() => db.close());
  const plan = (text: string, params: readonly unknown[]) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
  return { db, plan };
}

test('per-server stats reads are led by their time range, the /metrics gauges by partial indexes', async (t) => {
  const { plan } = await migratedPlans(t);

  const cases: [string, (sql: SqlExecutor) => Promise<unknown>, RegExp][] = [
    [
      'ongoing deadlocks of one server',
      (sql) => ongoingDeadlocks(sql, { ...range, bucketMs: 60_000, cutoffMs: NOW - 10_000, unreportedUpTo: NOW - 3_600_000 }),
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
      /Session_refused_refusedAt_idx/,
    ],
    [
      'exact renegotiation latencies of one server',
      (sql) => exactLatencyRows(sql, 'renegotiation', { ...range, bucketMs: 60_000 }),
      /Session_renegotiated_successorOpenedAt_idx/,
    ],
    [
      'refusal latencies per version of one server',
      (sql) =>
        versionRefusalLatencies(sql, { ...range, bucketMs: 60_000, cutoffMs: NOW - 10_000, unreportedUpTo: NOW - 3_600_000, versions: [] }),
      /Session_refused_refusedAt_idx/,
    ],
    [
      'sessions stuck now per server (/metrics, alerts, stats)',
      (sql) => stuckDeadlocks(sql, { server: null, toMs: NOW, cutoffMs: NOW - 10_000, unreportedUpTo: NOW - 3_600_000 }),
      /Session_deadlock_unended_idx/,
    ],
    ['upgrades pending per server (/metrics)', (sql) => upgradesPendingByServer(sql, NOW - 3_600_000), /Session_upgrade_pending_idx/],
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
      // The page's position bounds the index's whole key, so a page inside a tie of "updatedAt"
      // starts where the last one ended instead of at the tie's first row.
      /Session_flagged_updatedAt_idx \(\(updatedAt,server,token\)>\(\?,\?,\?\)/,
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

// Write path v2 (issue 26): every session upsert paid an entry in each Session index. These seven are
// read only for the sessions that have what they index (a predecessor, a refusal, a deadlock, a
// renegotiation, a flag), so they are partial (migration 20261205040000_session_partial_indexes) and
// every other session costs them nothing. SQLite uses a partial index only where the query's WHERE
// implies its condition (a comparison on the column implies IS NOT NULL; any other term must appear
// as written): each reader must still get its index, and none may read every session instead.
const PARTIAL = {
  successors: 'Session_successors_previousToken_idx',
  refused: 'Session_refused_refusedAt_idx',
  deadlocks: 'Session_deadlocks_deadlockStartedAt_idx',
  renegotiated: 'Session_renegotiated_successorOpenedAt_idx',
  boundary: 'Session_boundary_lastEventAt_idx',
  naiveResume: 'Session_naiveResume_lastEventAt_idx',
  dualNegotiation: 'Session_dualNegotiation_lastEventAt_idx',
};

test('the Session indexes read for a minority of sessions are partial, and each of their readers still uses its own', async (t) => {
  const { db, plan } = await migratedPlans(t);
  const defs = new Map(
    (
      db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Session'`).all() as {
        name: string;
        sql: string | null;
      }[]
    ).map((r) => [r.name, r.sql ?? '']),
  );
  for (const name of Object.values(PARTIAL)) assert.match(defs.get(name) ?? '', / WHERE "\w+" (IS NOT NULL|= 1)$/, name);
  for (const gone of [
    'Session_previousToken_idx',
    'Session_refusedAt_boundaryOutcome_refusalLatencyMs_idx',
    'Session_deadlockStartedAt_deadlockEndedAt_idx',
    'Session_successorOpenedAt_renegotiationLatencyMs_idx',
    'Session_fBoundary_lastEventAt_idx',
    'Session_fNaiveResume_lastEventAt_idx',
    'Session_fDualNegotiation_lastEventAt_idx',
  ])
    assert.equal(defs.has(gone), false, `${gone} is replaced by its partial form`);

  const filter = (over: Partial<SessionFilter>): SessionFilter => ({
    servers: [],
    states: [],
    flags: [],
    token: null,
    fromMs: null,
    toMs: null,
    nowMs: NOW,
    thresholdMs: 30_000,
    maxMs: 0,
    ...over,
  });
  const allServers = { ...range, server: null };
  const cell = (server: string | null, metric: 'refusal' | 'renegotiation') => [{ minute: NOW - 60_000, server, metric, bucket: 3 }];
  const cases: [string, (sql: SqlExecutor) => Promise<unknown>, string[]][] = [
    [
      'stored successors of the touched tokens (ingest)',
      (sql) => sessionsNamingPredecessors(sql, ['tok-a', 'tok-b']),
      [PARTIAL.successors],
    ],
    [
      'exact refusal latencies, all servers',
      (sql) => exactLatencyRows(sql, 'refusal', { ...allServers, bucketMs: 60_000 }),
      [PARTIAL.refused],
    ],
    [
      'exact renegotiation latencies, all servers',
      (sql) => exactLatencyRows(sql, 'renegotiation', { ...allServers, bucketMs: 60_000 }),
      [PARTIAL.renegotiated],
    ],
    ["a minute cell's refusal extremes", (sql) => recomputeHistogramExtremes(sql, cell('srv-a', 'refusal')), [PARTIAL.refused]],
    [
      "a quarter cell's renegotiation extremes",
      (sql) => recomputeHistogramExtremes(sql, cell(null, 'renegotiation')),
      [PARTIAL.renegotiated],
    ],
    [
      'the version split, all servers',
      (sql) =>
        versionCounts(sql, { ...allServers, bucketMs: 60_000, cutoffMs: NOW - 10_000, unreportedUpTo: NOW - 3_600_000, versions: [] }),
      [PARTIAL.deadlocks, PARTIAL.renegotiated],
    ],
    ['deadlock starts, all servers', (sql) => lastDeadlockStarts(sql, { ...allServers, cutoffMs: NOW - 10_000 }), [PARTIAL.deadlocks]],
    [
      'the list of boundary sessions',
      (sql) => sessionPage(sql, filter({ flags: ['boundary'] }), '-lastEventAt', 50, null),
      [PARTIAL.boundary],
    ],
    [
      'the list of naive resumes in a range, oldest first',
      (sql) => sessionPage(sql, filter({ flags: ['naive_resume'], fromMs: range.fromMs, toMs: range.toMs }), 'firstEventAt', 50, null),
      [PARTIAL.naiveResume],
    ],
    [
      'the next page of dual negotiations',
      (sql) =>
        sessionPage(sql, filter({ flags: ['dual_negotiation'] }), '-lastEventAt', 50, { key: NOW - 1_000, server: 'srv-a', token: 'tok' }),
      [PARTIAL.dualNegotiation],
    ],
    [
      'the list of deadlocks, oldest first',
      (sql) => sessionPage(sql, filter({ flags: ['deadlock'] }), 'firstEventAt', 50, null),
      [PARTIAL.deadlocks],
    ],
    ['how many boundary sessions', (sql) => countSessions(sql, filter({ flags: ['boundary'] })), [PARTIAL.boundary]],
    ['how many naive resumes', (sql) => countSessions(sql, filter({ flags: ['naive_resume'] })), [PARTIAL.naiveResume]],
    ['how many dual negotiations', (sql) => countSessions(sql, filter({ flags: ['dual_negotiation'] })), [PARTIAL.dualNegotiation]],
    ['how many deadlocks', (sql) => countSessions(sql, filter({ flags: ['deadlock'] })), [PARTIAL.deadlocks]],
  ];
  for (const [what, read, indexes] of cases) {
    const { sql, sent } = recordingSql();
    await read(sql);
    assert.equal(sent.length, 1, what);
    const p = plan(sent[0].text, sent[0].params);
    for (const index of indexes) assert.match(p, new RegExp(`USING (COVERING )?INDEX ${index} `), `${what}: ${p}`);
    // No walk of a whole table or index: SCAN is SQLite's word for one.
    assert.doesNotMatch(p, /\bSCAN Session\b/, `${what}: ${p}`);
  }
});

// The version split of one server: each part is bounded by its range (lastEventAt for the anchors
// within a session's events, the anchor's own index for the successor's opening). The renegotiation
// part had only the server's equality to go on and walked (server, version, lastEventAt): every
// session the server ever had, on each split or version-filtered stats read of it.
test('the version split of one server walks no part of its whole history', async (t) => {
  const { plan } = await migratedPlans(t);
  for (const versions of [[], ['v1.2.0']]) {
    const { sql, sent } = recordingSql();
    await versionCounts(sql, { ...range, bucketMs: 60_000, cutoffMs: NOW - 10_000, unreportedUpTo: NOW - 3_600_000, versions });
    const p = plan(sent[0].text, sent[0].params);
    assert.match(p, new RegExp(`USING (COVERING )?INDEX ${PARTIAL.renegotiated} `), p);
    // An index searched by the server alone (no range after it) is the whole history.
    assert.doesNotMatch(p, /\(server=\?\)|\(server=\? AND version=\?\)/, p);
    assert.doesNotMatch(p, /\bSCAN Session\b/, p);
  }
});
