// The cheapest round trip to the database: health and readiness ask it on every call.
import type { SqlExecutor } from './sql';

export async function pingDatabase(sql: Pick<SqlExecutor, 'query'>): Promise<void> {
  await sql.query('SELECT 1 AS ok');
}
