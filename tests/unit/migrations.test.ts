// The offline migration runner: Prisma layout in, Prisma's _prisma_migrations bookkeeping out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { markMigrationRolledBack, runMigrations } from '@/lib/db/migrate/run-migrations';
import { MigrationError } from '@/lib/db/migrate/migration-error';
import { Prisma as SqlitePrisma } from '@/lib/db/generated/sqlite/client';
import { SESSION_COLUMN_SPECS } from '@/lib/store/session-row';
import { EVENT_COLUMNS } from '@/lib/store/events';
import { HISTOGRAM_COLUMN_SPECS, HISTOGRAM_QUARTER_COLUMN_SPECS, rollupColumnSpecs } from '@/lib/store/rollups';
import { TABLE } from '@/lib/store/tables';
import { deadLetterInsert } from '@/lib/store/dead-letters';
import { reporterStatusInsert } from '@/lib/store/reporter-status';
import { syntheticTokenInsert } from '@/lib/store/synthetic-tokens';
import { ROLLUP_COLUMNS } from '@/lib/metrics/rollup-contributions';

function project(migrations: Record<string, string>, provider = 'sqlite') {
  const root = mkdtempSync(join(tmpdir(), 'dw-mig-'));
  const dir = join(root, 'prisma', 'sqlite', 'migrations');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'migration_lock.toml'), `provider = "${provider}"\n`);
  for (const [name, sql] of Object.entries(migrations)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'migration.sql'), sql);
  }
  const config = readDatabaseConfig({ DATABASE_URL: `file:${join(root, 'data', 'x.db')}` });
  return { root, dir, config, open: () => new Database(config.sqliteFile!) };
}

const expectCode = async (p: Promise<unknown>, code: string) => {
  await assert.rejects(p, (err: unknown) => err instanceof MigrationError && err.code === code);
};

test('the real migrations apply to a fresh SQLite file and a second run applies nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-mig-real-'));
  const config = readDatabaseConfig({ DATABASE_URL: `file:${join(dir, 'd.db')}` });
  const first = await runMigrations(config);
  assert.ok(first.applied.length >= 1);
  const second = await runMigrations(config);
  assert.deepEqual(second.applied, []);
  assert.deepEqual(second.alreadyApplied, first.applied);
  const db = new Database(config.sqliteFile!);
  const rows = db.prepare('SELECT * FROM _prisma_migrations').all() as any[];
  const mode = (db.pragma('journal_mode') as any[])[0].journal_mode;
  db.close();
  const file = readFileSync(join('prisma', 'sqlite', 'migrations', first.applied[0], 'migration.sql'));
  assert.equal(rows[0].checksum, createHash('sha256').update(file).digest('hex'));
  assert.equal(rows[0].applied_steps_count, 1);
  assert.ok(rows[0].finished_at);
  assert.equal(mode, 'wal');
});

test('a failing migration is rolled back, recorded, and blocks later runs until resolved', async () => {
  const p = project({
    '001_a': 'CREATE TABLE "A" ("id" INTEGER PRIMARY KEY);',
    '002_b': 'CREATE TABLE "B" ("id" INTEGER PRIMARY KEY); INSERT INTO "Nope" VALUES (1);',
  });
  await expectCode(runMigrations(p.config, p.root), 'migration_failed');
  let db = p.open();
  const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as any[]).map((r) => r.name);
  const failed = db.prepare(`SELECT * FROM _prisma_migrations WHERE migration_name = '002_b'`).get() as any;
  db.close();
  assert.ok(tables.includes('A'));
  assert.ok(!tables.includes('B'), 'the failed script left nothing behind');
  assert.equal(failed.finished_at, null);
  assert.match(failed.logs, /Nope/);
  await expectCode(runMigrations(p.config, p.root), 'failed_migration_pending');

  writeFileSync(join(p.dir, '002_b', 'migration.sql'), 'CREATE TABLE "B" ("id" INTEGER PRIMARY KEY);');
  await markMigrationRolledBack(p.config, '002_b');
  const report = await runMigrations(p.config, p.root);
  assert.deepEqual(report.applied, ['002_b']);
  await expectCode(markMigrationRolledBack(p.config, '002_b'), 'unknown_migration');
  db = p.open();
  assert.equal((db.prepare('SELECT COUNT(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL').get() as any).n, 2);
  db.close();
});

