// One clock for everything a session page shows as ongoing: the banner's "deadlocked for", the
// deadlock tile, the timeline's bracket and its "now" edge all read the same instant, so they can
// never disagree (they used to: the banner ticked while the tile and the timeline stayed at the
// answer's figure). The instant is the server's clock of the answer carried on by the browser's.
import type { TSessionView } from '@/lib/contract/api/sessions';

/** The server's clock now: its answer's `now` plus the browser's time since the answer arrived. */
export function liveServerNow(answerNowMs: number, receivedAt: number, browserNow: number): number {
  return answerNowMs + Math.max(0, browserNow - receivedAt);
}

/**
 * The session as of `liveNowMs`: an ongoing deadlock's duration grows by the time since the answer,
 * up to `maxMs` (DOORWATCH_DEADLOCK_MAX_MS, 0: none), where it becomes "end unreported" as the next
 * answer would say (lib/boundary/deadlock-as-of.ts): no event announces that moment.
 */
export function sessionAt(session: TSessionView, answerNowMs: number, liveNowMs: number, maxMs: number): TSessionView {
  const d = session.deadlock;
  if (!d?.ongoing) return session;
  const durationMs = d.durationMs + Math.max(0, liveNowMs - answerNowMs);
  if (maxMs > 0 && durationMs >= maxMs) return { ...session, deadlock: { ...d, durationMs: maxMs, ongoing: false, endUnreported: true } };
  return { ...session, deadlock: { ...d, durationMs } };
}
