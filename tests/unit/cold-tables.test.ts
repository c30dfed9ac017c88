// Server, ServerSecret and OperatorToken are read and written through Sql (lib/store), no Prisma
// client at run time. Their DATETIME columns were written by Prisma's client until then: rows it
// wrote must read back as the same instants, rows written now must read back the same through
// Prisma's client (so a rollback to a Prisma-based build reads them too), and rows that took the
// column default (CURRENT_TIMESTAMP) must read as UTC. On SQLite, or PostgreSQL with DOORWATCH_TEST_DATABASE.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as SqliteClient } from '@/lib/db/generated/sqlite/client';
import { PrismaClient as PostgresClient } from '@/lib/db/generated/postgresql/client';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { findOperatorById, insertOperator, listOperatorRecords, updateOperator } from '@/lib/store/operators';
import { activeSecrets, addServer, listServers, registeredServers, rotateSecret } from '@/lib/store/servers/server-registry';
import { generateSecret } from '@/lib/contract/server-secret';
import { reloadSettings } from '@/lib/config/settings';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

let db: Db;
let testDb: TestDatabase;
/** Prisma's client as the app used it before: the writer of the "old" rows. */
let prisma: SqliteClient;

before(async () => {
  delete process.env.DOORWATCH_SECRET_KEY;
  reloadSettings();
  testDb = await createTestDatabase();
  const config = readDatabaseConfig({ DATABASE_URL: testDb.url });
  await runMigrations(config);
  db = openDb(config);
  prisma =
    config.provider === 'sqlite'
      ? new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: config.sqliteFile! }) })
      : (new PostgresClient({ adapter: new PrismaPg({ connectionString: config.url, max: 1 }) }) as unknown as SqliteClient);
});
after(async () => {
  await prisma?.$disconnect();
  await db?.close();
  await testDb?.drop();
});

const CREATED = new Date('2026-01-02T03:04:05.678Z');
const USED = new Date('2026-02-03T04:05:06.789Z');
const EXPIRES = new Date('2099-03-04T05:06:07.890Z');

describe('rows Prisma wrote read the same through Sql', () => {
  test('operators: created, last used, revoked', async () => {
    await prisma.operatorToken.create({
      data: { id: 'op-old', name: 'old', role: 'viewer', tokenHash: 'h-old', createdAt: CREATED, lastUsedAt: USED },
    });
    const row = await findOperatorById(db, 'op-old');
    assert.equal(row?.createdAt.toISOString(), CREATED.toISOString());
    assert.equal(row?.lastUsedAt?.toISOString(), USED.toISOString());
    assert.equal(row?.revokedAt, null);
  });

  test('servers and secrets: created, expiring; a rotation ends an old secret at its grace', async () => {
    const secret = generateSecret();
    await prisma.server.create({
      data: { name: 'old-srv', createdAt: CREATED, secrets: { create: { id: 's-old', secret, createdAt: CREATED, expiresAt: EXPIRES } } },
    });
    const [listed] = (await listServers(db)).filter((s) => s.name === 'old-srv');
    assert.deepEqual(listed, {
      name: 'old-srv',
      createdAt: CREATED.toISOString(),
      secrets: [{ id: 's-old', createdAt: CREATED.toISOString(), expiresAt: EXPIRES.toISOString() }],
    });
    assert.deepEqual(await activeSecrets(db, 'old-srv'), [secret]);
    const rotated = await rotateSecret(db, 'old-srv', 60);
    const stored = await prisma.serverSecret.findUnique({ where: { id: 's-old' } });
    assert.equal(stored?.expiresAt?.toISOString(), rotated.previousValidUntil);
  });
});

describe('rows written through Sql read the same through Prisma', () => {
  test('operators', async () => {
    const made = await insertOperator(db, { id: 'op-new', name: 'new', role: 'admin', tokenHash: 'h-new' });
    const revoked = await updateOperator(db, 'op-new', { revokedAt: USED });
    const viaPrisma = await prisma.operatorToken.findUnique({ where: { id: 'op-new' } });
    assert.equal(viaPrisma?.createdAt.toISOString(), made.createdAt.toISOString());
    assert.equal(viaPrisma?.revokedAt?.toISOString(), USED.toISOString());
    assert.equal(revoked.revokedAt?.toISOString(), USED.toISOString());
    // Oldest first, whoever wrote the row.
    assert.deepEqual(
      (await listOperatorRecords(db)).map((r) => r.id),
      ['op-old', 'op-new'],
    );
  });

  test('servers and secrets', async () => {
    await addServer(db, 'new-srv');
    const [mine] = (await registeredServers(db)).filter((s) => s.name === 'new-srv');
    const viaPrisma = await prisma.server.findUnique({ where: { name: 'new-srv' }, include: { secrets: true } });
    assert.equal(viaPrisma?.createdAt.toISOString(), mine.createdAt.toISOString());
    assert.equal(viaPrisma?.secrets.length, 1);
  });
});

test('a row that took the column default (CURRENT_TIMESTAMP) reads as UTC', async () => {
  await db.sql.execute('INSERT INTO "Server" ("name") VALUES (?)', ['dflt-srv']);
  const [row] = (await registeredServers(db)).filter((s) => s.name === 'dflt-srv');
  // The default has whole seconds on SQLite: within a few seconds of now either way, in UTC.
  assert.ok(Math.abs(row.createdAt.getTime() - Date.now()) < 60_000, row.createdAt.toISOString());
});
