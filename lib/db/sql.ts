// Set-based SQL for the hot paths (ingest, rollups, stats, lists). They need multi-row
// statements that Prisma's query builder cannot express, and measured here Prisma's raw-query
// layer cost ~3.5x the driver on the same statement plus a third of the app's CPU in GC, so
// these statements go straight to the driver (better-sqlite3 / pg). Prisma keeps the schema,
// the migrations and the small admin tables. SQL is written once with `?` placeholders.
import type { Provider } from './config';

export type Row = Record<string, unknown>;

export interface SqlExecutor {
  readonly provider: Provider;
  query<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  execute(text: string, params?: readonly unknown[]): Promise<number>;
}

export interface Sql extends SqlExecutor {
  /** Runs fn in one transaction; on SQLite, write transactions of this process are queued. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** `?` → `$1, $2, …` for PostgreSQL. Our SQL never puts `?` inside literals. */
export function toProviderPlaceholders(text: string, provider: Provider): string {
  if (provider === 'sqlite') return text;
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/** A FIFO async lock: SQLite has one writer, so queue here instead of failing with SQLITE_BUSY. */
export class AsyncQueue {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
