// SQLite's insertMany runs one cached single-row statement per row when there is no RETURNING
// (lib/db/sqlite-sql.ts). It must keep what one multi-row statement gave: all rows or none, inside a
// transaction (the transaction's other writes stay) and outside one, rows applied in order (a later
// row of the same key updates the earlier), and RETURNING still answering the rows it inserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteSql } from '@/lib/db/sqlite-sql';
import type { ColumnSpec, Sql, SqlExecutor } from '@/lib/db/sql';

const COLUMNS: readonly ColumnSpec[] = [
  { name: 'k', type: 'text' },
  { name: 'n', type: 'int' },
];

async function withTable(fn: (sql: Sql) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dw-insert-many-'));
  const sql = createSqliteSql(join(dir, 'db.sqlite'), 1_000);
  try {
    await sql.execute('CREATE TABLE "T" ("k" TEXT PRIMARY KEY, "n" INTEGER NOT NULL)');
    await fn(sql);
  } finally {
    await sql.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rows written as "k=n" words ("n" null when it is "-"), added to a stored row of the same key. */
const upsert = (ex: SqlExecutor, rows: string) =>
  ex.insertMany(
    'T',
    COLUMNS,
    rows.split(' ').map((w) => {
      const [k, n] = w.split('=');
      return [k, n === '-' ? null : Number(n)];
    }),
    'ON CONFLICT ("k") DO UPDATE SET "n" = "T"."n" + excluded."n"',
  );

/** The table as "k=n" words, by key. */
const contents = async (sql: Sql) =>
  (await sql.query<{ k: string; n: number }>('SELECT "k", "n" FROM "T" ORDER BY "k"')).map((r) => `${r.k}=${r.n}`).join(' ');

test('rows apply in order: a later row of the same key updates the earlier one', async () => {
  await withTable(async (sql) => {
    await upsert(sql, 'a=1 b=2 a=10');
    assert.equal(await contents(sql), 'a=11 b=2');
  });
});

test('outside a transaction a failing row leaves none of the rows', async () => {
  await withTable(async (sql) => {
    await assert.rejects(upsert(sql, 'a=1 b=- c=3'), /NOT NULL/);
    assert.equal(await contents(sql), '');
  });
});

test('inside a transaction a failing insertMany undoes only its own rows', async () => {
  await withTable(async (sql) => {
    await sql.transaction(async (tx) => {
      await upsert(tx, 'a=1 b=2');
      await assert.rejects(upsert(tx, 'a=5 c=-'), /NOT NULL/);
      await upsert(tx, 'd=4 e=5');
    });
    assert.equal(await contents(sql), 'a=1 b=2 d=4 e=5');
  });
});

test('a failing insertMany fails its transaction when the caller lets the error through', async () => {
  await withTable(async (sql) => {
    await assert.rejects(
      sql.transaction(async (tx) => {
        await upsert(tx, 'a=1 b=2');
        await upsert(tx, 'c=3 d=-');
      }),
      /NOT NULL/,
    );
    assert.equal(await contents(sql), '');
  });
});

test('with RETURNING it answers the rows it inserted, not the conflicting ones', async () => {
  await withTable(async (sql) => {
    await upsert(sql, 'a=1');
    const rows = [
      ['a', 2],
      ['b', 3],
      ['c', 4],
    ];
    const inserted = await sql.insertMany<{ k: string }>('T', COLUMNS, rows, 'ON CONFLICT ("k") DO NOTHING RETURNING "k"');
    assert.deepEqual(inserted.map((r) => r.k).sort(), ['b', 'c']);
    assert.equal(await contents(sql), 'a=1 b=3 c=4');
  });
});
