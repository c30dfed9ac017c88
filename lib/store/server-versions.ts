// The "ServerVersion" table: per server and version (build), when it was first and last reported
// (event time) and its sessions' verdict counts. Ingest adds deltas in its write transaction
// (lib/metrics/version-contributions.ts), so the counts follow the stored sessions whatever the
// arrival order; the seen bounds only widen. Also the version reads of "Session" rows.
import { insertRows, type ColumnSpec, type RowsInsert, type SqlExecutor } from '@/lib/db/sql';
import { VERSION_COUNTERS, type VersionCounter, type VersionDelta } from '@/lib/metrics/version-contributions';
import { TABLE, TABLE_SQL } from './tables';

const T = TABLE_SQL.serverVersion;

const VERSION_COLUMNS: readonly ColumnSpec[] = [
  { name: 'server', type: 'text' },
  { name: 'version', type: 'text' },
  { name: 'firstSeenAt', type: 'bigint' },
  { name: 'lastSeenAt', type: 'bigint' },
  ...VERSION_COUNTERS.map((name): ColumnSpec => ({ name, type: 'int' })),
];

const pick = (op: '<' | '>', col: string) =>
  `CASE WHEN excluded."${col}" ${op} ${T}."${col}" THEN excluded."${col}" ELSE ${T}."${col}" END`;

/** The delta's cells as one upsert, in key order (row locks in one global order), or null when empty. */
export function serverVersionInsert(delta: VersionDelta): RowsInsert | null {
  if (delta.size === 0) return null;
  const cells = [...delta.values()].sort((a, b) =>
    a.server < b.server ? -1 : a.server > b.server ? 1 : a.version < b.version ? -1 : a.version > b.version ? 1 : 0,
  );
  return {
    table: TABLE.serverVersion,
    columns: VERSION_COLUMNS,
    rows: cells.map((c) => [c.server, c.version, c.firstSeenAt, c.lastSeenAt, ...VERSION_COUNTERS.map((k) => c.values[k])]),
    tail: `ON CONFLICT ("server","version") DO UPDATE SET "firstSeenAt" = ${pick('<', 'firstSeenAt')}, "lastSeenAt" = ${pick('>', 'lastSeenAt')},
       ${VERSION_COUNTERS.map((k) => `"${k}" = ${T}."${k}" + excluded."${k}"`).join(', ')}`,
  };
}

export async function applyServerVersionDelta(tx: SqlExecutor, delta: VersionDelta): Promise<void> {
  const insert = serverVersionInsert(delta);
  if (insert) await insertRows(tx, insert);
}

export interface ServerVersionRow extends Record<VersionCounter, number> {
  server: string;
  version: string;
  firstSeenAt: number;
  lastSeenAt: number;
}

const toRow = (r: Record<string, unknown>): ServerVersionRow => ({
  server: String(r.server),
  version: String(r.version),
  firstSeenAt: Number(r.firstSeenAt),
  lastSeenAt: Number(r.lastSeenAt),
  ...(Object.fromEntries(VERSION_COUNTERS.map((k) => [k, Number(r[k] ?? 0)])) as Record<VersionCounter, number>),
});

/** The versions a server reported, oldest first seen first. */
export async function versionsSeen(sql: SqlExecutor, server: string): Promise<ServerVersionRow[]> {
  const rows = await sql.query<Record<string, unknown>>(`SELECT * FROM ${T} WHERE "server" = ? ORDER BY "firstSeenAt", "version"`, [
    server,
  ]);
  return rows.map(toRow);
}

/** Every server's versions, per server, oldest first seen first. */
export async function allServerVersions(sql: SqlExecutor): Promise<Map<string, ServerVersionRow[]>> {
  const rows = await sql.query<Record<string, unknown>>(`SELECT * FROM ${T} ORDER BY "server", "firstSeenAt", "version"`);
  const out = new Map<string, ServerVersionRow[]>();
  for (const r of rows.map(toRow)) {
    const list = out.get(r.server);
    if (list) list.push(r);
    else out.set(r.server, [r]);
  }
  return out;
}

/** Every server's versions whose first report falls in [fromMs, toMs) (the charts' markers), oldest first. */
export async function versionsFirstSeenIn(
  sql: SqlExecutor,
  r: { fromMs: number; toMs: number; server: string | null },
): Promise<ServerVersionRow[]> {
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT * FROM ${T} WHERE "firstSeenAt" >= ? AND "firstSeenAt" < ?${r.server === null ? '' : ' AND "server" = ?'}
      ORDER BY "firstSeenAt", "server", "version" LIMIT 500`,
    r.server === null ? [r.fromMs, r.toMs] : [r.fromMs, r.toMs, r.server],
  );
  return rows.map(toRow);
}

/** The earliest naive resume (boundary answer time) of each version of a server, real sessions only. */
export async function firstNaiveResumeByVersion(sql: SqlExecutor, server: string): Promise<Map<string, number>> {
  const rows = await sql.query<{ version: string; first: unknown }>(
    `SELECT "version", MIN("naiveResumeAt") AS "first" FROM ${TABLE_SQL.session}
      WHERE "server" = ? AND "version" IS NOT NULL AND "naiveResumeAt" IS NOT NULL AND "synthetic" = 0
      GROUP BY "version"`,
    [server],
  );
  return new Map(rows.map((r) => [r.version, Number(r.first)]));
}
