// Database configuration, read once from the environment. Nothing else in the app
// looks at DATABASE_URL: the provider decides which client, migrations and SQL dialect.
import { isAbsolute, resolve } from 'node:path';

export type Provider = 'sqlite' | 'postgresql';

export interface DatabaseConfig {
  provider: Provider;
  url: string;
  /** Absolute file path for SQLite, null for PostgreSQL. */
  sqliteFile: string | null;
}

export const DEFAULT_DATABASE_URL = 'file:./data/doorwatch.db';

export class DatabaseConfigError extends Error {
  readonly code = 'invalid_database_url';
}

export function readDatabaseConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): DatabaseConfig {
  const url = env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length).split('?')[0];
    if (!path) throw new DatabaseConfigError(`DATABASE_URL "${url}" names no file; use file:./data/doorwatch.db`);
    return { provider: 'sqlite', url, sqliteFile: isAbsolute(path) ? path : resolve(cwd, path) };
  }
  if (url.startsWith('postgresql://') || url.startsWith('postgres://')) {
    return { provider: 'postgresql', url, sqliteFile: null };
  }
  throw new DatabaseConfigError(
    `DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL); got "${url.split(':')[0]}:..."`,
  );
}
