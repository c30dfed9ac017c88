// The refusal-latency histogram, kept as one counter column per bucket in the per-minute
// rollups: the overview's histogram is then a sum over rollup rows, like every other count.
// Buckets are (lower, upper] in ms, as Prometheus's `le` (≤): a refusal of exactly 50 ms counts
// under the 50 ms edge. The first bucket takes everything ≤ 10 ms; the last one is open-ended (> 5000).
import type { THistogramBucket } from '@/lib/contract/api/stats';

export const REFUSAL_HISTOGRAM_EDGES = [10, 25, 50, 100, 200, 500, 1000, 2000, 5000] as const;

type Edge = (typeof REFUSAL_HISTOGRAM_EDGES)[number];
export type RefusalHistogramColumn = `refusedLe${Edge}ms` | 'refusedGt5000ms';

/** Rollup column per bucket, in bucket order. */
export const REFUSAL_HISTOGRAM_COLUMNS: readonly RefusalHistogramColumn[] = [
  ...REFUSAL_HISTOGRAM_EDGES.map((e) => `refusedLe${e}ms` as const),
  'refusedGt5000ms', // the last edge
];

export function refusalHistogramIndex(latencyMs: number): number {
  const i = REFUSAL_HISTOGRAM_EDGES.findIndex((e) => latencyMs <= e);
  return i < 0 ? REFUSAL_HISTOGRAM_EDGES.length : i;
}

export const refusalHistogramColumn = (latencyMs: number): RefusalHistogramColumn =>
  REFUSAL_HISTOGRAM_COLUMNS[refusalHistogramIndex(latencyMs)];

/** Counts per bucket (in column order) → the API's buckets with their bounds (fromMs exclusive, toMs inclusive). */
export function refusalHistogramBuckets(counts: readonly number[]): THistogramBucket[] {
  return REFUSAL_HISTOGRAM_COLUMNS.map((_, i) => ({
    fromMs: i === 0 ? 0 : REFUSAL_HISTOGRAM_EDGES[i - 1],
    toMs: i < REFUSAL_HISTOGRAM_EDGES.length ? REFUSAL_HISTOGRAM_EDGES[i] : null,
    count: counts[i] ?? 0,
  }));
}
