// GET /api/v1/stats. Definitions (all over [from, to), minute-aligned):
// - counts come from Rollup rows: each counter sits at the minute of its anchor (sessions at
//   the first event, refused/naiveResumes at the boundary answer, renegotiations at the
//   successor's session.opened, drops and events at their event time, ended deadlocks at
//   their start). The Event table is never scanned.
// - ongoing deadlocks (unended naive resumes older than the threshold by the reader's clock)
//   that STARTED in range are added from Session via the deadlockStartedAt index; their idle
//   time counts up to now.
// - the refusal latency histogram is a sum of the rollups' per-bucket counters.
// - deadLetters counts what ingest refused (DeadLetter rows received in range).
// - resumption health sums the rollups' resumption counters, kept at the minute of each session's
//   last event (so a range takes the sessions whose last event falls in it; probe sessions are
//   left out like from every rollup counter).
// - counters of whole quarter hours come from RollupQuarter, the minutes at the edges from Rollup
//   (lib/store/rollups.ts rollupBucketSums): a day is ~100 cells per server, at any table size.
// - refusal and renegotiation latency percentiles (nearest rank) are over the sessions whose
//   refusedAt / successorOpenedAt falls in range, and per series bucket over those whose
//   refusedAt / successorOpenedAt falls in the bucket. The rule (EXACT_MAX_SAMPLES): when the range's
//   rollups count at most 2,000 refusals (renegotiations), that metric is exact, from Session rows
//   through the covering indexes (cheap: bounded by the rule); above it, it comes from the summed
//   log-scale histograms, each figure within 2 % of the exact one (lib/metrics/latency-histogram.ts):
//   for all servers, whole quarter hours from LatencyHistogramQuarter (no server column, so a day is
//   at most 96 cells per bucket in use, however dense the sessions) and the edge minutes from
//   LatencyHistogram; for one server, its per-minute LatencyHistogram cells. The response says
//   which (`percentiles`).
import type { Db } from '@/lib/db/client';
import type { TBucketLatency, TPercentileMethod, TServerSplit, TStatsCounts, TStatsResponse } from '@/lib/contract/api/stats';
import { toIsoMs } from '@/lib/contract/timestamp';
import { exactSummary, type CountedValue, type LatencySummary, type StatsLatency } from '@/lib/metrics/percentiles';
import { HISTOGRAM_RELATIVE_ERROR, summarizeBucketCounts, type LatencyMetric } from '@/lib/metrics/latency-histogram';
import { histogramSums, rollupBucketSums, type BucketRow, type HistogramCells, type HistogramExtents } from '@/lib/store/rollups';
import { RESUMPTION_COLUMNS, type RollupColumn } from '@/lib/metrics/rollup-contributions';
import { REFUSAL_HISTOGRAM_COLUMNS, refusalHistogramBuckets } from '@/lib/metrics/refusal-histogram';
import { bucketStarts } from '@/lib/time/buckets';
import { countDeadLetters } from '@/lib/store/dead-letters';
import { countRejections } from '@/lib/store/ingest-rejections';
import {
  exactLatencyRows,
  lastDeadlockStarts,
  nextDeadlockCandidate,
  ongoingDeadlocks,
  stuckDeadlocks,
  type LatencyRow,
  type StuckDeadlockRow,
} from '@/lib/store/session-stats';
import type { TimeRange } from './time-range';
import { splitByVersion } from './stats-by-version';
import { endUnreportedUpTo } from '@/lib/boundary/deadlock-as-of';
import { NO_RESUMPTION } from '@/lib/store/resumption-counts';

export interface StatsQuery {
  range: TimeRange;
  bucketMs: number;
  server: string | null;
  /** Add byServer (split=server). */
  splitByServer?: boolean;
  /** Add byVersion (split=version), of these versions only when any are named (version=). */
  splitByVersion?: { versions: readonly string[] };
  nowMs: number;
  thresholdMs: number;
  /** DOORWATCH_DEADLOCK_MAX_MS: older unended deadlocks are "end unreported", not ongoing (0: none is). */
  maxMs: number;
}

