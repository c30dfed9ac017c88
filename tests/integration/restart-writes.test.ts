// Issue 10, defect 1: right after a restart, an ingest batch arriving together with operator
// requests whose tokens' lastUsedAt is due for a write froze a SQLite instance for the busy
// timeout (two connections in one thread, a busy handler sleeping on the event loop). Every
// answer must come within a functional bound, and health must stay responsive; a lock held by
// another process must be answered 503 + Retry-After promptly, not by a frozen server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { createTestDatabase, testProvider, type TestDatabase } from '../support/test-database';
import { generateSecret } from '@/lib/contract/server-secret';

const ADMIN = 'dw_test_admin_token_0123456789abcdef';
const SECRET = generateSecret();
// A functional bound, not a benchmark: the freeze lasted the whole busy timeout (10 s, set
// below), so half of it separates a frozen server from a busy machine.
const BOUND_MS = 5_000;
const env = { DOORWATCH_SERVERS: `alpha=${SECRET}`, DOORWATCH_SQLITE_BUSY_TIMEOUT_MS: '10000' };

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await database?.drop();
});

async function timed<T>(what: string, run: () => Promise<T>): Promise<{ what: string; ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { what, ms: performance.now() - started, value };
}

async function createOperator(app: AppServer, name: string): Promise<string> {
  const res = await fetch(`${app.url}/api/v1/operators`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, role: 'viewer' }),
  });
  assert.equal(res.status, 201);
  return ((await res.json()) as { token: string }).token;
}

/**
 * Loads the routes once (Next loads a route module on its first request) without warming the
 * cold tokens: the bounds here are about the database, not module loading.
 */
async function warmUp(app: AppServer) {
  await (await fetch(`${app.url}/api/v1/sessions`, { headers: { authorization: `Bearer ${ADMIN}` } })).arrayBuffer();
  await postEvents(app.url, 'alpha', SECRET, [{ id: 'warm', token: 'warm', type: 'session.opened', at: '2026-11-29T09:00:00.000Z' }]);
  await (await fetch(`${app.url}/api/health`)).arrayBuffer();
}

test('after a restart, ingest together with cold operator tokens answers promptly and health stays responsive', async () => {
  let app = await startAppServer({ databaseUrl: database.url, env });
  const tokens: string[] = [];
  try {
    for (let i = 0; i < 6; i++) tokens.push(await createOperator(app, `cold-${i}`));
  } finally {
    await app.stop();
  }
  // Cold tokens: never used, so the first request with each writes its lastUsedAt.
  await database.query('UPDATE "OperatorToken" SET "lastUsedAt" = NULL');
  app = await startAppServer({ databaseUrl: database.url, env });
  try {
    await warmUp(app);
    const at = Date.parse('2026-11-29T10:00:00.000Z');
    const batch = (n: number) =>
      Array.from({ length: 200 }, (_, i) => ({
        id: `rw-${n}-${i}`,
        token: `rw-${n}-${i % 20}`,
        type: 'stream.dropped',
        at: new Date(at + i).toISOString(),
        data: {},
      }));
    const results = await Promise.all([
      ...tokens.map((token, i) =>
        timed(
          `operator ${i}`,
          async () => (await fetch(`${app.url}/api/v1/sessions`, { headers: { authorization: `Bearer ${token}` } })).status,
        ),
      ),
      ...[0, 1, 2, 3].map((n) => timed(`ingest ${n}`, async () => (await postEvents(app.url, 'alpha', SECRET, batch(n))).status)),
      timed('admin', async () => (await fetch(`${app.url}/api/v1/operators`, { headers: { authorization: `Bearer ${ADMIN}` } })).status),
      timed('health', async () => (await fetch(`${app.url}/api/health`)).status),
    ]);
    for (const r of results) {
      assert.equal(r.value, 200, `${r.what} answered ${r.value}`);
      assert.ok(r.ms < BOUND_MS, `${r.what} took ${Math.round(r.ms)} ms`);
    }
    const used = await database.query<{ n: number }>('SELECT COUNT(*) AS "n" FROM "OperatorToken" WHERE "lastUsedAt" IS NOT NULL');
    assert.ok(Number(used[0].n) >= tokens.length, 'every used token has its lastUsedAt written');
  } finally {
    await app.stop();
  }
});

test(
  'a write lock held by another process: 503 + Retry-After within the wait, health and reads stay responsive',
  { skip: testProvider() !== 'sqlite' && 'SQLite file locks only' },
  async () => {
    const app = await startAppServer({ databaseUrl: database.url, env: { ...env, DOORWATCH_SQLITE_BUSY_TIMEOUT_MS: '500' } });
    const blocker = new Database(database.url.slice('file:'.length));
    try {
      await warmUp(app);
      blocker.exec('BEGIN IMMEDIATE');
      const at = new Date(Date.parse('2026-11-29T11:00:00.000Z')).toISOString();
      const [ingest, health, read] = await Promise.all([
        timed('ingest', () =>
          postEvents(app.url, 'alpha', SECRET, [{ id: 'locked-1', token: 'locked', type: 'session.opened', at, data: {} }]),
        ),
        timed('health', async () => (await fetch(`${app.url}/api/health`)).status),
        timed('read', async () => (await fetch(`${app.url}/api/v1/sessions`, { headers: { authorization: `Bearer ${ADMIN}` } })).status),
      ]);
      assert.equal(ingest.value.status, 503);
      assert.equal(ingest.value.body.error.code, 'database_unavailable');
      assert.ok(Number(ingest.value.headers.get('retry-after')) > 0);
      for (const r of [ingest, health, read]) assert.ok(r.ms < BOUND_MS, `${r.what} took ${Math.round(r.ms)} ms`);
      assert.equal(health.value, 200);
      assert.equal(read.value, 200);
    } finally {
      if (blocker.inTransaction) blocker.exec('ROLLBACK');
      blocker.close();
      await app.stop();
    }
  },
);
