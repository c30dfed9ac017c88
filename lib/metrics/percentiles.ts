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
  const n = sorted.reduce((sum, c) => sum + c.count, 0);
  const at = (p: number): number | null => {
    if (n === 0) return null;
    const rank = Math.max(1, Math.ceil((p * n) / 100));
    let seen = 0;
    for (const c of sorted) {
      seen += c.count;
      if (seen >= rank) return c.value;
    }
    return sorted[sorted.length - 1].value;
  };
  return { count: n, p50: at(50), p95: at(95), p99: at(99), max: n === 0 ? null : sorted[sorted.length - 1].value };
}