test('a Prisma-style table rebuild keeps child rows (foreign keys are off during the script)', async () => {
  const p = project({
    '001_init': `CREATE TABLE "Parent" ("id" TEXT NOT NULL PRIMARY KEY, "n" INTEGER);
CREATE TABLE "Child" ("id" TEXT NOT NULL PRIMARY KEY, "parentId" TEXT NOT NULL,
  CONSTRAINT "Child_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Parent" ("id") ON DELETE CASCADE ON UPDATE CASCADE);`,
  });
  await runMigrations(p.config, p.root);
  let db = p.open();
  db.exec(`INSERT INTO "Parent" VALUES ('p1', 1); INSERT INTO "Child" VALUES ('c1', 'p1'), ('c2', 'p1');`);
  db.close();
  mkdirSync(join(p.dir, '002_rebuild'));
  writeFileSync(
    join(p.dir, '002_rebuild', 'migration.sql'),
    `PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Parent" ("id" TEXT NOT NULL PRIMARY KEY, "n" INTEGER NOT NULL DEFAULT 0);
INSERT INTO "new_Parent" ("id", "n") SELECT "id", coalesce("n", 0) FROM "Parent";
DROP TABLE "Parent";
ALTER TABLE "new_Parent" RENAME TO "Parent";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;`,
  );
  const report = await runMigrations(p.config, p.root);
  assert.deepEqual(report.applied, ['002_rebuild']);
  db = p.open();
  assert.equal((db.prepare('SELECT COUNT(*) AS n FROM "Child"').get() as any).n, 2, 'no cascade delete');
  db.close();
});

test('a migrations folder locked to another provider is refused', async () => {
  const p = project({ '001_a': 'SELECT 1;' }, 'postgresql');
  await expectCode(runMigrations(p.config, p.root), 'provider_mismatch');
});

test('an edited, already-applied migration is reported, not re-run', async () => {
  const p = project({ '001_a': 'CREATE TABLE "A" ("id" INTEGER PRIMARY KEY);' });
  await runMigrations(p.config, p.root);
  writeFileSync(join(p.dir, '001_a', 'migration.sql'), 'CREATE TABLE "A" ("id" INTEGER PRIMARY KEY); -- edited');
  const report = await runMigrations(p.config, p.root);
  assert.deepEqual(report.modified, ['001_a']);
  assert.deepEqual(report.applied, []);
});

test('a database a newer version migrated is refused before anything runs, naming the unknown migrations', async () => {
  const newer = project({
    '001_a': 'CREATE TABLE "A" ("id" INTEGER PRIMARY KEY);',
    '002_b': 'CREATE TABLE "B" ("id" INTEGER PRIMARY KEY);',
  });
  await runMigrations(newer.config, newer.root);
  // The older version: the same database, without 002_b's file, and a pending 003 of its own that must not run.
  rmSync(join(newer.dir, '002_b'), { recursive: true });
  mkdirSync(join(newer.dir, '001_c'));
  writeFileSync(join(newer.dir, '001_c', 'migration.sql'), 'CREATE TABLE "C" ("id" INTEGER PRIMARY KEY);');
  await assert.rejects(
    runMigrations(newer.config, newer.root),
    (err: unknown) => err instanceof MigrationError && err.code === 'database_newer_than_app' && /002_b/.test(err.message),
  );
  const db = newer.open();
  const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as any[]).map((r) => r.name);
  db.close();
  assert.ok(!tables.includes('C'), 'nothing was applied on top of the newer schema');
});

test('DATABASE_URL parsing: default, SQLite paths, PostgreSQL, and a clear error otherwise', () => {
  const d = readDatabaseConfig({}, '/srv/app');
  assert.deepEqual([d.provider, d.sqliteFile], ['sqlite', '/srv/app/data/doorwatch.db']);
  assert.equal(readDatabaseConfig({ DATABASE_URL: 'file:/abs/x.db' }).sqliteFile, '/abs/x.db');
  assert.equal(readDatabaseConfig({ DATABASE_URL: 'postgresql://u@h/db' }).provider, 'postgresql');
  assert.throws(() => readDatabaseConfig({ DATABASE_URL: 'mysql://x' }), /must start with file:/);
});

const realMigrations = (provider: 'sqlite' | 'postgresql') => {
  const dir = join('prisma', provider, 'migrations');
  return readdirSync(dir)
    .filter((n) => statSync(join(dir, n)).isDirectory())
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name, 'migration.sql'), 'utf8') }));
};

test('the migrations create every column of every model (the schema and the SQL agree)', async () => {
  const p = project(Object.fromEntries(realMigrations('sqlite').map((m) => [m.name, m.sql])));
  await runMigrations(p.config, p.root);
  const db = p.open();
  const models = Object.entries(SqlitePrisma).filter(([k]) => k.endsWith('ScalarFieldEnum'));
  assert.ok(models.length >= 5);
  for (const [key, fields] of models) {
    const table = key.replace(/ScalarFieldEnum$/, '');
    const columns = new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name));
    for (const field of Object.values(fields as Record<string, string>)) assert.ok(columns.has(field), `${table}.${field} has no column`);
  }
  // The types the bulk writers bind (lib/db/sql.ts insertMany) match the tables' (lib/store column specs).
  const expected = { text: 'TEXT', bigint: 'BIGINT', int: 'INTEGER' } as const;
  const specs = [
    [TABLE.session, SESSION_COLUMN_SPECS],
    [TABLE.event, EVENT_COLUMNS],
    [TABLE.rollup, rollupColumnSpecs(ROLLUP_COLUMNS)],
    [TABLE.latencyHistogram, HISTOGRAM_COLUMN_SPECS],
    [TABLE.latencyHistogramQuarter, HISTOGRAM_QUARTER_COLUMN_SPECS],
    [TABLE.deadLetter, deadLetterInsert([], 0).columns],
    [TABLE.reporterStatus, reporterStatusInsert('s', { instance: 'i', dropped: 0, failed: 0 }, 0).columns],
    [TABLE.syntheticToken, syntheticTokenInsert('s', [], 'r', 0).columns],
  ] as const;
  for (const [table, columns] of specs) {
    const declared = new Map(
      (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; type: string }[]).map((c) => [c.name, c.type]),
    );
    for (const c of columns) assert.equal(declared.get(c.name), expected[c.type], `${table}.${c.name}`);
  }
  db.close();
});