/** Rollup column → response counter. */
const COUNTERS = [
  ['events', 'events'],
  ['sessions', 'sessions'],
  ['drops', 'drops'],
  ['boundary', 'boundary'],
  ['refused', 'refused'],
  ['naiveResumes', 'naiveResumes'],
  ['dualNegotiations', 'dualNegotiations'],
  ['burnedReuses', 'burnedTokenReuses'],
  ['deadlocks', 'deadlocks'],
  ['renegotiations', 'renegotiations'],
] as const;

/**
 * (bucket, value, count) rows → the counted values per bucket start and, merged per value, over
 * the whole range. Drivers may hand back BIGINT/COUNT as bigint or string: normalised here.
 */
export function splitLatencyRows(
  rows: readonly LatencyRow[],
  bucketMs: number,
): { byBucket: Map<number, CountedValue[]>; total: CountedValue[] } {
  const byBucket = new Map<number, CountedValue[]>();
  const merged = new Map<number, number>();
  for (const r of rows) {
    const t = Number(r.b) * bucketMs;
    const value = Number(r.value);
    const count = Number(r.count);
    let cell = byBucket.get(t);
    if (!cell) byBucket.set(t, (cell = []));
    cell.push({ value, count });
    merged.set(value, (merged.get(value) ?? 0) + count);
  }
  return { byBucket, total: [...merged].map(([value, count]) => ({ value, count })) };
}

/**
 * A histogram summary with the cells' exact extent: min and max are the observed ones, and the
 * bucket-valued percentiles are kept inside them (each stays within the relative error, and a
 * p99 above the slowest refusal would contradict it).
 */
function withExtent(s: LatencySummary, extent: [number, number] | undefined): StatsLatency {
  if (s.count === 0 || !extent) return { ...s, min: null };
  const [min, max] = extent;
  const clamp = (v: number | null) => (v === null ? null : Math.min(max, Math.max(min, v)));
  return { count: s.count, min, p50: clamp(s.p50), p95: clamp(s.p95), p99: clamp(s.p99), max };
}

/** Per-bucket summary: count, min, p50, p95, max (nulls when the bucket has none). */
export function bucketLatency(counted: readonly CountedValue[] | undefined): TBucketLatency {
  const { count, min, p50, p95, max } = exactSummary(counted ?? []);
  return { count, min, p50, p95, max };
}

/**
 * Above this many samples in range (the rollups' refused / renegotiations counters, known before
 * any percentile is read), a metric's percentiles come from the histograms. Below it the exact
 * read is a few ms through the covering indexes, so exact answers cost nothing noticeable.
 */
export const EXACT_MAX_SAMPLES = 2_000;

/** One metric's percentiles: the range's summary and each series bucket's, by bucket start. */
interface LatencyAnswer {
  total: StatsLatency;
  byBucket: Map<number, TBucketLatency>;
  method: TPercentileMethod;
}

function exactAnswer(rows: readonly LatencyRow[], bucketMs: number): LatencyAnswer {
  const split = splitLatencyRows(rows, bucketMs);
  const byBucket = new Map<number, TBucketLatency>();
  for (const [t, counted] of split.byBucket) byBucket.set(t, bucketLatency(counted));
  return { total: exactSummary(split.total), byBucket, method: { method: 'exact', relativeError: 0 } };
}

function histogramAnswer(cells: HistogramCells, extents: HistogramExtents, bucketMs: number): LatencyAnswer {
  const byBucket = new Map<number, TBucketLatency>();
  const total = new Map<number, number>();
  let extent: [number, number] | undefined;
  for (const [b, counts] of cells) {
    const e = extents.get(b);
    const { count, min, p50, p95, max } = withExtent(summarizeBucketCounts(counts), e);
    byBucket.set(b * bucketMs, { count, min, p50, p95, max });
    for (const [bucket, count] of counts) total.set(bucket, (total.get(bucket) ?? 0) + count);
    if (e) extent = extent ? [Math.min(extent[0], e[0]), Math.max(extent[1], e[1])] : e;
  }
  return {
    total: withExtent(summarizeBucketCounts(total), extent),
    byBucket,
    method: { method: 'approximate', relativeError: HISTOGRAM_RELATIVE_ERROR },
  };
}

