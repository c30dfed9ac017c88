// One clock for everything a session page shows as ongoing: the banner's "deadlocked for", the
// deadlock tile, the timeline's bracket and its "now" edge all read the same instant, so they can
// never disagree (they used to: the banner ticked while the tile and the timeline stayed at the
// answer's figure). The instant is the server's clock of the answer carried on by the browser's.
import type { TSessionView } from '@/lib/contract/api/sessions';

/** The server's clock now: its answer's `now` plus the browser's time since the answer arrived. */
export function liveServerNow(answerNowMs: number, receivedAt: number, browserNow: number): number {
  return answerNowMs + Math.max(0, browserNow - receivedAt);
}

/** The session as of `liveNowMs`: an ongoing deadlock's duration grows by the time since the answer. */
export function sessionAt(session: TSessionView, answerNowMs: number, liveNowMs: number): TSessionView {
  const d = session.deadlock;
  if (!d?.ongoing) return session;
  return { ...session, deadlock: { ...d, durationMs: d.durationMs + Math.max(0, liveNowMs - answerNowMs) } };
}
