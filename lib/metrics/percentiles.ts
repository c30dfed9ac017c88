/**
 * Nearest-rank percentiles: for n ascending values and 0 < p ≤ 100 the
 * p-th percentile is the value at 1-based rank ⌈p/100 · n⌉; p = 0 gives the
 * minimum. The result is always an observed value (never interpolated), which
 * keeps latency percentiles honest for the small samples a dashboard sees.
 */

export interface LatencySummary {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

/**
 * @param sortedValues ascending, finite numbers (not checked, for speed in rollups).
 * @param p percentile in [0, 100].
 * @returns the nearest-rank value, or null for an empty input.
 */
export function percentile(sortedValues: readonly number[], p: number): number | null {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile p must be in [0, 100], got ${p}`);
  const n = sortedValues.length;
  if (n === 0) return null;
  // p * n first: (p / 100) * n can land just above an integer (7/100*100 = 7.000…01).
  const rank = Math.max(1, Math.ceil((p * n) / 100));
  return sortedValues[Math.min(rank, n) - 1];
}

/** Summary of unsorted latencies; null/undefined and non-finite values are ignored (a missing latency is not a zero). */
export function summarizeLatencies(values: readonly (number | null | undefined)[]): LatencySummary {
  const sorted = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? null : sorted[sorted.length - 1],
  };
}

/** A latency value and how many times it was observed (what `GROUP BY value` returns). */
export interface CountedValue {
  value: number;
  count: number;
}

/**
 * The same nearest-rank summary over counted values, so a database can return one row per
 * distinct latency instead of one per session: exact, and far fewer rows at large sizes.
 */
export function summarizeCountedLatencies(counted: readonly CountedValue[]): LatencySummary {
  const sorted = counted.filter((c) => Number.isFinite(c.value) && c.count > 0).sort((a, b) => a.value - b.value);
  return summarizeAscending(
    sorted,
    (c) => c.count,
    (c) => c.value,
  );
}

const SUMMARY_PERCENTILES = [50, 95, 99] as const;

/**
 * The nearest-rank summary of items already in ascending order of value, each counted `countOf`
 * (> 0) times: one walk, and `valueOf` only for the items picked. The histogram read uses it with
 * bucket numbers, whose values it computes only for the picks (latency-histogram.ts).
 */
export function summarizeAscending<T>(sorted: readonly T[], countOf: (item: T) => number, valueOf: (item: T) => number): LatencySummary {
  let n = 0;
  for (const item of sorted) n += countOf(item);
  if (n === 0) return { count: 0, p50: null, p95: null, p99: null, max: null };
  // p * n first, as in percentile().
  const ranks = SUMMARY_PERCENTILES.map((p) => Math.max(1, Math.ceil((p * n) / 100)));
  const picked: number[] = [];
  let seen = 0;
  for (const item of sorted) {
    seen += countOf(item);
    while (picked.length < ranks.length && seen >= ranks[picked.length]) picked.push(valueOf(item));
    if (picked.length === ranks.length) break;
  }
  const max = valueOf(sorted[sorted.length - 1]);
  return { count: n, p50: picked[0], p95: picked[1], p99: picked[2], max };
}

/** A latency summary with its exact min (the stats API's shape). */
export type StatsLatency = LatencySummary & { min: number | null };

/** Exact counted values → their summary with min. */
export function exactSummary(counted: readonly CountedValue[]): StatsLatency {
  let min: number | null = null;
  for (const c of counted) if (c.count > 0 && Number.isFinite(c.value) && (min === null || c.value < min)) min = c.value;
  return { ...summarizeCountedLatencies(counted), min };
}
