// The ingest thread pool (lib/ingest/ingest-threads.ts) with the real compiled thread
// (dist/ingest/ingest-thread.cjs, built before the tests) on a real database: errors keep their
// status, code and 401 reason across the thread boundary, and a thread that dies answers its
// requests 503 (retryable, never a hang), is replaced, and meanwhile ingest goes on in the
// request thread.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { Webhook } from 'standardwebhooks';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { sqliteWriteLock } from '@/lib/db/thread-write-lock';
import { ApiError } from '@/lib/http/api-error';
import { inThreadExaminer } from '@/lib/ingest/ingest-body';
import { INGEST_THREAD_BUNDLE, IngestThreadPool, withRebuiltFailures } from '@/lib/ingest/ingest-threads';
import { Unauthorized } from '@/lib/ingest/unauthorized';
import { generateSecret } from '@/lib/contract/server-secret';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const ROOT = join(import.meta.dirname, '..', '..');
const SECRET = generateSecret();
let database: TestDatabase;
let db: Db;
let pool: IngestThreadPool;

before(async () => {
  const bundle = join(ROOT, INGEST_THREAD_BUNDLE);
  assert.ok(existsSync(bundle), `${bundle} is missing: npm test builds it (npm run build)`);
  database = await createTestDatabase();
  const config = readDatabaseConfig({ DATABASE_URL: database.url });
  await runMigrations(config, ROOT);
  // A thread reads its settings from the environment it is started with.
  process.env.DATABASE_URL = database.url;
  db = openDb(config);
  pool = new IngestThreadPool(bundle, 1, { sqliteLock: sqliteWriteLock().buffer, pgPoolSize: 2 });
});
after(async () => {
  await pool?.close();
  await db?.close();
  await database?.drop();
});

function signed(body: string, secret = SECRET) {
  const id = `msg_${Math.random().toString(36).slice(2)}`;
  const now = new Date();
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, now, body),
  };
}

const bytes = (text: string) => new TextEncoder().encode(text);

const opened = (id: string, token: string) =>
  JSON.stringify({ events: [{ id, token, type: 'session.opened', at: '2026-11-29T10:00:00.000Z', data: {} }] });

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => assert.fail('expected a failure'),
    (err: unknown) => err,
  );
}

/** The pool's one thread (private: only a test kills threads). */
const threadOf = (p: IngestThreadPool) => (p as unknown as { threads: ({ worker: Worker } | null)[] }).threads[0];

test('a batch is examined and stored on the thread', async () => {
  const examine = withRebuiltFailures(pool.examiner(() => assert.fail('the thread is running: no fallback')));
  const body = opened('p-1', 'pool-a');
  const pending = await examine('alpha', bytes(body), signed(body), [SECRET]);
  assert.equal(pending.eventCount, 1);
  assert.deepEqual(await pending.store(), { accepted: 1, duplicates: 0, rejected: [] });
  const again = await examine('alpha', bytes(body), signed(body), [SECRET]);
  assert.deepEqual(await again.store(), { accepted: 0, duplicates: 1, rejected: [] });
  assert.equal((await database.query('SELECT COUNT(*) AS n FROM "Session" WHERE "token" = ?', ['pool-a']))[0].n, 1);

  // A small Buffer is a view on Node's shared pool: it must be copied to the thread, not moved.
  const small = opened('p-1b', 'pool-a');
  const pooled = Buffer.from(small);
  assert.ok(pooled.byteLength < pooled.buffer.byteLength, 'a view on a larger buffer');
  const neighbour = Buffer.from('still here');
  assert.deepEqual(await (await examine('alpha', pooled, signed(small), [SECRET])).store(), { accepted: 1, duplicates: 0, rejected: [] });
  assert.equal(pooled.toString(), small, 'the sender’s view is intact');
  assert.equal(neighbour.toString(), 'still here', 'the shared pool was not moved away');
});

test('errors cross the thread with their status, code and 401 reason', async () => {
  const examine = withRebuiltFailures(pool.examiner(() => assert.fail('the thread is running: no fallback')));
  const body = opened('p-2', 'pool-b');
  const forged = await failure(examine('alpha', bytes(body), signed(body, generateSecret()), [SECRET]));
  assert.ok(forged instanceof Unauthorized, String(forged));
  assert.equal(forged.status, 401);
  assert.equal(forged.reason, 'signature_mismatch');

  const junk = '{"events": nope';
  const pending = await examine('alpha', bytes(junk), signed(junk), [SECRET]);
  const invalid = await failure(pending.store());
  assert.ok(invalid instanceof ApiError);
  assert.equal(invalid.status, 400);
  assert.equal(invalid.code, 'invalid_body');
  assert.equal((await database.query('SELECT COUNT(*) AS n FROM "DeadLetter" WHERE "code" = ?', ['invalid_body']))[0].n, 1);
});

test('a thread that dies: its request is answered 503, the request thread ingests meanwhile, a new thread takes over', async () => {
  const body = opened('p-3', 'pool-c');
  let fallbacks = 0;
  const inThread = inThreadExaminer(db.sql);
  const examine = withRebuiltFailures(
    pool.examiner((...args) => {
      fallbacks++;
      return inThread(...args);
    }),
  );
  const pending = await examine('alpha', bytes(body), signed(body), [SECRET]);
  const dying = threadOf(pool)!.worker;
  await dying.terminate();
  const lost = await failure(pending.store());
  assert.ok(lost instanceof ApiError);
  assert.equal(lost.status, 503);
  assert.equal(lost.code, 'ingest_unavailable');
  assert.ok(lost.headers['retry-after']);

  // The retry, before the replacement starts: stored in this thread.
  const retry = await examine('alpha', bytes(body), signed(body), [SECRET]);
  assert.deepEqual(await retry.store(), { accepted: 1, duplicates: 0, rejected: [] });
  assert.equal(fallbacks, 1);

  const deadline = Date.now() + 10_000;
  while (!threadOf(pool) || threadOf(pool)!.worker === dying) {
    assert.ok(Date.now() < deadline, 'a new thread started');
    await new Promise((r) => setTimeout(r, 50));
  }
  const next = opened('p-4', 'pool-d');
  const onThread = await examine('alpha', bytes(next), signed(next), [SECRET]);
  assert.deepEqual(await onThread.store(), { accepted: 1, duplicates: 0, rejected: [] });
  assert.equal(fallbacks, 1, 'the new thread took it');
  const stored = await database.query(
    'SELECT "token", COUNT(*) AS n FROM "Event" WHERE "token" IN (?, ?) GROUP BY "token" ORDER BY "token"',
    ['pool-c', 'pool-d'],
  );
  assert.deepEqual(
    stored.map((r) => [r.token, Number(r.n)]),
    [
      ['pool-c', 1],
      ['pool-d', 1],
    ],
  );
});
