// Retention: raw events older than DOORWATCH_RETENTION_DAYS are deleted in bounded batches;
// Session summaries and Rollup counters are kept, so the dashboard's history outlives the raw
// timelines. Only whole timelines go: an event is pruned when it is older than the cutoff AND
// its session's last event is too, so a session still receiving events keeps every event its
// summary is recomputed from (store-batch.ts leaves a pruned session's summary alone).
// Dead letters past the same cutoff go too.
import type { Sql, SqlExecutor } from '@/lib/db/sql';
import { DEFAULT_PRUNE_BATCH, DEFAULT_PRUNE_PAUSE_MS, settings, type Settings } from '@/lib/config/settings';
import { deleteDeadLettersBefore } from '@/lib/store/dead-letters';
import { deleteEventsOfEndedTimelines } from '@/lib/store/events';
import { deleteProbeRunsBefore } from '@/lib/store/probe-runs';
import { deleteSyntheticTokensBefore } from '@/lib/store/synthetic-tokens';

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
}

/** The DOORWATCH_RETENTION_* settings (defaults and bounds in lib/config/settings.ts). */
export function readRetentionConfig(s: Settings = settings()): RetentionConfig {
  return {
    days: s.DOORWATCH_RETENTION_DAYS,
    batchSize: s.DOORWATCH_RETENTION_BATCH,
    pauseMs: s.DOORWATCH_RETENTION_PAUSE_MS,
    intervalMs: s.DOORWATCH_RETENTION_INTERVAL_MS,
  };
}

export interface PruneResult {
  cutoff: number;
  deleted: number;
  /** DELETE statements run (the last one may delete fewer than batchSize, or none). */
  batches: number;
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
  return deleteInBatches(sql, options, deleteEventsOfEndedTimelines);
}

/** Dead letters (refused payloads, up to 1 MiB each) age out with the raw events. */
export async function pruneDeadLetters(sql: Sql, options: PruneOptions): Promise<PruneResult> {
  return deleteInBatches(sql, options, deleteDeadLettersBefore);
}

/** Door-probe runs (results with transcripts) and the probe-token records age out with them too. */
export async function pruneProbeRuns(sql: Sql, options: PruneOptions): Promise<PruneResult> {
  const runs = await deleteInBatches(sql, options, deleteProbeRunsBefore);
  const tokens = await deleteInBatches(sql, options, deleteSyntheticTokensBefore);
  return { cutoff: runs.cutoff, deleted: runs.deleted + tokens.deleted, batches: runs.batches + tokens.batches };
}

async function deleteInBatches(
  sql: Sql,
  options: PruneOptions,
  deleteBatch: (tx: SqlExecutor, cutoff: number, limit: number) => Promise<number>,
): Promise<PruneResult> {
  const batchSize = options.batchSize ?? DEFAULT_PRUNE_BATCH;
  const pauseMs = options.pauseMs ?? DEFAULT_PRUNE_PAUSE_MS;
  const cutoff = (options.now ?? Date.now()) - options.days * DAY_MS;
  const result: PruneResult = { cutoff, deleted: 0, batches: 0 };
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
