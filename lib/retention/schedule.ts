// The in-app retention schedule: started once per server process from instrumentation.ts
// (Node.js runtime only). The timer is unref'd, so it never keeps a process alive, and runs
// never overlap. Every instance runs it; deletes of the same rows are harmless (PostgreSQL
// makes the second one wait, then find nothing).
import { getDb } from '@/lib/db/client';
import { pruneEvents, readRetentionConfig } from './prune-events';

const state = globalThis as unknown as { doorwatchRetention?: NodeJS.Timeout | null };

export function startRetentionSchedule(env: Record<string, string | undefined> = process.env): void {
  if (state.doorwatchRetention !== undefined) return;
  let config;
  try {
    config = readRetentionConfig(env);
  } catch (err) {
    console.error(`[doorwatch] retention disabled: ${err instanceof Error ? err.message : err}`);
    state.doorwatchRetention = null;
    return;
  }
  if (config.days <= 0) {
    state.doorwatchRetention = null;
    return;
  }
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const r = await pruneEvents(getDb().sql, { days: config.days, batchSize: config.batchSize, pauseMs: config.pauseMs });
      if (r.deleted > 0) console.log(`[doorwatch] retention: deleted ${r.deleted} events older than ${new Date(r.cutoff).toISOString()} in ${r.batches} batch(es)`);
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
