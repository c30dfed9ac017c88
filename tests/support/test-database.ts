// The database an integration test runs against, chosen by DOORWATCH_TEST_DATABASE:
// `sqlite` (default) = a fresh file in a temp folder; `postgresql` = a fresh database
// (CREATE DATABASE dw_t_<random>) on the cluster named by DOORWATCH_TEST_PG_URL, dropped
// WITH (FORCE) afterwards. npm test sets both (scripts/test.mjs starts a throwaway cluster
// when DOORWATCH_TEST_PG_URL is not set).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig, type Provider } from '@/lib/config/database-url';

export function testProvider(): Provider {
  const v = (process.env.DOORWATCH_TEST_DATABASE ?? 'sqlite').trim().toLowerCase();
  if (v === 'sqlite' || v === '') return 'sqlite';
  if (v === 'postgresql' || v === 'postgres') return 'postgresql';
  throw new Error(`DOORWATCH_TEST_DATABASE must be sqlite or postgresql, got ${JSON.stringify(v)}`);
}

export function testPgUrl(): string {
  const url = process.env.DOORWATCH_TEST_PG_URL;
  if (!url) {
    throw new Error(
      'DOORWATCH_TEST_DATABASE=postgresql needs DOORWATCH_TEST_PG_URL (a superuser URL of a test cluster, ' +
        'e.g. postgresql://postgres@127.0.0.1:5432/postgres); npm test sets it up by itself',
    );
  }
  return url;
}

/** `url` with its database name replaced. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export interface TestDatabase {
  provider: Provider;
  url: string;
  /** Provider-neutral inspection through the app's own client (`?` placeholders, BIGINT → number). */
  query<T = any>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Closes the inspection client and removes the database (idempotent). */
  drop(): Promise<void>;
}

/** A statement on the test cluster's maintenance database (CREATE/DROP DATABASE). */
export async function adminQuery(text: string): Promise<void> {
  const client = new Client({ connectionString: testPgUrl() });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(provider: Provider = testProvider()): Promise<TestDatabase> {
  let url: string;
  let remove: () => Promise<void>;
  if (provider === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'doorwatch-test-'));
    url = `file:${join(dir, 'doorwatch.db')}`;
    remove = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const name = `dw_t_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE "${name}"`);
    url = withDatabase(testPgUrl(), name);
    remove = () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  let db: Db | null = null;
  let dropped = false;
  return {
    provider,
    url,
    query(text, params = []) {
      db ??= openDb(readDatabaseConfig({ DATABASE_URL: url }));
      return db.sql.query(text, params);
    },
    async drop() {
      if (dropped) return;
      dropped = true;
      await db?.close();
      db = null;
      await remove();
    },
  };
}
