// npm run db:migrate [-- --rolled-back NAME]: applies pending migrations offline.
import { settings } from '@/lib/config/settings';
import { markMigrationRolledBack, runMigrations } from '@/lib/db/migrate/run-migrations';
import { MigrationError } from '@/lib/db/migrate/migration-error';

async function main() {
  const config = settings().DATABASE_URL;
  const i = process.argv.indexOf('--rolled-back');
  if (i >= 0) {
    const name = process.argv[i + 1];
    if (!name) throw new MigrationError('unknown_migration', 'usage: npm run db:migrate -- --rolled-back MIGRATION_NAME');
    await markMigrationRolledBack(config, name);
    console.log(`marked ${name} as rolled back; run npm run db:migrate again`);
    return;
  }
  const report = await runMigrations(config);
  const where = config.provider === 'sqlite' ? config.sqliteFile : 'PostgreSQL';
  console.log(
    `migrations (${config.provider}, ${where}): ${report.applied.length} applied, ${report.alreadyApplied.length} already applied`,
  );
  for (const name of report.applied) console.log(`  applied ${name}`);
  for (const name of report.modified) console.warn(`  warning: ${name} changed after it was applied (not re-run)`);
}

main().catch((err) => {
  const code = err instanceof MigrationError ? err.code : 'migration_error';
  console.error(`db:migrate failed [${code}]: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
