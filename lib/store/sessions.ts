// The "Session" table: one summary row per (server, token), read and written as SessionRow.
import { insertRows, type RowsInsert, type SqlExecutor } from '@/lib/db/sql';
import { SESSION_COLUMN_SPECS, SESSION_ROW_COLUMNS, type SessionRow } from './session-row';
import { TABLE, TABLE_SQL, chunks, placeholders } from './tables';
import { sessionTokenTerm } from './session-token-term';

async function selectIn(tx: SqlExecutor, where: string, values: readonly string[], extra: readonly unknown[] = []): Promise<SessionRow[]> {
  const out: SessionRow[] = [];
  for (const part of chunks(values)) {
    out.push(
      ...(await tx.query<SessionRow>(`SELECT * FROM ${TABLE_SQL.session} WHERE ${where} IN (${placeholders(part.length)})`, [
        ...extra,
        ...part,
      ])),
    );
  }
  return out;
}

/** Sessions with any of these tokens, on any server (through the token index: session-token-term.ts). */
export const sessionsWithTokens = (tx: SqlExecutor, tokens: readonly string[]): Promise<SessionRow[]> =>
  selectIn(tx, sessionTokenTerm(tx.provider), tokens);

/** Sessions of one server with any of these tokens. */
export const sessionsOfServer = (tx: SqlExecutor, server: string, tokens: readonly string[]): Promise<SessionRow[]> =>
  selectIn(tx, '"server" = ? AND "token"', tokens, [server]);

/** Sessions (on any server) whose previousToken is one of these tokens: their successors. */
export const sessionsNamingPredecessors = (tx: SqlExecutor, tokens: readonly string[]): Promise<SessionRow[]> =>
  selectIn(tx, '"previousToken"', tokens);

export async function findSession(sql: SqlExecutor, server: string, token: string): Promise<SessionRow | null> {
  const rows = await sql.query<SessionRow>(`SELECT * FROM ${TABLE_SQL.session} WHERE "server" = ? AND "token" = ?`, [server, token]);
  return rows[0] ?? null;
}

const SESSION_UPDATES = SESSION_ROW_COLUMNS.filter((c) => c !== 'server' && c !== 'token')
  .map((c) => `"${c}" = excluded."${c}"`)
  .join(',');

/** Inserts or replaces whole rows: run alone (upsertSessionRows) or inside ingest's last statement (lib/store/ingest-statements.ts). */
export function sessionUpsert(rows: readonly SessionRow[]): RowsInsert {
  return {
    table: TABLE.session,
    columns: SESSION_COLUMN_SPECS,
    rows: rows.map((r) => SESSION_ROW_COLUMNS.map((c) => r[c])),
    tail: `ON CONFLICT ("server","token") DO UPDATE SET ${SESSION_UPDATES}`,
  };
}

export async function upsertSessionRows(tx: SqlExecutor, rows: readonly SessionRow[]): Promise<void> {
  await insertRows(tx, sessionUpsert(rows));
}

/**
 * The latest lastEventAt per server (servers seen in data). A GROUP BY would read every Session
 * row's index entry (1M sessions: a full index scan, on every /servers load and alert evaluation);
 * this walks the distinct servers through the primary key and takes each one's newest through
 * ("server", "lastEventAt"): two index seeks per server (a loose index scan, which neither
 * database plans by itself).
 */
export async function lastEventAtByServer(sql: SqlExecutor): Promise<Map<string, number | null>> {
  const rows = await sql.query<{ server: string; last: number | null }>(
    `WITH RECURSIVE "servers"("server") AS (
       SELECT MIN("server") FROM ${TABLE_SQL.session}
       UNION ALL
       SELECT (SELECT MIN("server") FROM ${TABLE_SQL.session} WHERE "server" > "servers"."server") FROM "servers" WHERE "server" IS NOT NULL
     )
     SELECT "server", (SELECT MAX("lastEventAt") FROM ${TABLE_SQL.session} AS "s" WHERE "s"."server" = "servers"."server") AS "last"
       FROM "servers" WHERE "server" IS NOT NULL`,
  );
  return new Map(rows.map((r) => [r.server, r.last === null ? null : Number(r.last)]));
}

/**
 * Sessions waiting on their upgrade, per server (the gauge of upgrades pending), read on every
 * /metrics scrape through the partial Session_upgrade_pending_idx. The state is a literal, not a
 * parameter: neither database proves a partial index's condition from a bound value. Those whose
 * last event is at or before `silentUpTo` are left out: no server keeps a session that long without
 * a word (DOORWATCH_DEADLOCK_MAX_MS, lib/boundary/deadlock-as-of.ts), so its end went unreported.
 */
export async function upgradesPendingByServer(sql: SqlExecutor, silentUpTo: number): Promise<Map<string, number>> {
  const rows = await sql.query<{ server: string; n: unknown }>(
    `SELECT "server", COUNT(*) AS "n" FROM ${TABLE_SQL.session}
      WHERE "state" = 'upgrade_pending' AND +"lastEventAt" > ? GROUP BY "server"`,
    [silentUpTo],
  );
  return new Map(rows.map((r) => [r.server, Number(r.n)]));
}

/**
 * The earliest first event of the sessions that began before `cutoff` and are still receiving
 * events after it, or null: retention keeps every raw event from that time on (only whole
 * timelines go), so a daily partition ending at or before it can be dropped whole.
 * Walks Session_lastEventAt_idx over the sessions active since the cutoff.
 */
export async function earliestStartOfSpanningSessions(sql: SqlExecutor, cutoff: number): Promise<number | null> {
  const [row] = await sql.query<{ first: number | string | null }>(
    `SELECT MIN("firstEventAt") AS "first" FROM ${TABLE_SQL.session} WHERE "lastEventAt" >= ? AND "firstEventAt" < ?`,
    [cutoff, cutoff],
  );
  return row?.first == null ? null : Number(row.first);
}
