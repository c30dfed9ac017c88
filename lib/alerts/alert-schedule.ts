// The alert schedule of a server process (started from instrumentation.ts): every
// DOORWATCH_ALERT_INTERVAL_MS the leader (lib/instance/leader-lease.ts: a PostgreSQL advisory
// lock; SQLite always leads) folds newly stored flagged sessions into incidents and resolves quiet
// ones (lib/incidents/sweep-incidents.ts), evaluates every rule once, then sends the notifications due.
// All three on Doorwatch's steady clock (lib/instance/doorwatch-clock.ts): a `for` window, a quiet
// period or a retry back-off is a duration, and a step of the host clock must not end one.
import { processSingleton } from '@/lib/config/process-state';
import { settings } from '@/lib/config/settings';
import { getDb } from '@/lib/db/client';
import { createLeaderLease } from '@/lib/instance/leader-lease';
import { sweepIncidents } from '@/lib/incidents/sweep-incidents';
import { startPeriodicJob, type PeriodicJob } from '@/lib/instance/periodic-job';
import { alertLog } from './alert-log';
import { deliverDueNotifications } from './deliver-notifications';
import { evaluateAlerts } from './evaluate-alerts';
import { linkOrigin, warnWithoutPublicOrigin } from './link-origin';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export function startAlertSchedule(): PeriodicJob {
  return processSingleton('doorwatchAlerts', alertJob);
}

function alertJob(): PeriodicJob {
  const s = settings();
  warnWithoutPublicOrigin();
  return startPeriodicJob({
    name: 'alert evaluation',
    intervalMs: s.DOORWATCH_ALERT_INTERVAL_MS,
    firstRunAfterMs: Math.min(s.DOORWATCH_ALERT_INTERVAL_MS, 5_000),
    lease: createLeaderLease(s.DATABASE_URL, 'alerts'),
    onError: alertLog.runFailed,
    run: async () => {
      const { sql } = getDb();
      await sweepIncidents(sql, doorwatchNow(), {
        quietMs: s.DOORWATCH_INCIDENT_QUIET_MS,
        deadlockThresholdMs: s.DOORWATCH_DEADLOCK_THRESHOLD_MS,
        deadlockMaxMs: s.DOORWATCH_DEADLOCK_MAX_MS,
      });
      await evaluateAlerts(sql, doorwatchNow(), { origin: linkOrigin().origin, maxPerMinute: s.DOORWATCH_ALERT_MAX_PER_MINUTE });
      await deliverDueNotifications(sql, {
        maxAttempts: s.DOORWATCH_ALERT_MAX_ATTEMPTS,
        retryBaseMs: s.DOORWATCH_ALERT_RETRY_BASE_MS,
        now: doorwatchNow,
      });
    },
  });
}
