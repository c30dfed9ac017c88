// Retention: raw events older than DOORWATCH_RETENTION_DAYS are deleted in bounded batches;
// Session summaries and Rollup counters are kept, so the dashboard's history outlives the raw
// timelines. Only whole timelines go: an event is pruned when it is older than the cutoff AND
// its session's last event is too, so a session still receiving events keeps every event its
// summary is recomputed from (store-batch.ts leaves a pruned session's summary alone).
// Dead letters past the same cutoff go too. Incidents (lib/incidents) are kept like the session
// summaries and rollups they point at: an incident goes with its sessions' rollups, never before,
// and those are not pruned.
// On PostgreSQL both tables are partitioned by day (lib/store/partitions.ts): a day that lies
// wholly before the cutoff is detached and dropped in one statement instead of deleted row by
// row: every dead letter's, and every event's unless a session that began on or before that day
// is still receiving events (its timeline stays whole). What is left (such days, and the rows
// of the default partition) goes through the same batched DELETEs as on SQLite. The identity of
// each PostgreSQL event ("EventKey", unpartitioned) goes with it: in the DELETE's transaction, or for
// a dropped day in batches between its DETACH and its DROP (lib/store/partitions.ts).
import type { Sql, SqlExecutor } from '@/lib/db/sql';
import { DEFAULT_PRUNE_BATCH, DEFAULT_PRUNE_PAUSE_MS, settings, type Settings } from '@/lib/config/settings';
import { deleteDeadLettersBefore } from '@/lib/store/dead-letters';
import { deleteEventsOfEndedTimelines } from '@/lib/store/events';
import {
  dropDailyPartition,
  finishExpiredPartition,
  listDailyPartitions,
  listExpiredPartitions,
  type PartitionedTable,
} from '@/lib/store/partitions';
import { earliestStartOfSpanningSessions } from '@/lib/store/sessions';
import { deleteProbeRunsBefore } from '@/lib/store/probe-runs';
import { deleteSyntheticTokensBefore } from '@/lib/store/synthetic-tokens';
import { deleteAuditEntriesBefore } from '@/lib/store/audit-log';

const DAY_MS = 86_400_000;

export interface RetentionConfig {
  /** 0 = keep raw events forever (pruning off). */
  days: number;
  /** Rows per DELETE statement (and per transaction). */
  batchSize: number;
  /** Pause between batches so ingest and queries keep the database. */
  pauseMs: number;
  /** How often the in-app schedule runs. */
  intervalMs: number;
  /** PostgreSQL: daily partitions kept created ahead of today (lib/store/partitions.ts). */
  partitionDaysAhead: number;
  /** Days audit log entries are kept, apart from raw events (an audit trail outlives them); 0 = forever. */
  auditDays: number;
}

/** The DOORWATCH_RETENTION_* settings (defaults and bounds in lib/config/settings.ts). */
export function readRetentionConfig(s: Settings = settings()): RetentionConfig {
  return {
    days: s.DOORWATCH_RETENTION_DAYS,
    batchSize: s.DOORWATCH_RETENTION_BATCH,
    pauseMs: s.DOORWATCH_RETENTION_PAUSE_MS,
    intervalMs: s.DOORWATCH_RETENTION_INTERVAL_MS,
    partitionDaysAhead: s.DOORWATCH_PARTITION_DAYS_AHEAD,
    auditDays: s.DOORWATCH_AUDIT_RETENTION_DAYS,
  };
}

export interface PruneResult {
  cutoff: number;
  deleted: number;
  /** DELETE statements run (the last one may delete fewer than batchSize, or none). */
  batches: number;
  /** Daily partitions dropped whole (PostgreSQL); their rows are counted in `deleted`. */
  partitionsDropped: number;
}

export interface PruneOptions {
  days: number;
  batchSize?: number;
  pauseMs?: number;
  now?: number;
  /** Stop after this many batches (the next run continues). */
  maxBatches?: number;
  /** Called after every batch (progress output, tests). */
  onBatch?: (deleted: number) => void;
}

export async function pruneEvents(sql: Sql, options: PruneOptions): Promise<PruneResult> {
  const dropped = await dropExpiredPartitions(sql, 'event', options, (cutoff) => earliestStartOfSpanningSessions(sql, cutoff));
  return withDropped(await deleteInBatches(sql, options, deleteEventsOfEndedTimelines), dropped);
}

