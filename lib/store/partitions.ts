// The daily partitions of "Event" (by "at") and "DeadLetter" (by "receivedAt") on PostgreSQL
// (migration 20261201030000_partition_events; SQLite has plain tables). A partition covers one
// UTC day [00:00, next 00:00) in epoch ms and is named <table>_pYYYYMMDD; <table>_default takes
// whatever falls outside the created days, so an insert never fails. The app creates the coming
// days ahead (start-up and the retention job); retention drops whole days past the cutoff.
import type { Sql } from '@/lib/db/sql';
import { TABLE, TABLE_SQL } from './tables';

export const DAY_MS = 86_400_000;

/** The partitioned tables and the column each one is partitioned by (the one retention ages by). */
export const PARTITIONED = {
  event: { table: TABLE.event, column: 'at' },
  deadLetter: { table: TABLE.deadLetter, column: 'receivedAt' },
} as const;

export type PartitionedTable = keyof typeof PARTITIONED;

/**
 * Serialises partition DDL between instances and with retention's detach (an xact lock, so it
 * never waits on the retention leader's session lock 72707373; see lib/instance/leader-lease.ts).
 */
const PARTITION_DDL_LOCK = 72707374;

/** How long partition DDL may wait for the parent's lock before giving up until the next run. */
export const PARTITION_LOCK_TIMEOUT_MS = 3_000;

export interface DailyPartition {
  name: string;
  /** Inclusive lower bound, epoch ms (00:00 UTC). */
  fromMs: number;
  /** Exclusive upper bound, epoch ms (the next 00:00 UTC). */
  toMs: number;
}

export const dayStart = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

export function partitionName(kind: PartitionedTable, dayStartMs: number): string {
  return `${PARTITIONED[kind].table}_p${new Date(dayStartMs).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The range partitions of a table (the default partition excluded), oldest first. */
export async function listDailyPartitions(sql: Sql, kind: PartitionedTable): Promise<DailyPartition[]> {
  const rows = await sql.query<{ name: string; bound: string }>(
    `SELECT c.relname AS "name", pg_get_expr(c.relpartbound, c.oid) AS "bound"
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = to_regclass(?)`,
    [quoted(PARTITIONED[kind].table)],
  );
  const out: DailyPartition[] = [];
  for (const r of rows) {
    const m = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(r.bound);
    if (m) out.push({ name: r.name, fromMs: Number(m[1]), toMs: Number(m[2]) });
  }
  return out.sort((a, b) => a.fromMs - b.fromMs);
}

/** True when the table is partitioned (PostgreSQL after the migration). */
export async function isPartitioned(sql: Sql, kind: PartitionedTable): Promise<boolean> {
  if (sql.provider !== 'postgresql') return false;
  const [row] = await sql.query<{ kind: string | null }>(`SELECT c.relkind AS "kind" FROM pg_class c WHERE c.oid = to_regclass(?)`, [
    quoted(PARTITIONED[kind].table),
  ]);
  return row?.kind === 'p';
}

/**
 * Creates the missing daily partitions for the days from `fromMs` to `toMs` (both inclusive).
 * Rows the default partition already holds for such a day move into the new partition in the
 * same transaction (attaching a range the default still holds would fail). Returns the names created.
 */
export async function ensureDailyPartitions(sql: Sql, kind: PartitionedTable, fromMs: number, toMs: number): Promise<string[]> {
  if (!(await isPartitioned(sql, kind))) return [];
  const { table, column } = PARTITIONED[kind];
  const existing = await listDailyPartitions(sql, kind);
  const created: string[] = [];
  for (let day = dayStart(fromMs); day <= dayStart(toMs); day += DAY_MS) {
    if (existing.some((p) => p.fromMs < day + DAY_MS && p.toMs > day)) continue;
    const name = partitionName(kind, day);
    const made = await sql.transaction(async (tx) => {
      await tx.execute(`SET LOCAL lock_timeout = ${PARTITION_LOCK_TIMEOUT_MS}`);
      await tx.execute(`SELECT pg_advisory_xact_lock(${PARTITION_DDL_LOCK})`);
      // Another instance may have made it while this one waited for the lock.
      const [{ there }] = await tx.query<{ there: boolean }>(`SELECT to_regclass(?) IS NOT NULL AS "there"`, [quoted(name)]);
      if (there) return false;
      await tx.execute(`CREATE TABLE ${quoted(name)} (LIKE ${quoted(table)} INCLUDING DEFAULTS)`);
      await tx.execute(
        `WITH moved AS (DELETE FROM ${quoted(`${table}_default`)} WHERE ${quoted(column)} >= ? AND ${quoted(column)} < ? RETURNING *)
         INSERT INTO ${quoted(name)} SELECT * FROM moved`,
        [day, day + DAY_MS],
      );
      // ATTACH builds the partition's share of the parent's keys and indexes.
      await tx.execute(`ALTER TABLE ${quoted(table)} ATTACH PARTITION ${quoted(name)} FOR VALUES FROM (${day}) TO (${day + DAY_MS})`);
      return true;
    });
    if (made) created.push(name);
  }
  return created;
}

/** Today (UTC) to `daysAhead` days ahead, for both tables: what start-up and the scheduled job keep in place. */
export async function ensurePartitionsAhead(sql: Sql, now: number, daysAhead: number): Promise<string[]> {
  if (sql.provider !== 'postgresql') return [];
  const created: string[] = [];
  for (const kind of Object.keys(PARTITIONED) as PartitionedTable[]) {
    created.push(...(await ensureDailyPartitions(sql, kind, now, now + daysAhead * DAY_MS)));
  }
  return created;
}

/** A detached "Event" partition whose keys are still being deleted is renamed <name>_expired until it is dropped. */
const EXPIRED_SUFFIX = '_expired';

export interface KeyBatches {
  /** Keys per DELETE statement (and per transaction). */
  size: number;
  /** Pause between batches, ms. */
  pauseMs: number;
}

/**
 * Detaches and drops one daily partition. PostgreSQL refuses DETACH ... CONCURRENTLY while a
 * default partition exists, so this is the plain DETACH: a brief ACCESS EXCLUSIVE lock on the
 * parent (a catalog change, no scan), bounded by lock_timeout so it never queues ingest behind
 * a long query for more than that. Returns the rows it held (counted just before, for the
 * retention log), or null when the lock was not granted in time (the next run tries again).
 *
 * "Event": the keys of its rows ("EventKey", the unpartitioned identity) must go too, and not
 * before the rows (a resend of a stored event must stay a duplicate). The partition is detached
 * and renamed <name>_expired in one short transaction, its keys are deleted in bounded batches,
 * then it is dropped (finishExpiredPartition). A run that stops midway leaves the _expired table:
 * the next run finishes it (listExpiredPartitions).
 */
export async function dropDailyPartition(sql: Sql, kind: PartitionedTable, name: string, keys: KeyBatches): Promise<number | null> {
  const { table } = PARTITIONED[kind];
  const [{ n }] = await sql.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM ${quoted(name)}`);
  try {
    await sql.transaction(async (tx) => {
      await tx.execute(`SET LOCAL lock_timeout = ${PARTITION_LOCK_TIMEOUT_MS}`);
      await tx.execute(`SELECT pg_advisory_xact_lock(${PARTITION_DDL_LOCK})`);
      await tx.execute(`ALTER TABLE ${quoted(table)} DETACH PARTITION ${quoted(name)}`);
      if (kind === 'event') await tx.execute(`ALTER TABLE ${quoted(name)} RENAME TO ${quoted(name + EXPIRED_SUFFIX)}`);
      else await tx.execute(`DROP TABLE ${quoted(name)}`);
    });
  } catch (err) {
    // 55P03 lock_not_available: lock_timeout expired.
    if ((err as { code?: string }).code === '55P03') return null;
    throw err;
  }
  if (kind === 'event') await finishExpiredPartition(sql, name + EXPIRED_SUFFIX, keys);
  return Number(n);
}