const NO_LATENCY: TBucketLatency = { count: 0, min: null, p50: null, p95: null, max: null };

const emptyCounts = (): TStatsCounts => ({
  events: 0,
  sessions: 0,
  drops: 0,
  boundary: 0,
  refused: 0,
  naiveResumes: 0,
  dualNegotiations: 0,
  burnedTokenReuses: 0,
  deadlocks: 0,
  renegotiations: 0,
});

export async function computeStats(db: Pick<Db, 'sql'>, q: StatsQuery): Promise<TStatsResponse> {
  const { fromMs, toMs } = q.range;
  const sessions = {
    fromMs,
    toMs,
    server: q.server,
    cutoffMs: q.nowMs - q.thresholdMs,
    unreportedUpTo: endUnreportedUpTo(q.nowMs, q.maxMs),
  };
  const rollupCols: RollupColumn[] = [
    ...COUNTERS.map(([c]) => c),
    'deadlockIdleMs',
    'renegLe200ms',
    ...REFUSAL_HISTOGRAM_COLUMNS,
    ...RESUMPTION_COLUMNS,
  ];

  // The reads below do not depend on each other: issued together, so on PostgreSQL they run on
  // several pooled connections at once and the overview waits for the slowest, not for their sum
  // (better-sqlite3 answers each synchronously, so SQLite is unchanged). They were never one snapshot.
  const [bucketRows, ongoingRows, stuckRows, firstCandidate, deadLetters, rejectedRequests] = await Promise.all([
    // Per-bucket rollup sums (the totals are their sum: bucket starts partition the range).
    // With split=server grouped by server too: the same rows give the totals and each server's share.
    rollupBucketSums(db.sql, { fromMs, toMs, bucketMs: q.bucketMs, server: q.server, byServer: q.splitByServer === true }, rollupCols),
    // Ongoing deadlocks that started in range: unended and at least `threshold` old by our clock.
    ongoingDeadlocks(db.sql, { ...sessions, bucketMs: q.bucketMs }),
    // Stuck now, also those that began before the range (the alarm's "stuck now"): same index.
    stuckDeadlocks(db.sql, sessions),
    // The next candidate to become an ongoing deadlock: no event marks that moment, so the answer
    // says when it comes (the dashboard refetches then). Same index, a range of one threshold.
    nextDeadlockCandidate(db.sql, sessions),
    // What senders got wrong in range.
    countDeadLetters(db.sql, { server: q.server, fromMs, toMs }),
    countRejections(db.sql, { fromMs, toMs, server: q.server }),
  ]);

  const resumption = { ...NO_RESUMPTION };
  const empty = emptyCounts;
  const byBucket = new Map<number, TStatsCounts>();
  for (const t of bucketStarts(fromMs, toMs, q.bucketMs)) byBucket.set(t, empty());
  const totals = empty();
  let idleMs = 0;
  let under200 = 0;
  const histogram = REFUSAL_HISTOGRAM_COLUMNS.map(() => 0);
  for (const row of bucketRows) {
    const cell = byBucket.get(Number(row.b) * q.bucketMs);
    for (const [col, key] of COUNTERS) {
      const v = Number(row[col] ?? 0);
      totals[key] += v;
      if (cell) cell[key] += v;
    }
    idleMs += Number(row.deadlockIdleMs ?? 0);
    under200 += Number(row.renegLe200ms ?? 0);
    REFUSAL_HISTOGRAM_COLUMNS.forEach((col, i) => (histogram[i] += Number(row[col] ?? 0)));
    for (const col of RESUMPTION_COLUMNS) resumption[col] += Number(row[col] ?? 0);
  }
  let ongoing = 0;
  let unreported = 0;
  for (const row of ongoingRows) {
    const n = Number(row.n);
    const gone = Number(row.unreported);
    ongoing += n - gone;
    unreported += gone;
    // An ongoing wait has lasted until now; one whose end went unreported, the maximum (its known length).
    idleMs += (n - gone) * q.nowMs - Number(row.startSum) + gone * q.maxMs;
    const cell = byBucket.get(Number(row.b) * q.bucketMs);
    if (cell) cell.deadlocks += n;
  }

  const stuckNow = stuckRows.reduce((n, r) => n + Number(r.n), 0);
  const stuckSince = stuckRows.length === 0 ? null : Math.min(...stuckRows.map((r) => Number(r.first)));
  // `ongoing` changes by the clock alone when the next candidate becomes a deadlock, and when the
  // oldest client stuck now passes the maximum: the dashboard asks again at the earlier of the two.
  const clockChanges = [
    ...(firstCandidate === null ? [] : [firstCandidate + q.thresholdMs]),
    ...(stuckSince === null || q.maxMs <= 0 ? [] : [stuckSince + q.maxMs]),
  ];

  // The percentile reads need the totals (exact or histogram); the split's read does not wait for them.
  const [byServer, byVersion, { refusals, renegs }] = await Promise.all([
    q.splitByServer ? splitByServer(db, q, bucketRows, ongoingRows, stuckRows) : undefined,
    q.splitByVersion ? splitByVersion(db, { ...sessions, bucketMs: q.bucketMs, versions: q.splitByVersion.versions }) : undefined,
    latencyPercentiles(db, q, { refusal: totals.refused, renegotiation: totals.renegotiations }),
  ]);
  const reneg = renegs.total;
  return {
    range: { from: toIsoMs(fromMs), to: toIsoMs(toMs), fromInput: q.range.fromInput, toInput: q.range.toInput },
    server: q.server,
    now: toIsoMs(q.nowMs),
    deadlockThresholdMs: q.thresholdMs,
    bucketMs: q.bucketMs,
    events: totals.events,
    sessions: totals.sessions,
    drops: totals.drops,
    boundary: totals.boundary,
    refused: totals.refused,
    naiveResumes: totals.naiveResumes,
    dualNegotiations: totals.dualNegotiations,
    burnedTokenReuses: totals.burnedTokenReuses,
    deadlocks: {
      total: totals.deadlocks + ongoing + unreported,
      ongoing,
      unreported,
      stuckNow,
      stuckSince: stuckSince === null ? null : toIsoMs(stuckSince),
      idleMs,
      nextOngoingAt: clockChanges.length === 0 ? null : toIsoMs(Math.min(...clockChanges)),
    },
    refusalLatencyMs: refusals.total,
    percentiles: { refusal: refusals.method, renegotiation: renegs.method },
    renegotiations: {
      count: totals.renegotiations,
      rate: totals.drops === 0 ? null : totals.renegotiations / totals.drops,
      latencyMs: { min: reneg.min, p50: reneg.p50, p95: reneg.p95, max: reneg.max },
      under200ms: under200,
    },
    refusalLatencyHistogram: refusalHistogramBuckets(histogram),
    deadLetters,
    resumption,
    rejectedRequests,
    series: [...byBucket].map(([t, c]) => ({
      t: toIsoMs(t),
      ...c,
      refusalLatencyMs: refusals.byBucket.get(t) ?? NO_LATENCY,
      renegotiationLatencyMs: renegs.byBucket.get(t) ?? NO_LATENCY,
    })),
    ...(byServer ? { byServer } : {}),
    ...(byVersion ? { byVersion } : {}),
  };
}

