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
import type { ColumnSpec, Sql } from '@/lib/db/sql';

const COLUMNS: readonly ColumnSpec[] = [
  { name: 'k', type: 'text' },
  { name: 'n', type: 'int' },
];
const UPSERT = 'ON CONFLICT ("k") DO UPDATE SET "n" = "T"."n" + excluded."n"';

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

const rowsOf = (sql: Sql) => sql.query<{ k: string; n: number }>('SELECT "k", "n" FROM "T" ORDER BY "k"');

test('rows apply in order: a later row of the same key updates the earlier one', async () => {
  await withTable(async (sql) => {
    await sql.insertMany(
      'T',
      COLUMNS,
      [
        ['a', 1],
        ['b', 2],
        ['a', 10],
      ],
      UPSERT,
    );
    assert.deepEqual(await rowsOf(sql), [
      { k: 'a', n: 11 },
      { k: 'b', n: 2 },
    ]);
  });
});

test('outside a transaction a failing row leaves none of the rows', async () => {
  await withTable(async (sql) => {
    await assert.rejects(
      sql.insertMany(
        'T',
        COLUMNS,
        [
          ['a', 1],
          ['b', null],
          ['c', 3],
        ],
        UPSERT,
      ),
      /NOT NULL/,
    );
    assert.deepEqual(await rowsOf(sql), []);
  });
});

test('inside a transaction a failing insertMany undoes only its own rows', async () => {
  await withTable(async (sql) => {
    await sql.transaction(async (tx) => {
      await tx.insertMany(
        'T',
        COLUMNS,
        [
          ['a', 1],
          ['b', 2],
        ],
        UPSERT,
      );
      await assert.rejects(
        tx.insertMany(
          'T',
          COLUMNS,
          [
            ['a', 5],
            ['c', null],
          ],
          UPSERT,
        ),
        /NOT NULL/,
      );
      await tx.insertMany(
        'T',
        COLUMNS,
        [
          ['d', 4],
          ['e', 5],
        ],
        UPSERT,
      );
    });
    assert.deepEqual(await rowsOf(sql), [
      { k: 'a', n: 1 },
      { k: 'b', n: 2 },
      { k: 'd', n: 4 },
      { k: 'e', n: 5 },
    ]);
  });
});

test('a failing insertMany fails its transaction when the caller lets the error through', async () => {
  await withTable(async (sql) => {
    await assert.rejects(
      sql.transaction(async (tx) => {
        await tx.insertMany(
          'T',
          COLUMNS,
          [
            ['a', 1],
            ['b', 2],
          ],
          UPSERT,
        );
        await tx.insertMany(
          'T',
          COLUMNS,
          [
            ['c', 3],
            ['d', null],
          ],
          UPSERT,
        );
      }),
      /NOT NULL/,
    );
    assert.deepEqual(await rowsOf(sql), []);
  });
});

test('with RETURNING it answers the rows it inserted, not the conflicting ones', async () => {
  await withTable(async (sql) => {
    await sql.insertMany('T', COLUMNS, [['a', 1]], UPSERT);
    const inserted = await sql.insertMany<{ k: string }>(
      'T',
      COLUMNS,
      [
        ['a', 2],
        ['b', 3],
        ['c', 4],
      ],
      'ON CONFLICT ("k") DO NOTHING RETURNING "k"',
    );
    assert.deepEqual(inserted.map((r) => r.k).sort(), ['b', 'c']);
    assert.deepEqual(await rowsOf(sql), [
      { k: 'a', n: 1 },
      { k: 'b', n: 3 },
      { k: 'c', n: 4 },
    ]);
  });
});
