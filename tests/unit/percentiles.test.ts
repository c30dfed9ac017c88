import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { percentile, summarizeCountedLatencies, summarizeLatencies } from '@/lib/metrics/percentiles';

describe('percentile (nearest rank)', () => {
  const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

  test('empty → null', () => {
    assert.equal(percentile([], 50), null);
  });

  test('textbook values', () => {
    assert.equal(percentile(ten, 50), 5); // ⌈0.5·10⌉ = 5th
    assert.equal(percentile(ten, 51), 6);
    assert.equal(percentile(ten, 95), 10);
    assert.equal(percentile(ten, 100), 10);
    assert.equal(percentile(ten, 0), 1);
    assert.equal(percentile(ten, 10), 1);
    assert.equal(percentile([15, 20, 35, 40, 50], 30), 20);
    assert.equal(percentile([15, 20, 35, 40, 50], 40), 20);
    assert.equal(percentile([15, 20, 35, 40, 50], 50), 35);
  });

  test('no floating-point overshoot at exact ranks', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    for (let p = 1; p <= 100; p++) assert.equal(percentile(hundred, p), p);
  });

  test('single value', () => {
    for (const p of [0, 1, 50, 99, 100]) assert.equal(percentile([7], p), 7);
  });

  test('out-of-range p throws', () => {
    assert.throws(() => percentile(ten, -1), RangeError);
    assert.throws(() => percentile(ten, 101), RangeError);
    assert.throws(() => percentile(ten, Number.NaN), RangeError);
  });

  test('property: result is an observed value, monotone in p', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1e6, max: 1e6 }), { minLength: 1 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        (xs, p, q) => {
          const sorted = [...xs].sort((a, b) => a - b);
          const a = percentile(sorted, Math.min(p, q))!;
          const b = percentile(sorted, Math.max(p, q))!;
          assert.ok(sorted.includes(a));
          assert.ok(a <= b);
          // Nearest-rank definition: at least p% of values are ≤ the result.
          assert.ok(sorted.filter((v) => v <= b).length * 100 >= Math.max(p, q) * sorted.length);
        },
      ),
    );
  });
});

describe('summarizeLatencies', () => {
  test('empty → count 0 and nulls', () => {
    assert.deepEqual(summarizeLatencies([]), { count: 0, p50: null, p95: null, p99: null, max: null });
    assert.deepEqual(summarizeLatencies([null, undefined]), { count: 0, p50: null, p95: null, p99: null, max: null });
  });

  test('unsorted input, nulls and non-finite values ignored', () => {
    const s = summarizeLatencies([50, null, 10, 40, Number.NaN, 20, 30, Infinity]);
    assert.deepEqual(s, { count: 5, p50: 30, p95: 50, p99: 50, max: 50 });
  });

  test('does not mutate its input', () => {
    const xs = [3, 1, 2];
    summarizeLatencies(xs);
    assert.deepEqual(xs, [3, 1, 2]);
  });

  test('100 values', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    assert.deepEqual(summarizeLatencies(xs), { count: 100, p50: 50, p95: 95, p99: 99, max: 100 });
  });
});

describe('summarizeCountedLatencies', () => {
  test('equals summarizeLatencies over the expanded values, for any multiset', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ value: fc.integer({ min: -5, max: 500 }), count: fc.integer({ min: 0, max: 20 }) }), { maxLength: 40 }),
        (counted) => {
          // Distinct values, as GROUP BY returns them.
          const merged = new Map<number, number>();
          for (const c of counted) merged.set(c.value, (merged.get(c.value) ?? 0) + c.count);
          const pairs = [...merged].map(([value, count]) => ({ value, count }));
          const expanded = pairs.flatMap((c) => Array.from({ length: c.count }, () => c.value));
          assert.deepEqual(summarizeCountedLatencies(pairs), summarizeLatencies(expanded));
        },
      ),
      { numRuns: 300 },
    );
  });
});