test('the refusal histogram migration backfills the rollups already stored', async () => {
  const [init, ...rest] = realMigrations('sqlite');
  const histogram = rest.find((m) => m.name.endsWith('_rollup_refusal_histogram'))!;
  const p = project({ [init.name]: init.sql });
  await runMigrations(p.config, p.root);
  const db = p.open();
  const session = db.prepare(`INSERT INTO "Session" ("server","token","state","flags","firstEventAt","lastEventAt","eventCount","updatedAt",
    "boundaryOutcome","answeredAt","refusalLatencyMs") VALUES (?,?,'superseded','',0,0,1,0,?,?,?)`);
  // Minute 1 on alpha: 40 ms and 45 ms refusals and a naive resume; minute 2: one 7 s refusal; beta: one 3 ms.
  session.run('alpha', 't1', 'refused', 60_100, 40);
  session.run('alpha', 't2', 'refused', 119_999, 45);
  session.run('alpha', 't3', 'naive_resume', 60_500, null);
  session.run('alpha', 't4', 'refused', 120_000, 7_000);
  session.run('beta', 't5', 'refused', 60_000, 3);
  const rollup = db.prepare(`INSERT INTO "Rollup" ("server","minute","refused") VALUES (?,?,?)`);
  rollup.run('alpha', 60_000, 2);
  rollup.run('alpha', 120_000, 1);
  rollup.run('beta', 60_000, 1);
  db.close();

  mkdirSync(join(p.dir, histogram.name));
  writeFileSync(join(p.dir, histogram.name, 'migration.sql'), histogram.sql);
  assert.deepEqual((await runMigrations(p.config, p.root)).applied, [histogram.name]);
  const after = p.open();
  const read = (server: string, minute: number) =>
    after
      .prepare(`SELECT "refused", "refusedLt10ms", "refusedLt50ms", "refusedGe5000ms" FROM "Rollup" WHERE "server" = ? AND "minute" = ?`)
      .get(server, minute);
  assert.deepEqual(read('alpha', 60_000), { refused: 2, refusedLt10ms: 0, refusedLt50ms: 2, refusedGe5000ms: 0 });
  assert.deepEqual(read('alpha', 120_000), { refused: 1, refusedLt10ms: 0, refusedLt50ms: 0, refusedGe5000ms: 1 });
  assert.deepEqual(read('beta', 60_000), { refused: 1, refusedLt10ms: 1, refusedLt50ms: 0, refusedGe5000ms: 0 });
  after.close();
});

test('the quarter histogram migration backfills the minute histograms already stored, summed over servers', async () => {
  const all = realMigrations('sqlite');
  const at = all.findIndex((m) => m.name.endsWith('_latency_histogram_quarter'));
  const p = project(Object.fromEntries(all.slice(0, at).map((m) => [m.name, m.sql])));
  await runMigrations(p.config, p.root);
  const db = p.open();
  const cell = db.prepare(`INSERT INTO "LatencyHistogram" ("minute","server","metric","bucket","count") VALUES (?,?,?,?,?)`);
  // Quarter 0: bucket 100 on two servers and two minutes; a cell a late event emptied; quarter 1: one renegotiation.
  cell.run(60_000, 'alpha', 'refusal', 100, 2);
  cell.run(840_000, 'beta', 'refusal', 100, 3);
  cell.run(120_000, 'alpha', 'refusal', 101, 1);
  cell.run(180_000, 'beta', 'refusal', 101, -1);
  cell.run(0, 'alpha', 'refusal', 50, 0);
  cell.run(900_000, 'alpha', 'renegotiation', -1, 4);
  db.close();

  const migration = all[at];
  mkdirSync(join(p.dir, migration.name));
  writeFileSync(join(p.dir, migration.name, 'migration.sql'), migration.sql);
  assert.deepEqual((await runMigrations(p.config, p.root)).applied, [migration.name]);
  const after = p.open();
  assert.deepEqual(after.prepare(`SELECT * FROM "LatencyHistogramQuarter" ORDER BY "minute", "metric", "bucket"`).all(), [
    { minute: 0, metric: 'refusal', bucket: 100, count: 5 },
    { minute: 900_000, metric: 'renegotiation', bucket: -1, count: 4 },
  ]);
  after.close();
});

test('both providers ship the same migrations, by name', () => {
  assert.deepEqual(
    realMigrations('postgresql').map((m) => m.name),
    realMigrations('sqlite').map((m) => m.name),
  );
});
