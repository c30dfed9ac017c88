// The process's one steady clock (lib/time/steady-clock.ts): the "now" of alert evaluation, the
// incident sweep, the probe schedule and the reads that judge ongoing deadlocks, so a step of the
// host clock neither fires nor resolves an alert nor makes a deadlock's duration jump. Process-wide
// (every route bundle shares it) and created on first use; a step is logged once when seen.
import { processSingleton } from '@/lib/config/process-state';
import { componentLogger } from '@/lib/log/logger';
import { SLEW_RATE, SteadyClock } from '@/lib/time/steady-clock';

const clock = () =>
  processSingleton(
    'doorwatchSteadyClock',
    () =>
      new SteadyClock(undefined, (stepMs) =>
        componentLogger('clock').warn(
          { stepMs, absorbMinutes: Math.round(Math.abs(stepMs) / SLEW_RATE / 60_000) },
          'the host clock stepped; Doorwatch follows it gradually, so alerts and deadlock durations do not jump',
        ),
      ),
  );

/** Doorwatch's now in epoch milliseconds: the wall clock without its steps. */
export const doorwatchNow = (): number => clock().now();
