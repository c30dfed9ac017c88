// Set-based SQL through Prisma's driver adapter. The hot paths (ingest, rollups, stats) need
// multi-row statements that Prisma's query builder cannot express (and createMany is ~8k
// rows/s here), so they write portable SQL with `?` placeholders; this module adapts it
// to the provider and turns BIGINT columns back into plain numbers.
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
}

/** Minimal surface of a Prisma client (or interactive transaction) that we use. */
export interface RawCapable {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}
export interface TransactionCapable extends RawCapable {
  $transaction<T>(fn: (tx: RawCapable) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T>;
}

/** `?` → `$1, $2, …` for PostgreSQL. Our SQL never puts `?` inside literals. */
export function toProviderPlaceholders(text: string, provider: Provider): string {
  if (provider === 'sqlite') return text;
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

function normaliseRow(row: Row): Row {
  for (const key in row) {
    const v = row[key];
    // Epoch-ms and counters fit comfortably in a double; callers want numbers.
    if (typeof v === 'bigint') row[key] = Number(v);
  }
  return row;
}

function executor(provider: Provider, raw: RawCapable): SqlExecutor {
  return {
    provider,
    async query<T>(text: string, params: readonly unknown[] = []) {
      const rows = await raw.$queryRawUnsafe<Row[]>(toProviderPlaceholders(text, provider), ...params);
      return rows.map(normaliseRow) as T[];
    },
    execute(text, params = []) {
      return raw.$executeRawUnsafe(toProviderPlaceholders(text, provider), ...params);
    },
  };
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

export function createSql(provider: Provider, client: TransactionCapable): Sql {
  const queue = provider === 'sqlite' ? new AsyncQueue() : null;
  const base = executor(provider, client);
  return {
    ...base,
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>) {
      const run = () => client.$transaction((tx) => fn(executor(provider, tx)), { maxWait: 10_000, timeout: 60_000 });
      return queue ? queue.run(run) : run();
    },
  };
}
