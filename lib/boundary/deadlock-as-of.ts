// The one rule for reading a deadlock with a clock: an ended one is what it was; an unended
// naive resume becomes an ongoing deadlock once it is `thresholdMs` old by the READER's clock
// (not when the last event arrived). Used by summarize and by readers of stored summaries.
import type { Deadlock } from '@/lib/contract/summary';
import { toIsoMs } from '@/lib/contract/timestamp';

export function deadlockAsOf(startMs: number | null, endMs: number | null, nowMs: number, thresholdMs: number): Deadlock | null {
  if (startMs === null) return null;
  if (endMs !== null) return { startedAt: toIsoMs(startMs), endedAt: toIsoMs(endMs), durationMs: endMs - startMs, ongoing: false };
  const age = nowMs - startMs;
  if (age < thresholdMs) return null; // still only a candidate
  return { startedAt: toIsoMs(startMs), endedAt: null, durationMs: age, ongoing: true };
}
