// lib/ui/connection.ts afterAnswer: a successful answer clears "offline" only when its request left
// after Doorwatch was found unreachable; one sent before is shown but proves less.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { afterAnswer } from '@/lib/ui/connection';
import type { LiveStatus } from '@/lib/ui/live-status';

type Proof = Pick<LiveStatus, 'freshAt' | 'unreachableSince'>;

test('an answer to a request sent while the page was current keeps it current as of the answer', () => {
  assert.deepEqual(afterAnswer({ freshAt: 10_000, unreachableSince: null }, 10_100, 10_250), {
    freshAt: 10_250,
    lastFetchFailed: false,
    lastError: null,
    unreachableSince: null,
  });
});

test('an answer to a request sent after the outage was noticed brings the page back', () => {
  const patch = afterAnswer({ freshAt: 10_000, unreachableSince: 12_000 }, 12_500, 12_600);
  assert.equal(patch.unreachableSince, null);
  assert.equal(patch.freshAt, 12_600);
});

test('a late answer to a request sent before the outage was noticed leaves the page offline, as of when it was sent', () => {
  // Sent at 11.0 s, Doorwatch found unreachable at 12.0 s, the answer lands at 12.4 s.
  const patch = afterAnswer({ freshAt: 10_000, unreachableSince: 12_000 }, 11_000, 12_400);
  assert.deepEqual(patch, { freshAt: 11_000 });
  // …and never moves "as of" back.
  assert.deepEqual(afterAnswer({ freshAt: 11_500, unreachableSince: 12_000 }, 11_000, 12_400), { freshAt: 11_500 });
});

test('property: answers in any order never clear an outage with a request sent before it, and "as of" never goes back', () => {
  const answer = fc.record({ startedAt: fc.integer({ min: 0, max: 20_000 }), took: fc.integer({ min: 0, max: 5_000 }) });
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 20_000 }), fc.array(answer, { maxLength: 12 }), (outageAt, answers) => {
      let s: Proof = { freshAt: 0, unreachableSince: outageAt };
      for (const a of answers) {
        const before = s;
        s = { ...s, ...afterAnswer(s, a.startedAt, a.startedAt + a.took) };
        assert.ok((s.freshAt ?? 0) >= (before.freshAt ?? 0), 'as of never goes back');
        if (before.unreachableSince !== null && a.startedAt < before.unreachableSince)
          assert.equal(s.unreachableSince, before.unreachableSince, 'a request from before the outage does not end it');
        if (s.unreachableSince === null)
          assert.ok(
            answers.some((x) => x.startedAt >= outageAt),
            'only a later request ends it',
          );
      }
    }),
  );
});
