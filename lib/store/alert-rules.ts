// The "AlertRule" table and its contact-point links ("AlertRuleContact"): the rules admins define.
import type { Sql, SqlExecutor } from '@/lib/db/sql';
import type { TAlertComparison, TAlertMeasure } from '@/lib/contract/api/alerts';
import { TABLE_SQL, placeholders } from './tables';

export interface AlertRuleRow {
  id: string;
  name: string;
  measure: TAlertMeasure;
  comparison: TAlertComparison;
  threshold: number;
  windowMs: number;
  forMs: number;
  server: string | null;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
  contactPointIds: string[];
}

type Stored = Omit<AlertRuleRow, 'enabled' | 'contactPointIds'> & { enabled: number | boolean };
const R = TABLE_SQL.alertRule;
const RC = TABLE_SQL.alertRuleContact;
const COLUMNS = [
  'id',
  'name',
  'measure',
  'comparison',
  'threshold',
  'windowMs',
  'forMs',
  'server',
  'enabled',
  'createdAt',
  'updatedAt',
] as const;

async function withContacts(sql: SqlExecutor, rows: Stored[]): Promise<AlertRuleRow[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const links = await sql.query<{ ruleId: string; contactPointId: string }>(
    `SELECT "ruleId", "contactPointId" FROM ${RC} WHERE "ruleId" IN (${placeholders(ids.length)}) ORDER BY "contactPointId"`,
    ids,
  );
  return rows.map((r) => ({
    ...r,
    threshold: Number(r.threshold),
    windowMs: Number(r.windowMs),
    forMs: Number(r.forMs),
    createdAt: Number(r.createdAt),
    updatedAt: Number(r.updatedAt),
    enabled: r.enabled === true || Number(r.enabled) === 1,
    contactPointIds: links.filter((l) => l.ruleId === r.id).map((l) => l.contactPointId),
  }));
}

/** Every rule, oldest first. */
export async function listAlertRules(sql: SqlExecutor): Promise<AlertRuleRow[]> {
  return withContacts(sql, await sql.query<Stored>(`SELECT * FROM ${R} ORDER BY "createdAt", "id"`));
}

export async function findAlertRule(sql: SqlExecutor, id: string): Promise<AlertRuleRow | null> {
  const [row] = await withContacts(sql, await sql.query<Stored>(`SELECT * FROM ${R} WHERE "id" = ?`, [id]));
  return row ?? null;
}

async function linkContacts(tx: SqlExecutor, ruleId: string, contactPointIds: readonly string[]): Promise<void> {
  await tx.execute(`DELETE FROM ${RC} WHERE "ruleId" = ?`, [ruleId]);
  for (const id of new Set(contactPointIds)) await tx.execute(`INSERT INTO ${RC} ("ruleId", "contactPointId") VALUES (?, ?)`, [ruleId, id]);
}

export async function insertAlertRule(sql: Sql, row: AlertRuleRow): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.execute(
      `INSERT INTO ${R} (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${placeholders(COLUMNS.length)})`,
      COLUMNS.map((c) => (c === 'enabled' ? (row.enabled ? 1 : 0) : row[c])),
    );
    await linkContacts(tx, row.id, row.contactPointIds);
  });
}

/** Replaces the rule's fields and links; false when there is no such rule. */
export async function updateAlertRule(sql: Sql, row: AlertRuleRow): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const set = COLUMNS.filter((c) => c !== 'id' && c !== 'createdAt');
    const n = await tx.execute(`UPDATE ${R} SET ${set.map((c) => `"${c}" = ?`).join(', ')} WHERE "id" = ?`, [
      ...set.map((c) => (c === 'enabled' ? (row.enabled ? 1 : 0) : row[c])),
      row.id,
    ]);
    if (n === 0) return false;
    await linkContacts(tx, row.id, row.contactPointIds);
    return true;
  });
}

/** Deletes the rule, its links and its state (its history stays); false when there is no such rule. */
export async function deleteAlertRule(sql: Sql, id: string): Promise<boolean> {
  return sql.transaction(async (tx) => {
    await tx.execute(`DELETE FROM ${RC} WHERE "ruleId" = ?`, [id]);
    await tx.execute(`DELETE FROM ${TABLE_SQL.alertState} WHERE "ruleId" = ?`, [id]);
    return (await tx.execute(`DELETE FROM ${R} WHERE "id" = ?`, [id])) > 0;
  });
}
