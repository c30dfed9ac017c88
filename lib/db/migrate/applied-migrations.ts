// The names of the migrations applied to a database (finished, not rolled back), read from the
// bookkeeping table the migration runner keeps as Prisma does. Throws when the table is missing
// (a database never migrated).
import type { SqlExecutor } from '../sql';

export async function appliedMigrationNames(sql: Pick<SqlExecutor, 'query'>): Promise<Set<string>> {
  const rows = await sql.query<{ name: string }>(
    `SELECT "migration_name" AS "name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`,
  );
  return new Set(rows.map((r) => r.name));
}
