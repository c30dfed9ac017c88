// Online backups of a live database (npm run db:backup). SQLite: `VACUUM INTO` copies the last
// committed snapshot in one read transaction; in WAL mode the app's writer keeps committing
// meanwhile and the copy is transaction-consistent (a batch is in it whole or not at all). A
// plain file copy is not: it can miss what is still in the -wal file or catch a torn page.
// PostgreSQL: pg_dump in its custom format, equally a snapshot while writes continue.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { DatabaseConfig } from '@/lib/config/database-url';

export interface BackupReport {
  provider: DatabaseConfig['provider'];
  file: string;
  bytes: number;
  ms: number;
}

export class BackupError extends Error {
  constructor(
    readonly code: 'backup_exists' | 'backup_failed' | 'backup_corrupt',
    message: string,
  ) {
    super(message);
  }
}

/** How long the backup's read may wait for a lock (a checkpoint); it never blocks the app's writer. */
const BUSY_TIMEOUT_MS = 10_000;

function backupSqlite(source: string, dest: string): void {
  const db = new Database(source, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    db.prepare('VACUUM INTO ?').run(dest);
  } finally {
    db.close();
  }
  // The copy is only worth keeping if SQLite itself finds it sound.
  const copy = new Database(dest, { readonly: true, fileMustExist: true });
  try {
    const problems = copy.pragma('quick_check', { simple: false }) as { quick_check: string }[];
    const bad = problems.map((p) => p.quick_check).filter((p) => p !== 'ok');
    if (bad.length > 0) throw new BackupError('backup_corrupt', `the backup at ${dest} fails quick_check: ${bad.slice(0, 3).join('; ')}`);
  } finally {
    copy.close();
  }
}

function backupPostgres(url: string, dest: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // --no-owner/--no-acl on restore lets another role own the copy; the dump keeps them for a like-for-like restore.
    const child = spawn('pg_dump', ['--format=custom', '--file', dest, '--dbname', url], { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', (err) =>
      reject(new BackupError('backup_failed', `pg_dump could not start: ${err.message} (install the PostgreSQL client)`)),
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new BackupError('backup_failed', `pg_dump exited with ${code}: ${stderr.trim().slice(-500)}`)),
    );
  });
}

/** Writes a consistent copy of the database to `dest` (which must not exist) while the app keeps running. */
export async function backupDatabase(config: DatabaseConfig, dest: string): Promise<BackupReport> {
  if (existsSync(dest)) throw new BackupError('backup_exists', `${dest} already exists: choose a new file name, a backup never overwrites`);
  const started = performance.now();
  try {
    if (config.provider === 'sqlite') backupSqlite(config.sqliteFile!, dest);
    else await backupPostgres(config.url, dest);
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError('backup_failed', err instanceof Error ? err.message.split('\n')[0] : String(err));
  }
  return { provider: config.provider, file: dest, bytes: statSync(dest).size, ms: Math.round(performance.now() - started) };
}
