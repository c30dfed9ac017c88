// What the leader's incident sweep reads (lib/incidents/sweep-incidents.ts): sessions stored since
// its cursor ("updatedAt", the time ingest wrote the row, so late-delivered sessions are seen too)
// that carry a naive resume, a dual negotiation or a burned-token reuse; door-probe sessions aside.
// And the deadlocks still going on a server, which no new write brings back into that read.
import type { SqlExecutor } from '@/lib/db/sql';
import { TABLE_SQL } from './tables';

export interface FlaggedSession {
  server: string;
  token: string;
  updatedAt: number;
  naiveResumeAt: number | null;
  dualNegotiationAt: number | null;
  burnedTokenReuseAt: number | null;
  /** The naive resume the client is left waiting on since, and the event that ended the wait. */
  deadlockStartedAt: number | null;
  deadlockEndedAt: number | null;
  version: string | null;
}

const S = TABLE_SQL.session;
const C = TABLE_SQL.incidentCursor;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export type SessionKey = Pick<FlaggedSession, 'updatedAt' | 'server' | 'token'>;

/** Up to `limit` flagged sessions with updatedAt >= sinceMs (and after `after`), oldest write first. */
export async function flaggedSessionsSince(
  sql: SqlExecutor,
  sinceMs: number,
  after: SessionKey | null,
  limit: number,
): Promise<FlaggedSession[]> {
  // The page's position as one row value, the page's only bound when it lies past sinceMs (rows after
  // it are then past sinceMs too; one before sinceMs leaves sinceMs the bound): both databases take
  // `(a, b, c) > (?, ?, ?)` as a range on the index's whole key, so a page starts where the last one
  // ended. Spelled as an OR of columns it bounded only "updatedAt", and every page inside one tie
  // re-read the tie from its start: a bulk load or a restore stamps thousands of sessions with one
  // updatedAt (6,000–9,000 rows filtered away per page, 15–19 ms, on the seeded 10M PostgreSQL
  // database). SQLite also needs the row value alone to use it as the range.
  const byPosition = after !== null && after.updatedAt >= sinceMs;
  const rows = await sql.query<FlaggedSession>(
    `SELECT "server", "token", "updatedAt", "naiveResumeAt", "dualNegotiationAt", "burnedTokenReuseAt", "deadlockStartedAt", "deadlockEndedAt", "version"
       FROM ${S}
      WHERE ${byPosition ? '("updatedAt", "server", "token") > (?, ?, ?)' : '"updatedAt" >= ?'}
        AND "synthetic" = 0 AND ("fNaiveResume" = 1 OR "fDualNegotiation" = 1 OR "fBurnedTokenReuse" = 1)
      ORDER BY "updatedAt", "server", "token" LIMIT ?`,
    [...(byPosition ? [after.updatedAt, after.server, after.token] : [sinceMs]), limit],
  );
  return rows.map((r) => ({
    ...r,
    updatedAt: Number(r.updatedAt),
    naiveResumeAt: num(r.naiveResumeAt),
    dualNegotiationAt: num(r.dualNegotiationAt),
    burnedTokenReuseAt: num(r.burnedTokenReuseAt),
    deadlockStartedAt: num(r.deadlockStartedAt),
    deadlockEndedAt: num(r.deadlockEndedAt),
  }));
}

/**
 * Up to `limit` of `server`'s unended deadlocks that started at or before `startedBy` and after
 * `unreportedUpTo` (ongoing by that clock, not "end unreported") and are not yet linked to
 * `incidentId`, oldest first. A deadlocked session gets no events while it waits, so the cursor's
 * read never sees it become ongoing. Leaving out the linked ones is
 * what lets a pass move on when more are ongoing than one read takes. Session_deadlock_unended_idx
 * holds only unended deadlocks (its condition spelled out so that both databases use it).
 */
export async function ongoingDeadlocksNotLinked(
  sql: SqlExecutor,
  q: { server: string; incidentId: string; startedBy: number; unreportedUpTo: number; limit: number },
): Promise<{ token: string; deadlockStartedAt: number; version: string | null }[]> {
  const rows = await sql.query<{ token: string; deadlockStartedAt: unknown; version: string | null }>(
    `SELECT s."token", s."deadlockStartedAt", s."version" FROM ${S} s
      WHERE s."server" = ? AND s."deadlockEndedAt" IS NULL AND s."deadlockStartedAt" IS NOT NULL AND s."deadlockStartedAt" <= ?
        AND s."deadlockStartedAt" > ? AND s."synthetic" = 0
        AND NOT EXISTS (SELECT 1 FROM ${TABLE_SQL.incidentSession} l WHERE l."incidentId" = ? AND l."token" = s."token")
      ORDER BY s."deadlockStartedAt", s."token" LIMIT ?`,
    [q.server, q.startedBy, q.unreportedUpTo, q.incidentId, q.limit],
  );
  return rows.map((r) => ({ token: r.token, deadlockStartedAt: Number(r.deadlockStartedAt), version: r.version }));
}

export async function readCursor(sql: SqlExecutor, name: string): Promise<number | null> {
  const [row] = await sql.query<{ position: unknown }>(`SELECT "position" FROM ${C} WHERE "name" = ?`, [name]);
  return row ? Number(row.position) : null;
}

export async function writeCursor(sql: SqlExecutor, name: string, position: number): Promise<void> {
  await sql.execute(
    `INSERT INTO ${C} ("name", "position") VALUES (?, ?) ON CONFLICT ("name") DO UPDATE SET "position" = excluded."position"`,
    [name, position],
  );
}
