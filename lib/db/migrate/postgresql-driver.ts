import pg from 'pg';
import type { AppliedMigrationRow, MigrationDriver } from './migration-driver';

// The advisory lock key Prisma's own migrate uses, so our runner and `prisma migrate deploy` exclude each other.
const PRISMA_MIGRATE_LOCK = 72707369;

export async function postgresqlMigrationDriver(url: string): Promise<MigrationDriver> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async lock() {
      await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
    },
    async unlock() {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK]);
    },
    async ensureMigrationsTable() {
      await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
        "id" VARCHAR(36) PRIMARY KEY NOT NULL,
        "checksum" VARCHAR(64) NOT NULL,
        "finished_at" TIMESTAMPTZ,
        "migration_name" VARCHAR(255) NOT NULL,
        "logs" TEXT,
        "rolled_back_at" TIMESTAMPTZ,
        "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "applied_steps_count" INTEGER NOT NULL DEFAULT 0
      )`);
    },
    async appliedRows() {
      const r = await client.query('SELECT * FROM "_prisma_migrations" ORDER BY "started_at", "migration_name"');
      return r.rows as AppliedMigrationRow[];
    },
    async recordStart(id, name, checksum) {
      await client.query(
        'INSERT INTO "_prisma_migrations" ("id","checksum","migration_name","started_at","applied_steps_count") VALUES ($1,$2,$3,now(),0)',
        [id, checksum, name],
      );
    },
    async applyScript(sql) {
      // PostgreSQL DDL is transactional: a failed script leaves nothing half-applied.
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    },
    async recordFinish(id) {
      await client.query('UPDATE "_prisma_migrations" SET "finished_at" = now(), "applied_steps_count" = 1 WHERE "id" = $1', [id]);
    },
    async recordFailure(id, logs) {
      await client.query('UPDATE "_prisma_migrations" SET "logs" = $1 WHERE "id" = $2', [logs, id]);
    },
    async markRolledBack(name) {
      const r = await client.query(
        'UPDATE "_prisma_migrations" SET "rolled_back_at" = now() WHERE "migration_name" = $1 AND "finished_at" IS NULL AND "rolled_back_at" IS NULL',
        [name],
      );
      return r.rowCount ?? 0;
    },
    async close() {
      await client.end();
    },
  };
}
