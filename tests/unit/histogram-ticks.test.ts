// The refusal histogram's axis: each bar is labelled by the latency it counts up to (its bucket's
// upper edge, Prometheus's `le`), as the tooltip says; the lower edge put "0" under the ≤ 10 ms bar.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bucketTick } from '@/components/charts/series-legend';
import { REFUSAL_HISTOGRAM_COLUMNS, refusalHistogramBuckets } from '@/lib/metrics/refusal-histogram';

test('each bar is labelled by its upper edge; the open-ended last one by what it exceeds', () => {
  const buckets = refusalHistogramBuckets(REFUSAL_HISTOGRAM_COLUMNS.map(() => 1));
  assert.deepEqual(buckets.map(bucketTick), ['10', '25', '50', '100', '200', '500', '1s', '2s', '5s', '>5s']);
});
