// The database server's clock, for what instances on different hosts must agree on. On PostgreSQL
// every instance reads the one server's clock; host clocks can disagree by minutes (docs/reliability.md,
// "Clock steps"). SQLite is one instance on one host: there is no second clock to agree with.
import type { SqlExecutor } from './sql';

/** PostgreSQL: the current transaction's start on the server's clock, in epoch ms (a select-list term). */
export const PG_NOW_MS = '(extract(epoch from now()) * 1000)::bigint';

/** The database's clock in epoch ms on PostgreSQL; null on SQLite. */
export async function databaseNowMs(sql: Pick<SqlExecutor, 'query' | 'provider'>): Promise<number | null> {
  if (sql.provider !== 'postgresql') return null;
  const [row] = await sql.query<{ now: number }>(`SELECT ${PG_NOW_MS} AS "now"`);
  return Number(row.now);
}
