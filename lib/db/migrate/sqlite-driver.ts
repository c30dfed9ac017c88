import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AppliedMigrationRow, MigrationDriver } from './migration-driver';

const now = () => new Date().toISOString();

export function sqliteMigrationDriver(file: string): MigrationDriver {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: 15_000 });
  // WAL is a property of the file: set once here so every later connection gets it.
  db.pragma('journal_mode = WAL');
  return {
    // SQLite's own write lock serialises runners: BEGIN IMMEDIATE waits for the other one.
    async lock() {
      db.exec('BEGIN IMMEDIATE; COMMIT;');
    },
    async unlock() {},
    async ensureMigrationsTable() {
      db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
        "id" TEXT PRIMARY KEY NOT NULL,
        "checksum" TEXT NOT NULL,
        "finished_at" DATETIME,
        "migration_name" TEXT NOT NULL,
        "logs" TEXT,
        "rolled_back_at" DATETIME,
        "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
        "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
      )`);
    },
    async appliedRows() {
      return db.prepare('SELECT * FROM "_prisma_migrations" ORDER BY "started_at", "migration_name"').all() as AppliedMigrationRow[];
    },
    async recordStart(id, name, checksum) {
      db.prepare(
        'INSERT INTO "_prisma_migrations" ("id","checksum","migration_name","started_at","applied_steps_count") VALUES (?,?,?,?,0)',
      ).run(id, checksum, name, now());
    },
    async applyScript(sql) {
      // Prisma's table-rebuild migrations say PRAGMA foreign_keys=OFF, which is a no-op inside
      // a transaction: turn it off before BEGIN, or a rebuild cascades deletes into child rows.
      db.pragma('foreign_keys = OFF');
      try {
        db.exec('BEGIN');
        try {
          db.exec(sql);
          const violations = db.pragma('foreign_key_check') as unknown[];
          if (violations.length > 0) throw new Error(`foreign key check failed: ${JSON.stringify(violations.slice(0, 5))}`);
          db.exec('COMMIT');
        } catch (err) {
          db.exec('ROLLBACK');
          throw err;
        }
      } finally {
        db.pragma('foreign_keys = ON');
      }
    },
    async recordFinish(id) {
      db.prepare('UPDATE "_prisma_migrations" SET "finished_at" = ?, "applied_steps_count" = 1 WHERE "id" = ?').run(now(), id);
    },
    async recordFailure(id, logs) {
      db.prepare('UPDATE "_prisma_migrations" SET "logs" = ? WHERE "id" = ?').run(logs, id);
    },
    async markRolledBack(name) {
      return db
        .prepare(
          'UPDATE "_prisma_migrations" SET "rolled_back_at" = ? WHERE "migration_name" = ? AND "finished_at" IS NULL AND "rolled_back_at" IS NULL',
        )
        .run(now(), name).changes;
    },
    async close() {
      db.close();
    },
  };
}
