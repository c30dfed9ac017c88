// Reads the Prisma-layout migrations folder of one provider: prisma/<provider>/migrations/<name>/migration.sql.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Provider } from '@/lib/config/database-url';
import { MigrationError } from './migration-error';

export interface MigrationFile {
  name: string;
  sql: string;
  /** sha256 of the file bytes, hex: the value Prisma keeps in _prisma_migrations.checksum. */
  checksum: string;
}

export function migrationsDir(root: string, provider: Provider): string {
  return join(root, 'prisma', provider, 'migrations');
}

export function readMigrationFiles(root: string, provider: Provider): MigrationFile[] {
  const dir = migrationsDir(root, provider);
  if (!existsSync(dir)) throw new MigrationError('migrations_missing', `no migrations folder at ${dir}`);
  const lock = join(dir, 'migration_lock.toml');
  if (existsSync(lock)) {
    const declared = /provider\s*=\s*"([^"]+)"/.exec(readFileSync(lock, 'utf8'))?.[1];
    if (declared !== provider) {
      throw new MigrationError('provider_mismatch', `${lock} declares provider "${declared}", expected "${provider}"`);
    }
  }
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(dir, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    });
}
