// The one classification of database failures (lib/db/database-errors.ts): only what a
// retry can cure is retryable (503), with real errors from the real drivers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { isDatabaseFull, isRetryableDatabaseError } from '@/lib/db/database-errors';
import { retryWhileBusy } from '@/lib/db/sqlite-busy';
import { jsonPreview, jsonDepth } from '@/lib/contract/json-bounds';

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  assert.fail('expected a throw');
}

test('SQLite: a lock held elsewhere is retryable (and waited for on timers); a constraint or a bug is not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-dberr-'));
  try {
    const file = join(dir, 'db.sqlite');
    const a = new Database(file, { timeout: 0 });
    const b = new Database(file, { timeout: 0 });
    a.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    a.exec('BEGIN IMMEDIATE');
    const busy = caught(() => b.exec('BEGIN IMMEDIATE'));
    assert.equal(isRetryableDatabaseError(busy), true, String(busy));
    // The wait is on timers: the event loop keeps running meanwhile, and the lock's release lets it through.
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    setTimeout(() => a.exec('COMMIT'), 60);
    await retryWhileBusy(() => b.exec('BEGIN IMMEDIATE'), 2_000);
    clearInterval(ticker);
    assert.ok(ticks >= 1, `event loop ran ${ticks} ticks while waiting`);
    b.exec('INSERT INTO t VALUES (1)');
    b.exec('COMMIT');
    const constraint = caught(() => b.exec('INSERT INTO t VALUES (1)'));
    assert.equal(isRetryableDatabaseError(constraint), false);
    assert.equal(isRetryableDatabaseError(new RangeError('Maximum call stack size exceeded')), false);
    a.close();
    b.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SQLite: a full database (SQLITE_FULL) is retryable and told apart as database_full; a lock is not "full"', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-dbfull-'));
  try {
    const db = new Database(join(dir, 'db.sqlite'), { timeout: 0 });
    db.exec('CREATE TABLE t (v TEXT)');
    // max_page_count caps the file as a full disk would: the driver's own SQLITE_FULL, no mount needed.
    db.pragma('max_page_count = 4');
    const full = caught(() => {
      for (;;) db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(2000));
    });
    assert.equal((full as { code?: string }).code, 'SQLITE_FULL', String(full));
    assert.equal(isDatabaseFull(full), true);
    assert.equal(isRetryableDatabaseError(full), true);
    // Wrapped as a cause (as Prisma and our own layers do) it is still found.
    assert.equal(isDatabaseFull(new Error('batch failed', { cause: full })), true);
    assert.equal(isDatabaseFull(Object.assign(new Error('could not extend file'), { code: '53100' })), true, 'PostgreSQL disk_full');
    assert.equal(isDatabaseFull(Object.assign(new Error('write'), { code: 'ENOSPC' })), true);
    assert.equal(isDatabaseFull(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' })), false);
    assert.equal(isDatabaseFull(new RangeError('Maximum call stack size exceeded')), false);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('PostgreSQL: a refused connection is retryable; a data error (NUL in text) is not', async () => {
  const refused = new Client({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2_000 });
  const err = await refused.connect().then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err);
  assert.equal(isRetryableDatabaseError(err), true, String(err));
  const url = process.env.DOORWATCH_TEST_PG_URL;
  if (!url) return;
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const nul = await client.query('SELECT $1::text AS v', ['a\u0000b']).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(nul);
    assert.equal(isRetryableDatabaseError(nul), false, String(nul));
  } finally {
    await client.end();
  }
});

test('jsonPreview never throws and stays bounded, whatever it is given', () => {
  let deep: unknown = {};
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(jsonDepth(deep), 33, 'counting stops past the bound');
  const preview = jsonPreview(deep);
  assert.ok(preview.length < 200 && preview.includes('[…]'));
  assert.ok(jsonPreview({ s: 'x'.repeat(100_000) }).length <= 64 * 1024 + 1);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.ok(jsonPreview(cyclic).length > 0);
  assert.equal(jsonPreview(undefined), 'undefined');
  assert.equal(jsonPreview(10n as unknown), 'unserializable: Do not know how to serialize a BigInt');
});
