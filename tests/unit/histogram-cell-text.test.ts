// The "bucket:count,…" text the histogram read aggregates in SQL (group_concat / string_agg) and
// addCellText sums in JS (lib/store/histogram-cell-text.ts): any cells, in any order, with negative buckets
// and counts, sum to what adding them one by one gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addCellText } from '@/lib/store/histogram-cell-text';

const cell = fc.tuple(fc.integer({ min: -2_000, max: 2_000 }), fc.integer({ min: -1_000_000, max: 1_000_000_000 }));

test('cell text sums like the cells themselves', () => {
  fc.assert(
    fc.property(fc.array(cell, { maxLength: 300 }), fc.array(cell, { maxLength: 50 }), (first, second) => {
      const expected = new Map<number, number>();
      for (const [bucket, count] of [...first, ...second]) expected.set(bucket, (expected.get(bucket) ?? 0) + count);
      const counts = new Map<number, number>();
      // Two rows for the same series bucket, as the edge minutes and a quarter give.
      for (const cells of [first, second]) addCellText(counts, cells.map(([bucket, count]) => `${bucket}:${count}`).join(','));
      assert.deepEqual(
        [...counts].sort((a, b) => a[0] - b[0]),
        [...expected].sort((a, b) => a[0] - b[0]),
      );
    }),
  );
});

test('an empty aggregate (no cells) adds nothing', () => {
  const counts = new Map<number, number>();
  addCellText(counts, '');
  assert.equal(counts.size, 0);
});
