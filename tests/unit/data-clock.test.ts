// lib/ui/connection.ts dataClock: a stale page's clocks stop at the last proof of currency from the
// first stale render on, whichever side of it the ticking clock's last value lies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dataClock, type Staleness } from '@/lib/ui/connection';

const current: Staleness = { stale: false, reason: null, asOf: 10_600 };
const stale: Staleness = { stale: true, reason: 'unreachable', asOf: 10_600 };

test('a current page ages by the browser clock', () => {
  assert.equal(dataClock(11_000, current), 11_000);
});

test('a stale page reads asOf, whether the last tick came before or after it, so the next tick changes nothing', () => {
  // Last tick at 10.0 s, data proven current at 10.6 s, stale since: every later tick reads the same.
  const readings = [10_000, 11_000, 12_000, 60_000].map((tick) => dataClock(tick, stale));
  assert.deepEqual(readings, [10_600, 10_600, 10_600, 10_600]);
});

test('a page never proven current keeps the browser clock', () => {
  assert.equal(dataClock(11_000, { stale: true, reason: 'unreachable', asOf: null }), 11_000);
});