/** Refusal and renegotiation percentiles, each exact or from the histograms by EXACT_MAX_SAMPLES. */
async function latencyPercentiles(
  db: Pick<Db, 'sql'>,
  q: StatsQuery,
  counted: Record<LatencyMetric, number>,
): Promise<{ refusals: LatencyAnswer; renegs: LatencyAnswer }> {
  const { fromMs, toMs } = q.range;
  const exact = (m: LatencyMetric) => counted[m] <= EXACT_MAX_SAMPLES;
  const approximate = (['refusal', 'renegotiation'] as const).filter((m) => !exact(m));
  const exactRows = (m: LatencyMetric) => exactLatencyRows(db.sql, m, { fromMs, toMs, server: q.server, bucketMs: q.bucketMs });
  // Exact: one row per (bucket, distinct latency), not one per session: latencies are whole
  // milliseconds. The range totals are the same rows merged per value (bucket starts partition the range).
  // The three reads are independent, so they are issued together (see computeStats).
  const [hist, exactRefusals, exactRenegs] = await Promise.all([
    histogramSums(db.sql, { fromMs, toMs, bucketMs: q.bucketMs, server: q.server }, approximate),
    exact('refusal') ? exactRows('refusal') : null,
    exact('renegotiation') ? exactRows('renegotiation') : null,
  ]);
  const answer = (m: LatencyMetric, rows: LatencyRow[] | null) =>
    rows ? exactAnswer(rows, q.bucketMs) : histogramAnswer(hist[m], hist.extents[m], q.bucketMs);
  const refusals = answer('refusal', exactRefusals);
  const renegs = answer('renegotiation', exactRenegs);
  return { refusals, renegs };
}

