// Set-based SQL for the hot paths (ingest, rollups, stats, lists). They need multi-row
// statements that Prisma's query builder cannot express, and measured here Prisma's raw-query
// layer cost ~3.5x the driver on the same statement plus a third of the app's CPU in GC, so
// these statements go straight to the driver (better-sqlite3 / pg). Prisma keeps the schema,
// the migrations and the small admin tables. SQL is written once with `?` placeholders.
import type { Provider } from '@/lib/config/database-url';

export type Row = Record<string, unknown>;

export type ColumnType = 'text' | 'bigint' | 'int';

export interface ColumnSpec {
  name: string;
  type: ColumnType;
}

export interface SqlExecutor {
  readonly provider: Provider;
  query<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  execute(text: string, params?: readonly unknown[]): Promise<number>;
  /**
   * `INSERT INTO table (columns) <rows> <tail>` for many rows at once, `tail` being the
   * ON CONFLICT / RETURNING clause (no placeholders); returns the RETURNING rows. Each driver
   * sends it its cheapest way: PostgreSQL one statement with one array per column
   * (`SELECT * FROM unnest(...)`: 8 parameters instead of 4,000 for 500 events, parsed and
   * planned once); SQLite one cached single-row statement per row, all or none (lib/db/sqlite-sql.ts),
   * or multi-row VALUES in chunks under its parameter limit when there is a RETURNING clause.
   */
  insertMany<T = Row>(table: string, columns: readonly ColumnSpec[], rows: readonly (readonly unknown[])[], tail: string): Promise<T[]>;
}

const quote = (name: string) => `"${name}"`;

/** Multi-row VALUES, chunked so no statement binds more than `maxParams` values. */
export async function insertManyAsValues<T>(
  exec: Pick<SqlExecutor, 'query'>,
  table: string,
  columns: readonly ColumnSpec[],
  rows: readonly (readonly unknown[])[],
  tail: string,
  maxParams = 3200,
): Promise<T[]> {
  const out: T[] = [];
  const perChunk = Math.max(1, Math.floor(maxParams / columns.length));
  const row = `(${columns.map(() => '?').join(',')})`;
  for (let i = 0; i < rows.length; i += perChunk) {
    const part = rows.slice(i, i + perChunk);
    const text = `INSERT INTO ${quote(table)} (${columns.map((c) => quote(c.name)).join(',')}) VALUES ${part.map(() => row).join(',')} ${tail}`;
    out.push(...(await exec.query<T>(text, part.flat())));
  }
  return out;
}

const PG_ARRAY_TYPE: Record<ColumnType, string> = { text: 'text[]', bigint: 'int8[]', int: 'int4[]' };

/** An `INSERT INTO table (columns) <rows> <tail>`, as data: run alone (insertMany) or composed into one statement. */
export interface RowsInsert {
  table: string;
  columns: readonly ColumnSpec[];
  rows: readonly (readonly unknown[])[];
  tail: string;
}

/** Runs a RowsInsert alone. */
export function insertRows<T = Row>(ex: SqlExecutor, insert: RowsInsert): Promise<T[]> {
  return ex.insertMany<T>(insert.table, insert.columns, insert.rows, insert.tail);
}

/** PostgreSQL: the rows as one array parameter per column (`?` placeholders), `SELECT * FROM unnest(…)`. */
export function unnestRows(columns: readonly ColumnSpec[], rows: readonly (readonly unknown[])[]): { text: string; params: unknown[][] } {
  return {
    text: `SELECT * FROM unnest(${columns.map((c) => `?::${PG_ARRAY_TYPE[c.type]}`).join(', ')})`,
    params: columns.map((_, c) => rows.map((r) => r[c] ?? null)),
  };
}

/** PostgreSQL: a RowsInsert as one statement with `?` placeholders, one array parameter per column. */
export function unnestInsert(insert: RowsInsert): { text: string; params: unknown[][] } {
  const { text, params } = unnestRows(insert.columns, insert.rows);
  return {
    text: `INSERT INTO ${quote(insert.table)} (${insert.columns.map((c) => quote(c.name)).join(',')}) ${text} ${insert.tail}`,
    params,
  };
}

/** PostgreSQL: one statement, one array parameter per column, numbered placeholders (for a bare pg client). */
export function insertManyAsUnnest(
  table: string,
  columns: readonly ColumnSpec[],
  rows: readonly (readonly unknown[])[],
  tail: string,
): { text: string; params: unknown[][] } {
  const { text, params } = unnestInsert({ table, columns, rows, tail });
  return { text: toProviderPlaceholders(text, 'postgresql'), params };
}

export interface Sql extends SqlExecutor {
  /** Runs fn in one transaction; on SQLite, write transactions of this process are queued. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Runs fn's reads in one snapshot: every statement sees the same committed state, so rows that
   * ingest commits together (a session's summary and its events) are read together, even while
   * commits land (or, on a replica, are replayed) between the statements. Read-only: works on a
   * hot standby. PostgreSQL: a READ ONLY REPEATABLE READ transaction; SQLite: one read
   * transaction on a snapshot connection (WAL: it never waits for the writer).
   */
  snapshot<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
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
  /** `lock`: also hold this cross-thread lock while each turn runs (thread-write-lock.ts). */
  constructor(private readonly lock?: { acquire(): Promise<void>; release(): void }) {}
  run<T>(fn: () => Promise<T>): Promise<T> {
    const lock = this.lock;
    const turn = lock
      ? async () => {
          await lock.acquire();
          try {
            return await fn();
          } finally {
            lock.release();
          }
        }
      : fn;
    const result = this.tail.then(turn, turn);
    this.tail = result.catch(() => undefined);
    return result;
  }
  /** Waits for this caller's turn and holds it until the returned release() is called. */
  acquire(): Promise<() => void> {
    return new Promise((granted) => {
      void this.run(() => new Promise<void>((release) => granted(release)));
    });
  }
}
