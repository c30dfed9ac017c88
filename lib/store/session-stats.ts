// The stats endpoint's reads of Session rows (lib/queries/stats.ts decides what they mean): ongoing
// deadlocks through the deadlockStartedAt index, and exact latencies through the covering indexes.
// Probe sessions are left out like from every rollup counter.
import type { SqlExecutor } from '@/lib/db/sql';
import { TABLE_SQL } from './tables';
import { sessionServerTerm } from './session-server-term';

/** A range of Session rows: [fromMs, toMs), one server or all. */
export interface SessionRange {
  fromMs: number;
  toMs: number;
  server: string | null;
}

/**
 * Unended deadlocks started in a bucket of `bucketMs` (b = start ÷ bucketMs), per server: `n` all of
 * them, `unreported` those "end unreported" (started at or before `unreportedUpTo`, see
 * lib/boundary/deadlock-as-of.ts), `startSum` the starts of the others, the ongoing ones.
 */
export interface OngoingDeadlockRow {
  b: number;
  server: string;
  n: number;
  unreported: number;
  startSum: number;
}

/** Unended deadlocks that started in range and at least `cutoffMs` ago (by the reader's clock), counted per bucket and server. */
export function ongoingDeadlocks(
  sql: SqlExecutor,
  r: SessionRange & { bucketMs: number; cutoffMs: number; unreportedUpTo: number },
): Promise<OngoingDeadlockRow[]> {
  const server = sessionServerTerm(sql.provider, r.server);
  return sql.query<OngoingDeadlockRow>(
    `SELECT CAST("deadlockStartedAt" / CAST(? AS BIGINT) AS BIGINT) AS "b", "server", COUNT(*) AS "n",
            COALESCE(SUM(CASE WHEN "deadlockStartedAt" <= ? THEN 1 ELSE 0 END), 0) AS "unreported",
            COALESCE(CAST(SUM(CASE WHEN "deadlockStartedAt" <= ? THEN 0 ELSE "deadlockStartedAt" END) AS BIGINT), 0) AS "startSum"
       FROM ${TABLE_SQL.session}
      WHERE "synthetic" = 0 AND "deadlockStartedAt" >= ? AND "deadlockStartedAt" < ? AND "deadlockStartedAt" <= ?
        AND "deadlockEndedAt" IS NULL${server.text}
      GROUP BY 1, 2`,
    [r.bucketMs, r.unreportedUpTo, r.unreportedUpTo, r.fromMs, r.toMs, r.cutoffMs, ...server.params],
  );
}

/** Sessions deadlocked at the reader's clock, per server, and since when the first of them waits. */
export interface StuckDeadlockRow {
  server: string;
  n: number;
  first: number;
}

/**
 * Unended deadlocks at least `cutoffMs` old that began before the range's end, however long before its
 * start, and after `unreportedUpTo` (older ones are "end unreported"): the sessions stuck now among
 * those the range can see. That last bound is a filter (`+`), not an index range: as a range, SQLite
 * walked every deadlock since it (the all-deadlocks index) instead of the unended ones. The one read of "stuck now": the stats
 * API, the doorwatch_deadlocks_ongoing gauge (every /metrics scrape) and the deadlocks_ongoing alert.
 * The partial Session_deadlock_unended_idx holds only unended deadlocks, so this costs what is stuck,
 * not the history (it was a scan of every session).
 */
export function stuckDeadlocks(
  sql: SqlExecutor,
  r: Omit<SessionRange, 'fromMs'> & { cutoffMs: number; unreportedUpTo: number },
): Promise<StuckDeadlockRow[]> {
  const server = sessionServerTerm(sql.provider, r.server);
  return sql.query<StuckDeadlockRow>(
    `SELECT "server", COUNT(*) AS "n", MIN("deadlockStartedAt") AS "first" FROM ${TABLE_SQL.session}
      WHERE "synthetic" = 0 AND "deadlockStartedAt" < ? AND "deadlockStartedAt" <= ? AND +"deadlockStartedAt" > ?
        AND "deadlockEndedAt" IS NULL${server.text}
      GROUP BY "server"`,
    [r.toMs, r.cutoffMs, r.unreportedUpTo, ...server.params],
  );
}

