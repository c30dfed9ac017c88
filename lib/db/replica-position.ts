// Where a streaming replica stands against its primary, in WAL positions (LSNs). The route
// wrapper uses them for an operator's read-after-write (lib/route/read-after-write.ts) and
// /metrics for doorwatch_replica_lag_seconds. PostgreSQL only.
import type { SqlExecutor } from './sql';

/** An LSN as PostgreSQL prints it (`16/B374D848`). */
export const LSN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

/**
 * The primary's current WAL insert position: every transaction committed so far lies before it.
 * (Not pg_current_wal_lsn, the write position: with synchronous_commit=off a commit can still sit
 * in the WAL buffers, past it.)
 */
export async function primaryWalPosition(sql: SqlExecutor): Promise<string> {
  const [row] = await sql.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS "lsn"');
  return row.lsn;
}

/** Whether the replica has replayed everything up to `lsn` (so a read there sees those commits). */
export async function replayedPast(sql: SqlExecutor, lsn: string): Promise<boolean> {
  const [row] = await sql.query<{ caught: boolean | null }>('SELECT pg_last_wal_replay_lsn() >= ?::pg_lsn AS "caught"', [lsn]);
  return row?.caught === true;
}

/**
 * Seconds the replica's replayed state is behind: 0 when it has replayed all the WAL it received,
 * else the age of the last transaction it replayed. null when the server is not a replica.
 */
export async function replicaLagSeconds(sql: SqlExecutor): Promise<number | null> {
  const [row] = await sql.query<{ lag: number | null }>(
    `SELECT CASE
       WHEN NOT pg_is_in_recovery() THEN NULL
       WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
       ELSE GREATEST(0, EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp())))::float8
     END AS "lag"`,
  );
  return row?.lag ?? null;
}
