'use client';
// Some answers change by the clock alone (a naive resume becomes a deadlock at the threshold, an
// ongoing one turns "end unreported" at the maximum): no event is pushed then, and an absolute range
// does not refetch on a timer, so the answer says when (`nextOngoingAt`, `nextChangeAt`) and the page
// asks again at that moment.
import { useEffect } from 'react';

/**
 * Calls `refetch` when the server's clock, carried on by the browser's since the answer arrived
 * (`answerNow` at `receivedAt`, so no clock skew), reaches `next`. Nothing when `next` is null or
 * `enabled` is false (auto-refresh off).
 */
export function useRefetchAt(
  next: string | null,
  answerNow: string | null,
  receivedAt: number,
  refetch: () => unknown,
  enabled: boolean,
): void {
  const answeredAt = answerNow === null ? 0 : Date.parse(answerNow);
  useEffect(() => {
    if (!enabled || next === null) return;
    const delay = Date.parse(next) - (answeredAt + (Date.now() - receivedAt));
    const timer = setTimeout(() => void refetch(), Math.max(0, delay) + 100);
    return () => clearTimeout(timer);
  }, [enabled, next, answeredAt, receivedAt, refetch]);
}
