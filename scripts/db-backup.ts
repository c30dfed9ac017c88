// npm run db:backup -- FILE: a consistent copy of the live database while the app keeps running
// (SQLite: VACUUM INTO, checked with quick_check; PostgreSQL: pg_dump --format=custom). Restore
// steps are in docs/deploy.md#backups.
import { settings } from '@/lib/config/settings';
import { BackupError, backupDatabase } from '@/lib/db/backup';

async function main() {
  const dest = process.argv[2];
  if (!dest || dest.startsWith('-')) {
    throw new BackupError('backup_failed', 'usage: npm run db:backup -- FILE (a new file: backups/doorwatch-$(date +%F).db or .dump)');
  }
  const report = await backupDatabase(settings().DATABASE_URL, dest);
  console.log(`db:backup (${report.provider}): ${report.file}, ${report.bytes} bytes in ${report.ms} ms`);
}

main().catch((err) => {
  const code = err instanceof BackupError ? err.code : 'backup_failed';
  console.error(`db:backup failed [${code}]: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
