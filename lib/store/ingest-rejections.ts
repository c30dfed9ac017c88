// The "IngestRejection" table: refused ingest requests per server, reason and minute (like the
// rollups), written as additive upserts by lib/ingest/rejection-recorder.ts. Names that match no
// registered server share the one row family UNKNOWN_SERVER_BUCKET, so invented names cannot add
// rows; that row keeps the last names seen. Retention folds rows older than the cutoff into one
// row per (server, reason) at minute 0, so all-time totals (the /metrics counters) never go down.
import type { SqlExecutor, Sql } from '@/lib/db/sql';
import { REJECTION_REASONS, type TRejectionReason } from '@/lib/contract/api/rejections';
import { TABLE, TABLE_SQL, placeholders } from './tables';

const T = TABLE_SQL.ingestRejection;

/** Not a valid server name (SERVER_NAME is [a-z0-9-]), so it can never collide with one. */
export const UNKNOWN_SERVER_BUCKET = '*unknown*';
/** How many of the names seen in the unknown bucket are kept. */
export const RECENT_UNKNOWN_NAMES = 10;

export interface RejectionCell {
  server: string;
  reason: TRejectionReason;
  minute: number;
  count: number;
  lastAt: number;
  lastSkewMs: number | null;
  /** Unknown bucket only: newest last. */
  lastNames: string[] | null;
}

const isReason = (r: string): r is TRejectionReason => (REJECTION_REASONS as readonly string[]).includes(r);

export async function addRejections(sql: SqlExecutor, cells: readonly RejectionCell[]): Promise<void> {
  if (cells.length === 0) return;
  // Sorted key order: concurrent flushes from several instances lock rows in the same order.
  const sorted = [...cells].sort((a, b) => (a.server + a.reason + a.minute < b.server + b.reason + b.minute ? -1 : 1));
  const newer = (col: string) => `CASE WHEN excluded."lastAt" >= ${T}."lastAt" THEN excluded."${col}" ELSE ${T}."${col}" END`;
  await sql.insertMany(
    TABLE.ingestRejection,
    [
      { name: 'server', type: 'text' },
      { name: 'reason', type: 'text' },
      { name: 'minute', type: 'bigint' },
      { name: 'count', type: 'int' },
      { name: 'lastAt', type: 'bigint' },
      { name: 'lastSkewMs', type: 'bigint' },
      { name: 'lastNames', type: 'text' },
    ],
    sorted.map((c) => [c.server, c.reason, c.minute, c.count, c.lastAt, c.lastSkewMs, c.lastNames ? JSON.stringify(c.lastNames) : null]),
    `ON CONFLICT ("server","reason","minute") DO UPDATE SET "count" = ${T}."count" + excluded."count",
       "lastSkewMs" = CASE WHEN excluded."lastSkewMs" IS NULL THEN ${T}."lastSkewMs" ELSE ${newer('lastSkewMs')} END,
       "lastNames" = CASE WHEN excluded."lastNames" IS NULL THEN ${T}."lastNames" ELSE ${newer('lastNames')} END,
       "lastAt" = CASE WHEN excluded."lastAt" > ${T}."lastAt" THEN excluded."lastAt" ELSE ${T}."lastAt" END`,
  );
}

export interface RejectionRange {
  fromMs: number;
  toMs: number;
  /** null = every server, the unknown bucket included. */
  server: string | null;
}

function rangeWhere(range: RejectionRange): { where: string; params: unknown[] } {
  // Minute rows overlapping [fromMs, toMs); minute 0 holds folded history and is never in a range.
  const params: unknown[] = [Math.max(1, range.fromMs - 59_999), range.toMs];
  let where = `"minute" >= ? AND "minute" < ?`;
  if (range.server !== null) {
    where += ` AND "server" = ?`;
    params.push(range.server);
  }
  return { where, params };
}

/** Refused requests in range (per-minute rows that overlap it), for one server or all. */
export async function countRejections(sql: SqlExecutor, range: { fromMs: number; toMs: number; server: string | null }): Promise<number> {
  const { where, params } = rangeWhere(range);
  const [row] = await sql.query<{ n: unknown }>(`SELECT COALESCE(CAST(SUM("count") AS BIGINT), 0) AS "n" FROM ${T} WHERE ${where}`, params);
  return Number(row?.n ?? 0);
}

export interface ServerRejections {
  count: number;
  byReason: Partial<Record<TRejectionReason, number>>;
  last: { reason: TRejectionReason; at: number; skewMs: number | null } | null;
  /** Unknown bucket only. */
  recentNames: string[];
}