/** Dead letters (refused payloads, up to 1 MiB each) age out with the raw events. */
export async function pruneDeadLetters(sql: Sql, options: PruneOptions): Promise<PruneResult> {
  const dropped = await dropExpiredPartitions(sql, 'deadLetter', options, async () => null);
  return withDropped(await deleteInBatches(sql, options, deleteDeadLettersBefore), dropped);
}

const withDropped = (r: PruneResult, dropped: { partitions: number; rows: number }): PruneResult => ({
  ...r,
  deleted: r.deleted + dropped.rows,
  partitionsDropped: dropped.partitions,
});

/**
 * Drops the daily partitions that end at or before the cutoff and before `keepFrom(cutoff)`
 * (the earliest time whose rows must stay; null = none). No-op on SQLite and on tables that are
 * not partitioned. A partition whose drop could not get its lock in time is left to the next run.
 */
async function dropExpiredPartitions(
  sql: Sql,
  kind: PartitionedTable,
  options: PruneOptions,
  keepFrom: (cutoff: number) => Promise<number | null>,
): Promise<{ partitions: number; rows: number }> {
  const out = { partitions: 0, rows: 0 };
  if (sql.provider !== 'postgresql' || options.days <= 0) return out;
  const keys = { size: options.batchSize ?? DEFAULT_PRUNE_BATCH, pauseMs: options.pauseMs ?? DEFAULT_PRUNE_PAUSE_MS };
  // A run that stopped between detaching an "Event" partition and dropping it left it <name>_expired.
  if (kind === 'event') {
    for (const left of await listExpiredPartitions(sql)) {
      await finishExpiredPartition(sql, left.name, keys);
      out.partitions += 1;
      out.rows += left.rows;
    }
  }
  const cutoff = (options.now ?? Date.now()) - options.days * DAY_MS;
  const expired = (await listDailyPartitions(sql, kind)).filter((p) => p.toMs <= cutoff);
  if (expired.length === 0) return out;
  const keep = await keepFrom(cutoff);
  for (const p of expired) {
    if (keep !== null && p.toMs > keep) continue;
    const rows = await dropDailyPartition(sql, kind, p.name, keys);
    if (rows === null) continue;
    out.partitions += 1;
    out.rows += rows;
  }
  return out;
}

/** Door-probe runs (results with transcripts) and the probe-token records age out with them too. */
export async function pruneProbeRuns(sql: Sql, options: PruneOptions): Promise<PruneResult> {
  const runs = await deleteInBatches(sql, options, deleteProbeRunsBefore);
  const tokens = await deleteInBatches(sql, options, deleteSyntheticTokensBefore);
  return { cutoff: runs.cutoff, deleted: runs.deleted + tokens.deleted, batches: runs.batches + tokens.batches, partitionsDropped: 0 };
}

/** Audit log entries older than their own retention (DOORWATCH_AUDIT_RETENTION_DAYS, passed as `days`). */
export function pruneAuditLog(sql: Sql, options: PruneOptions): Promise<PruneResult> {
  return deleteInBatches(sql, options, deleteAuditEntriesBefore);
}

async function deleteInBatches(
  sql: Sql,
  options: PruneOptions,
  deleteBatch: (tx: SqlExecutor, cutoff: number, limit: number) => Promise<number>,
): Promise<PruneResult> {
  const batchSize = options.batchSize ?? DEFAULT_PRUNE_BATCH;
  const pauseMs = options.pauseMs ?? DEFAULT_PRUNE_PAUSE_MS;
  const cutoff = (options.now ?? Date.now()) - options.days * DAY_MS;
  const result: PruneResult = { cutoff, deleted: 0, batches: 0, partitionsDropped: 0 };
  if (options.days <= 0) return result;
  for (;;) {
    // One bounded statement per transaction (on SQLite it queues behind ingest like any write).
    const deleted = await sql.transaction((tx) => deleteBatch(tx, cutoff, batchSize));
    result.batches += 1;
    result.deleted += deleted;
    options.onBatch?.(deleted);
    if (deleted < batchSize) return result;
    if (options.maxBatches !== undefined && result.batches >= options.maxBatches) return result;
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
  }
}
