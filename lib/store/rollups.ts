// The "Rollup" table: per-server, per-minute counters (columns = ROLLUP_COLUMNS of lib/metrics).
// Written only as additive deltas, so concurrent writers and late events compose.
import type { ColumnSpec, SqlExecutor } from '@/lib/db/sql';
import { ROLLUP_MS_COLUMNS, type RollupColumn, type RollupDelta } from '@/lib/metrics/rollup-contributions';
import { TABLE, TABLE_SQL, sumColumn } from './tables';

/** The key and the given counters of "Rollup", typed for bulk writes (lib/db/sql.ts insertMany). */
export function rollupColumnSpecs(columns: readonly RollupColumn[]): ColumnSpec[] {
  return [
    { name: 'server', type: 'text' },
    { name: 'minute', type: 'bigint' },
    ...columns.map((name): ColumnSpec => ({ name, type: ROLLUP_MS_COLUMNS.includes(name) ? 'bigint' : 'int' })),
  ];
}

/** The ON CONFLICT clause that adds a new cell's counters to the stored ones. */
export function rollupAddTail(columns: readonly RollupColumn[]): string {
  return `ON CONFLICT ("server","minute") DO UPDATE SET ${columns.map((c) => `"${c}" = ${TABLE_SQL.rollup}."${c}" + excluded."${c}"`).join(',')}`;
}

export async function applyRollupDelta(tx: SqlExecutor, delta: RollupDelta): Promise<void> {
  // Cells in (server, minute) order, in one statement per chunk: concurrent transactions (other
  // tokens, other instances) lock shared Rollup rows in the same order, so they queue instead of
  // deadlocking. Columns a cell does not touch add 0.
  const cells = [...delta.values()].sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : a.minute - b.minute));
  if (cells.length === 0) return;
  const used = new Set<RollupColumn>();
  for (const cell of cells) for (const c of Object.keys(cell.values) as RollupColumn[]) used.add(c);
  const cols = [...used].sort();
  await tx.insertMany(
    TABLE.rollup,
    rollupColumnSpecs(cols),
    cells.map((cell) => [cell.server, cell.minute, ...cols.map((c) => cell.values[c] ?? 0)]),
    rollupAddTail(cols),
  );
}

/** All-time sums of the given counters per server. */
export async function rollupTotalsByServer<C extends RollupColumn>(
  sql: SqlExecutor,
  columns: readonly C[],
): Promise<Map<string, Record<C, number>>> {
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT "server", ${columns.map(sumColumn).join(', ')} FROM ${TABLE_SQL.rollup} GROUP BY "server"`,
  );
  return new Map(rows.map((r) => [String(r.server), Object.fromEntries(columns.map((c) => [c, Number(r[c] ?? 0)])) as Record<C, number>]));
}
