// The "IncidentSession" table: the sessions an incident affects. A session is linked once (its
// primary key), so the leader's sweep may read a session again (its cursor overlaps) without
// counting it twice or taking an old session for a recurrence.
import type { SqlExecutor } from '@/lib/db/sql';
import { TABLE_SQL, placeholders } from './tables';

const T = TABLE_SQL.incidentSession;

/** The tokens among `tokens` already linked to the incident. */
export async function linkedTokens(sql: SqlExecutor, incidentId: string, tokens: readonly string[]): Promise<Set<string>> {
  if (tokens.length === 0) return new Set();
  const rows = await sql.query<{ token: string }>(
    `SELECT "token" FROM ${T} WHERE "incidentId" = ? AND "token" IN (${placeholders(tokens.length)})`,
    [incidentId, ...tokens],
  );
  return new Set(rows.map((r) => r.token));
}

export async function linkIncidentSessions(
  tx: SqlExecutor,
  incidentId: string,
  sessions: readonly { token: string; at: number }[],
): Promise<void> {
  for (const s of sessions) {
    await tx.execute(`INSERT INTO ${T} ("incidentId", "token", "at") VALUES (?, ?, ?) ON CONFLICT ("incidentId", "token") DO NOTHING`, [
      incidentId,
      s.token,
      s.at,
    ]);
  }
}

/** One page of the incident's sessions, newest evidence first. */
export async function incidentSessionPage(
  sql: SqlExecutor,
  incidentId: string,
  limit: number,
  offset: number,
): Promise<{ token: string; at: number }[]> {
  const rows = await sql.query<{ token: string; at: unknown }>(
    `SELECT "token", "at" FROM ${T} WHERE "incidentId" = ? ORDER BY "at" DESC, "token" LIMIT ? OFFSET ?`,
    [incidentId, limit, offset],
  );
  return rows.map((r) => ({ token: r.token, at: Number(r.at) }));
}
