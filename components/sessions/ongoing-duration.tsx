'use client';
// An ongoing deadlock's duration in a list row, counting on from the list's answer: the answer's
// figure plus the time since it arrived (stopped while the page is stale, like every other clock).
import { fmtDuration } from '@/lib/ui/format';
import { liveServerNow } from '@/lib/ui/session-clock';
import { useDataNow } from '@/lib/ui/use-staleness';

/** When the list's answer was computed (its `now`) and when the browser received it. */
export interface AnswerClock {
  answerNowMs: number;
  receivedAt: number;
}

export function OngoingDuration({ ms, clock }: { ms: number; clock: AnswerClock }) {
  const now = useDataNow(1000);
  return <>{fmtDuration(ms + (liveServerNow(clock.answerNowMs, clock.receivedAt, now) - clock.answerNowMs))}</>;
}
