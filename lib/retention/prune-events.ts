// Retention: raw events older than DOORWATCH_RETENTION_DAYS are deleted in bounded batches;
// Session summaries and Rollup counters are kept, so the dashboard's history outlives the raw
// timelines. Only whole timelines go: an event is pruned when it is older than the cutoff AND
// its session's last event is too, so a session still receiving events keeps every event its
// summary is recomputed from (store-batch.ts leaves a pruned session's summary alone).
// Dead letters past the same cutoff go too.
import type { Sql, SqlExecutor } from '@/lib/db/sql';
import { deleteDeadLettersBefore } from '@/lib/store/dead-letters';
import { deleteEventsOfEndedTimelines } from '@/lib/store/events';

export const DEFAULT_RETENTION_DAYS = 30;
export const DEFAULT_PRUNE_BATCH = 5_000;
export const DEFAULT_PRUNE_PAUSE_MS = 250;
export const DEFAULT_PRUNE_INTERVAL_MS = 3_600_000;
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

function nonNegativeInt(env: Record<string, string | undefined>, name: string, fallback: number, min = 0): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`${name} must be an integer >= ${min} (got ${JSON.stringify(raw)})`);
  return Number(raw);
}

export function readRetentionConfig(env: Record<string, string | undefined> = process.env): RetentionConfig {
  return {
    days: nonNegativeInt(env, 'DOORWATCH_RETENTION_DAYS', DEFAULT_RETENTION_DAYS),
    batchSize: nonNegativeInt(env, 'DOORWATCH_RETENTION_BATCH', DEFAULT_PRUNE_BATCH, 1),
    pauseMs: nonNegativeInt(env, 'DOORWATCH_RETENTION_PAUSE_MS', DEFAULT_PRUNE_PAUSE_MS),
    intervalMs: nonNegativeInt(env, 'DOORWATCH_RETENTION_INTERVAL_MS', DEFAULT_PRUNE_INTERVAL_MS, 1_000),
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
