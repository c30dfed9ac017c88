// What the leader's incident sweep reads (lib/incidents/sweep-incidents.ts): sessions stored since
// its cursor ("updatedAt", the time ingest wrote the row, so late-delivered sessions are seen too)
// that carry a naive resume, a dual negotiation or a burned-token reuse; door-probe sessions aside.
import type { SqlExecutor } from '@/lib/db/sql';
import { TABLE_SQL } from './tables';

export interface FlaggedSession {
  server: string;
  token: string;
  updatedAt: number;
  naiveResumeAt: number | null;
  dualNegotiationAt: number | null;
  burnedTokenReuseAt: number | null;
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
  const keyset = after ? 'AND ("updatedAt" > ? OR ("updatedAt" = ? AND ("server" > ? OR ("server" = ? AND "token" > ?))))' : '';
  // The range starts at the page's own position, not at sinceMs: the keyset's OR is no index bound, so
  // with sinceMs alone every page re-read every row from sinceMs on (20 pages of a 2-million-session
  // backlog: ~10 s of blocked event loop per pass, found by the seeded soak).
  const from = after ? Math.max(sinceMs, after.updatedAt) : sinceMs;
  const rows = await sql.query<FlaggedSession>(
    `SELECT "server", "token", "updatedAt", "naiveResumeAt", "dualNegotiationAt", "burnedTokenReuseAt", "version" FROM ${S}
      WHERE "updatedAt" >= ? ${keyset} AND "synthetic" = 0 AND ("fNaiveResume" = 1 OR "fDualNegotiation" = 1 OR "fBurnedTokenReuse" = 1)
      ORDER BY "updatedAt", "server", "token" LIMIT ?`,
    [from, ...(after ? [after.updatedAt, after.updatedAt, after.server, after.server, after.token] : []), limit],
  );
  return rows.map((r) => ({
    ...r,
    updatedAt: Number(r.updatedAt),
    naiveResumeAt: num(r.naiveResumeAt),
    dualNegotiationAt: num(r.dualNegotiationAt),
    burnedTokenReuseAt: num(r.burnedTokenReuseAt),
  }));
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
