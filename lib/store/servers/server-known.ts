// Whether Doorwatch knows a server by name: registered, or seen in its data (the servers GET
// /api/v1/servers lists). A session page asks only on a miss, to tell a mistyped server from an unseen token.
import type { SqlExecutor } from '@/lib/db/sql';
import { TABLE_SQL } from '../tables';

export async function serverKnown(sql: SqlExecutor, server: string): Promise<boolean> {
  const rows = await sql.query<{ one: unknown }>(
    `SELECT 1 AS "one" FROM ${TABLE_SQL.server} WHERE "name" = ?
     UNION ALL SELECT 1 FROM (SELECT 1 AS "one" FROM ${TABLE_SQL.session} WHERE "server" = ? LIMIT 1) s
     UNION ALL SELECT 1 FROM (SELECT 1 AS "one" FROM ${TABLE_SQL.rollup} WHERE "server" = ? LIMIT 1) r`,
    [server, server, server],
  );
  return rows.length > 0;
}
