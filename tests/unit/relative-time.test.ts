// The list texts: "3 s ago" relative to the reader's now, and "N sessions match" with the capped form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmtAgo, fmtMatchCount } from '@/lib/ui/format';

test('fmtAgo: seconds, minutes, hours, days; the future (clock skew) is "just now"', () => {
  const now = Date.parse('2026-11-29T10:00:00.000Z');
  assert.equal(fmtAgo(now + 5000, now), 'just now');
  assert.equal(fmtAgo(now - 400, now), 'just now');
  assert.equal(fmtAgo(now - 3_000, now), '3 s ago');
  assert.equal(fmtAgo('2026-11-29T09:58:00.000Z', now), '2 min ago');
  assert.equal(fmtAgo(now - 5 * 3_600_000 - 1, now), '5 h ago');
  assert.equal(fmtAgo(now - 4 * 86_400_000, now), '4 d ago');
  assert.equal(fmtAgo(null, now), '—');
});

test('fmtMatchCount: singular, plural, thousands and the capped "10,000+"', () => {
  const noun = ['session', 'sessions'] as const;
  assert.equal(fmtMatchCount(0, false, noun), '0 sessions match');
  assert.equal(fmtMatchCount(1, false, noun), '1 session matches');
  assert.equal(fmtMatchCount(1234, false, noun), '1,234 sessions match');
  assert.equal(fmtMatchCount(10_000, true, noun), '10,000+ sessions match');
});
