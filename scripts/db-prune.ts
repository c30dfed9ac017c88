// npm run db:prune: deletes audit log entries older than DOORWATCH_AUDIT_RETENTION_DAYS (default 365), and raw
// events (and dead letters) older than DOORWATCH_RETENTION_DAYS (default 30), in
// bounded batches (DOORWATCH_RETENTION_BATCH rows, DOORWATCH_RETENTION_PAUSE_MS apart).
// Summaries and rollups stay. The running app does the same on a schedule.
import { openDb } from '@/lib/db/client';
import { pruneAuditLog, pruneDeadLetters, pruneProbeRuns, pruneEvents, readRetentionConfig } from '@/lib/retention/prune-events';

async function main() {
  const config = readRetentionConfig();
  const db = openDb();
  try {
    const a = await pruneAuditLog(db.sql, { days: config.auditDays, batchSize: config.batchSize, pauseMs: config.pauseMs });
    console.log(
      config.auditDays <= 0
        ? 'db:prune: DOORWATCH_AUDIT_RETENTION_DAYS=0, audit log entries are kept forever'
        : `db:prune (${db.config.provider}): ${a.deleted} audit log entries older than ${new Date(a.cutoff).toISOString()} deleted`,
    );
    if (config.days <= 0) {
      console.log('db:prune: DOORWATCH_RETENTION_DAYS=0, raw events are kept forever; nothing more to do');
      return;
    }
    const options = {
      days: config.days,
      batchSize: config.batchSize,
      pauseMs: config.pauseMs,
      onBatch: (n: number) => n > 0 && process.stdout.write(`  deleted ${n}\n`),
    };
    const r = await pruneEvents(db.sql, options);
    console.log(
      `db:prune (${db.config.provider}): ${r.deleted} events older than ${new Date(r.cutoff).toISOString()} deleted (${r.partitionsDropped} daily partition(s) dropped whole, ${r.batches} batch(es) of DELETE)`,
    );
    const d = await pruneDeadLetters(db.sql, options);
    console.log(
      `db:prune (${db.config.provider}): ${d.deleted} dead letters older than the same cutoff deleted (${d.partitionsDropped} daily partition(s) dropped whole, ${d.batches} batch(es) of DELETE)`,
    );
    const p = await pruneProbeRuns(db.sql, options);
    console.log(`db:prune (${db.config.provider}): ${p.deleted} probe runs and probe-token records older than the same cutoff deleted`);
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(`db:prune failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
