// A background job of the server process: runs every `intervalMs` (the first run soon after
// start, not during it), never overlaps itself, only while this instance leads the job, and
// never keeps the process alive (timers are unref'd). A failed run is reported and retried at
// the next tick; it never throws out of the timer.
import type { LeaderLease } from './leader-lease';
import { componentLogger } from '@/lib/log/logger';

export interface PeriodicJobOptions {
  name: string;
  intervalMs: number;
  /** Delay before the first run; defaults to min(intervalMs, 30 s). */
  firstRunAfterMs?: number;
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

  const runOnce = (): Promise<boolean> => {
    if (stopped) return Promise.resolve(false);
    running ??= (async () => {
      try {
        if (!(await options.lease.acquire())) return false;
        await options.run();
        return true;
      } catch (err) {
        (
          options.onError ??
          ((e) =>
            componentLogger('schedule').error(
              { job: options.name, err: e instanceof Error ? e.message : String(e) },
              'scheduled job failed (will retry)',
            ))
        )(err);
        return false;
      } finally {
        running = null;
      }
    })();
    return running;
  };

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runOnce().finally(() => schedule(options.intervalMs));
    }, delayMs);
    timer.unref();
  };
  schedule(options.firstRunAfterMs ?? Math.min(options.intervalMs, 30_000));

  return {
    runNow: runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await options.lease.release();
    },
  };
}
