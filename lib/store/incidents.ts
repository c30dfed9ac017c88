// The "Incident" table: one row per server and kind (lib/incidents/open-or-join.ts decides what a
// row becomes). Writes are compare-and-set on "version", so the leader's sweep, probe runs on any
// instance and operators' actions never overwrite each other; an acknowledgement or a resolution
// is a conditional UPDATE on the status, so two instances acknowledging at once record one.
import type { SqlExecutor } from '@/lib/db/sql';
import type { TIncidentKind, TIncidentStatus } from '@/lib/contract/api/incidents';
import { TABLE_SQL } from './tables';

export interface IncidentRow {
  id: string;
  server: string;
  kind: TIncidentKind;
  status: TIncidentStatus;
  firstSeenAt: number;
  lastSeenAt: number;
  openedAt: number;
  sessionCount: number;
  regressions: number;
  regressedAt: number | null;
  acknowledgedAt: number | null;
  acknowledgedBy: string | null;
  resolvedAt: number | null;
  resolvedBy: string | null;
  version: number;
}

const T = TABLE_SQL.incident;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const fromRow = (r: IncidentRow): IncidentRow => ({
  ...r,
  firstSeenAt: Number(r.firstSeenAt),
  lastSeenAt: Number(r.lastSeenAt),
  openedAt: Number(r.openedAt),
  sessionCount: Number(r.sessionCount),
  regressions: Number(r.regressions),
  regressedAt: num(r.regressedAt),
  acknowledgedAt: num(r.acknowledgedAt),
  resolvedAt: num(r.resolvedAt),
  version: Number(r.version),
});

export async function readIncident(sql: SqlExecutor, id: string): Promise<IncidentRow | null> {
  const [row] = await sql.query<IncidentRow>(`SELECT * FROM ${T} WHERE "id" = ?`, [id]);
  return row ? fromRow(row) : null;
}

export async function readIncidentOf(sql: SqlExecutor, server: string, kind: TIncidentKind): Promise<IncidentRow | null> {
  const [row] = await sql.query<IncidentRow>(`SELECT * FROM ${T} WHERE "server" = ? AND "kind" = ?`, [server, kind]);
  return row ? fromRow(row) : null;
}

/** Inserts a new incident; false when one of that server and kind already exists (another writer won). */
export async function insertIncident(tx: SqlExecutor, row: Omit<IncidentRow, 'version'>): Promise<boolean> {
  const n = await tx.execute(
    `INSERT INTO ${T} ("id", "server", "kind", "status", "firstSeenAt", "lastSeenAt", "openedAt", "sessionCount", "regressions",
       "regressedAt", "acknowledgedAt", "acknowledgedBy", "resolvedAt", "resolvedBy", "version")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0) ON CONFLICT ("server", "kind") DO NOTHING`,
    [
      row.id,
      row.server,
      row.kind,
      row.status,
      row.firstSeenAt,
      row.lastSeenAt,
      row.openedAt,
      row.sessionCount,
      row.regressions,
      row.regressedAt,
      row.acknowledgedAt,
      row.acknowledgedBy,
      row.resolvedAt,
      row.resolvedBy,
    ],
  );
  return n > 0;
}

/** Writes the folded state if nobody changed the row since `version` was read; false otherwise. */
export async function updateIncident(tx: SqlExecutor, row: IncidentRow): Promise<boolean> {
  const n = await tx.execute(
    `UPDATE ${T} SET "status" = ?, "firstSeenAt" = ?, "lastSeenAt" = ?, "sessionCount" = ?, "regressions" = ?, "regressedAt" = ?,
       "acknowledgedAt" = ?, "acknowledgedBy" = ?, "resolvedAt" = ?, "resolvedBy" = ?, "version" = "version" + 1
     WHERE "id" = ? AND "version" = ?`,
    [
      row.status,
      row.firstSeenAt,
      row.lastSeenAt,
      row.sessionCount,
      row.regressions,
      row.regressedAt,
      row.acknowledgedAt,
      row.acknowledgedBy,
      row.resolvedAt,
      row.resolvedBy,
      row.id,
      row.version,
    ],
  );
  return n > 0;
}

/** open → acknowledged; false when it was not open (already acknowledged, resolved, or unknown). */
export async function acknowledgeIncident(tx: SqlExecutor, id: string, by: string, atMs: number): Promise<boolean> {
  const n = await tx.execute(
    `UPDATE ${T} SET "status" = 'acknowledged', "acknowledgedAt" = ?, "acknowledgedBy" = ?, "version" = "version" + 1
      WHERE "id" = ? AND "status" = 'open'`,
    [atMs, by, id],
  );
  return n > 0;
}

/** open | acknowledged → resolved; `ifVersion` (the quiet-period resolution) also requires nothing changed since it was read. */
export async function resolveIncident(tx: SqlExecutor, id: string, by: string, atMs: number, ifVersion?: number): Promise<boolean> {
  const n = await tx.execute(
    `UPDATE ${T} SET "status" = 'resolved', "resolvedAt" = ?, "resolvedBy" = ?, "version" = "version" + 1
      WHERE "id" = ? AND "status" IN ('open', 'acknowledged')${ifVersion === undefined ? '' : ' AND "version" = ?'}`,
    ifVersion === undefined ? [atMs, by, id] : [atMs, by, id, ifVersion],
  );
  return n > 0;
}

/** Incidents not resolved: what the quiet period may resolve. */
export async function listUnresolvedIncidents(sql: SqlExecutor): Promise<IncidentRow[]> {
  const rows = await sql.query<IncidentRow>(`SELECT * FROM ${T} WHERE "status" IN ('open', 'acknowledged')`);
  return rows.map(fromRow);
}

export interface IncidentFilter {
  status?: TIncidentStatus;
  server?: string;
}

function where(f: IncidentFilter): { text: string; params: unknown[] } {
  const w: string[] = [];
  const params: unknown[] = [];
  if (f.status) {
    w.push('"status" = ?');
    params.push(f.status);
  }
  if (f.server) {
    w.push('"server" = ?');
    params.push(f.server);
  }
  return { text: w.length ? `WHERE ${w.join(' AND ')}` : '', params };
}

/** Newest last seen first. */
export async function listIncidents(sql: SqlExecutor, f: IncidentFilter & { limit: number; offset: number }): Promise<IncidentRow[]> {
  const w = where(f);
  const rows = await sql.query<IncidentRow>(`SELECT * FROM ${T} ${w.text} ORDER BY "lastSeenAt" DESC, "id" LIMIT ? OFFSET ?`, [
    ...w.params,
    f.limit,
    f.offset,
  ]);
  return rows.map(fromRow);
}

/** How many incidents per status, over the server filter. */
export async function countIncidentsByStatus(sql: SqlExecutor, server: string | undefined): Promise<Map<TIncidentStatus, number>> {
  const w = where({ server });
  const rows = await sql.query<{ status: TIncidentStatus; n: unknown }>(
    `SELECT "status", COUNT(*) AS "n" FROM ${T} ${w.text} GROUP BY "status"`,
    w.params,
  );
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}
