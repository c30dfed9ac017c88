// Fine log-scale latency histograms, kept per server and minute beside the rollup counters
// ("LatencyHistogram"), so the overview's percentiles are a sum over a range's histogram cells
// instead of a read of every session in range.
//
// Bucket k ≥ 0 holds the whole milliseconds v with γ^(k−1) < v ≤ γ^k, γ = (1 + α) / (1 − α).
// Reporting 2γ^k / (γ + 1) for any value of bucket k is off by at most α = 2 % of the true value
// (the DDSketch bound); where a bucket holds one whole millisecond (all values below ~25 ms) the
// value is reported exactly. 0 ms has its own bucket (−1); negative latencies (renegotiation across
// servers with clock skew) mirror the positive buckets. The nearest-rank percentile of the counted
// buckets is then within α of the exact nearest-rank percentile, because buckets keep the order of
// values: the rank falls in the bucket that holds the exact answer.
import { summarizeAscending, type LatencySummary } from './percentiles';

/** The relative error bound of a histogram percentile (see above). */
export const HISTOGRAM_RELATIVE_ERROR = 0.02;
export const HISTOGRAM_RATIO = (1 + HISTOGRAM_RELATIVE_ERROR) / (1 - HISTOGRAM_RELATIVE_ERROR);

/** The latencies kept as histograms: refusal (at refusedAt) and renegotiation (at successorOpenedAt). */
export const LATENCY_METRICS = ['refusal', 'renegotiation'] as const;
export type LatencyMetric = (typeof LATENCY_METRICS)[number];

/** The key of one histogram counter in a rollup delta: `h:<metric>:<bucket>`. */
export type HistogramKey = `h:${LatencyMetric}:${number}`;
export const histogramKey = (metric: LatencyMetric, bucket: number): HistogramKey => `h:${metric}:${bucket}`;
export function parseHistogramKey(key: string): { metric: LatencyMetric; bucket: number } | null {
  const m = /^h:(refusal|renegotiation):(-?\d+)$/.exec(key);
  return m ? { metric: m[1] as LatencyMetric, bucket: Number(m[2]) } : null;
}

/**
 * Integer upper bound of each positive bucket: ⌊γ^k⌋, up to the largest safe integer. Integers
 * compare exactly, in JavaScript and in SQL (the backfill migration carries the same table).
 */
export const HISTOGRAM_UPPER_BOUNDS: readonly number[] = (() => {
  const out: number[] = [];
  for (let k = 0; ; k++) {
    const hi = Math.floor(HISTOGRAM_RATIO ** k);
    if (hi >= Number.MAX_SAFE_INTEGER) {
      out.push(Number.MAX_SAFE_INTEGER);
      return out;
    }
    out.push(hi);
  }
})();

/** Bucket of a positive whole number of ms: the first k with v ≤ ⌊γ^k⌋ (binary search). */
function positiveBucket(v: number): number {
  let lo = 0;
  let hi = HISTOGRAM_UPPER_BOUNDS.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= HISTOGRAM_UPPER_BOUNDS[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The bucket of a latency in ms (rounded to a whole ms: latencies are differences of ms timestamps). */
export function histogramBucket(latencyMs: number): number {
  const v = Math.round(latencyMs);
  if (v === 0) return -1;
  return v > 0 ? positiveBucket(v) : -2 - positiveBucket(-v);
}

/** The whole milliseconds a bucket holds, [lowest, highest] (empty when lowest > highest). */
export function histogramBucketRange(bucket: number): [number, number] {
  if (bucket === -1) return [0, 0];
  const positive = (k: number): [number, number] => [k === 0 ? 1 : HISTOGRAM_UPPER_BOUNDS[k - 1] + 1, HISTOGRAM_UPPER_BOUNDS[k]];
  if (bucket >= 0) return positive(bucket);
  const [lo, hi] = positive(-2 - bucket);
  return [-hi, -lo];
}

function positiveValue(k: number): number {
  const lo = k === 0 ? 1 : HISTOGRAM_UPPER_BOUNDS[k - 1] + 1;
  const hi = HISTOGRAM_UPPER_BOUNDS[k];
  if (lo >= hi) return hi;
  const mid = (2 * HISTOGRAM_RATIO ** k) / (HISTOGRAM_RATIO + 1);
  return Math.min(hi, Math.max(lo, mid));
}

/** The value reported for a bucket: within HISTOGRAM_RELATIVE_ERROR of every value it holds. */
export function histogramValue(bucket: number): number {
  if (bucket === -1) return 0;
  return bucket >= 0 ? positiveValue(bucket) : -positiveValue(-2 - bucket);
}

/** A bucket and how many latencies it counts (what summing histogram cells over a range returns). */
export interface CountedBucket {
  bucket: number;
  count: number;
}

/**
 * Nearest-rank p50/p95/p99/max over counted buckets, as `summarizeCountedLatencies` does over
 * exact values; each figure is within HISTOGRAM_RELATIVE_ERROR of the exact one. Zero and
 * negative counts (cells a late event emptied) are skipped.
 */
export function summarizeHistogram(counted: readonly CountedBucket[]): LatencySummary {
  const merged = new Map<number, number>();
  for (const c of counted) if (c.count !== 0) merged.set(c.bucket, (merged.get(c.bucket) ?? 0) + c.count);
  return summarizeBucketCounts(merged);
}

/**
 * The same summary over bucket → count, merged already. Buckets keep the order of their values, so
 * it sorts bucket numbers and turns only the picked buckets into values: the overview sums a day of
 * histograms at every request, ~100 series buckets × 2 metrics, and this is its inner loop.
 */
export function summarizeBucketCounts(counts: ReadonlyMap<number, number>): LatencySummary {
  const buckets: number[] = [];
  for (const [bucket, count] of counts) if (count > 0) buckets.push(bucket);
  buckets.sort((a, b) => a - b);
  return summarizeAscending(buckets, (bucket) => counts.get(bucket)!, histogramValue);
}
