// A background job of the server process: runs every `intervalMs` (the first run soon after
// start, not during it), never overlaps itself, only while this instance leads the job, and
// never keeps the process alive (timers are unref'd). A failed run is reported and retried at
// the next interval; it never throws out of the timer.
//
// The lease is looked at more often than the job runs: every min(intervalMs, leaseCheckMs). A
// follower used to try the lease only at its own interval, so a job with a long one (retention:
// an hour by default) stayed without a leader for up to that long after its leader died; and a
// leader checked its lock connection as seldom. Now a follower that takes the lease runs the job
// at once (it cannot know when the dead leader last ran it), and then every interval.
import type { LeaderLease } from './leader-lease';
import { componentLogger } from '@/lib/log/logger';
import { monotonicMs } from '@/lib/time/steady-clock';

/** How often the lease is tried (or, when held, checked) at most apart, whatever the job's interval. */
export const LEASE_CHECK_MS = 15_000;

export interface PeriodicJobOptions {
  name: string;
  intervalMs: number;
  /** Delay before the first run; defaults to min(intervalMs, 30 s). */
  firstRunAfterMs?: number;
  /** Longest time between two looks at the lease; defaults to LEASE_CHECK_MS. */
  leaseCheckMs?: number;
  lease: LeaderLease;
  run: () => Promise<void>;
  onError?: (err: unknown) => void;
}

export interface PeriodicJob {
  /** Runs once now (if this instance leads and no run is in progress); resolves when done. */
  runNow(): Promise<boolean>;
  stop(): Promise<void>;
}

export function startPeriodicJob(options: PeriodicJobOptions): PeriodicJob {
  let running: Promise<boolean> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  /** When the last run ended (or began, while it runs) as leader; null while following (a lease taken runs at once). */
  let lastRunAt: number | null = null;
  const checkMs = Math.min(options.intervalMs, options.leaseCheckMs ?? LEASE_CHECK_MS);

  const reportError = (err: unknown) =>
    (
      options.onError ??
      ((e) =>
        componentLogger('schedule').error(
          { job: options.name, err: e instanceof Error ? e.message : String(e) },
          'scheduled job failed (will retry)',
        ))
    )(err);

  /** Takes or checks the lease; runs when leading and `due` says so. */
  const runOnce = (due: () => boolean): Promise<boolean> => {
    if (stopped) return Promise.resolve(false);
    running ??= (async () => {
      try {
        if (!(await options.lease.acquire())) {
          lastRunAt = null;
          return false;
        }
        if (!due()) return false;
        lastRunAt = monotonicMs();
        try {
          await options.run();
          return true;
        } finally {
          lastRunAt = monotonicMs(); // the interval counts from the end of a run, as a pause between runs
        }
      } catch (err) {
        reportError(err);
        return false;
      } finally {
        running = null;
      }
    })();
    return running;
  };

  // On the monotonic clock: measured on the wall clock, a step back of the host clock kept every job
  // (alert evaluation among them) from running for the step's length (tests/integration/clock-step.test.ts).
  const dueNow = () => lastRunAt === null || monotonicMs() - lastRunAt >= options.intervalMs;
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runOnce(dueNow).finally(() => {
        // A leader sleeps until its next run when that comes before the next lease check.
        const untilDue = lastRunAt === null ? checkMs : lastRunAt + options.intervalMs - monotonicMs();
        schedule(Math.max(0, Math.min(checkMs, untilDue)));
      });
    }, delayMs);
    timer.unref();
  };
  schedule(options.firstRunAfterMs ?? Math.min(options.intervalMs, 30_000));

  return {
    runNow: () => runOnce(() => true),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await options.lease.release();
    },
  };
}
