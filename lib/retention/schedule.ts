// The in-app retention schedule: started once per server process from instrumentation.ts
// (Node.js runtime only) as a periodic job of the retention leader (lib/instance/leader-lease: a PostgreSQL
// advisory lock, key 72707373; SQLite always leads), so one instance prunes and does partition
// DDL at a time. On PostgreSQL each run first keeps the daily partitions created ahead
// (lib/store/partitions.ts), which it does even when retention is off (DOORWATCH_RETENTION_DAYS=0).
import { processSingleton } from '@/lib/config/process-state';
import { settings } from '@/lib/config/settings';
import { getDb } from '@/lib/db/client';
import { foldRejectionsBefore } from '@/lib/store/ingest-rejections';
import { ensurePartitionsAhead } from '@/lib/store/partitions';
import { componentLogger } from '@/lib/log/logger';
import { createLeaderLease } from '@/lib/instance/leader-lease';
import { startPeriodicJob, type PeriodicJob } from '@/lib/instance/periodic-job';
import { pruneAuditLog, pruneDeadLetters, pruneEvents, pruneProbeRuns, readRetentionConfig, type RetentionConfig } from './prune-events';

const log = componentLogger('retention');

async function runRetention(config: RetentionConfig): Promise<void> {
  const { sql } = getDb();
  const created = await ensurePartitionsAhead(sql, Date.now(), config.partitionDaysAhead);
  if (created.length > 0) log.info({ partitions: created }, 'daily partitions created ahead');
  // The audit log has its own retention, independent of the raw events'.
  const audit = await pruneAuditLog(sql, { days: config.auditDays, batchSize: config.batchSize, pauseMs: config.pauseMs });
  if (audit.deleted > 0) log.info({ auditEntries: audit.deleted, cutoff: new Date(audit.cutoff).toISOString() }, 'audit log pruned');
  if (config.days <= 0) return;
  const options = { days: config.days, batchSize: config.batchSize, pauseMs: config.pauseMs };
  const events = await pruneEvents(sql, options);
  const letters = await pruneDeadLetters(sql, options);
  const probes = await pruneProbeRuns(sql, options);
  // Rejection counts older than the cutoff fold into all-time rows (counters never go down).
  const rejectionRows = await foldRejectionsBefore(sql, events.cutoff);
  if (events.deleted + letters.deleted + probes.deleted + rejectionRows > 0) {
    log.info(
      {
        events: events.deleted,
        deadLetters: letters.deleted,
        probeRecords: probes.deleted,
        rejectionRows,
        partitionsDropped: events.partitionsDropped + letters.partitionsDropped,
        cutoff: new Date(events.cutoff).toISOString(),
      },
      'retention pruned old rows',
    );
  }
}

export function startRetentionSchedule(config: RetentionConfig = readRetentionConfig()): void {
  processSingleton('doorwatchRetention', () => retentionJob(config));
}

/** Null when there is nothing to do: no pruning asked for, and no partitions to create (SQLite). */
function retentionJob(config: RetentionConfig): PeriodicJob | null {
  const database = settings().DATABASE_URL;
  if (config.days <= 0 && config.auditDays <= 0 && database.provider !== 'postgresql') return null;
  // First run soon after start (not during it), then every interval; runs never overlap.
  return startPeriodicJob({
    name: 'retention',
    intervalMs: config.intervalMs,
    lease: createLeaderLease(database, 'retention'),
    onError: (err) =>
      log.error({ err: err instanceof Error ? err.message.split('\n')[0] : String(err) }, 'retention run failed (will retry)'),
    run: () => runRetention(config),
  });
}
