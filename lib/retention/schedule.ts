// The in-app retention schedule: started once per server process from instrumentation.ts
// (Node.js runtime only). The timer is unref'd, so it never keeps a process alive, and runs
// never overlap. Every instance runs it; deletes of the same rows are harmless (PostgreSQL
// makes the second one wait, then find nothing).
import { getDb } from '@/lib/db/client';
import { foldRejectionsBefore } from '@/lib/store/ingest-rejections';
import { componentLogger } from '@/lib/log/logger';
import { pruneDeadLetters, pruneEvents, pruneProbeRuns, readRetentionConfig, type RetentionConfig } from './prune-events';

const log = componentLogger('retention');

const state = globalThis as unknown as { doorwatchRetention?: NodeJS.Timeout | null };

export function startRetentionSchedule(config: RetentionConfig = readRetentionConfig()): void {
  if (state.doorwatchRetention !== undefined) return;
  if (config.days <= 0) {
    state.doorwatchRetention = null;
    return;
  }
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const options = { days: config.days, batchSize: config.batchSize, pauseMs: config.pauseMs };
      const events = await pruneEvents(getDb().sql, options);
      const letters = await pruneDeadLetters(getDb().sql, options);
      const probes = await pruneProbeRuns(getDb().sql, options);
      // Rejection counts older than the cutoff fold into all-time rows (counters never go down).
      const rejectionRows = await foldRejectionsBefore(getDb().sql, events.cutoff);
      if (events.deleted + letters.deleted + probes.deleted + rejectionRows > 0) {
        log.info(
          {
            events: events.deleted,
            deadLetters: letters.deleted,
            probeRecords: probes.deleted,
            rejectionRows,
            cutoff: new Date(events.cutoff).toISOString(),
          },
          'retention pruned old rows',
        );
      }
    } catch (err) {
      log.error({ err: err instanceof Error ? err.message.split('\n')[0] : String(err) }, 'retention run failed (will retry)');
    } finally {
      running = false;
    }
  };
  // First run soon after start (not during it), then every interval.
  const first = setTimeout(
    () => {
      void run();
      state.doorwatchRetention = setInterval(() => void run(), config.intervalMs);
      state.doorwatchRetention.unref();
    },
    Math.min(30_000, config.intervalMs),
  );
  first.unref();
  state.doorwatchRetention = first;
}
