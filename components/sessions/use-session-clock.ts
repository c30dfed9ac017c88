'use client';
// The session page's one ticking clock (lib/ui/session-clock.ts): ticks every second while a
// deadlock is ongoing, and not at all otherwise (nothing on the page then depends on "now").
import { useMemo } from 'react';
import type { TSessionDetailResponse } from '@/lib/contract/api/session-detail';
import { liveServerNow, sessionAt } from '@/lib/ui/session-clock';
import { useDataNow } from '@/lib/ui/use-staleness';

const NEVER = 2 ** 31 - 1;

export function useSessionClock(detail: TSessionDetailResponse | undefined, receivedAt: number) {
  const ongoing = detail?.session.deadlock?.ongoing ?? false;
  // Stops with the data while the page is stale (use-staleness.ts).
  const browserNow = useDataNow(ongoing ? 1000 : NEVER);
  const answerNow = detail ? Date.parse(detail.now) : 0;
  const nowMs = ongoing ? liveServerNow(answerNow, receivedAt, browserNow) : answerNow;
  const session = useMemo(
    () => (detail ? sessionAt(detail.session, answerNow, nowMs, detail.deadlockMaxMs) : undefined),
    [detail, answerNow, nowMs],
  );
  return { nowMs, session };
}