/** Per server (and the unknown bucket) in range: counts by reason and the latest refusal. */
export async function rejectionsByServer(sql: SqlExecutor, range: RejectionRange): Promise<Map<string, ServerRejections>> {
  const { where, params } = rangeWhere(range);
  const rows = await sql.query<{ server: string; reason: string; n: unknown; lastAt: unknown }>(
    `SELECT "server", "reason", CAST(SUM("count") AS BIGINT) AS "n", MAX("lastAt") AS "lastAt" FROM ${T} WHERE ${where} GROUP BY "server", "reason"`,
    params,
  );
  const out = new Map<string, ServerRejections>();
  const latest = new Map<string, { reason: TRejectionReason; at: number }>();
  for (const r of rows) {
    if (!isReason(r.reason)) continue;
    let s = out.get(r.server);
    if (!s) out.set(r.server, (s = { count: 0, byReason: {}, last: null, recentNames: [] }));
    const n = Number(r.n);
    s.count += n;
    s.byReason[r.reason] = n;
    const at = Number(r.lastAt);
    const l = latest.get(r.server);
    if (!l || at > l.at) latest.set(r.server, { reason: r.reason, at });
  }
  if (latest.size === 0) return out;
  // The latest row of each server's latest reason carries its skew (and the unknown bucket's names).
  const keys = [...latest.entries()];
  const detail = await sql.query<{ server: string; reason: string; lastAt: unknown; lastSkewMs: unknown; lastNames: string | null }>(
    `SELECT "server", "reason", "lastAt", "lastSkewMs", "lastNames" FROM ${T}
      WHERE ${where} AND ("server", "lastAt") IN (${keys.map(() => '(?, ?)').join(',')})`,
    [...params, ...keys.flatMap(([server, l]) => [server, l.at])],
  );
  for (const d of detail) {
    const s = out.get(d.server);
    const l = latest.get(d.server);
    if (!s || !l || d.reason !== l.reason) continue;
    s.last = { reason: l.reason, at: l.at, skewMs: d.lastSkewMs === null ? null : Number(d.lastSkewMs) };
  }
  const unknown = out.get(UNKNOWN_SERVER_BUCKET);
  if (unknown && range.server === null) {
    // The names of the bucket's latest rows (any reason), newest last, distinct.
    const named = await sql.query<{ lastNames: string | null }>(
      `SELECT "lastNames" FROM ${T} WHERE ${where} AND "server" = ? ORDER BY "lastAt" DESC LIMIT ?`,
      [...params, UNKNOWN_SERVER_BUCKET, RECENT_UNKNOWN_NAMES],
    );
    const all = named.reverse().flatMap((r) => (r.lastNames ? parseNames(r.lastNames) : []));
    unknown.recentNames = all.filter((n, i) => all.lastIndexOf(n) === i).slice(-RECENT_UNKNOWN_NAMES);
  }
  return out;
}

function parseNames(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** All-time totals per (server, reason): the /metrics counters (one GROUP BY). */
export async function rejectionTotals(sql: SqlExecutor): Promise<{ server: string; reason: TRejectionReason; count: number }[]> {
  const rows = await sql.query<{ server: string; reason: string; n: unknown }>(
    `SELECT "server", "reason", CAST(SUM("count") AS BIGINT) AS "n" FROM ${T} GROUP BY "server", "reason"`,
  );
  return rows.flatMap((r) => (isReason(r.reason) ? [{ server: r.server, reason: r.reason, count: Number(r.n) }] : []));
}

/** Which of these names are registered servers. */
export async function registeredAmong(sql: SqlExecutor, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await sql.query<{ name: string }>(`SELECT "name" FROM "Server" WHERE "name" IN (${placeholders(names.length)})`, names);
  return new Set(rows.map((r) => r.name));
}

/**
 * Retention: minute rows before the cutoff are added into the (server, reason) row at minute 0
 * and deleted, in one transaction. Returns how many minute rows went.
 */
export async function foldRejectionsBefore(sql: Sql, cutoff: number): Promise<number> {
  return sql.transaction(async (tx) => {
    await tx.execute(
      `INSERT INTO ${T} ("server","reason","minute","count","lastAt","lastSkewMs","lastNames")
         SELECT "server", "reason", 0, CAST(SUM("count") AS INTEGER), MAX("lastAt"), NULL, NULL FROM ${T}
          WHERE "minute" > 0 AND "minute" < ? GROUP BY "server", "reason"
       ON CONFLICT ("server","reason","minute") DO UPDATE SET "count" = ${T}."count" + excluded."count",
         "lastAt" = CASE WHEN excluded."lastAt" > ${T}."lastAt" THEN excluded."lastAt" ELSE ${T}."lastAt" END`,
      [cutoff],
    );
    return tx.execute(`DELETE FROM ${T} WHERE "minute" > 0 AND "minute" < ?`, [cutoff]);
  });
}
