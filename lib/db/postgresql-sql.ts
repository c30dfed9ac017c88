// Sql on node-postgres: a pool; each transaction holds one client from BEGIN to COMMIT.
import pg from 'pg';
import { componentLogger } from '@/lib/log/logger';
import { insertManyAsUnnest, toProviderPlaceholders, type ColumnSpec, type Sql, type SqlExecutor } from './sql';

// int8 (COUNT, BIGINT epoch ms) and numeric (SUM of BIGINT) come back as numbers: every value
// Doorwatch stores there (epoch ms, counters, durations) is far below 2^53.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

function executor(client: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    provider: 'postgresql',
    async query<T>(text: string, params: readonly unknown[] = []) {
      const r = await client.query(toProviderPlaceholders(text, 'postgresql'), params as unknown[]);
      return r.rows as T[];
    },
    async execute(text, params = []) {
      const r = await client.query(toProviderPlaceholders(text, 'postgresql'), params as unknown[]);
      return r.rowCount ?? 0;
    },
    async insertMany<T>(table: string, columns: readonly ColumnSpec[], rows: readonly (readonly unknown[])[], tail: string) {
      if (rows.length === 0) return [] as T[];
      const { text, params } = insertManyAsUnnest(table, columns, rows, tail);
      return (await client.query(text, params)).rows as T[];
    },
  };
}

export function createPostgresqlSql(url: string, poolSize: number): Sql {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', (err) => componentLogger('database').error({ err: err.message }, 'idle PostgreSQL connection failed'));
  const base = executor(pool);
  const inTransaction = async <T>(begin: string, fn: (tx: SqlExecutor) => Promise<T>) => {
    const client = await pool.connect();
    // pg-pool drops its idle 'error' listener while a client is checked out. A connection lost
    // between two statements (database shutting down) is emitted as an 'error' event, which
    // without a listener is an uncaught exception; the next statement then fails and is
    // answered as retryable. A broken client is destroyed on release, not pooled again.
    let broken: Error | undefined;
    const onError = (err: Error) => {
      broken = err;
    };
    client.on('error', onError);
    try {
      await client.query(begin);
      const result = await fn(executor(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      if (!broken) await client.query('ROLLBACK').catch((rollbackErr: Error) => (broken = rollbackErr));
      throw err;
    } finally {
      client.removeListener('error', onError);
      client.release(broken);
    }
  };
  return {
    ...base,
    transaction: (fn) => inTransaction('BEGIN', fn),
    // REPEATABLE READ takes one snapshot at the first statement; on a standby it is the replayed
    // state at that moment, and replay applies a primary transaction atomically.
    snapshot: (fn) => inTransaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', fn),
    close: () => pool.end(),
  };
}