/** Detached "Event" partitions left with their keys not yet deleted (a retention run that stopped midway), with their rows. */
export async function listExpiredPartitions(sql: Sql): Promise<{ name: string; rows: number }[]> {
  if (sql.provider !== 'postgresql') return [];
  const tables = await sql.query<{ name: string }>(
    `SELECT c.relname AS "name" FROM pg_class c
      WHERE c.relkind = 'r' AND c.relname ~ ? AND pg_table_is_visible(c.oid)
        AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid)
      ORDER BY c.relname`,
    [`^${PARTITIONED.event.table}_p[0-9]{8}${EXPIRED_SUFFIX}$`],
  );
  const out: { name: string; rows: number }[] = [];
  for (const t of tables) {
    const [{ n }] = await sql.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM ${quoted(t.name)}`);
    out.push({ name: t.name, rows: Number(n) });
  }
  return out;
}

/**
 * Deletes the "EventKey" rows of a detached "Event" partition's events, `keys.size` per
 * transaction in key order (a walk of the table's own (server, eventId, at) index), then drops it.
 */
export async function finishExpiredPartition(sql: Sql, name: string, keys: KeyBatches): Promise<void> {
  let after: { server: string; eventId: string } | null = null;
  for (;;) {
    const from: string = after ? `WHERE ("server", "eventId") > (?, ?)` : '';
    const params: unknown[] = after ? [after.server, after.eventId, keys.size] : [keys.size];
    const [last]: { server: string; eventId: string }[] = await sql.transaction((tx) =>
      tx.query<{ server: string; eventId: string }>(
        `WITH "batch" AS (
           SELECT "server", "eventId" FROM ${quoted(name)} ${from} ORDER BY "server", "eventId" LIMIT ?
         ), "gone" AS (
           DELETE FROM ${TABLE_SQL.eventKey} k USING "batch" b WHERE k."server" = b."server" AND k."eventId" = b."eventId"
         )
         SELECT "server", "eventId" FROM "batch" ORDER BY "server" DESC, "eventId" DESC LIMIT 1`,
        params,
      ),
    );
    if (!last) break;
    after = last;
    if (keys.pauseMs > 0) await new Promise((r) => setTimeout(r, keys.pauseMs));
  }
  await sql.execute(`DROP TABLE ${quoted(name)}`);
}