/** Each server's totals and boundary/deadlock series from the rows computeStats already read. */
async function splitByServer(
  db: Pick<Db, 'sql'>,
  q: StatsQuery,
  bucketRows: readonly BucketRow[],
  ongoingRows: readonly { b: number; server: string; n: number; unreported: number }[],
  stuckRows: readonly StuckDeadlockRow[],
): Promise<TServerSplit[]> {
  const { fromMs, toMs } = q.range;
  const starts = bucketStarts(fromMs, toMs, q.bucketMs);
  const index = new Map(starts.map((t, i) => [t, i]));
  const out = new Map<string, TServerSplit>();
  const entry = (server: string) => {
    let e = out.get(server);
    if (!e) {
      e = {
        server,
        ...emptyCounts(),
        ongoingDeadlocks: 0,
        stuckNow: 0,
        stuckSince: null,
        lastDeadlockAt: null,
        series: starts.map((t) => ({ t: toIsoMs(t), boundary: 0, refused: 0, naiveResumes: 0, deadlocks: 0, renegotiations: 0 })),
      };
      out.set(server, e);
    }
    return e;
  };
  for (const row of bucketRows) {
    const e = entry(String(row.server));
    for (const [col, key] of COUNTERS) e[key] += Number(row[col] ?? 0);
    const cell = e.series[index.get(Number(row.b) * q.bucketMs) ?? -1];
    if (cell) {
      cell.boundary += Number(row.boundary ?? 0);
      cell.refused += Number(row.refused ?? 0);
      cell.naiveResumes += Number(row.naiveResumes ?? 0);
      cell.deadlocks += Number(row.deadlocks ?? 0);
      cell.renegotiations += Number(row.renegotiations ?? 0);
    }
  }
  for (const row of ongoingRows) {
    const e = entry(String(row.server));
    const n = Number(row.n);
    e.ongoingDeadlocks += n - Number(row.unreported);
    e.deadlocks += n;
    const cell = e.series[index.get(Number(row.b) * q.bucketMs) ?? -1];
    if (cell) cell.deadlocks += n;
  }
  // A server stuck since before the range has an entry too, though nothing of it happened in range.
  for (const row of stuckRows) {
    const e = entry(String(row.server));
    e.stuckNow += Number(row.n);
    e.stuckSince = toIsoMs(Number(row.first));
  }
  // The newest deadlock start per server ("last deadlock 25 s ago on demo-us-1"), from the deadlockStartedAt index.
  const lastRows = await lastDeadlockStarts(db.sql, { fromMs, toMs, server: q.server, cutoffMs: q.nowMs - q.thresholdMs });
  for (const r of lastRows) if (r.last !== null) entry(String(r.server)).lastDeadlockAt = toIsoMs(Number(r.last));
  return [...out.values()].sort((a, b) => b.boundary - a.boundary || b.deadlocks - a.deadlocks || a.server.localeCompare(b.server));
}
