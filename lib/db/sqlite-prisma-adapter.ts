// Prisma's SQLite connection joins the process's one writer queue. Prisma opens its own
// better-sqlite3 connection to the same file; if its write (e.g. an operator token's
// lastUsedAt) ran while the raw Sql writer held a transaction, SQLite's busy handler would sleep
// inside the synchronous call and freeze the event loop, so the transaction holding the lock
// could never finish (the post-restart freeze of issue 10). Here every Prisma statement that
// may write, and every Prisma transaction from BEGIN to COMMIT/ROLLBACK, runs holding the same
// AsyncQueue as lib/db/sqlite-sql.ts, and the connection has busy_timeout 0.
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import type { AsyncQueue } from './sql';
import { retryWhileBusy } from './sqlite-busy';

const READ_ONLY = /^\s*(SELECT|PRAGMA\s+\w+\s*$)/i;

function queuedTransaction(tx: Transaction, release: () => void): Transaction {
  let released = false;
  const done = () => {
    if (!released) release();
    released = true;
  };
  return {
    provider: tx.provider,
    adapterName: tx.adapterName,
    options: tx.options,
    queryRaw: (q) => tx.queryRaw(q),
    executeRaw: (q) => tx.executeRaw(q),
    commit: () => tx.commit().finally(done),
    rollback: () => tx.rollback().finally(done),
    createSavepoint: tx.createSavepoint && ((name) => tx.createSavepoint!(name)),
    rollbackToSavepoint: tx.rollbackToSavepoint && ((name) => tx.rollbackToSavepoint!(name)),
    releaseSavepoint: tx.releaseSavepoint && ((name) => tx.releaseSavepoint!(name)),
  };
}

function queuedAdapter(inner: SqlDriverAdapter, queue: AsyncQueue, lockWaitMs: number): SqlDriverAdapter {
  // A single statement outside a transaction has no effect when it fails busy: safe to retry. Its
  // lock wait counts from when it asked, queue time included (as in sqlite-sql.ts).
  const serialise = <T>(q: SqlQuery, run: () => Promise<T>): Promise<T> => {
    if (READ_ONLY.test(q.sql)) return retryWhileBusy(run, lockWaitMs);
    const asked = Date.now();
    return queue.run(() => retryWhileBusy(run, Math.max(0, asked + lockWaitMs - Date.now())));
  };
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (q) => serialise(q, () => inner.queryRaw(q)),
    executeRaw: (q) => serialise(q, () => inner.executeRaw(q)),
    executeScript: (script) => queue.run(() => inner.executeScript(script)),
    async startTransaction(isolationLevel) {
      const release = await queue.acquire();
      try {
        return queuedTransaction(await inner.startTransaction(isolationLevel), release);
      } catch (err) {
        release();
        throw err;
      }
    },
    getConnectionInfo: inner.getConnectionInfo && (() => inner.getConnectionInfo!()),
    dispose: () => inner.dispose(),
  };
}

/** Prisma's better-sqlite3 adapter with busy_timeout 0, serialised on the process's writer queue. */
export function queuedSqliteAdapter(file: string, queue: AsyncQueue, lockWaitMs: number): SqlDriverAdapterFactory {
  const factory = new PrismaBetterSqlite3({ url: file, timeout: 0 });
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => queuedAdapter(await factory.connect(), queue, lockWaitMs),
  };
}
