// The "AlertState" table: each rule's current state. Writes are compare-and-set on `version`, so
// two evaluators that ever overlapped (a leadership hand-over mid-run) cannot both record a change.
import type { SqlExecutor } from '@/lib/db/sql';
import type { TAlertStateName } from '@/lib/contract/api/alerts';
import { TABLE_SQL } from './tables';

export interface AlertStateRow {
  ruleId: string;
  state: TAlertStateName;
  since: number;
  activeSince: number | null;
  value: number | null;
  evaluatedAt: number;
  version: number;
}

const S = TABLE_SQL.alertState;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export async function readAlertStates(sql: SqlExecutor): Promise<Map<string, AlertStateRow>> {
  const rows = await sql.query<AlertStateRow>(`SELECT * FROM ${S}`);
  return new Map(
    rows.map((r) => [
      r.ruleId,
      {
        ...r,
        since: Number(r.since),
        activeSince: num(r.activeSince),
        value: num(r.value),
        evaluatedAt: Number(r.evaluatedAt),
        version: Number(r.version),
      },
    ]),
  );
}

/**
 * Writes the rule's state if it is still at `expectedVersion` (null: no row yet), bumping the
 * version; false when another writer got there first (then nothing is written).
 */
export async function writeAlertState(
  tx: SqlExecutor,
  row: Omit<AlertStateRow, 'version'>,
  expectedVersion: number | null,
): Promise<boolean> {
  const values = [row.state, row.since, row.activeSince, Number.isFinite(row.value) ? row.value : null, row.evaluatedAt];
  if (expectedVersion === null) {
    const n = await tx.execute(
      `INSERT INTO ${S} ("ruleId", "state", "since", "activeSince", "value", "evaluatedAt", "version") VALUES (?, ?, ?, ?, ?, ?, 1)
       ON CONFLICT ("ruleId") DO NOTHING`,
      [row.ruleId, ...values],
    );
    return n > 0;
  }
  const n = await tx.execute(
    `UPDATE ${S} SET "state" = ?, "since" = ?, "activeSince" = ?, "value" = ?, "evaluatedAt" = ?, "version" = "version" + 1
      WHERE "ruleId" = ? AND "version" = ?`,
    [...values, row.ruleId, expectedVersion],
  );
  return n > 0;
}
