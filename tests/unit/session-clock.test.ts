// The session page's one clock (lib/ui/session-clock.ts): an ongoing deadlock counts on from the
// answer's `now`, and stops at DOORWATCH_DEADLOCK_MAX_MS, where the next answer would call it "end
// unreported" (no event announces that moment, so the page must not count past it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deadlockAsOf } from '@/lib/boundary/deadlock-as-of';
import type { TSessionView } from '@/lib/contract/api/sessions';
import { liveServerNow, sessionAt } from '@/lib/ui/session-clock';

const START = Date.UTC(2026, 11, 7, 0, 0, 0);
const THRESHOLD = 10_000;
const MAX = 120_000;

/** A session view holding only what the clock reads: the deadlock as the server answered at `answerNow`. */
const viewAt = (answerNow: number, maxMs: number) =>
  ({ token: 't', deadlock: deadlockAsOf(START, null, answerNow, THRESHOLD, maxMs) }) as unknown as TSessionView;

test('an ongoing deadlock counts on from the answer, by the browser time since it arrived', () => {
  const answerNow = START + 30_000;
  const now = liveServerNow(answerNow, 1_000, 6_000);
  assert.equal(now, answerNow + 5_000);
  assert.equal(sessionAt(viewAt(answerNow, 0), answerNow, now, 0).deadlock?.durationMs, 35_000);
  // A browser clock stepped back never makes it shorter.
  assert.equal(sessionAt(viewAt(answerNow, 0), answerNow, answerNow - 9_000, 0).deadlock?.durationMs, 30_000);
});

test('it stops at the maximum as the next answer would: the same deadlock, end unreported', () => {
  const answerNow = START + 100_000;
  const before = sessionAt(viewAt(answerNow, MAX), answerNow, answerNow + 19_999, MAX).deadlock;
  assert.deepEqual([before?.ongoing, before?.durationMs], [true, 119_999]);
  for (const live of [answerNow + 20_000, answerNow + 3_600_000]) {
    // What the page shows equals what the server would answer at that moment.
    assert.deepEqual(sessionAt(viewAt(answerNow, MAX), answerNow, live, MAX).deadlock, deadlockAsOf(START, null, live, THRESHOLD, MAX));
  }
  // Without a maximum it counts on for ever, as the server does.
  assert.equal(sessionAt(viewAt(answerNow, 0), answerNow, answerNow + 3_600_000, 0).deadlock?.ongoing, true);
});
