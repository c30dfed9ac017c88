// The one place that chooses the database client. Everything else asks getDb() and never
// learns which provider it talks to (except through Sql.provider for dialect details).
import { processSlot } from '@/lib/config/process-state';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as SqliteClient } from './generated/sqlite/client';
import { PrismaClient as PostgresClient } from './generated/postgresql/client';
import { settings } from '@/lib/config/settings';
import type { DatabaseConfig } from '@/lib/config/database-url';
import { AsyncQueue, type Sql } from './sql';
import { queuedSqliteAdapter } from './sqlite-prisma-adapter';
import { createSqliteSql } from './sqlite-sql';
import { createPostgresqlSql } from './postgresql-sql';
import { withQueryTiming } from './timed-sql';
import { sqliteWriteLock } from './thread-write-lock';

/** Both generated clients have the same models; the app is typed against the SQLite one. */
export type Prisma = SqliteClient;

export interface Db {
  config: DatabaseConfig;
  prisma: Prisma;
  sql: Sql;
  close(): Promise<void>;
}

export function openDb(config: DatabaseConfig = settings().DATABASE_URL): Db {
  let prisma: Prisma;
  let sql: Sql;
  if (config.provider === 'sqlite') {
    // One writer per process: Prisma's connection and the raw Sql share one queue, and a lock
    // held by another process (a migration, the CLI) is waited for on timers, never in SQLite's
    // busy handler (which would block the event loop).
    const lockWaitMs = settings().DOORWATCH_SQLITE_BUSY_TIMEOUT_MS;
    // The lock is shared with the ingest threads' writers (thread-write-lock.ts).
    const writerQueue = new AsyncQueue(sqliteWriteLock());
    prisma = new SqliteClient({ adapter: queuedSqliteAdapter(config.sqliteFile!, writerQueue, lockWaitMs) });
    sql = createSqliteSql(config.sqliteFile!, lockWaitMs, writerQueue);
  } else {
    const poolSize = settings().DOORWATCH_PG_POOL_SIZE;
    // Prisma only serves the small admin tables: a small pool is enough.
    prisma = new PostgresClient({ adapter: new PrismaPg({ connectionString: config.url, max: 3 }) }) as unknown as Prisma;
    sql = createPostgresqlSql(config.url, poolSize);
  }
  // Timed for doorwatch_db_query_duration_seconds (a no-op until /metrics installs its observer).
  sql = withQueryTiming(sql);
  return {
    config,
    prisma,
    sql,
    async close() {
      await Promise.all([prisma.$disconnect(), sql.close()]);
    },
  };
}

const primary = processSlot<Db>('doorwatchDb');
const readReplica = processSlot<Db>('doorwatchReadDb');

/** Process-wide database handle (process-wide, lib/config/process-state.ts: Next's dev reloads don't leak connections). */
export function getDb(): Db {
  let db = primary.get();
  if (db === undefined) primary.set((db = openDb()));
  return db;
}

/**
 * The handle the query API reads with: a streaming replica when DATABASE_READ_URL is set, else
 * the primary's own (getDb()). Nothing may write through it (a replica refuses) and the live
 * change feed never LISTENs on it (NOTIFY is not replicated). See docs/deploy.md#read-replica.
 */
export function getReadDb(): Db {
  const replica = settings().DATABASE_READ_URL;
  if (!replica) return getDb();
  let db = readReplica.get();
  if (db === undefined) readReplica.set((db = openDb(replica)));
  return db;
}

/** Closes the process-wide handles; the next getDb() opens a fresh one (start-up closes its own before serving). */
export async function closeDb(): Promise<void> {
  const dbs = [primary.get(), readReplica.get()].filter((db): db is Db => db !== undefined);
  primary.set(undefined);
  readReplica.set(undefined);
  await Promise.all(dbs.map((db) => db.close()));
}
