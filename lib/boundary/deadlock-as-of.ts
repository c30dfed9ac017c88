// The one rule for reading a deadlock with a clock: an ended one is what it was; an unended
// naive resume becomes an ongoing deadlock once it is `thresholdMs` old by the READER's clock
// (not when the last event arrived). Used by summarize and by readers of stored summaries.
//
// A client's wait cannot outlast its server's idle timeout, but its end arrives only if the server
// reports it: a server that crashed or restarted mid-deadlock never does. `maxMs` (> 0) is the
// longest a deadlock can last (the servers' longest idle timeout plus a margin); an unended one older
// than that is "end unreported": it was a deadlock, it is no longer a client stuck now. 0: a
// deadlock is ongoing until its end is reported, however old.
import type { Deadlock, DeadlockStatus } from '@/lib/contract/summary';
import { toIsoMs } from '@/lib/contract/timestamp';

/**
 * The default `maxMs` (DOORWATCH_DEADLOCK_MAX_MS): one hour, twice the reporter adapter's 30-minute idle
 * timeout and twelve times the 300 s of the design note's servers. Without one, a server that died
 * mid-deadlock kept its deadlock "stuck now" (and its alert firing) for ever.
 */
export const DEFAULT_DEADLOCK_MAX_MS = 3_600_000;

export function deadlockAsOf(
  startMs: number | null,
  endMs: number | null,
  nowMs: number,
  thresholdMs: number,
  maxMs: number,
): Deadlock | null {
  if (startMs === null) return null;
  if (endMs !== null) return { startedAt: toIsoMs(startMs), endedAt: toIsoMs(endMs), durationMs: endMs - startMs, ongoing: false };
  const age = nowMs - startMs;
  if (age < thresholdMs) return null; // still only a candidate
  // The wait lasted at least maxMs; how much longer nobody reported, so that is its known length.
  if (maxMs > 0 && age >= maxMs)
    return { startedAt: toIsoMs(startMs), endedAt: null, durationMs: maxMs, ongoing: false, endUnreported: true };
  return { startedAt: toIsoMs(startMs), endedAt: null, durationMs: age, ongoing: true };
}

/**
 * The latest deadlock start that is "end unreported" at `nowMs` (stores compare `"deadlockStartedAt" > this`
 * to keep only the ongoing ones); with `maxMs` 0 nothing is, so it lies before any stored time.
 */
export function endUnreportedUpTo(nowMs: number, maxMs: number): number {
  return maxMs > 0 ? nowMs - maxMs : Number.MIN_SAFE_INTEGER;
}

/** Which of the three a deadlock read by `deadlockAsOf` is (the session list's `deadlock=` filter). */
export function deadlockStatus(d: Deadlock): DeadlockStatus {
  return d.ongoing ? 'ongoing' : d.endUnreported ? 'end_unreported' : 'ended';
}
