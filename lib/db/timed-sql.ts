// Times every statement and transaction of an Sql handle for the database-duration metric. The
// observer is installed by lib/prometheus (lib/db must not depend on it); until one is,
// timing costs one check per statement.
import { processSlot } from '@/lib/config/process-state';
import type { Sql, SqlExecutor } from './sql';

export type QueryObserver = (operation: 'query' | 'execute' | 'insert_many' | 'transaction', seconds: number) => void;

const installed = processSlot<QueryObserver>('doorwatchQueryObserver');

export function observeQueries(observer: QueryObserver): void {
  installed.set(observer);
}

async function timed<T>(operation: Parameters<QueryObserver>[0], run: () => Promise<T>): Promise<T> {
  const observer = installed.get();
  if (!observer) return run();
  const start = performance.now();
  try {
    return await run();
  } finally {
    observer(operation, (performance.now() - start) / 1000);
  }
}

function timedExecutor<E extends SqlExecutor>(inner: E): SqlExecutor {
  return {
    provider: inner.provider,
    query: (text, params) => timed('query', () => inner.query(text, params)),
    execute: (text, params) => timed('execute', () => inner.execute(text, params)),
    insertMany: (table, columns, rows, tail) => timed('insert_many', () => inner.insertMany(table, columns, rows, tail)),
  };
}

/** The same handle, timed; statements inside a transaction are timed too. */
export function withQueryTiming(sql: Sql): Sql {
  return {
    ...timedExecutor(sql),
    transaction: (fn) => timed('transaction', () => sql.transaction((tx) => fn(timedExecutor(tx)))),
    snapshot: (fn) => timed('transaction', () => sql.snapshot((tx) => fn(timedExecutor(tx)))),
    close: () => sql.close(),
  };
}

/** Timings measured in another thread (an ingest thread, lib/ingest/ingest-threads.ts), observed here. */
export function observeTimings(timings: readonly (readonly [Parameters<QueryObserver>[0], number])[]): void {
  const observer = installed.get();
  if (observer) for (const [operation, seconds] of timings) observer(operation, seconds);
}
