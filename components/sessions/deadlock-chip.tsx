'use client';
// A list row's deadlock chip. An ongoing deadlock counts on from the list's answer: the answer's figure
// plus the time since it arrived (stopped while the page is stale, like every other clock), up to
// DOORWATCH_DEADLOCK_MAX_MS, where it reads "end unreported" as the next answer would. No event announces
// that moment, and on an absolute range no next answer comes: the chip ticked past the maximum for ever.
import type { Deadlock } from '@/lib/contract/summary';
import type { TSessionView } from '@/lib/contract/api/sessions';
import { fmtDuration } from '@/lib/ui/format';
import { liveServerNow, sessionAt } from '@/lib/ui/session-clock';
import { useDataNow } from '@/lib/ui/use-staleness';

/** When the list's answer was computed (its `now`), when the browser received it, and the maximum it was read with. */
export interface AnswerClock {
  answerNowMs: number;
  receivedAt: number;
  maxMs: number;
}

export function DeadlockChip({ s, deadlock, clock }: { s: TSessionView; deadlock: Deadlock; clock: AnswerClock }) {
  return deadlock.ongoing ? <LiveDeadlockChip s={s} clock={clock} /> : <Chip deadlock={deadlock} />;
}

function LiveDeadlockChip({ s, clock }: { s: TSessionView; clock: AnswerClock }) {
  const now = useDataNow(1000);
  const live = sessionAt(s, clock.answerNowMs, liveServerNow(clock.answerNowMs, clock.receivedAt, now), clock.maxMs);
  return <Chip deadlock={live.deadlock!} />;
}

function Chip({ deadlock: d }: { deadlock: Deadlock }) {
  return (
    <span
      className="chip bad"
      title={`idle since ${d.startedAt}${d.endUnreported ? ': its end was never reported' : ''}`}
      data-testid="deadlock-chip"
    >
      {d.ongoing ? 'deadlocked ' : d.endUnreported ? 'deadlock ≥ ' : 'deadlock '}
      {fmtDuration(d.durationMs)}
      {d.endUnreported && ', end unreported'}
    </span>
  );
}
