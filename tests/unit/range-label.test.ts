// The range button's label drops the current year (the top bar stays one row at 1280 px) and
// keeps any other year, so a range in another year never reads as this year's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutYear } from '@/lib/time/describe';

test('this year is dropped from both ends of an absolute range, another year is kept', () => {
  assert.equal(withoutYear('2026-12-01 20:29 → 21:29', '2026'), '12-01 20:29 → 21:29');
  assert.equal(withoutYear('2026-11-30 20:29 → 2026-12-01 09:00', '2026'), '11-30 20:29 → 12-01 09:00');
  assert.equal(withoutYear('2025-12-31 23:00 → 2026-01-01 01:00', '2026'), '2025-12-31 23:00 → 2026-01-01 01:00');
  assert.equal(withoutYear('2020-01-01 00:00 → 01:00', '2026'), '2020-01-01 00:00 → 01:00');
});

test('relative labels are left alone', () => {
  for (const l of ['Last 15 minutes', 'Since now-3h', 'Since now-2026d']) assert.equal(withoutYear(l, '2026'), l);
});
