// The "AlertTransition" table: the history of every rule's state changes, newest first. Each row
// copies the rule's name and condition, so the history reads the same after the rule changes.
import type { SqlExecutor } from '@/lib/db/sql';
import type { TAlertComparison, TAlertMeasure, TAlertTransitionKind } from '@/lib/contract/api/alerts';
import { TABLE_SQL, placeholders } from './tables';
import { countUpTo, type CappedTotal } from './capped-count';

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
  /** The rule's scope: one server, or null for all. */
  server: string | null;
  /** The server this transition is about (the alert's series; '' in history from before per-server evaluation). */
  series: string;
  /** Increases with every transition of this rule and series: receivers keep the highest they saw. */
  sequence: number;
}

const T = TABLE_SQL.alertTransition;
const COLUMNS = [
  'id',
  'ruleId',
  'ruleName',
  'kind',
  'at',
  'value',
  'measure',
  'comparison',
  'threshold',
  'windowMs',
  'server',
  'series',
  'sequence',
] as const;

export async function insertAlertTransition(tx: SqlExecutor, row: AlertTransitionRow): Promise<void> {
  await tx.execute(
    `INSERT INTO ${T} (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${placeholders(COLUMNS.length)})`,
    COLUMNS.map((c) => (c === 'value' && !Number.isFinite(row.value) ? null : row[c])),
  );
}

export interface AlertTransitionFilter {
  /** One rule, or null for all. */
  ruleId: string | null;
  /** Only these kinds; empty for all. */
  kinds: readonly TAlertTransitionKind[];
}

function filterWhere(q: AlertTransitionFilter): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.ruleId !== null) {
    where.push('"ruleId" = ?');
    params.push(q.ruleId);
  }
  if (q.kinds.length) {
    where.push(`"kind" IN (${placeholders(q.kinds.length)})`);
    params.push(...q.kinds);
  }
  return { where, params };
}

/** Ties a transition to the incident it is evidence of or belongs to (lib/alerts/incident-link.ts). */
export async function linkTransitionToIncident(tx: SqlExecutor, transitionId: string, incidentId: string): Promise<void> {
  await tx.execute(`UPDATE ${T} SET "incidentId" = ? WHERE "id" = ?`, [incidentId, transitionId]);
}

const fromRow = (r: AlertTransitionRow): AlertTransitionRow => ({
  ...r,
  at: Number(r.at),
  value: r.value === null ? null : Number(r.value),
  threshold: Number(r.threshold),
  windowMs: Number(r.windowMs),
  sequence: Number(r.sequence),
});

/**
 * An incident's transitions, newest first, read in two parts so the server's other alerts cannot
 * crowd its own evidence out of the limit. `own`: those linked to it, and its server's on its
 * measure in [fromMs, toMs] (its rule resolving, going pending again). `context`: its server's on
 * every other measure in the window.
 */
export async function incidentTransitions(
  sql: SqlExecutor,
  q: { incidentId: string; server: string; measure: TAlertMeasure; part: 'own' | 'context'; fromMs: number; toMs: number; limit: number },
): Promise<AlertTransitionRow[]> {
  const inWindow = '"series" = ? AND "at" >= ? AND "at" <= ?';
  const rows = await sql.query<AlertTransitionRow>(
    q.part === 'own'
      ? `SELECT * FROM ${T} WHERE "incidentId" = ? OR (${inWindow} AND "measure" = ?) ORDER BY "at" DESC, "id" DESC LIMIT ?`
      : `SELECT * FROM ${T} WHERE ${inWindow} AND "measure" <> ? AND ("incidentId" IS NULL OR "incidentId" <> ?) ORDER BY "at" DESC, "id" DESC LIMIT ?`,
    q.part === 'own'
      ? [q.incidentId, q.server, q.fromMs, q.toMs, q.measure, q.limit]
      : [q.server, q.fromMs, q.toMs, q.measure, q.incidentId, q.limit],
  );
  return rows.map(fromRow);
}

/** Newest first, matching the filter. */
export async function listAlertTransitions(sql: SqlExecutor, q: AlertTransitionFilter & { limit: number }): Promise<AlertTransitionRow[]> {
  const { where, params } = filterWhere(q);
  const rows = await sql.query<AlertTransitionRow>(
    `SELECT * FROM ${T} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY "at" DESC, "id" DESC LIMIT ?`,
    [...params, q.limit],
  );
  return rows.map(fromRow);
}

/** How many transitions match the filter (all of them, not the limit), up to the list cap. */
export function countAlertTransitions(sql: SqlExecutor, q: AlertTransitionFilter): Promise<CappedTotal> {
  const { where, params } = filterWhere(q);
  return countUpTo(sql, T, where, params);
}
