// Database configuration from DATABASE_URL (lib/config reads it once for the process; scripts
// and tests pass their own): the provider decides which client, migrations and SQL dialect.
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

/** What is wrong with a DATABASE_URL (null when it is usable); also checked by lib/config at start-up. */
export function databaseUrlProblem(url: string): string | null {
  if (url.startsWith('file:')) {
    return url.slice('file:'.length).split('?')[0] ? null : 'names no file; use file:./data/doorwatch.db';
  }
  if (url.startsWith('postgresql://') || url.startsWith('postgres://')) return null;
  return 'must start with file: (SQLite) or postgresql:// (PostgreSQL)';
}

export function readDatabaseConfig(env: Record<string, string | undefined>, cwd = process.cwd()): DatabaseConfig {
  const url = env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  const problem = databaseUrlProblem(url);
  // Only the scheme is echoed: the rest may hold a password.
  if (problem) throw new DatabaseConfigError(`DATABASE_URL ${problem} (got "${url.split(':')[0]}:...")`);
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length).split('?')[0];
    return { provider: 'sqlite', url, sqliteFile: isAbsolute(path) ? path : resolve(cwd, path) };
  }
  return { provider: 'postgresql', url, sqliteFile: null };
}
