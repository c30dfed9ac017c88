// Token prefix search on a real database, both providers (no app needed; in the integration suite so it runs on each):
// exact, case-sensitive, and indifferent to the collation, for tokens that sort awkwardly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { parseSessionQuery } from '@/lib/queries/session-filter';
import { parseQuery } from '@/lib/http/parse-input';
import { ZSessionListQuery } from '@/lib/contract/api/sessions';
import { listSessions } from '@/lib/queries/session-list';
import { migratedDatabaseForFile } from '../support/migrated-database';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const TOKENS = ['ab', 'abc', 'ab-9', 'ab~z', 'abÿ', 'ab😀x', 'ab%_', 'AB', 'aB1', 'ac', 'a', 'a-b', 'b'];
const database = migratedDatabaseForFile(async (db) => {
  const events = TOKENS.map((token, i) => ({
    id: `p-${i}`,
    token,
    type: 'session.opened',
    at: new Date(NOW - 60_000 + i).toISOString(),
    data: {},
  }));
  assert.deepEqual((await ingestEvents(db, 'edge', events, { now: NOW })).rejected, []);
});

const search = async (token: string) => {
  const page = await listSessions(
    database(),
    parseSessionQuery(parseQuery(ZSessionListQuery, new URLSearchParams({ token, limit: '100' })), NOW, 10_000, 0),
  );
  return page.sessions.map((s) => s.token).sort();
};

test('a prefix finds exactly the tokens that start with it', async () => {
  for (const prefix of ['ab', 'a', 'ab%', 'ab😀', 'AB', 'abc', 'abcd', 'b', 'ÿ']) {
    assert.deepEqual(await search(prefix), TOKENS.filter((t) => t.startsWith(prefix)).sort(), prefix);
  }
});
