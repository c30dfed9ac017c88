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

/**
 * The server versions that served each incident's sessions ("Session"."version", as reporters name
 * them), oldest first by when a session of that version began; incidents without versioned sessions
 * are absent.
 */
export async function incidentVersions(sql: SqlExecutor, incidentIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (incidentIds.length === 0) return out;
  const rows = await sql.query<{ id: string; version: string }>(
    `SELECT l."incidentId" AS id, s."version" AS version
       FROM ${T} l
       JOIN ${TABLE_SQL.incident} i ON i."id" = l."incidentId"
       JOIN ${TABLE_SQL.session} s ON s."server" = i."server" AND s."token" = l."token"
      WHERE l."incidentId" IN (${placeholders(incidentIds.length)}) AND s."version" IS NOT NULL
      GROUP BY l."incidentId", s."version"
      ORDER BY MIN(s."firstEventAt"), s."version"`,
    incidentIds,
  );
  for (const r of rows) out.set(r.id, [...(out.get(r.id) ?? []), r.version]);
  return out;
}
