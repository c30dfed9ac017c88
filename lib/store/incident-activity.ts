// The "IncidentActivity" table: what happened to an incident and who did it (opened, regressed,
// acknowledged, resolved, auto_resolved) and its notes thread, in one list.
import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '@/lib/db/sql';
import { TABLE_SQL } from './tables';

export type ActivityKind = 'opened' | 'regressed' | 'acknowledged' | 'resolved' | 'auto_resolved' | 'note';

export interface ActivityRow {
  id: string;
  incidentId: string;
  kind: ActivityKind;
  at: number;
  actor: string | null;
  text: string | null;
}

const T = TABLE_SQL.incidentActivity;

export async function insertActivity(tx: SqlExecutor, a: Omit<ActivityRow, 'id'>): Promise<ActivityRow> {
  const row = { id: `act_${randomUUID()}`, ...a };
  await tx.execute(`INSERT INTO ${T} ("id", "incidentId", "kind", "at", "actor", "text") VALUES (?, ?, ?, ?, ?, ?)`, [
    row.id,
    row.incidentId,
    row.kind,
    row.at,
    row.actor,
    row.text,
  ]);
  return row;
}

/** The newest `limit` entries, oldest first. */
export async function listActivity(sql: SqlExecutor, incidentId: string, limit: number): Promise<ActivityRow[]> {
  const rows = await sql.query<ActivityRow>(`SELECT * FROM ${T} WHERE "incidentId" = ? ORDER BY "at" DESC, "id" DESC LIMIT ?`, [
    incidentId,
    limit,
  ]);
  return rows.map((r) => ({ ...r, at: Number(r.at) })).reverse();
}
