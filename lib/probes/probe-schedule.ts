// The in-app probe schedule: started once per server process from instrumentation.ts. Every
// DOORWATCH_PROBE_TICK_MS the instance that leads the "probes" job (leader-lease: PostgreSQL
// advisory lock; SQLite: the one instance) runs the targets whose interval has passed, at most
// DOORWATCH_PROBE_CONCURRENCY at a time, each target one at a time (the engine's TargetLimiter).
// Each run first claims its slot (claimProbeSlot: compare-and-set on lastRunAt). The lease alone
// cannot promise one run per slot: a leader that loses its lock mid-pass goes on with the targets
// it already read, while the instance that took over reads the same targets as due, because
// lastRunAt used to move only after a run had finished. A slot whose runner dies after the
// claim is not run again (at most once per slot); the target's next slot comes an interval later.
import { processSingleton } from '@/lib/config/process-state';
import { getDb, type Db } from '@/lib/db/client';
import { settings } from '@/lib/config/settings';
import { createLeaderLease } from '@/lib/instance/leader-lease';
import { startPeriodicJob } from '@/lib/instance/periodic-job';
import { claimProbeSlot, dueProbeTargets } from '@/lib/store/probe-targets';
import { runServerProbe } from './probe-service';
import { componentLogger } from '@/lib/log/logger';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

/** Runs every due target once; a failing target is reported and does not stop the others. */
export async function runDueProbes(db: Db, concurrency: number, now = doorwatchNow()): Promise<number> {
  const due = await dueProbeTargets(db.sql, now);
  let next = 0;
  let ran = 0;
  const worker = async () => {
    while (next < due.length) {
      const target = due[next++];
      try {
        if (!(await claimProbeSlot(db.sql, target.server, target.lastRunAt, now))) continue;
        await runServerProbe(db, target.server, 'schedule');
        ran++;
      } catch (err) {
        componentLogger('probes').error(
          { server: target.server, err: err instanceof Error ? err.message : String(err) },
          'probe failed (will retry at its next interval)',
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker));
  return ran;
}

export function startProbeSchedule(): void {
  processSingleton('doorwatchProbes', () => {
    const s = settings();
    return startPeriodicJob({
      name: 'door probes',
      intervalMs: s.DOORWATCH_PROBE_TICK_MS,
      lease: createLeaderLease(s.DATABASE_URL, 'probes'),
      run: async () => void (await runDueProbes(getDb(), s.DOORWATCH_PROBE_CONCURRENCY)),
    });
  });
}
