// GET /api/v1/stats?split=version (or version=…): each version's boundary counts, deadlocks,
// renegotiations, exact refusal latency and series over the range. The rows come from
// lib/store/version-stats.ts at the rollups' anchors, so with no version= the entries add up to the
// response's totals (tests/integration/stats-by-version.test.ts holds that).
import type { Db } from '@/lib/db/client';
import type { TVersionSplit } from '@/lib/contract/api/stats';
import { toIsoMs } from '@/lib/contract/timestamp';
import { exactSummary, type CountedValue } from '@/lib/metrics/percentiles';
import { versionCounts, versionRefusalLatencies, type VersionStatsRange } from '@/lib/store/version-stats';
import { bucketStarts } from '@/lib/time/buckets';

const SERIES_COUNTERS = ['boundary', 'refused', 'naiveResumes', 'deadlocks', 'renegotiations'] as const;

/** Most boundary entries first, then most deadlocks; the version-less entry after named ones on a tie. */
const byWeight = (a: TVersionSplit, b: TVersionSplit) =>
  b.boundary - a.boundary || b.deadlocks - a.deadlocks || (a.version ?? '\uffff').localeCompare(b.version ?? '\uffff');

export async function splitByVersion(db: Pick<Db, 'sql'>, r: VersionStatsRange): Promise<TVersionSplit[]> {
  const [counts, latencies] = await Promise.all([versionCounts(db.sql, r), versionRefusalLatencies(db.sql, r)]);
  const starts = bucketStarts(r.fromMs, r.toMs, r.bucketMs);
  const index = new Map(starts.map((t, i) => [t, i]));
  const out = new Map<string | null, TVersionSplit>();
  const entry = (version: string | null): TVersionSplit => {
    let e = out.get(version);
    if (!e) {
      e = {
        version,
        sessions: 0,
        boundary: 0,
        refused: 0,
        naiveResumes: 0,
        dualNegotiations: 0,
        burnedTokenReuses: 0,
        deadlocks: 0,
        ongoingDeadlocks: 0,
        renegotiations: 0,
        refusalLatencyMs: { count: 0, min: null, p50: null, p95: null, p99: null, max: null },
        series: starts.map((t) => ({ t: toIsoMs(t), boundary: 0, refused: 0, naiveResumes: 0, deadlocks: 0, renegotiations: 0 })),
      };
      out.set(version, e);
    }
    return e;
  };
  for (const row of counts) {
    const e = entry(row.version);
    const n = Number(row.n);
    // Counted among the unended ones already: only no longer ongoing.
    if (row.k === 'unreportedDeadlocks') {
      e.ongoingDeadlocks -= n;
      continue;
    }
    // Ongoing deadlocks are deadlocks too (as in the totals), and are also reported on their own.
    const key = row.k === 'ongoingDeadlocks' ? 'deadlocks' : row.k;
    e[key] += n;
    if (row.k === 'ongoingDeadlocks') e.ongoingDeadlocks += n;
    const cell = e.series[index.get(Number(row.b) * r.bucketMs) ?? -1];
    if (cell && (SERIES_COUNTERS as readonly string[]).includes(key)) cell[key as (typeof SERIES_COUNTERS)[number]] += n;
  }
  const counted = new Map<string | null, CountedValue[]>();
  for (const row of latencies) {
    const list = counted.get(row.version) ?? [];
    list.push({ value: Number(row.value), count: Number(row.count) });
    counted.set(row.version, list);
  }
  for (const [version, list] of counted) entry(version).refusalLatencyMs = exactSummary(list);
  return [...out.values()].sort(byWeight);
}
