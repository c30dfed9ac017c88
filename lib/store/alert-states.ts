// The "AlertState" table: each rule's current state per series (the server's name). Writes are
// compare-and-set on `version`, so two evaluators that ever overlapped (a leadership hand-over
// mid-run) cannot both record a change; the version a write leaves numbers the alert's transitions.
import type { SqlExecutor } from '@/lib/db/sql';
import type { TAlertStateName } from '@/lib/contract/api/alerts';
import { lastEventAtByServer } from './sessions';
import { TABLE_SQL } from './tables';

export interface AlertStateRow {
  ruleId: string;
  /** The server this state is about ('' for a state kept from before per-server evaluation). */
  series: string;
  state: TAlertStateName;
  since: number;
  activeSince: number | null;
  value: number | null;
  evaluatedAt: number;
  version: number;
}

const S = TABLE_SQL.alertState;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Every rule's states: rule id → its series' states, by series. */
export async function readAlertStates(sql: SqlExecutor): Promise<Map<string, AlertStateRow[]>> {
  const rows = await sql.query<AlertStateRow>(`SELECT * FROM ${S} ORDER BY "ruleId", "series"`);
  const byRule = new Map<string, AlertStateRow[]>();
  for (const r of rows) {
    const row: AlertStateRow = {
      ...r,
      since: Number(r.since),
      activeSince: num(r.activeSince),
      value: num(r.value),
      evaluatedAt: Number(r.evaluatedAt),
      version: Number(r.version),
    };
    byRule.set(r.ruleId, [...(byRule.get(r.ruleId) ?? []), row]);
  }
  return byRule;
}

/**
 * Writes the rule's state if it is still at `expectedVersion` (null: no row yet), bumping the
 * version; the version written, or null when another writer got there first (then nothing is written).
 */
export async function writeAlertState(
  tx: SqlExecutor,
  row: Omit<AlertStateRow, 'version'>,
  expectedVersion: number | null,
): Promise<number | null> {
  const values = [row.state, row.since, row.activeSince, Number.isFinite(row.value) ? row.value : null, row.evaluatedAt];
  if (expectedVersion === null) {
    const n = await tx.execute(
      `INSERT INTO ${S} ("ruleId", "series", "state", "since", "activeSince", "value", "evaluatedAt", "version") VALUES (?, ?, ?, ?, ?, ?, ?, 1)
       ON CONFLICT ("ruleId", "series") DO NOTHING`,
      [row.ruleId, row.series, ...values],
    );
    return n > 0 ? 1 : null;
  }
  const n = await tx.execute(
    `UPDATE ${S} SET "state" = ?, "since" = ?, "activeSince" = ?, "value" = ?, "evaluatedAt" = ?, "version" = "version" + 1
      WHERE "ruleId" = ? AND "series" = ? AND "version" = ?`,
    [...values, row.ruleId, row.series, expectedVersion],
  );
  return n > 0 ? expectedVersion + 1 : null;
}

/**
 * The servers a rule for all servers is evaluated for: every registered server and every server
 * with sessions (through lastEventAtByServer's loose index scan, not a scan of every session).
 */
export async function alertableServers(sql: SqlExecutor): Promise<string[]> {
  const registered = await sql.query<{ name: string }>(`SELECT "name" FROM "Server"`);
  const reporting = await lastEventAtByServer(sql);
  return [...new Set([...registered.map((r) => r.name), ...reporting.keys()])].sort();
}
