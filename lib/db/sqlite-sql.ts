// Sql on better-sqlite3: one writer connection (transactions and writes, queued in-process)
// and one reader connection, which in WAL mode reads the last committed snapshot and never
// waits for the writer. Prepared statements are cached per connection. Every connection has
// busy_timeout 0 (see sqlite-busy.ts): nothing here ever sleeps on the event loop.
import Database from 'better-sqlite3';
import { AsyncQueue, insertManyAsValues, type ColumnSpec, type Sql, type SqlExecutor } from './sql';
import { retryWhileBusy } from './sqlite-busy';
import { monotonicMs } from '@/lib/time/steady-clock';

const STATEMENT_CACHE_SIZE = 500;

function connection(file: string) {
  const db = new Database(file, { timeout: 0 });
  db.pragma('journal_mode = WAL');
  // FULL: COMMIT returns after the WAL is synced, so a 200 from ingest survives a crash of the
  // process and of the machine (NORMAL would risk the last commits on power loss).
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  const cache = new Map<string, Database.Statement>();
  const prepare = (text: string) => {
    let stmt = cache.get(text);
    if (!stmt) {
      stmt = db.prepare(text);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(text, stmt);
    }
    return stmt;
  };
  // One statement per row, all or none: in a SAVEPOINT inside a transaction, else in its own.
  const runEach = db.transaction((stmt: Database.Statement, rows: readonly (readonly unknown[])[]) => {
    for (const row of rows) stmt.run(...bind(row));
  });
  return { db, prepare, runEach };
}

const insertOneRow = (table: string, columns: readonly ColumnSpec[], tail: string) =>
  `INSERT INTO "${table}" (${columns.map((c) => `"${c.name}"`).join(',')}) VALUES (${columns.map(() => '?').join(',')}) ${tail}`;

/** better-sqlite3 binds numbers, strings, bigints, buffers and null: map the rest. */
function bind(params: readonly unknown[]): unknown[] {
  return params.map((p) => (p === undefined ? null : typeof p === 'boolean' ? (p ? 1 : 0) : p));
}

function executor(conn: ReturnType<typeof connection>): SqlExecutor {
  const self: SqlExecutor = {
    provider: 'sqlite',
    async query<T>(text: string, params: readonly unknown[] = []) {
      const stmt = conn.prepare(text);
      if (stmt.reader) return stmt.all(...bind(params)) as T[];
      stmt.run(...bind(params));
      return [] as T[];
    },
    async execute(text, params = []) {
      const stmt = conn.prepare(text);
      if (stmt.reader) return stmt.all(...bind(params)).length;
      return stmt.run(...bind(params)).changes;
    },
    async insertMany<T>(table: string, columns: readonly ColumnSpec[], rows: readonly (readonly unknown[])[], tail: string) {
      // Without RETURNING, one cached single-row statement run per row costs less than multi-row
      // VALUES (measured on ingest's Session upsert: ~18 against ~26 µs a row, docs/benchmarks.md
      // "Write path v2"): no statement text to build, no thousands of arguments to spread and bind.
      // With RETURNING it costs twice as much per row (SQLite buffers each statement's results).
      const stmt = rows.length > 1 ? conn.prepare(insertOneRow(table, columns, tail)) : null;
      if (!stmt || stmt.reader) return insertManyAsValues<T>(self, table, columns, rows, tail);
      conn.runEach(stmt, rows);
      return [];
    },
  };
  return self;
}

/**
 * `queue` is the process's one SQLite writer queue (shared with the ingest threads' writers through
 * its lock); `lockWaitMs` bounds how long a write waits, on timers, for a lock
 * another process holds before it fails with SQLITE_BUSY. The wait counts from when the write
 * asked, not from when it reached the front of the queue: otherwise writes queued behind others
 * that each waited their whole budget would wait many budgets (10 s behind a 4 s timeout, seen).
 */
export function createSqliteSql(file: string, lockWaitMs: number, queue = new AsyncQueue()): Sql {
  const writer = connection(file);
  const reader = connection(file);
  const writeExec = executor(writer);
  const readExec = executor(reader);
  // Snapshots get their own connection (opened on first use) and take turns on it: a read
  // transaction spans awaits, and the shared reader must keep serving the latest commit.
  let snapshotConn: ReturnType<typeof connection> | null = null;
  const snapshotQueue = new AsyncQueue();
  // The budget is a duration: measured on the monotonic clock, which a step of the host clock leaves alone.
  const budgetFrom = (asked: number) => () => Math.max(0, asked + lockWaitMs - monotonicMs());
  const write = <T>(fn: () => Promise<T>) => {
    const left = budgetFrom(monotonicMs());
    return queue.run(() => retryWhileBusy(fn, left()));
  };
  return {
    provider: 'sqlite',
    // A statement that writes (INSERT … RETURNING) goes to the writer, never the reader.
    query: (text, params) =>
      reader.prepare(text).reader
        ? retryWhileBusy(() => readExec.query(text, params), lockWaitMs)
        : write(() => writeExec.query(text, params)),
    // A write outside a transaction still waits its turn behind running transactions.
    execute: (text, params) => write(() => writeExec.execute(text, params)),
    insertMany: (table, columns, rows, tail) => queue.run(() => writeExec.insertMany(table, columns, rows, tail)),
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>) {
      const left = budgetFrom(monotonicMs());
      return queue.run(async () => {
        // IMMEDIATE takes the write lock up front, so only this statement can meet another
        // process's lock, and it has no effect when it fails: safe to retry.
        await retryWhileBusy(() => writer.db.exec('BEGIN IMMEDIATE'), left());
        try {
          const result = await fn(writeExec);
          writer.db.exec('COMMIT');
          return result;
        } catch (err) {
          if (writer.db.inTransaction) writer.db.exec('ROLLBACK');
          throw err;
        }
      });
    },
    snapshot<T>(fn: (tx: SqlExecutor) => Promise<T>) {
      return snapshotQueue.run(async () => {
        snapshotConn ??= connection(file);
        const conn = snapshotConn;
        const exec = executor(conn);
        // A deferred BEGIN takes its snapshot at the first read and holds no write lock.
        conn.db.exec('BEGIN');
        try {
          return await fn({ ...exec, query: (text, params) => retryWhileBusy(() => exec.query(text, params), lockWaitMs) });
        } finally {
          if (conn.db.inTransaction) conn.db.exec('COMMIT');
        }
      });
    },
    async close() {
      writer.db.close();
      reader.db.close();
      snapshotConn?.db.close();
    },
  };
}
