// The in-app retention schedule: started once per server process from instrumentation.ts
// (Node.js runtime only). The timer is unref'd, so it never keeps a process alive, and runs
// never overlap. Every instance runs it; deletes of the same rows are harmless (PostgreSQL
// makes the second one wait, then find nothing).
import { getDb } from '@/lib/db/client';
import { pruneDeadLetters, pruneEvents, pruneProbeRuns, readRetentionConfig, type RetentionConfig } from './prune-events';

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
      if (events.deleted + letters.deleted + probes.deleted > 0) {
        console.log(`[doorwatch] retention: deleted ${events.deleted} events, ${letters.deleted} dead letters and ${probes.deleted} probe records older than ${new Date(events.cutoff).toISOString()}`);
      }
    } catch (err) {
      console.error(`[doorwatch] retention run failed (will retry): ${err instanceof Error ? err.message.split('\n')[0] : err}`);
    } finally {
      running = false;
    }
  };
  // First run soon after start (not during it), then every interval.
  const first = setTimeout(() => {
    void run();
    state.doorwatchRetention = setInterval(() => void run(), config.intervalMs);
    state.doorwatchRetention.unref();
  }, Math.min(30_000, config.intervalMs));
  first.unref();
  state.doorwatchRetention = first;
}
