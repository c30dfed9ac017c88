// Readiness: the database answers and every migration this build ships is applied (finished,
// not rolled back). Once true, the migration check is not repeated (applied migrations do not
// go away); the database round trip is made on every call.
import { processSlot } from '@/lib/config/process-state';
import { getDb } from '@/lib/db/client';
import { readMigrationFiles } from '@/lib/db/migrate/migration-files';
import type { TReadyResponse } from '@/lib/contract/api/health-probes';

const migrationsReady = processSlot<boolean>('doorwatchMigrationsReady');

export async function checkReadiness(root = process.cwd()): Promise<TReadyResponse> {
  const db = getDb();
  const database = { provider: db.config.provider, reachable: false };
  try {
    await db.sql.query('SELECT 1 AS ok');
    database.reachable = true;
    if (migrationsReady.get()) return { status: 'ready', reason: null, message: null, database, migrations: null };
    const expected = readMigrationFiles(root, db.config.provider).map((m) => m.name);
    const rows = await db.sql.query<{ name: string }>(
      `SELECT "migration_name" AS "name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`,
    );
    const applied = new Set(rows.map((r) => r.name));
    const pending = expected.filter((n) => !applied.has(n));
    const migrations = { expected: expected.length, applied: expected.length - pending.length, pending };
    if (pending.length > 0) {
      return {
        status: 'not_ready',
        reason: 'migrations_pending',
        message: `${pending.length} migration(s) not applied: run npm run db:migrate (or npm start)`,
        database,
        migrations,
      };
    }
    migrationsReady.set(true);
    return { status: 'ready', reason: null, message: null, database, migrations };
  } catch (err) {
    const detail = err instanceof Error ? err.message.split('\n')[0].slice(0, 200) : String(err);
    if (!database.reachable) return { status: 'not_ready', reason: 'database_unreachable', message: detail, database, migrations: null };
    // Reachable but no bookkeeping table (never migrated).
    return {
      status: 'not_ready',
      reason: 'migrations_pending',
      message: `migration state unreadable: ${detail}`,
      database,
      migrations: null,
    };
  }
}