/**
 * The start of the next unended deadlock candidate (younger than `cutoffMs`) that began before the range's
 * end, or null: however long before its start, as stuck now counts it (one that began before the range
 * changes stuck now, not `ongoing`, when it turns). Only a range that starts within the threshold of now,
 * or a threshold longer than the range, can have one before it.
 */
export async function nextDeadlockCandidate(
  sql: SqlExecutor,
  r: Omit<SessionRange, 'fromMs'> & { cutoffMs: number },
): Promise<number | null> {
  const server = sessionServerTerm(sql.provider, r.server);
  const [row] = await sql.query<{ first: number | null }>(
    `SELECT MIN("deadlockStartedAt") AS "first" FROM ${TABLE_SQL.session}
      WHERE "synthetic" = 0 AND "deadlockStartedAt" < ? AND "deadlockStartedAt" > ?
        AND "deadlockEndedAt" IS NULL${server.text}`,
    [r.toMs, r.cutoffMs, ...server.params],
  );
  return row?.first === null || row?.first === undefined ? null : Number(row.first);
}

/** The newest deadlock start per server, among those started in range and at least `cutoffMs` ago. */
export function lastDeadlockStarts(
  sql: SqlExecutor,
  r: SessionRange & { cutoffMs: number },
): Promise<{ server: string; last: number | null }[]> {
  const server = sessionServerTerm(sql.provider, r.server);
  return sql.query<{ server: string; last: number | null }>(
    `SELECT "server", MAX("deadlockStartedAt") AS "last" FROM ${TABLE_SQL.session}
      WHERE "deadlockStartedAt" >= ? AND "deadlockStartedAt" < ? AND "deadlockStartedAt" <= ?${server.text}
      GROUP BY 1`,
    [r.fromMs, r.toMs, r.cutoffMs, ...server.params],
  );
}

/** (bucket, latency value, how many sessions): drivers may hand BIGINT/COUNT back as bigint or string. */
export interface LatencyRow {
  b: number | bigint | string;
  value: number | bigint | string;
  count: number | bigint | string;
}

/**
 * Exact latencies, one row per (bucket, distinct whole-millisecond value), not one per session:
 * refusals by refusedAt, renegotiations by the successor's session.opened.
 */
export function exactLatencyRows(
  sql: SqlExecutor,
  metric: 'refusal' | 'renegotiation',
  r: SessionRange & { bucketMs: number },
): Promise<LatencyRow[]> {
  const server = sessionServerTerm(sql.provider, r.server);
  const params = [r.bucketMs, r.fromMs, r.toMs, ...server.params];
  return metric === 'refusal'
    ? sql.query<LatencyRow>(
        `SELECT CAST("refusedAt" / CAST(? AS BIGINT) AS BIGINT) AS "b", "refusalLatencyMs" AS "value", COUNT(*) AS "count"
           FROM ${TABLE_SQL.session}
          WHERE "synthetic" = 0 AND "refusedAt" >= ? AND "refusedAt" < ? AND "boundaryOutcome" = 'refused'
            AND "refusalLatencyMs" IS NOT NULL${server.text}
          GROUP BY 1, 2`,
        params,
      )
    : sql.query<LatencyRow>(
        `SELECT CAST("successorOpenedAt" / CAST(? AS BIGINT) AS BIGINT) AS "b", "renegotiationLatencyMs" AS "value", COUNT(*) AS "count"
           FROM ${TABLE_SQL.session}
          WHERE "synthetic" = 0 AND "successorOpenedAt" >= ? AND "successorOpenedAt" < ? AND "renegotiationLatencyMs" IS NOT NULL${server.text}
          GROUP BY 1, 2`,
        params,
      );
}
