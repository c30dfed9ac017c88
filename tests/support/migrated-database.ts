// A throwaway database for one test file: created and migrated before its tests, closed and dropped
// after them (node:test hooks), on DOORWATCH_TEST_DATABASE's provider.
import { after, before } from 'node:test';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * Registers the hooks; the returned function gives the open database inside the tests. `seed` runs in
 * the same hook, once the database is migrated: seed there, in a `before` inside a `describe`, or in the
 * tests, never in another root-level `before` (on Node 20.20 root hooks start together, so it would find
 * no database yet).
 */
export function migratedDatabaseForFile(seed?: (db: Db) => Promise<void>): () => Db {
  let db: Db | undefined;
  let testDb: TestDatabase | undefined;
  before(async () => {
    testDb = await createTestDatabase();
    const config = readDatabaseConfig({ DATABASE_URL: testDb.url });
    await runMigrations(config);
    db = openDb(config);
    await seed?.(db);
  });
  after(async () => {
    await db?.close();
    await testDb?.drop();
  });
  return () => {
    if (!db) throw new Error('the test database is opened in a before hook: use it inside tests');
    return db;
  };
}
