import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alignRows, percentAxis, tickBudget, tickLabelPx, timeAxis } from '@/lib/ui/chart-axis';

const MIN = 60_000;
const T0 = Date.parse('2026-12-01T03:00:00.000Z');

test('timeAxis: the range aligned to the bucket, one start per bucket', () => {
  const a = timeAxis(T0 + 30_000, T0 + 15 * MIN, MIN, 10);
  assert.equal(a.starts.length, 15);
  assert.equal(a.starts[0], T0);
  assert.deepEqual(a.domain, [T0, T0 + 15 * MIN]);
});

test('timeAxis: labels on round times, the finest step within the budget', () => {
  const a = timeAxis(T0 - 3 * MIN, T0 + 12 * MIN, MIN, 4);
  assert.equal(a.stepMs, 5 * MIN);
  assert.deepEqual(a.ticks, [T0, T0 + 5 * MIN, T0 + 10 * MIN]);
  // A wide plot gets finer labels, still round ones.
  const wide = timeAxis(T0 - 3 * MIN, T0 + 12 * MIN, MIN, 8);
  assert.equal(wide.stepMs, 2 * MIN);
  assert.ok(wide.ticks.every((t) => t % (2 * MIN) === 0));
  assert.ok(wide.ticks.length <= 8);
});

test('timeAxis: the step is a multiple of the bucket; every tick is a bucket start', () => {
  const a = timeAxis(T0, T0 + 24 * 60 * MIN, 15 * MIN, 6);
  assert.equal(a.stepMs % (15 * MIN), 0);
  assert.ok(a.ticks.length <= 6 && a.ticks.length >= 2);
  assert.ok(a.ticks.every((t) => a.starts.includes(t)));
  const odd = timeAxis(T0, T0 + 7 * 24 * 60 * MIN, 7 * MIN, 5);
  assert.ok(odd.ticks.length <= 5 && odd.ticks.length >= 1);
  assert.ok(odd.ticks.every((t) => odd.starts.includes(t)));
});

test('timeAxis: the same inputs give the same ticks (one axis for every panel)', () => {
  assert.deepEqual(timeAxis(T0, T0 + 15 * MIN, MIN, 7), timeAxis(T0, T0 + 15 * MIN, MIN, 7));
});

test('tickBudget: labels that fit, at least two, a default before measuring', () => {
  assert.equal(tickBudget(560, 56), 10);
  assert.equal(tickBudget(230, 56), 4);
  assert.equal(tickBudget(40, 56), 2);
  assert.equal(tickBudget(0, 56), 6);
  assert.ok(tickLabelPx(3 * 86_400_000) > tickLabelPx(15 * MIN));
});

test('alignRows: one row per start, missing buckets as bare { t }', () => {
  const rows = alignRows(
    [1, 2, 3],
    [
      { t: 3, n: 5 },
      { t: 1, n: 2 },
    ],
  );
  assert.deepEqual(rows, [{ t: 1, n: 2 }, { t: 2 }, { t: 3, n: 5 }]);
});

test('percentAxis: a readable scale just above the largest rate', () => {
  const small = percentAxis([0.012, null, 0.031, 0]);
  assert.deepEqual(small.ticks, [0, 0.01, 0.02, 0.03, 0.04]);
  assert.deepEqual(small.domain, [0, 0.04]);
  assert.equal(small.digits, 0);
  const tiny = percentAxis([0.0013]);
  assert.deepEqual(tiny.ticks, [0, 0.001, 0.002]);
  assert.equal(tiny.digits, 1);
  const big = percentAxis([0.62]);
  assert.deepEqual(big.ticks, [0, 0.2, 0.4, 0.6, 0.8]);
  const all = percentAxis([1]);
  assert.deepEqual(all.ticks, [0, 0.25, 0.5, 0.75, 1]);
  const none = percentAxis([null, null]);
  assert.deepEqual(none.domain, [0, 0.01]);
  const over = percentAxis([2.5]);
  assert.equal(over.domain[1] >= 2.5, true);
});
