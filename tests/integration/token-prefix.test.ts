// Token prefix search on a real database, both providers (no app needed; in the integration suite so it runs on each):
// exact, case-sensitive, and indifferent to the collation, for tokens that sort awkwardly.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { parseSessionQuery } from '@/lib/queries/session-filter';
import { parseQuery } from '@/lib/http/parse-input';
import { ZSessionListQuery } from '@/lib/contract/api/sessions';
import { listSessions } from '@/lib/queries/session-list';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const TOKENS = ['ab', 'abc', 'ab-9', 'ab~z', 'abÿ', 'ab😀x', 'ab%_', 'AB', 'aB1', 'ac', 'a', 'a-b', 'b'];
let db: Db;
let testDb: TestDatabase;

before(async () => {
  testDb = await createTestDatabase();
  const config = readDatabaseConfig({ DATABASE_URL: testDb.url });
  await runMigrations(config);
  db = openDb(config);
  const events = TOKENS.map((token, i) => ({
    id: `p-${i}`,
    token,
    type: 'session.opened',
    at: new Date(NOW - 60_000 + i).toISOString(),
    data: {},
  }));
  assert.deepEqual((await ingestEvents(db, 'edge', events, { now: NOW })).rejected, []);
});
after(async () => {
  await db?.close();
  await testDb?.drop();
});

const search = async (token: string) => {
  const page = await listSessions(
    db,
    parseSessionQuery(parseQuery(ZSessionListQuery, new URLSearchParams({ token, limit: '100' })), NOW, 10_000, 0),
  );
  return page.sessions.map((s) => s.token).sort();
};

test('a prefix finds exactly the tokens that start with it', async () => {
  for (const prefix of ['ab', 'a', 'ab%', 'ab😀', 'AB', 'abc', 'abcd', 'b', 'ÿ']) {
    assert.deepEqual(await search(prefix), TOKENS.filter((t) => t.startsWith(prefix)).sort(), prefix);
  }
});
