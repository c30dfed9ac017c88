// The "AlertTransition" table: the history of every rule's state changes, newest first. Each row
// copies the rule's name and condition, so the history reads the same after the rule changes.
import type { SqlExecutor } from '@/lib/db/sql';
import type { TAlertComparison, TAlertMeasure, TAlertTransitionKind } from '@/lib/contract/api/alerts';
import { TABLE_SQL, placeholders } from './tables';

export interface AlertTransitionRow {
  id: string;
  ruleId: string;
  ruleName: string;
  kind: TAlertTransitionKind;
  at: number;
  value: number | null;
  measure: TAlertMeasure;
  comparison: TAlertComparison;
  threshold: number;
  windowMs: number;
  server: string | null;
}

const T = TABLE_SQL.alertTransition;
const COLUMNS = ['id', 'ruleId', 'ruleName', 'kind', 'at', 'value', 'measure', 'comparison', 'threshold', 'windowMs', 'server'] as const;

export async function insertAlertTransition(tx: SqlExecutor, row: AlertTransitionRow): Promise<void> {
  await tx.execute(
    `INSERT INTO ${T} (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${placeholders(COLUMNS.length)})`,
    COLUMNS.map((c) => (c === 'value' && !Number.isFinite(row.value) ? null : row[c])),
  );
}

/** Newest first; one rule or all. */
export async function listAlertTransitions(sql: SqlExecutor, q: { ruleId: string | null; limit: number }): Promise<AlertTransitionRow[]> {
  const rows = await sql.query<AlertTransitionRow>(
    `SELECT * FROM ${T} ${q.ruleId === null ? '' : 'WHERE "ruleId" = ?'} ORDER BY "at" DESC, "id" DESC LIMIT ?`,
    q.ruleId === null ? [q.limit] : [q.ruleId, q.limit],
  );
  return rows.map((r) => ({
    ...r,
    at: Number(r.at),
    value: r.value === null ? null : Number(r.value),
    threshold: Number(r.threshold),
    windowMs: Number(r.windowMs),
  }));
}
