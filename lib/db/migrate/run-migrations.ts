// Applies pending Prisma-layout migrations without Prisma's native schema engine (which the
// CLI downloads, and air-gapped machines cannot). Bookkeeping is Prisma's own
// _prisma_migrations table, so `prisma migrate status|deploy` on a connected machine agrees.
import { randomUUID } from 'node:crypto';
import type { DatabaseConfig } from '@/lib/config/database-url';
import { readMigrationFiles } from './migration-files';
import { MigrationError } from './migration-error';
import type { MigrationDriver } from './migration-driver';
import { sqliteMigrationDriver } from './sqlite-driver';
import { postgresqlMigrationDriver } from './postgresql-driver';

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
  /** Applied migrations whose file changed since: reported, never re-run. */
  modified: string[];
}

export async function openMigrationDriver(config: DatabaseConfig): Promise<MigrationDriver> {
  return config.provider === 'sqlite' ? sqliteMigrationDriver(config.sqliteFile!) : postgresqlMigrationDriver(config.url);
}

export async function runMigrations(config: DatabaseConfig, root = process.cwd()): Promise<MigrationReport> {
  const files = readMigrationFiles(root, config.provider);
  const driver = await openMigrationDriver(config);
  const report: MigrationReport = { applied: [], alreadyApplied: [], modified: [] };
  try {
    await driver.lock();
    try {
      await driver.ensureMigrationsTable();
      const rows = await driver.appliedRows();
      const failed = rows.find((r) => r.finished_at == null && r.rolled_back_at == null);
      if (failed) {
        // Prisma's P3009: never build on top of a half-applied migration.
        throw new MigrationError(
          'failed_migration_pending',
          `migration ${failed.migration_name} failed earlier (${(failed.logs ?? '').split('\n')[0]}). ` +
            `Fix the database, then run: npm run db:migrate -- --rolled-back ${failed.migration_name}`,
        );
      }
      const done = new Map(rows.filter((r) => r.finished_at != null).map((r) => [r.migration_name, r]));
      refuseNewerDatabase([...done.keys()], files);
      for (const file of files) {
        const row = done.get(file.name);
        if (row) {
          report.alreadyApplied.push(file.name);
          if (row.checksum !== file.checksum) report.modified.push(file.name);
          continue;
        }
        const id = randomUUID();
        await driver.recordStart(id, file.name, file.checksum);
        try {
          await driver.applyScript(file.sql);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          await driver.recordFailure(id, message);
          throw new MigrationError('migration_failed', `migration ${file.name} failed and was rolled back: ${message}`);
        }
        await driver.recordFinish(id);
        report.applied.push(file.name);
      }
    } finally {
      await driver.unlock();
    }
  } finally {
    await driver.close();
  }
  return report;
}

/**
 * A database a newer version migrated (it holds applied migrations this version has no file for) is
 * refused before anything runs: this version's statements were not written for that schema (a column
 * it does not fill, a table it does not prune), so serving could corrupt data or lose it silently. The
 * way back from an upgrade is the backup taken before it (docs/deploy.md, upgrades and rollback).
 */
function refuseNewerDatabase(applied: readonly string[], files: readonly { name: string }[]): void {
  const known = new Set(files.map((f) => f.name));
  const unknown = applied.filter((name) => !known.has(name)).sort();
  if (unknown.length === 0) return;
  throw new MigrationError(
    'database_newer_than_app',
    `the database holds ${unknown.length} migration(s) this version of Doorwatch does not have (${unknown.join(', ')}): ` +
      'a newer version migrated it. Run that version, or restore the backup taken before the upgrade ' +
      '(docs/deploy.md, "Upgrades and rollback"); this version will not serve a schema it does not know',
  );
}

/** Marks a failed migration as rolled back (after the operator repaired the database), like `prisma migrate resolve --rolled-back`. */
export async function markMigrationRolledBack(config: DatabaseConfig, name: string): Promise<void> {
  const driver = await openMigrationDriver(config);
  try {
    await driver.ensureMigrationsTable();
    const changed = await driver.markRolledBack(name);
    if (changed === 0) throw new MigrationError('unknown_migration', `no failed migration named ${name} to mark as rolled back`);
  } finally {
    await driver.close();
  }
}
